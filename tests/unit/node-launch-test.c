/* node-launch-test.c: decoding JOB_LAUNCH, output patterns and the node's
 * HOST:PORT parser (daemon/node). */
#include <stdlib.h>

#include <jansson.h>

#include "daemon/node/node-conf.h"
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

static void
test_expand(void)
{
	struct node_launch	l = { .id = 12, .name = "tr", .user = "al" };
	char			*s;

	s = node_launch_expand(&l, "out-%j-%x-%u-%%-%q.txt");
	is_str(s, "out-12-tr-al-%-%q.txt", "%%j %%x %%u %%%% expand, %%q stays");
	free(s);
	s = node_launch_expand(&l, "%");
	is_str(s, "%", "a trailing %% stays");
	free(s);
}

static void
test_addr(void)
{
	char	*host = NULL, *port = NULL, err[256];

	ok(node_conf_split_addr("ctl.example:6820", &host, &port, err,
	    sizeof err) == 0, "HOST:PORT splits");
	is_str(host, "ctl.example", "host");
	is_str(port, "6820", "port");
	free(host);
	free(port);
	ok(node_conf_split_addr("[::1]:7", &host, &port, err,
	    sizeof err) == 0, "[v6]:PORT splits");
	is_str(host, "::1", "v6 host without brackets");
	free(host);
	free(port);
	ok(node_conf_split_addr("ctl", &host, &port, err, sizeof err) == -1,
	    "a missing port is refused");
	ok(node_conf_split_addr("ctl:70000", &host, &port, err,
	    sizeof err) == -1, "a port above 65535 is refused");
}

int
main(void)
{
	test_parse();
	test_expand();
	test_addr();
	return (tap_done());
}
