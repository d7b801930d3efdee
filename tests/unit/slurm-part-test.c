/* slurm-part-test.c: the partitions the Slurm-named commands read from
 * CONFIG_SHOW, and -p's lists matched against a job's and a node's
 * (client/slurm-part.c). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "client/slurm-part.h"
#include "common/job-req.h"
#include "tests/unit/tap.h"

/* CONFIG_SHOW's reply with these partitions (a JSON object's text). */
static json_t *
t_reply(const char *parts)
{
	char	 text[2048];
	json_t	*r;

	snprintf(text, sizeof text, "{\"ok\":true,\"config\":{\"controller\":"
	    "{},\"scheduler\":{},\"partitions\":%s}}", parts);
	r = json_loads(text, 0, NULL);
	if (r == NULL)
		printf("# bad test JSON: %s\n", text);
	return (r);
}

static void
t_read(void)
{
	struct slurm_parts	 ps;
	const struct slurm_part	*p;
	char			 err[256] = "";

	/* gbatch.conf's order, not the names'. */
	ok(slurm_part_read(&ps, t_reply("{\"long\":{\"nodes\":\"n[1-2]\","
	    "\"default\":false,\"default_time\":86400,\"max_time\":172800,"
	    "\"max_gpus\":0,\"max_nodes\":2,\"accounts\":[],\"tier\":0},"
	    "\"gpu\":{\"nodes\":\"ALL\",\"default\":true,\"default_time\":0,"
	    "\"max_time\":3600,\"max_gpus\":4,\"max_nodes\":0,\"accounts\":"
	    "[\"vip\"],\"tier\":5}}"), err, sizeof err) == 0, "read (%s)",
	    err);
	is_int(ps.n, 2, "two partitions");
	ok(ps.configured, "named by gbatch.conf");
	is_str(ps.v[0].name, "long", "in gbatch.conf's order: long first");
	is_str(ps.v[0].nodes, "n[1-2]", "its nodes as written");
	ok(!ps.v[0].is_default && ps.v[0].default_time == 86400 &&
	    ps.v[0].max_time == 172800 && ps.v[0].max_nodes == 2,
	    "long's limits");
	p = slurm_part_find(&ps, "gpu");
	ok(p == &ps.v[1], "gpu found");
	ok(p != NULL && p->nodes == NULL, "ALL: every node");
	ok(p != NULL && p->is_default && p->max_gpus == 4 && p->tier == 5 &&
	    json_array_size(p->accounts) == 1, "gpu's limits, tier, "
	    "accounts");
	ok(slurm_part_find(&ps, "gp") == NULL, "no partition gp");
	slurm_part_free(&ps);
	ok(ps.n == 0 && ps.reply == NULL, "freed");
	slurm_part_free(&ps);

	/* None: gbatch's one, of every node. */
	ok(slurm_part_read(&ps, t_reply("{}"), err, sizeof err) == 0,
	    "read none");
	ok(ps.n == 1 && !ps.configured && ps.v[0].is_default &&
	    ps.v[0].nodes == NULL && ps.v[0].max_time == 0,
	    "gbatch's one partition");
	is_str(ps.v[0].name, JOB_REQ_PARTITION, "named %s",
	    JOB_REQ_PARTITION);
	slurm_part_free(&ps);
	ok(slurm_part_read(&ps, json_pack("{s:b,s:{}}", "ok", 1, "config"),
	    err, sizeof err) == 0 && ps.n == 1 && !ps.configured,
	    "a gbatchd that sends none: its one partition");
	slurm_part_free(&ps);
	ok(slurm_part_read(&ps, t_reply("[1]"), err, sizeof err) == -1 &&
	    strstr(err, "not an object") != NULL && ps.n == 1,
	    "partitions not an object: refused (%s)", err);
	slurm_part_free(&ps);
}

static void
t_lists(void)
{
	struct slurm_parts	 ps, one;
	json_t			*want;
	char			 err[256] = "";

	ok(slurm_part_listed("gpu,long", "long"), "long in gpu,long");
	ok(slurm_part_listed("gpu,long", "gpu"), "gpu in gpu,long");
	ok(!slurm_part_listed("gpu,long", "gp"), "gp not in gpu,long");
	ok(!slurm_part_listed("gpu,long", "long2"), "long2 not in gpu,long");
	ok(!slurm_part_listed("", "gpu"), "nothing in ''");
	is_str(slurm_part_of_job("gpu"), "gpu", "a job's list as it is");
	is_str(slurm_part_of_job(""), JOB_REQ_PARTITION, "a job from before "
	    "partitions: %s", JOB_REQ_PARTITION);

	want = json_pack("[s,s]", "long", "prio");
	ok(slurm_part_job_in("gpu,long", want), "gpu,long shares long");
	ok(!slurm_part_job_in("gpu", want), "gpu shares none");
	ok(!slurm_part_job_in("", want), "'' (gbatch) shares none");
	ok(slurm_part_job_in("gpu", NULL), "no -p: every job");
	json_decref(want);
	want = json_array();
	ok(slurm_part_job_in("gpu", want), "an empty -p list: every job");
	json_array_append_new(want, json_string(JOB_REQ_PARTITION));
	ok(slurm_part_job_in("", want), "'' is in %s", JOB_REQ_PARTITION);
	json_decref(want);

	(void)slurm_part_read(&ps, t_reply("{\"gpu\":{\"nodes\":\"n1\"},"
	    "\"long\":{}}"), err, sizeof err);
	(void)slurm_part_read(&one, t_reply("{}"), err, sizeof err);
	ok(slurm_part_node_in(&ps, "gpu,long", &ps.v[1]), "n1 in long");
	ok(!slurm_part_node_in(&ps, "long", &ps.v[0]), "n2 not in gpu");
	ok(!slurm_part_node_in(&ps, "", &ps.v[1]), "a node of none: not in "
	    "long");
	ok(slurm_part_node_in(&one, "", &one.v[0]), "without partitions: "
	    "every node in %s", JOB_REQ_PARTITION);

	want = json_pack("[s,s]", "long", "gpu");
	ok(slurm_part_check(&ps, want, err, sizeof err) == 0, "long, gpu: "
	    "known");
	json_array_append_new(want, json_string("gpx"));
	ok(slurm_part_check(&ps, want, err, sizeof err) == -1, "gpx: not");
	is_str(err, "no partition \"gpx\" (the partitions: gpu, long)",
	    "names it and those there are");
	ok(slurm_part_check(&one, want, err, sizeof err) == -1, "long "
	    "without partitions: not");
	is_str(err, "no partition \"long\" (the partitions: gbatch)",
	    "names gbatch's one");
	json_decref(want);
	slurm_part_free(&ps);
	slurm_part_free(&one);
}

int
main(void)
{
	t_read();
	t_lists();
	return (tap_done());
}
