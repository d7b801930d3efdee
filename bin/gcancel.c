/* gcancel: cancel or signal jobs (scancel's counterpart). */
#include <sys/types.h>

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"
#include "client/slurm-part.h"
#include "common/array.h"
#include "common/cmd.h"
#include "common/job-state.h"
#include "common/proto.h"
#include "common/safe-text.h"

enum {
	GCANCEL_OPT_ME = 256,
};

static const struct option gcancel_longopts[] = {
	{ "user", required_argument, NULL, 'u' },
	{ "state", required_argument, NULL, 't' },
	{ "states", required_argument, NULL, 't' },
	{ "signal", required_argument, NULL, 's' },
	{ "name", required_argument, NULL, 'n' },
	{ "me", no_argument, NULL, GCANCEL_OPT_ME },
	{ "partition", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'Q' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
gcancel_usage(FILE *f)
{
	fprintf(f,
"usage: gcancel [options] [ID...]\n"
"Cancel jobs (SIGTERM, then SIGKILL after a grace period), or signal them.\n"
"Jobs are chosen by id, or by every selector given.\n"
"\n"
"  -u, --user USER       jobs of USER\n"
"  -t, --state STATE[,STATE]  jobs in these states: PENDING (PD), HELD (H),\n"
"                        RUNNING (R), PREEMPTING (PR)\n"
"  -n, --name NAME       jobs named NAME (your own unless -u is given)\n"
"      --me              your own jobs\n"
"  -p, --partition NAME[,NAME]  jobs that may run in these partitions\n"
"                        (your own unless -u is given; sinfo lists them)\n"
"  -Q, --quiet           accepted: a cancel that works prints nothing\n"
"  -s, --signal SIG      send SIG (USR1, SIGUSR1, 10, ...) to running jobs\n"
"                        instead of cancelling\n"
"      --timeout SECONDS  how long to wait for gbatchd (default 10, or\n"
"                        GBATCH_TIMEOUT; 0 waits for ever)\n"
"  -h, --help            this help\n"
"  -V, --version         print the version\n"
"\n"
"Exit status: 0 ok, 1 refused by gbatchd (unknown job or user), 2 usage\n"
"error, 3 cannot reach gbatchd, 4 permission denied (not your job).\n");
}

/* Named as it runs: gcancel, or scancel (slurm-compat). */
static struct cmd gcancel_cmd = {
	.name = "gcancel",
	.usage = gcancel_usage,
	.shortopts = ":u:t:s:n:p:QhV",
	.longopts = gcancel_longopts,
};

static int
gcancel_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	enum job_state	s;

	if (job_state_parse(item, &s) == -1 || job_state_is_terminal(s)) {
		snprintf(err, errlen, "--state: \"%s\" is not a state a job can "
		    "be cancelled in; accepted: PENDING (PD), HELD (H), RUNNING "
		    "(R), PREEMPTING (PR)", item);
		return (-1);
	}
	json_array_append_new(arg, json_string(job_state_name(s)));
	/* As scancel, Slurm's states as squeue shows them: a held job is
	 * PENDING there, a preempting one RUNNING. */
	if (strcmp(gcancel_cmd.name, "scancel") == 0 && (s == JOB_PENDING ||
	    s == JOB_RUNNING))
		json_array_append_new(arg, json_string(job_state_name(
		    s == JOB_PENDING ? JOB_HELD : JOB_PREEMPTING)));
	return (0);
}

/* Prints each per-job failure; returns the worst exit status among them. */
static int
gcancel_results(const json_t *reply)
{
	json_t		*res;
	const char	*msg, *job;
	char		 safe[1024], name[32];
	size_t		 i;
	int		 r = EXIT_OK, e;

	json_array_foreach(json_object_get(reply, "results"), i, res) {
		if (json_is_true(json_object_get(res, "ok")))
			continue;
		msg = json_string_value(json_object_get(res, "message"));
		/* An array's task as the user named it, "42_7". */
		if ((job = json_string_value(json_object_get(res, "job"))) !=
		    NULL)
			job = safe_text_str(job, name, sizeof name);
		else {
			snprintf(name, sizeof name, "%lld", (long long)
			    json_integer_value(json_object_get(res, "id")));
			job = name;
		}
		fprintf(stderr, "%s: job %s: %s\n", gcancel_cmd.name, job,
		    msg != NULL ? safe_text_str(msg, safe, sizeof safe) :
		    "refused");
		e = proto_exit_status(json_string_value(json_object_get(res,
		    "code")));
		if (e > r)
			r = e;
	}
	return (r);
}

/* --name and --partition: the protocol selects by id, user and state;
 * names and partitions (parts, a JSON array: any of them) are matched
 * here on a listing, then cancelled by id on the same connection. */
static int
gcancel_select(struct client *c, json_t *req, const char *name,
    const json_t *parts, const char *user, char *err, size_t errlen)
{
	json_t		*list, *reply, *job, *ids;
	const char	*jname, *jpart;
	size_t		 i;
	int		 r;

	list = proto_msg(MSG_JOB_LIST);
	if (json_object_get(req, "states") != NULL)
		json_object_set(list, "states", json_object_get(req, "states"));
	if (user != NULL)
		json_object_set_new(list, "users", json_pack("[s]", user));
	r = client_call(c, list, &reply, err, errlen);
	json_decref(list);
	if (r != 0)
		return (r);
	ids = json_array();
	json_array_foreach(json_object_get(reply, "jobs"), i, job) {
		jname = json_string_value(json_object_get(job, "name"));
		jpart = json_string_value(json_object_get(job, "partition"));
		if ((name == NULL || (jname != NULL && strcmp(jname,
		    name) == 0)) && slurm_part_job_in(jpart != NULL ? jpart :
		    "", parts))
			json_array_append(ids, json_object_get(job, "id"));
	}
	json_decref(reply);
	json_object_set_new(req, "ids", ids);
	json_object_del(req, "user");
	json_object_del(req, "states");
	return (0);
}

/* -p's names, each checked against the partitions there are: as Slurm's
 * scancel, a name that is none selects no job; but a typo is not let pass
 * unsaid. */
static int
gcancel_check_parts(struct client *c, const json_t *parts)
{
	struct slurm_parts	 ps;
	json_t			*req = proto_msg(MSG_CONFIG_SHOW), *reply;
	char			 err[768];
	int			 r;

	r = client_call(c, req, &reply, err, sizeof err);
	json_decref(req);
	if (r != 0 || slurm_part_read(&ps, reply, err, sizeof err) == -1) {
		fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
		return (r != 0 ? r : EXIT_UNREACHABLE);
	}
	if (slurm_part_check(&ps, parts, err, sizeof err) == -1)
		fprintf(stderr, "%s: --partition: %s\n", gcancel_cmd.name, err);
	slurm_part_free(&ps);
	return (0);
}

int
main(int argc, char **argv)
{
	struct client	*c = NULL;
	json_t		*req, *reply, *ids, *states = NULL, *parts;
	const char	*user = NULL, *name = NULL, *topt = NULL;
	bool		 me = false;
	char		 err[1024], serr[768];
	struct array_set tasks;
	uint64_t	 id;
	unsigned	 timeout;
	int		 ch, sig = 0, r = EXIT_USAGE;

	/* Installed as scancel (make install-slurm-compat): Slurm's name
	 * in what it says. */
	if (cmd_runs_as(argv[0], "scancel"))
		gcancel_cmd.name = "scancel";
	req = proto_msg(MSG_JOB_CANCEL);
	ids = json_array();
	parts = json_array();
	while ((ch = cmd_getopt(&gcancel_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'u':
			/* gbatchd says whether there is such a user. */
			if (*optarg == '\0') {
				snprintf(err, sizeof err, "--user: an empty "
				    "user name");
				goto usage;
			}
			user = optarg;
			break;
		case 't':
			json_decref(states);
			states = json_array();
			if (cmd_split(optarg, "--state", gcancel_add_state,
			    states, err, sizeof err) == -1)
				goto usage;
			break;
		case 's':
			if (cmd_parse_signal(optarg, &sig, serr,
			    sizeof serr) == -1) {
				snprintf(err, sizeof err, "--signal: %s", serr);
				goto usage;
			}
			break;
		case 'n':
			if (*optarg == '\0') {
				snprintf(err, sizeof err, "--name: expected a "
				    "job name, got \"\"");
				goto usage;
			}
			name = optarg;
			break;
		case GCANCEL_OPT_ME:
			me = true;
			break;
		case 'p':
			if (cmd_split(optarg, "--partition", cmd_add_string,
			    parts, err, sizeof err) == -1)
				goto usage;
			break;
		case 'Q':
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (me && user != NULL) {
		snprintf(err, sizeof err, "--me and --user exclude each other; "
		    "give one");
		goto usage;
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	for (; optind < argc; optind++) {
		/* A job array's tasks: 42_7, 42_[3-5]. */
		if (strchr(argv[optind], '_') != NULL) {
			if (array_jobid_parse(argv[optind], &id, &tasks, err,
			    sizeof err) == -1)
				goto usage;
			array_free(&tasks);
			json_array_append_new(ids, json_string(argv[optind]));
			continue;
		}
		if (cmd_parse_id(argv[optind], &id, err, sizeof err) == -1)
			goto usage;
		json_array_append_new(ids, json_integer((json_int_t)id));
	}
	if (json_array_size(ids) == 0 && user == NULL && states == NULL &&
	    name == NULL && !me && json_array_size(parts) == 0) {
		snprintf(err, sizeof err, "nothing to cancel: give job ids, or "
		    "select jobs with --user, --me, --state, --name or "
		    "--partition");
		goto usage;
	}
	if (json_array_size(ids) > 0 && (user != NULL || states != NULL ||
	    name != NULL || me || json_array_size(parts) > 0)) {
		snprintf(err, sizeof err, "give job ids or selectors (--user, "
		    "--me, --state, --name, --partition), not both");
		goto usage;
	}
	if (json_array_size(ids) > 0)
		json_object_set(req, "ids", ids);
	if (user != NULL)
		json_object_set_new(req, "user", json_string(user));
	if (states != NULL)
		json_object_set(req, "states", states);
	if (sig != 0)
		json_object_set_new(req, "signal", json_integer(sig));

	if ((r = client_open(timeout, &c, err, sizeof err)) != 0) {
		fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
		goto out;
	}
	/* --me: the user the controller names this uid. */
	if (me) {
		if ((r = client_whoami(c, &user, err, sizeof err)) != 0) {
			fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
			goto out;
		}
		json_object_set_new(req, "user", json_string(user));
	}
	if (json_array_size(parts) > 0 && (r = gcancel_check_parts(c,
	    parts)) != 0)
		goto out;
	if (name != NULL || json_array_size(parts) > 0) {
		/* Without -u, a user means their own jobs, as they would
		 * expect; the controller would refuse the others anyway. */
		if (user == NULL && (r = client_whoami(c, &user, err,
		    sizeof err)) != 0) {
			fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
			goto out;
		}
		if ((r = gcancel_select(c, req, name, parts, user, err,
		    sizeof err)) != 0) {
			fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
			goto out;
		}
		if (json_array_size(json_object_get(req, "ids")) == 0) {
			r = EXIT_OK;
			goto out;
		}
	}
	if ((r = client_call(c, req, &reply, err, sizeof err)) != 0) {
		fprintf(stderr, "%s: %s\n", gcancel_cmd.name, err);
		goto out;
	}
	r = gcancel_results(reply);
	json_decref(reply);
	goto out;

usage:
	r = cmd_usage_error(&gcancel_cmd, "%s", err);
out:
	client_free(c);
	json_decref(req);
	json_decref(ids);
	json_decref(parts);
	json_decref(states);
	return (r);
}
