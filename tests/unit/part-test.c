/* part-test.c: partitions (daemon/controller/part.c) as gbatch.conf's
 * partitions group gives them: reading, what is refused and why, the
 * lists jobs give, the limits that take or refuse a job and the time
 * limit it gets, the first partition of a list that takes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/job-req.h"
#include "daemon/common/conf-file.h"
#include "daemon/controller/part.h"
#include "tests/unit/tap.h"

static char	t_dir[] = "/tmp/part-test.XXXXXX";
static char	t_file[256];

static int
t_member(void *settings, const config_setting_t *m, char *err, size_t len)
{
	return (part_read(settings, m, err, len));
}

static int
t_check(void *settings, const config_setting_t *g, char *err, size_t len)
{
	return (part_check(settings, config_setting_source_line(g), err,
	    len));
}

/* As conf.c reads the group. */
static const struct conf_file_group t_groups[] = {
	{ "partitions", NULL, 0, t_check, t_member },
};

/* Reads text into ps (cleared first); conf_file_read's value, err. */
static int
t_read(const char *text, struct parts *ps, char *err, size_t len)
{
	FILE	*f;

	if ((f = fopen(t_file, "w")) == NULL) {
		perror(t_file);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	part_clear(ps);
	err[0] = '\0';
	return (conf_file_read(t_file, true, t_groups, 1, ps, err, len));
}

static const char t_conf[] =
    "partitions = {\n"
    "  gpu = { nodes = \"n[1-3]\"; max_time = \"1:00:00\";\n"
    "    max_gpus_per_job = 8; };\n"
    "  long = { nodes = \"n[2-4]\"; default = true;\n"
    "    default_time = \"1-00:00:00\"; max_time = 2880; tier = 2; };\n"
    "  vip = { accounts = [\"vision\", \"nlp\"]; max_nodes_per_job = 2; };\n"
    "};\n";

static void
test_read(void)
{
	struct parts		 ps = { 0 };
	const struct part	*p;
	char			 err[512];

	ok(t_read(t_conf, &ps, err, sizeof err) == 0 && ps.n == 3,
	    "three partitions read (%s)", err);
	p = part_find(&ps, "long");
	ok(p != NULL && p->default_time == 86400 && p->max_time == 2880 * 60 &&
	    p->tier == 2 && p->is_default, "long: a day by default, 2880 "
	    "minutes at most, tier 2, the default");
	ok(part_default(&ps) == p, "the default is the one marked so");
	p = part_find(&ps, "gpu");
	ok(p != NULL && p->max_time == 3600 && p->max_gpus == 8 &&
	    part_has_node(p, "n1") && part_has_node(p, "n3") &&
	    !part_has_node(p, "n4"), "gpu: n1 to n3, an hour, 8 GPUs");
	p = part_find(&ps, "vip");
	ok(p != NULL && p->nodes == NULL && part_has_node(p, "anything") &&
	    p->accounts.n == 2, "vip: every node, two accounts");
	ok(part_find(&ps, "nope") == NULL, "no partition nope");
	part_clear(&ps);
	ok(t_read("partitions = { a = { }; b = { }; };\n", &ps, err,
	    sizeof err) == 0 && part_default(&ps) == &ps.v[0],
	    "none marked: the first is the default");
	part_clear(&ps);
}

/* What gbatchd refuses to start with, each naming the line and key. */
static void
test_refused(void)
{
	static const struct {
		const char	*text, *want, *why;
	} t[] = {
		{ "partitions = { gpu = { nodes = \"n[1-\"; }; };\n",
		  "line 1: partitions.gpu.nodes: ", "a bad host list" },
		{ "partitions = { gpu = { max_time = \"3 days\"; }; };\n",
		  "line 1: partitions.gpu.max_time: ", "a bad time" },
		{ "partitions = { gpu = { default_time = 90; max_time = 60; "
		  "}; };\n", "line 1: partitions.gpu: default_time is over "
		  "max_time", "a default over the most" },
		{ "partitions = { gpu = { tier = 300; }; };\n",
		  "line 1: partitions.gpu.tier: ", "a tier over 255" },
		{ "partitions = { gpu = { colour = 1; }; };\n",
		  "line 1: partitions.gpu.colour: unknown key; expected nodes, "
		  "default, ", "an unknown key, with those accepted" },
		{ "partitions = { gpu = 3; };\n", "line 1: partitions.gpu: "
		  "expected a group", "a member that is no group" },
		{ "partitions = { all = { }; };\n", "line 1: partitions.all: "
		  "expected a partition name", "the name all" },
		{ "partitions = { a = { default = true; }; b = { default = "
		  "true; }; };\n", "line 1: partitions: a and b are both the "
		  "default", "two defaults" },
		{ "partitions = { a = { accounts = [\"no way\"]; }; };\n",
		  "line 1: partitions.a.accounts: ", "a bad account name" },
	};
	struct parts	ps = { 0 };
	char		err[512], want[512];
	size_t		i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(want, sizeof want, "%s: %s", t_file, t[i].want);
		ok(t_read(t[i].text, &ps, err, sizeof err) == -1 &&
		    strncmp(err, want, strlen(want)) == 0, "refused: %s (%s)",
		    t[i].why, err);
	}
	part_clear(&ps);
}

static void
test_resolve(void)
{
	struct parts	ps = { 0 }, none = { 0 };
	char		out[256], err[512];

	(void)t_read(t_conf, &ps, err, sizeof err);
	ok(part_resolve(&ps, "", out, sizeof out, err, sizeof err) == 0 &&
	    strcmp(out, "long") == 0, "none asked: the default (%s)", out);
	ok(part_resolve(&ps, "gpu,vip", out, sizeof out, err, sizeof err) ==
	    0 && strcmp(out, "gpu,vip") == 0, "a list, as given");
	ok(part_resolve(&ps, "gpu,nope", out, sizeof out, err, sizeof err) ==
	    -1 && strcmp(err, "partition \"nope\": no such partition; "
	    "expected one of gpu, long, vip") == 0, "an unknown name: %s",
	    err);
	ok(part_resolve(&ps, "gpu,gpu", out, sizeof out, err, sizeof err) ==
	    -1 && strstr(err, "listed twice") != NULL, "a name twice: %s",
	    err);
	ok(part_resolve(&ps, "gpu,", out, sizeof out, err, sizeof err) ==
	    -1, "an empty name: %s", err);
	ok(part_resolve(&none, "", out, sizeof out, err, sizeof err) == 0 &&
	    strcmp(out, JOB_REQ_PARTITION) == 0 &&
	    part_resolve(&none, JOB_REQ_PARTITION, out, sizeof out, err,
	    sizeof err) == 0, "without partitions: the one of every node");
	ok(part_resolve(&none, "gpu", out, sizeof out, err, sizeof err) ==
	    -1 && strstr(err, "no partitions but") != NULL,
	    "without partitions another name is refused: %s", err);
	part_clear(&ps);
}

static void
test_admits(void)
{
	struct parts		 ps = { 0 };
	struct part_ask		 a = { .gpus = 1, .account = "" };
	const struct part	*p;
	enum part_refusal	 why;
	char			 err[512], d[256];

	(void)t_read(t_conf, &ps, err, sizeof err);
	p = part_find(&ps, "gpu");
	a.time_limit = 7200;
	ok(part_admits(p, &a, d, sizeof d) == PART_TIME_LIMIT &&
	    strcmp(d, "the time limit 2:00:00 is over gpu's max_time "
	    "1:00:00") == 0, "over max_time: %s", d);
	a.time_limit = 0;
	ok(part_admits(p, &a, d, sizeof d) == PART_OK &&
	    part_time_limit(p, &a) == 3600, "none given: max_time is its "
	    "limit");
	ok(part_time_limit(part_find(&ps, "long"), &a) == 86400,
	    "none given: default_time first");
	a.gpus = 9;
	ok(part_admits(p, &a, d, sizeof d) == PART_GPU_LIMIT,
	    "over max_gpus_per_job: %s", d);
	a.gpus = 1;
	a.nodes = 3;
	ok(part_admits(part_find(&ps, "vip"), &a, d, sizeof d) ==
	    PART_NODE_LIMIT, "over max_nodes_per_job: %s", d);
	a.nodes = 0;
	ok(part_admits(part_find(&ps, "vip"), &a, d, sizeof d) ==
	    PART_ACCOUNT, "no account: %s", d);
	a.account = "nlp";
	ok(part_admits(part_find(&ps, "vip"), &a, d, sizeof d) == PART_OK,
	    "an account it names");
	a.account = "";
	a.time_limit = 7200;
	ok(part_choose(&ps, "gpu,long", &a, "", &why, err, sizeof err) ==
	    part_find(&ps, "long"), "gpu,long for 2 h: long");
	ok(part_choose(&ps, "gpu,long", &a, "n1", &why, err, sizeof err) ==
	    NULL && why == PART_TIME_LIMIT && strstr(err, "long does not "
	    "hold the nodes n1") != NULL, "with -w n1: none (%s)", err);
	a.time_limit = 60;
	ok(part_choose(&ps, "long,gpu", &a, "n1", &why, err, sizeof err) ==
	    part_find(&ps, "gpu"), "with -w n1: gpu, the one that holds it");
	ok(part_choose(&ps, "gone,other", &a, "", &why, err, sizeof err) ==
	    NULL && why == PART_GONE && strcmp(part_refusal_word(why),
	    "PartitionConfig") == 0, "a list of none that exists: %s",
	    part_refusal_word(why));
	part_clear(&ps);
}

/* A reload compares partitions; a copy is equal. */
static void
test_copy(void)
{
	struct parts	a = { 0 }, b = { 0 };
	char		err[512];

	(void)t_read(t_conf, &a, err, sizeof err);
	part_copy(&b, &a);
	ok(part_equal(&a, &b), "a copy is equal");
	b.v[1].tier = 3;
	ok(!part_equal(&a, &b), "a tier changed is not");
	part_clear(&a);
	part_clear(&b);
}

int
main(void)
{
	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(t_file, sizeof t_file, "%s/gbatch.conf", t_dir);
	test_read();
	test_refused();
	test_resolve();
	test_admits();
	test_copy();
	unlink(t_file);
	rmdir(t_dir);
	return (tap_done());
}
