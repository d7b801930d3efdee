/* gctl-replica.c: gctl replica, the replicas of a replicated controller
 * (controller.replicas, docs/controller.md): list them, add one, remove
 * one (REPLICA). Listing works on every replica, so an operator finds the
 * leader from any of them; add and remove are for operators, on the
 * leader. Arguments are checked here first, so a typo is a usage error
 * (2), not a round trip. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/gctl.h"
#include "common/cmd.h"
#include "common/hostport.h"
#include "common/proto.h"
#include "common/safe-text.h"

/* controller.replica_id's range (gbatch.conf(5)). */
#define GCTL_REPLICA_ID_MAX	65535

static void
gctl_replica_usage(FILE *f)
{
	fputs(
"usage: gctl replica list [--json]\n"
"       gctl replica add HOST:PORT\n"
"       gctl replica remove ID\n"
"The replicas of a replicated controller (controller.replicas in\n"
"gbatch.conf): list them on any replica, the leader marked (the leader's\n"
"list says which answer it); add or remove one on the leader (operators).\n"
"Start a new replica first, with listen = HOST:PORT, the same replicas list\n"
"and controller.replica_id one more than the highest ID listed; add answers\n"
"once it has caught up and votes, and fails (exit 3) after a few seconds\n"
"when it does not answer, leaving it a spare to remove. Removing the leader\n"
"itself makes it step down once the others commit it; they elect a leader\n"
"within a few seconds. A removal that would leave a set in which fewer\n"
"than a majority answer is refused.\n"
"\n"
"  --json             list: the replicas as gbatchd has them\n"
"\n"
"Exit status: 0 ok, 1 refused by gbatchd (no replicas, no such replica,\n"
"no majority would answer),\n"
"2 usage error, 3 cannot reach gbatchd or it is not the leader (the\n"
"message names the leader), 4 permission denied (operators only).\n", f);
}

static const struct cmd gctl_replica_cmd = {
	.name = "gctl",
	.verb = "replica",
	.usage = gctl_replica_usage,
};

/* Parses a replica's number, 1-65535, into *id. Returns 0 or -1. */
static int
gctl_replica_parse_id(const char *s, unsigned long *id)
{
	char	*end;

	if (s[0] < '0' || s[0] > '9')
		return (-1);
	errno = 0;
	*id = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || *id < 1 ||
	    *id > GCTL_REPLICA_ID_MAX)
		return (-1);
	return (0);
}

/* list [--json]: a line a replica, as gbatchd's configuration has them. */
static int
gctl_replica_list(int argc, char **argv)
{
	json_t		*req, *reply, *list, *e, *answers;
	const char	*addr, *role;
	char		 safe[512], rsafe[32];
	bool		 json = false;
	size_t		 k, len;
	int		 i, r, wa = 7;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else
			return (cmd_usage_error(&gctl_replica_cmd, "list: "
			    "unexpected argument \"%s\"; expected --json or "
			    "nothing", argv[i]));
	}
	req = proto_msg(MSG_REPLICA);
	json_object_set_new(req, "op", json_string("list"));
	if ((r = gctl_call(req, &reply, "replica list")) != 0)
		return (r);
	if (!json_is_array(list = json_object_get(reply, "replicas"))) {
		fprintf(stderr, "gctl: replica list: gbatchd's reply has no "
		    "replicas\n");
		json_decref(reply);
		return (EXIT_UNREACHABLE);
	}
	if (json) {
		cmd_json_print(list, JSON_INDENT(2));
		json_decref(reply);
		return (EXIT_OK);
	}
	json_array_foreach(list, k, e) {
		addr = json_string_value(json_object_get(e, "address"));
		len = addr != NULL ? safe_text_len(addr, strlen(addr)) : 1;
		if (len >= sizeof safe)
			len = sizeof safe - 1;
		if ((int)len > wa)
			wa = (int)len;
	}
	printf("%5s %-*s %-7s %-8s %-4s %s\n", "ID", wa, "ADDRESS", "ROLE",
	    "STATE", "SELF", "ANSWERS");
	json_array_foreach(list, k, e) {
		addr = json_string_value(json_object_get(e, "address"));
		role = json_string_value(json_object_get(e, "role"));
		answers = json_object_get(e, "answers");
		printf("%5lld %-*s %-7s %-8s %-4s %s\n",
		    (long long)json_integer_value(json_object_get(e, "id")), wa,
		    addr != NULL ? safe_text_str(addr, safe, sizeof safe) : "-",
		    role != NULL ? safe_text_str(role, rsafe, sizeof rsafe) :
		    "-", json_is_true(json_object_get(e, "leader")) ?
		    "leader" : "follower", json_is_true(json_object_get(e,
		    "self")) ? "yes" : "no", !json_is_boolean(answers) ? "-" :
		    json_is_true(answers) ? "yes" : "no");
	}
	json_decref(reply);
	return (EXIT_OK);
}

/* add HOST:PORT: prints the number the leader gave the new replica, which
 * must be its controller.replica_id. The leader answers once the replica
 * has caught up and votes (raft's promotion), so it runs already. */
static int
gctl_replica_add(int argc, char **argv)
{
	json_t		*req, *reply;
	char		 safe[512], why[256];
	long long	 id;
	int		 r;

	if (argc != 2)
		return (cmd_usage_error(&gctl_replica_cmd, "add: expected "
		    "the new replica's address alone, HOST:PORT (its "
		    "controller.listen)"));
	/* gbatchd judges it again; this spares a round trip. */
	if (hostport_check(argv[1], 1, why, sizeof why) == -1)
		return (cmd_usage_error(&gctl_replica_cmd, "add: %s (the new "
		    "replica's controller.listen)", why));
	req = proto_msg(MSG_REPLICA);
	json_object_set_new(req, "op", json_string("add"));
	json_object_set_new(req, "address", json_string(argv[1]));
	if ((r = gctl_call(req, &reply, "replica add")) != 0)
		return (r);
	id = (long long)json_integer_value(json_object_get(reply, "id"));
	printf("added replica %lld at %s; its controller.replica_id must be "
	    "%lld\n", id, safe_text_str(argv[1], safe, sizeof safe), id);
	json_decref(reply);
	return (EXIT_OK);
}

/* remove ID: once the set has committed it. The leader removing itself
 * says so: it has stepped down. */
static int
gctl_replica_remove(int argc, char **argv)
{
	json_t		*req, *reply;
	unsigned long	 id;
	int		 r;

	if (argc != 2)
		return (cmd_usage_error(&gctl_replica_cmd, "remove: expected "
		    "the replica's number alone (gctl replica list's ID)"));
	if (gctl_replica_parse_id(argv[1], &id) == -1)
		return (cmd_usage_error(&gctl_replica_cmd, "remove: expected "
		    "a replica's number, 1-%d (gctl replica list's ID), got "
		    "\"%s\"", GCTL_REPLICA_ID_MAX, argv[1]));
	req = proto_msg(MSG_REPLICA);
	json_object_set_new(req, "op", json_string("remove"));
	json_object_set_new(req, "id", json_integer((json_int_t)id));
	if ((r = gctl_call(req, &reply, "replica remove")) != 0)
		return (r);
	if (json_is_true(json_object_get(reply, "stepped_down")))
		printf("removed replica %lu, which led and has stepped down: "
		    "the others elect a leader within a few seconds\n", id);
	else
		printf("removed replica %lu\n", id);
	json_decref(reply);
	return (EXIT_OK);
}

int
gctl_replica(int argc, char **argv)
{
	const char	*sub = argc > 1 ? argv[1] : "";

	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 ||
	    (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
	    strcmp(argv[2], "-h") == 0)))
		return (cmd_help(&gctl_replica_cmd));
	if (strcmp(sub, "list") == 0)
		return (gctl_replica_list(argc - 1, argv + 1));
	if (strcmp(sub, "add") == 0)
		return (gctl_replica_add(argc - 1, argv + 1));
	if (strcmp(sub, "remove") == 0)
		return (gctl_replica_remove(argc - 1, argv + 1));
	return (cmd_usage_error(&gctl_replica_cmd, "expected list, add or "
	    "remove, got \"%s\"", sub));
}
