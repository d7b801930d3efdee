/* gctl-purge.c: gctl purge --before DATE [--dry-run]: delete the finished
 * jobs that ended before DATE now, as controller.keep_finished_days does
 * every hour (operators). gbatchd answers once the last batch is
 * committed, so the count printed is what went; a long purge sends the
 * count so far every few seconds meanwhile ("more"), so --timeout bounds
 * a silence, not the purge. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bin/gctl.h"
#include "client/client.h"
#include "client/when.h"
#include "common/cmd.h"
#include "common/proto.h"

/* Sends req (consumed) and reads its replies up to the last, into *reply.
 * Returns the exit status, after printing what went wrong. */
static int
gctl_purge_call(json_t *req, json_t **reply)
{
	struct client	*c;
	json_error_t	 jerr;
	json_t		*rep = NULL;
	char		 err[1024], *body;
	size_t		 len;
	int		 r;

	if ((r = client_open(gctl_timeout, &c, err, sizeof err)) != 0) {
		fprintf(stderr, "gctl: %s\n", err);
		json_decref(req);
		return (r);
	}
	r = client_call_raw(c, req, &body, &len, err, sizeof err);
	json_decref(req);
	while (r == 0) {
		json_decref(rep);
		rep = json_loadb(body, len, 0, &jerr);
		free(body);
		if (rep == NULL) {
			snprintf(err, sizeof err, "gbatchd's reply is not "
			    "JSON: %s", jerr.text);
			r = EXIT_UNREACHABLE;
			break;
		}
		if (!json_is_true(json_object_get(rep, "more")))
			break;
		r = client_next_raw(c, &body, &len, err, sizeof err);
	}
	client_free(c);
	if (r != 0) {
		json_decref(rep);
		if (r == EXIT_REFUSED || r == EXIT_PERMISSION)
			fprintf(stderr, "gctl: purge: %s\n", err);
		else
			fprintf(stderr, "gctl: %s\n", err);
		return (r);
	}
	*reply = rep;
	return (EXIT_OK);
}

/* The local time t, as the user wrote dates: "2026-05-01 00:00:00". */
static const char *
gctl_purge_time(time_t t, char *buf, size_t len)
{
	struct tm	tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, len, "@%lld", (long long)t);
	return (buf);
}

static const struct option gctl_purge_longopts[] = {
	{ "before", required_argument, NULL, 'b' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

static const struct cmd gctl_purge_cmd = {
	.name = "gctl",
	.verb = "purge",
	.shortopts = ":",
	.longopts = gctl_purge_longopts,
};

int
gctl_purge(int argc, char **argv)
{
	const char	*before = NULL;
	json_t		*req, *reply;
	json_int_t	 jobs, events;
	time_t		 cutoff;
	char		 e[448], when[64];
	int		 ch, r, dry_run = 0;

	optind = 0;
	while ((ch = cmd_getopt(&gctl_purge_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (r);
		case 'b':
			before = optarg;
			break;
		case 'n':
			dry_run = 1;
			break;
		}
	}
	if (optind < argc)
		return (cmd_usage_error(&gctl_purge_cmd, "unexpected argument "
		    "\"%s\"", argv[optind]));
	if (before == NULL)
		return (cmd_usage_error(&gctl_purge_cmd, "expected --before "
		    "DATE: the finished jobs that ended before DATE go"));
	if (when_parse(before, time(NULL), &cutoff, e, sizeof e) == -1)
		return (cmd_usage_error(&gctl_purge_cmd, "--before: %s", e));
	if (cutoff < 0)
		return (cmd_usage_error(&gctl_purge_cmd, "--before: \"%s\" is "
		    "before 1970", before));
	req = proto_msg(MSG_PURGE);
	json_object_set_new(req, "before", json_integer((json_int_t)cutoff));
	json_object_set_new(req, "dry_run", json_boolean(dry_run));
	if ((r = gctl_purge_call(req, &reply)) != 0)
		return (r);
	jobs = json_integer_value(json_object_get(reply, "jobs"));
	events = json_integer_value(json_object_get(reply, "node_events"));
	gctl_purge_time(cutoff, when, sizeof when);
	if (dry_run)
		printf("%lld finished job%s ended before %s and would be "
		    "purged\n", (long long)jobs, jobs == 1 ? "" : "s", when);
	else
		printf("purged %lld finished job%s that ended before %s, and "
		    "%lld node event%s\n", (long long)jobs, jobs == 1 ? "" : "s",
		    when, (long long)events, events == 1 ? "" : "s");
	json_decref(reply);
	return (EXIT_OK);
}
