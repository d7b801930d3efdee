/* node-launch-test.c: decoding JOB_LAUNCH and output patterns
 * (daemon/node). */
#include <signal.h>
#include <stdlib.h>

#include <jansson.h>

#include "common/job-req.h"
#include "daemon/node/node-launch.h"
#include "tests/unit/tap.h"

static json_t *
launch_msg(const char *job)
{
	char	 buf[2048];
	json_t	*msg;

	snprintf(buf, sizeof buf, "{\"type\":310,\"job\":%s}", job);
	msg = json_loads(buf, 0, NULL);
	if (msg == NULL)
		abort();
	return (msg);
}

static void
test_parse(void)
{
	struct node_launch	*l;
	json_t			*msg;
	uint64_t		 id;
	char			 err[256];

	msg = launch_msg("{\"id\":42,\"name\":\"train\",\"user\":\"alice\","
	    "\"uid\":1000,\"gid\":100,\"workdir\":\"/home/alice\","
	    "\"stdout\":\"o-%j\",\"script\":\"#!/bin/sh\\n\","
	    "\"argv\":[\"--lr\",\"0.1\"],\"env\":{\"A\":\"1\"},"
	    "\"gpus\":[0,3],\"time_limit\":60,\"nodelist\":\"n1\","
	    "\"num_nodes\":1,\"node_rank\":0}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL, "a full launch parses (%s)", l == NULL ? err : "ok");
	if (l != NULL) {
		is_int(l->id, 42, "id");
		is_int(l->uid, 1000, "uid");
		is_int(l->ngpus, 2, "two GPUs");
		is_int(l->gpus[1], 3, "second GPU index");
		is_str(l->argv[1], "0.1", "argv kept in order");
		ok(l->argv[2] == NULL, "argv NULL-terminated");
		is_str(l->env[0], "A=1", "env as KEY=VALUE");
		is_str(l->err, "o-%j", "stderr defaults to stdout");
	}
	node_launch_free(l);
	json_decref(msg);

	msg = launch_msg("{\"id\":7,\"user\":\"bob\",\"uid\":1,\"gid\":1,"
	    "\"workdir\":\"relative\",\"script\":\"x\",\"gpus\":[]}");
	ok(node_launch_id(msg, &id) == 0 && id == 7,
	    "the id is found even in a bad launch");
	ok(node_launch_parse(msg, err, sizeof err) == NULL,
	    "a relative workdir is refused");
	is_str(err, "job.workdir: expected an absolute path, got \"relative\"",
	    "the message names the field");
	json_decref(msg);

	msg = launch_msg("{\"id\":7,\"user\":\"bob\",\"uid\":1,\"gid\":1,"
	    "\"workdir\":\"/\",\"script\":\"x\",\"gpus\":[-1]}");
	ok(node_launch_parse(msg, err, sizeof err) == NULL,
	    "a negative GPU index is refused");
	json_decref(msg);

	msg = launch_msg("{\"user\":\"bob\"}");
	ok(node_launch_id(msg, &id) == -1, "no id, no answer");
	json_decref(msg);
}

/* A minimal launch plus the fields in more. */
static json_t *
restart_msg(const char *more)
{
	char	buf[1024];

	snprintf(buf, sizeof buf, "{\"id\":7,\"user\":\"bob\",\"uid\":1,"
	    "\"gid\":1,\"workdir\":\"/w\",\"script\":\"x\",\"gpus\":[0]%s%s}",
	    *more != '\0' ? "," : "", more);
	return (launch_msg(buf));
}

/* Parses a launch that must be refused and checks the message. */
static void
restart_bad(const char *more, const char *want)
{
	struct node_launch	*l;
	json_t			*msg;
	char			 err[256];

	msg = restart_msg(more);
	l = node_launch_parse(msg, err, sizeof err);
	ok(l == NULL, "refused: %s", more);
	if (l == NULL)
		is_str(err, want, "the message names the field");
	node_launch_free(l);
	json_decref(msg);
}

static void
test_restart(void)
{
	struct node_launch	*l;
	json_t			*msg;
	char			 err[256];

	msg = restart_msg("");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL, "a launch without the restart fields parses");
	if (l != NULL) {
		is_int(l->restarts, 0, "restarts defaults to 0");
		is_str(l->ckpt_dir, "", "no ckpt_dir");
		is_int(l->ckpt_signal, SIGUSR1, "ckpt_signal defaults to "
		    "SIGUSR1");
		is_int(l->ckpt_grace, 60, "ckpt_grace defaults to 60 s");
		is_str(l->master_addr, "", "no master_addr");
		is_int(l->master_port, 0, "no master_port");
	}
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("\"restarts\":3,\"ckpt_dir\":\"/ck/7\","
	    "\"ckpt_signal\":12,\"ckpt_grace\":0,\"master_addr\":\"n1\","
	    "\"master_port\":29500");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL, "a launch with every restart field parses (%s)",
	    l == NULL ? err : "ok");
	if (l != NULL) {
		is_int(l->restarts, 3, "restarts");
		is_str(l->ckpt_dir, "/ck/7", "ckpt_dir");
		is_int(l->ckpt_signal, 12, "ckpt_signal");
		is_int(l->ckpt_grace, 0, "a grace of 0 is kept, not defaulted");
		is_str(l->master_addr, "n1", "master_addr");
		is_int(l->master_port, 29500, "master_port");
	}
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("\"ckpt_signal\":64,\"ckpt_grace\":86400,"
	    "\"master_port\":65535");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL, "the largest signal, grace and port are accepted");
	node_launch_free(l);
	json_decref(msg);

	restart_bad("\"restarts\":-1",
	    "job.restarts: expected a whole number from 0 to 2147483647, got -1");
	restart_bad("\"restarts\":\"1\"",
	    "job.restarts: expected a whole number from 0 to 2147483647, got "
	    "\"1\"");
	restart_bad("\"ckpt_signal\":0",
	    "job.ckpt_signal: expected a whole number from 1 to 64, got 0");
	restart_bad("\"ckpt_signal\":65",
	    "job.ckpt_signal: expected a whole number from 1 to 64, got 65");
	restart_bad("\"ckpt_grace\":86401",
	    "job.ckpt_grace: expected a whole number from 0 to 86400, got 86401");
	restart_bad("\"ckpt_grace\":1.5",
	    "job.ckpt_grace: expected a whole number from 0 to 86400, got 1.5");
	restart_bad("\"ckpt_dir\":\"ck\"",
	    "job.ckpt_dir: expected an absolute path, got \"ck\"");
	restart_bad("\"ckpt_dir\":\"\"",
	    "job.ckpt_dir: expected an absolute path, got \"\"");
	restart_bad("\"ckpt_dir\":5", "job.ckpt_dir: expected a string");
	restart_bad("\"master_addr\":\"\"",
	    "job.master_addr: expected a host name or address, got \"\"");
	restart_bad("\"master_port\":0",
	    "job.master_port: expected a whole number from 1 to 65535, got 0");
	restart_bad("\"master_port\":65536",
	    "job.master_port: expected a whole number from 1 to 65535, got "
	    "65536");
}

/* gpu_share: shards of its one GPU, 0 (the GPU whole) to 64. */
static void
test_share(void)
{
	struct node_launch	*l;
	json_t			*msg;
	char			 err[256];

	msg = restart_msg("\"gpu_share\":3");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->gpu_share == 3 && l->ngpus == 1, "3 shards of "
	    "one GPU");
	node_launch_free(l);
	json_decref(msg);
	msg = restart_msg("");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->gpu_share == 0, "none said: the GPU whole");
	node_launch_free(l);
	json_decref(msg);
	restart_bad("\"gpu_share\":65",
	    "job.gpu_share: expected a whole number from 0 to 64, got 65");
	msg = launch_msg("{\"id\":7,\"user\":\"bob\",\"uid\":1,\"gid\":1,"
	    "\"workdir\":\"/w\",\"script\":\"x\",\"gpus\":[0,1],"
	    "\"gpu_share\":2}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l == NULL, "shards of two GPUs are refused");
	if (l == NULL)
		is_str(err, "job.gpu_share: shards are of one GPU; expected "
		    "job.gpus of one GPU with it, got 2", "saying why");
	node_launch_free(l);
	json_decref(msg);
}

/* The members a launch carries from the request take what gbatchd took,
 * no more and no less: each at its row's least and most, and refused one
 * past either (common/job-req.h). A time limit of 365 days is the most;
 * 70 years, which gbatchd once took, is refused. */
static void
test_request_bounds(void)
{
	static const enum job_req	 f[] = { JRQ_TIME_LIMIT, JRQ_CKPT_SIGNAL,
	    JRQ_CKPT_GRACE, JRQ_WARN_SIGNAL, JRQ_WARN_TIME, JRQ_UMASK };
	struct node_launch		*l;
	json_t				*msg;
	char				 more[128], err[256];
	size_t				 i;
	int				 good = 1, bad = 1;

	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		const struct job_req_desc *d = &job_reqs[f[i]];
		int64_t	v[4] = { d->min - 1, d->min, d->max, d->max + 1 };
		int	k;

		for (k = 0; k < 4; k++) {
			if (v[k] < 0)
				continue;
			snprintf(more, sizeof more, "\"%s\":%lld", d->member,
			    (long long)v[k]);
			msg = restart_msg(more);
			l = node_launch_parse(msg, err, sizeof err);
			if ((k == 1 || k == 2) && l == NULL) {
				good = 0;
				printf("# %s: %s\n", more, err);
			}
			if ((k == 0 || k == 3) && l != NULL) {
				bad = 0;
				printf("# %s taken\n", more);
			}
			node_launch_free(l);
			json_decref(msg);
		}
	}
	ok(good, "the request's members are taken at their bounds");
	ok(bad, "and refused one past them");
	is_int(job_reqs[JRQ_TIME_LIMIT].max, 365 * 86400,
	    "a time limit is 365 days at most");
	restart_bad("\"time_limit\":2207520000", "job.time_limit: expected a "
	    "whole number from 0 to 31536000, got 2207520000");
	restart_bad("\"num_nodes\":1025", "job.num_nodes: expected a whole "
	    "number from 0 to 1024, got 1025");
	restart_bad("\"warn_batch\":1", "job.warn_batch: expected true or "
	    "false");
	restart_bad("\"argv\":[\"a\",5]", "job.argv: element 2 is not a "
	    "string");
}

/* The submitter's umask: kept as sent, 077 when a launch has none. */
static void
test_umask(void)
{
	struct node_launch	*l;
	json_t			*msg;
	char			 err[256];

	msg = restart_msg("");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->umask == 077, "a launch without a umask gets 077");
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("\"umask\":18");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->umask == 022, "umask 18 is 022");
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("\"umask\":0");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->umask == 0, "umask 0 is kept, not defaulted");
	node_launch_free(l);
	json_decref(msg);

	restart_bad("\"umask\":512",
	    "job.umask: expected a whole number from 0 to 511, got 512");
	restart_bad("\"umask\":\"077\"",
	    "job.umask: expected a whole number from 0 to 511, got \"077\"");
}

/* An interactive job's streams, and a command without a script. */
static void
test_interactive(void)
{
	struct node_launch	*l;
	json_t			*msg;
	char			 err[256];

	msg = restart_msg("\"interactive\":{\"pty\":true,\"rows\":50,"
	    "\"cols\":132,\"stdin\":true}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->io && l->io_pty && l->io_stdin &&
	    l->io_rows == 50 && l->io_cols == 132,
	    "a terminal of 50 x 132 with the input");
	ok(l != NULL && l->io_fd[0] == -1 && l->io_fd[1] == -1 &&
	    l->io_fd[2] == -1, "no descriptors until gnoded makes them");
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("\"interactive\":{}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && l->io && !l->io_pty && !l->io_stdin &&
	    l->io_rows == 24 && l->io_cols == 80, "pipes, 24 x 80, no input");
	node_launch_free(l);
	json_decref(msg);

	msg = restart_msg("");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && !l->io && l->io_fd[0] == -1, "a batch job relays nothing");
	node_launch_free(l);
	json_decref(msg);

	restart_bad("\"interactive\":true",
	    "job.interactive: expected an object");
	restart_bad("\"interactive\":{\"rows\":0}",
	    "job.interactive.rows: expected a whole number from 1 to 65535, "
	    "got 0");

	msg = launch_msg("{\"id\":7,\"user\":\"bob\",\"uid\":1,\"gid\":1,"
	    "\"workdir\":\"/w\",\"script\":\"\",\"argv\":[\"bash\"],"
	    "\"gpus\":[0]}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l != NULL && *l->script == '\0' && l->argv[0] != NULL,
	    "no script: a command");
	node_launch_free(l);
	json_decref(msg);
	msg = launch_msg("{\"id\":7,\"user\":\"bob\",\"uid\":1,\"gid\":1,"
	    "\"workdir\":\"/w\",\"script\":\"\",\"gpus\":[0]}");
	l = node_launch_parse(msg, err, sizeof err);
	ok(l == NULL, "neither a script nor a command: refused");
	is_str(err, "job.script: expected the script's text, or a command in "
	    "job.argv", "saying what it needs");
	node_launch_free(l);
	json_decref(msg);
}

int
main(void)
{
	test_parse();
	test_share();
	test_request_bounds();
	test_restart();
	test_umask();
	test_interactive();
	return (tap_done());
}
