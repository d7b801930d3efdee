/* scontrol (slurm-compat): Slurm's scontrol for its daily forms over
 * gbatch: show job|jobid|node|partition|config|reservation, hold,
 * release, requeue, suspend, resume, update NodeName=... State=DRAIN|RESUME, update
 * JobId=... with TimeLimit, Name, Comment, Dependency and NumNodes,
 * create, update and delete reservation, ping, reconfigure, version.
 * gbatch's own are gq, gnodes and gctl; the records are scontrol-show.c's,
 * update's words update-words.c's, a reservation's resv-words.c's. */
#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <time.h>

#include "client/model.h"
#include "client/resv-words.h"
#include "common/cmd.h"
#include "common/hostlist.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "client/update-words.h"
#include "slurm/scontrol.h"

enum {
	SCONTROL_OPT_HELP = 256,
};

static const struct option scontrol_longopts[] = {
	{ "oneliner", no_argument, NULL, 'o' },
	{ "details", no_argument, NULL, 'd' },
	{ "all", no_argument, NULL, 'a' },
	{ "quiet", no_argument, NULL, 'Q' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, SCONTROL_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
scontrol_usage(FILE *f)
{
	fputs(
"usage: scontrol [options] COMMAND [ARGS]\n"
"Slurm's scontrol over gbatch (slurm-compat; gq, gnodes and gctl are\n"
"gbatch's own). Records print as Slurm's, Key=Value, with the fields\n"
"gbatch has.\n"
"\n"
"  show job [ID]          a job, or every pending and running one (also\n"
"                         show jobid ID, show job=ID; ID_TASK for an\n"
"                         array's task)\n"
"  show node [NAME]       a node, or every node\n"
"  show partition [NAME]  a partition, or every one in gbatch.conf's order\n"
"                         (without partitions, gbatch's one, gbatch)\n"
"  show config            the controller's settings under Slurm's names\n"
"  show reservation [NAME]\n"
"                         an advance reservation, or every one\n"
"  show hostnames [LIST]  a node list's names, one a line (default: the\n"
"                         job's, SLURM_JOB_NODELIST)\n"
"  show hostlist LIST     a node list folded into ranges, n[1-3,7]\n"
"  hold ID[,ID...]        keep pending jobs from starting\n"
"  release ID[,ID...]     let held jobs start\n"
"  requeue ID[,ID...]     checkpoint, stop and requeue running (or\n"
"                         suspended) jobs\n"
"  suspend ID[,ID...]     freeze running jobs on their GPUs, which they\n"
"                         keep, their time limits stopped (operators)\n"
"  resume ID[,ID...]      thaw suspended jobs (operators)\n"
"  update NodeName=NODE State=DRAIN|RESUME [Reason=TEXT]\n"
"                         drain or resume a node (operators)\n"
"  update JobId=ID[,ID...] KEY=VALUE...\n"
"                         change a waiting (pending or held) job, every\n"
"                         key or none of them:\n"
"      TimeLimit=LIMIT    Slurm's forms, UNLIMITED (raising it is for\n"
"                         operators)\n"
"      Name=NAME          the job's name (also JobName=)\n"
"      Comment=TEXT       its comment (Comment= for none)\n"
"      Dependency=SPEC    what it waits for, as sbatch -d takes it\n"
"                         (Dependency= for nothing)\n"
"      NumNodes=N         exactly N nodes, which must divide its GPUs\n"
"      Partition=LIST     the partitions it may run in, as sbatch -p\n"
"      QOS=NAME           its QOS, as sbatch --qos (a higher priority\n"
"                         is for operators)\n"
"      Nice=N, Priority=N as sbatch --nice, --priority (a negative\n"
"                         nice and a priority are for operators)\n"
"      Account=NAME       as sbatch -A\n"
"      StartTime=TIME     as sbatch --begin\n"
"      GPUs=N             a GPU job's count, as sbatch -G\n"
"  create reservation KEY=VALUE...\n"
"                         reserve nodes (operators; gctl reservation):\n"
"      ReservationName=NAME  (default USER_N)\n"
"      StartTime=TIME     now, now+1hour, 2026-12-01T10:00, ...\n"
"      EndTime=TIME or Duration=MINUTES|[D-]H:M[:S]\n"
"      Nodes=LIST or TRES=gres/gpu=N (whole nodes holding N GPUs)\n"
"      Users=U,... and/or Accounts=A,...\n"
"      Flags=MAINT[,IGNORE_JOBS]  a maintenance\n"
"  update ReservationName=NAME KEY=VALUE...\n"
"                         change one, the keys of create (operators)\n"
"  delete reservation NAME\n"
"                         delete one no job runs in (operators)\n"
"  ping                   is gbatchd up\n"
"  reconfigure            read gbatch.conf again (operators)\n"
"  version                gbatch's version\n"
"\n"
"  -o, --oneliner         each record on one line\n"
"  -d, --details          accepted: every field gbatch has is shown\n"
"  -a, --all              accepted: every partition is shown anyway\n"
"  -Q, --quiet            accepted: an action that works prints nothing\n"
"      --timeout SECONDS  how long to wait for gbatchd (default 10)\n"
"  -h, --help             this help\n"
"  -V, --version          print the version\n"
"\n"
"Exit status: 0 ok, 1 a job, node or partition not found or an action\n"
"refused (a job not waiting, a value gbatchd refused), 2 usage error (an\n"
"unknown key, a value not in the accepted forms), 3 cannot reach gbatchd,\n"
"4 not allowed (another user's job, raising a time limit).\n", f);
}

static const struct cmd scontrol_cmd = {
	.name = "scontrol",
	.usage = scontrol_usage,
	.shortopts = ":odaQhV",
	.longopts = scontrol_longopts,
};

/* Whether word is Slurm's keyword kw, in any case, or a prefix of it at
 * least min letters long (Slurm takes "sho" for "show"). */
static bool
scontrol_is(const char *word, const char *kw, size_t min)
{
	size_t	len = strlen(word);

	return (len >= min && len <= strlen(kw) && strncasecmp(word, kw,
	    len) == 0);
}

/* Whether word's key (up to eq, its '=') is kw, in any case. */
static bool
scontrol_is_kw(const char *word, const char *eq, const char *kw)
{
	return ((size_t)(eq - word) == strlen(kw) && strncasecmp(word, kw,
	    strlen(kw)) == 0);
}

/* show hostnames [LIST] (one name a line; the job's nodes, from
 * SLURM_JOB_NODELIST, without LIST) and show hostlist LIST (the names
 * folded into ranges): what batch scripts ask of a node list. */
static int
scontrol_hostnames(const char *list, bool fold)
{
	char	**names, *text, err[512];
	size_t	  n, i;

	if (list == NULL && !fold)
		list = getenv("SLURM_JOB_NODELIST");
	if (list == NULL)
		return (cmd_usage_error(&scontrol_cmd, "show %s: expected a "
		    "node list%s", fold ? "hostlist" : "hostnames", fold ? "" :
		    " (or SLURM_JOB_NODELIST set, as in a job)"));
	if (hostlist_expand(list, &names, &n, err, sizeof err) == -1)
		return (cmd_usage_error(&scontrol_cmd, "show %s: %s", fold ?
		    "hostlist" : "hostnames", err));
	if (fold) {
		text = hostlist_compress(names, n);
		printf("%s\n", text);
		free(text);
	} else {
		for (i = 0; i < n; i++)
			printf("%s\n", names[i]);
	}
	hostlist_free(names, n);
	return (EXIT_OK);
}

/* show's subject and its name: "job 42", "job=42", "jobid 42". */
static int
scontrol_show(struct model *m, int argc, char **argv, bool oneline)
{
	char		 err[1024], subject[32];
	const char	*what, *eq, *name = NULL;
	int		 r;

	if (argc < 1)
		return (cmd_usage_error(&scontrol_cmd, "show: expected what to "
		    "show: job, node, partition, config, reservation, "
		    "hostnames or hostlist"));
	what = argv[0];
	if ((eq = strchr(what, '=')) != NULL) {
		snprintf(subject, sizeof subject, "%.*s", (int)(eq - what),
		    what);
		what = subject;
		name = eq + 1;
	} else if (argc > 1)
		name = argv[1];
	if (argc > (eq != NULL ? 1 : 2))
		return (cmd_usage_error(&scontrol_cmd, "show %s: unexpected "
		    "argument \"%s\"", what, argv[eq != NULL ? 1 : 2]));
	if (name != NULL && *name == '\0')
		name = NULL;
	if (scontrol_is(what, "hostnames", 5))
		return (scontrol_hostnames(name, false));
	if (scontrol_is(what, "hostlist", 5) || scontrol_is(what,
	    "hostlistsorted", 9))
		return (scontrol_hostnames(name, true));
	if (scontrol_is(what, "jobs", 3) || scontrol_is(what, "jobid", 4))
		r = scontrol_show_job(m, name, oneline, err, sizeof err);
	else if (scontrol_is(what, "nodes", 4))
		r = scontrol_show_node(m, name, oneline, err, sizeof err);
	else if (scontrol_is(what, "partitions", 4))
		r = scontrol_show_partition(m, name, oneline, err, sizeof err);
	else if (scontrol_is(what, "config", 4)) {
		if (name != NULL)
			return (cmd_usage_error(&scontrol_cmd, "show config: "
			    "unexpected argument \"%s\"", name));
		r = scontrol_show_config(m, err, sizeof err);
	} else if (scontrol_is(what, "reservations", 3))
		r = scontrol_show_resv(m, name, oneline, err, sizeof err);
	else
		return (cmd_usage_error(&scontrol_cmd, "show: unknown \"%s\"; "
		    "expected job, jobid, node, partition, config, "
		    "reservation, hostnames or hostlist", what));
	if (r == EXIT_USAGE)
		return (cmd_usage_error(&scontrol_cmd, "show %s: %s", what,
		    err));
	/* Not found: Slurm's words, as Slurm's scontrol prints them. */
	if (r == EXIT_REFUSED)
		fprintf(stderr, "%s\n", err);
	else if (r != EXIT_OK)
		cmd_error(&scontrol_cmd, err);
	return (r);
}

/* Sends each request of reqs (model_job_update_requests'), saying what
 * the controller refused; returns the worst exit status. */
static int
scontrol_send_all(struct model *m, json_t *reqs)
{
	json_t	*reply;
	size_t	 i;
	int	 r, worst = EXIT_OK;

	for (i = 0; i < json_array_size(reqs); i++) {
		if ((r = model_request(m, json_array_get(reqs, i), &reply)) ==
		    0) {
			json_decref(reply);
			continue;
		}
		cmd_error(&scontrol_cmd, m->err);
		if (r > worst)
			worst = r;
	}
	json_decref(reqs);
	return (worst);
}

/* hold, release, requeue, suspend, resume: each job of the lists, as
 * gctl does them. */
static int
scontrol_job_action(struct model *m, const char *action, int argc,
    char **argv)
{
	json_t	*reqs;
	char	 err[512];

	if (argc < 1)
		return (cmd_usage_error(&scontrol_cmd, "%s: expected one or "
		    "more job ids", action));
	if ((reqs = model_job_update_requests(argc, argv, action, err,
	    sizeof err)) == NULL)
		return (cmd_usage_error(&scontrol_cmd, "%s: %s", action, err));
	return (scontrol_send_all(m, reqs));
}

/* update JobId=ID[,ID...] KEY=VALUE...: JOB_UPDATE's set with the
 * members set, a job at a time, each job's all or none (an array's id
 * reaches its waiting tasks, ID_TASK one task). */
static int
scontrol_update_jobs(struct model *m, const char *ids, json_t *set)
{
	json_t		*reqs, *req;
	char		 err[512], *argv[1] = { (char *)ids };
	size_t		 i;

	if ((reqs = model_job_update_requests(1, argv, "set", err,
	    sizeof err)) == NULL)
		return (cmd_usage_error(&scontrol_cmd, "update: JobId: %s",
		    err));
	json_array_foreach(reqs, i, req)
		json_object_update(req, set);
	return (scontrol_send_all(m, reqs));
}

/* Sends a RESV request (resv-words.h) and says what Slurm's says: the
 * name created, "Reservation updated.", nothing for a delete. */
static int
scontrol_resv_send(struct model *m, json_t *req, const char *action)
{
	json_t		*reply;
	const char	*name;
	int		 r;

	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0) {
		cmd_error(&scontrol_cmd, m->err);
		return (r);
	}
	name = json_string_value(json_object_get(json_object_get(reply,
	    "reservation"), "name"));
	if (strcmp(action, "create") == 0)
		printf("Reservation created: %s\n", name != NULL ? name : "");
	else if (strcmp(action, "update") == 0)
		printf("Reservation updated.\n");
	json_decref(reply);
	return (EXIT_OK);
}

/* create reservation KEY=VALUE..., update ReservationName=NAME
 * KEY=VALUE... (argv from its first word): Slurm's keywords. */
static int
scontrol_resv_change(struct model *m, const char *action, int argc,
    char **argv)
{
	const char	*name;
	json_t		*set = json_object();
	char		 err[1024];

	if (resv_words_slurm(argc, argv, time(NULL), &name, set, err,
	    sizeof err) != 0) {
		json_decref(set);
		return (cmd_usage_error(&scontrol_cmd, "%s reservation: %s",
		    action, err));
	}
	if (strcmp(action, "update") == 0 && json_object_size(set) == 0) {
		json_decref(set);
		return (cmd_usage_error(&scontrol_cmd, "update reservation: "
		    "expected what to change: StartTime, EndTime, Duration, "
		    "Nodes, TRES, Users, Accounts or Flags"));
	}
	return (scontrol_resv_send(m, resv_words_request(action, name, set),
	    action));
}

/* create reservation|res KEY=VALUE...: Slurm's create. */
static int
scontrol_create(struct model *m, int argc, char **argv)
{
	if (argc > 0 && strchr(argv[0], '=') == NULL) {
		if (!scontrol_is(argv[0], "reservation", 3))
			return (cmd_usage_error(&scontrol_cmd, "create: expected "
			    "reservation (gbatch's partitions are gbatch.conf's),"
			    " got \"%s\"", argv[0]));
		argc--;
		argv++;
	}
	if (argc == 0)
		return (cmd_usage_error(&scontrol_cmd, "create reservation: "
		    "expected KEY=VALUE words: StartTime, Duration or EndTime, "
		    "Nodes or TRES, Users or Accounts, [Flags]"));
	return (scontrol_resv_change(m, "create", argc, argv));
}

/* delete reservation NAME, or delete ReservationName=NAME. */
static int
scontrol_delete(struct model *m, int argc, char **argv)
{
	const char	*name = NULL, *eq;

	if (argc == 2 && scontrol_is(argv[0], "reservation", 3))
		name = argv[1];
	else if (argc == 1 && (eq = strchr(argv[0], '=')) != NULL &&
	    (scontrol_is_kw(argv[0], eq, "ReservationName") ||
	    scontrol_is_kw(argv[0], eq, "Reservation")))
		name = eq + 1;
	if (name == NULL || *name == '\0')
		return (cmd_usage_error(&scontrol_cmd, "delete: expected "
		    "reservation NAME (gbatch deletes only reservations)"));
	return (scontrol_resv_send(m, resv_words_request("delete", name,
	    NULL), "delete"));
}

/* update NodeName=NODE State=DRAIN|RESUME [Reason=TEXT], or JobId=ID
 * with what to change (update-words.h), or ReservationName=NAME with
 * Slurm's reservation keys (resv-words.h). */
static int
scontrol_update(struct model *m, int argc, char **argv)
{
	struct update_words	 u;
	char			 err[1024];
	const char		*eq;
	int			 r;

	if (argc > 0 && (eq = strchr(argv[0], '=')) != NULL &&
	    (scontrol_is_kw(argv[0], eq, "ReservationName") ||
	    scontrol_is_kw(argv[0], eq, "Reservation")))
		return (scontrol_resv_change(m, "update", argc, argv));

	if (update_words_parse(argc, argv, &u, err, sizeof err) == -1)
		return (cmd_usage_error(&scontrol_cmd, "update: %s", err));
	if (u.jobs != NULL)
		r = scontrol_update_jobs(m, u.jobs, u.set);
	else if (strcasecmp(u.state, "DRAIN") == 0)
		r = model_node_action(m, u.node, MODEL_DRAIN, u.reason != NULL ?
		    u.reason : "");
	else if (strcasecmp(u.state, "RESUME") == 0 || strcasecmp(u.state,
	    "UNDRAIN") == 0 || strcasecmp(u.state, "IDLE") == 0)
		r = model_node_action(m, u.node, MODEL_RESUME, NULL);
	else {
		r = cmd_usage_error(&scontrol_cmd, "update: State=%s: expected "
		    "DRAIN or RESUME", u.state);
		goto out;
	}
	if (u.jobs == NULL && r != 0)
		cmd_error(&scontrol_cmd, m->err);
out:
	update_words_free(&u);
	return (r);
}

static int
scontrol_simple(struct model *m, int type, const char *what)
{
	json_t	*req = proto_msg(type), *reply;
	int	 r;

	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0) {
		cmd_error(&scontrol_cmd, m->err);
		return (r);
	}
	if (type == MSG_PING)
		printf("Slurmctld(primary) at %s is UP\n", what);
	json_decref(reply);
	return (EXIT_OK);
}

int
main(int argc, char **argv)
{
	struct model	 m;
	const char	*topt = NULL, *verb;
	char		 err[256];
	bool		 oneline = false;
	unsigned	 timeout;
	int		 ch, r = EXIT_OK, nargs;
	char		**args;

	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	optind = 0;
	while ((ch = cmd_getopt(&scontrol_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'o':
			oneline = true;
			break;
		case 'd':
		case 'a':
			break;
		case 'Q':
			/* An action that works prints nothing anyway. */
			break;
		case 'h':
			r = cmd_help(&scontrol_cmd);
			goto out;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1) {
		r = cmd_usage_error(&scontrol_cmd, "%s", err);
		goto out;
	}
	model_set_timeout(&m, timeout);
	if (optind >= argc) {
		r = cmd_usage_error(&scontrol_cmd, "expected a command: show, "
		    "hold, release, requeue, suspend, resume, update, create, "
		    "delete, ping, reconfigure or version");
		goto out;
	}
	verb = argv[optind];
	args = argv + optind + 1;
	nargs = argc - optind - 1;
	if (scontrol_is(verb, "show", 3))
		r = scontrol_show(&m, nargs, args, oneline);
	else if (scontrol_is(verb, "hold", 4) || scontrol_is(verb, "release",
	    3) || scontrol_is(verb, "requeue", 5))
		r = scontrol_job_action(&m, tolower((unsigned char)verb[0]) ==
		    'h' ? "hold" : tolower((unsigned char)verb[2]) == 'l' ?
		    "release" : "requeue", nargs, args);
	else if (scontrol_is(verb, "suspend", 2))
		r = scontrol_job_action(&m, "suspend", nargs, args);
	else if (scontrol_is(verb, "resume", 4))
		r = scontrol_job_action(&m, "resume", nargs, args);
	else if (scontrol_is(verb, "update", 2))
		r = scontrol_update(&m, nargs, args);
	else if (scontrol_is(verb, "create", 2))
		r = scontrol_create(&m, nargs, args);
	else if (scontrol_is(verb, "delete", 3))
		r = scontrol_delete(&m, nargs, args);
	else if (scontrol_is(verb, "ping", 4) && nargs == 0)
		r = scontrol_simple(&m, MSG_PING, "gbatchd");
	else if (scontrol_is(verb, "reconfigure", 5) && nargs == 0)
		r = scontrol_simple(&m, MSG_RECONFIGURE, NULL);
	else if (scontrol_is(verb, "version", 4) && nargs == 0)
		r = cmd_version(&scontrol_cmd);
	else if (scontrol_is(verb, "ping", 4) || scontrol_is(verb,
	    "reconfigure", 5) || scontrol_is(verb, "version", 4))
		r = cmd_usage_error(&scontrol_cmd, "%s: unexpected argument "
		    "\"%s\"", verb, args[0]);
	else
		r = cmd_usage_error(&scontrol_cmd, "unknown command \"%s\"; "
		    "expected show, hold, release, requeue, suspend, resume, "
		    "update, create, delete, ping, reconfigure or version", verb);
out:
	model_free(&m);
	return (r);
}
