/* gctl: administer gbatchd (scontrol's counterpart): ping, shutdown,
 * drain and resume nodes, show and reload the configuration; and the
 * cluster's CA (gctl-ca.c, gctl-cert.c). One verb per invocation. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client/client.h"
#include "client/model.h"
#include "client/update-words.h"
#include "common/cmd.h"
#include "common/duration.h"
#include "common/paths.h"
#include "common/proto.h"
#include "bin/gctl.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

struct gctl_verb {
	const char	*name;
	const char	*args;
	const char	*help;
	int		(*run)(int argc, char **argv);
};

static int	gctl_ping(int, char **);
static int	gctl_shutdown(int, char **);
static int	gctl_drain(int, char **);
static int	gctl_resume(int, char **);
static int	gctl_show(int, char **);
static int	gctl_hold(int, char **);
static int	gctl_release(int, char **);
static int	gctl_requeue(int, char **);
static int	gctl_suspend(int, char **);
static int	gctl_job_update(int, char **, const char *);
static int	gctl_update(int, char **);
static int	gctl_reconfigure(int, char **);
static int	gctl_help(int, char **);
static int	gctl_run_ca(int, char **);

static const struct gctl_verb gctl_verbs[] = {
	{ "ping", "", "is gbatchd up? version, uptime, jobs and nodes",
	    gctl_ping },
	{ "shutdown", "", "stop gbatchd (operators); running jobs keep "
	    "running", gctl_shutdown },
	{ "drain", "NODE [--reason TEXT]", "let NODE finish its jobs and "
	    "give it no new ones (operators)", gctl_drain },
	{ "resume", "NODE", "give NODE jobs again (operators)", gctl_resume },
	{ "resume", "[job] ID...", "thaw suspended jobs; they run on, their "
	    "time limits put off by the time suspended (operators)",
	    gctl_resume },
	{ "hold", "ID...", "keep pending jobs from starting", gctl_hold },
	{ "release", "ID...", "let held jobs start again", gctl_release },
	{ "requeue", "ID...", "checkpoint, stop and requeue running jobs",
	    gctl_requeue },
	{ "suspend", "ID...", "freeze running jobs on their GPUs, which they "
	    "keep, their time limits stopped (operators)", gctl_suspend },
	{ "update", "job ID[,ID...] KEY=VALUE...", "change waiting jobs: "
	    "TimeLimit=, Name=, Comment=, Dependency=, NumNodes=, "
	    "Partition=, QOS=, Nice=, Priority=, Account=, StartTime=, GPUs= "
	    "(keys as scontrol's, any case)", gctl_update },
	{ "update", "node NODE State=DRAIN|RESUME [Reason=TEXT]", "drain or "
	    "resume a node (operators)", gctl_update },
	{ "show", "config [--json]", "the settings gbatchd has in force",
	    gctl_show },
	{ "reconfigure", "", "read gbatch.conf again, no restart (operators; "
	    "also SIGHUP)", gctl_reconfigure },
	{ "account", "add NAME [KEY=VALUE...]", "add an account (operators; the "
	    "keys in gctl(1))", gctl_assoc_account },
	{ "account", "modify NAME KEY=VALUE...", "change an account "
	    "(operators)", gctl_assoc_account },
	{ "account", "delete NAME", "delete an account without users or "
	    "accounts below it (operators)", gctl_assoc_account },
	{ "account", "list", "every account: parent, shares, limits, users",
	    gctl_assoc_account },
	{ "account", "show NAME", "an account's settings, users and children",
	    gctl_assoc_account },
	{ "user", "add USER account=NAME [default] [KEY=VALUE...]", "let USER "
	    "charge jobs to an account (operators)", gctl_assoc_user },
	{ "user", "modify USER account=NAME KEY=VALUE...", "change USER's "
	    "limits there, or default=yes (operators)",
	    gctl_assoc_user },
	{ "user", "delete USER [account=NAME]", "take USER out of an account, "
	    "or out of all (operators)", gctl_assoc_user },
	{ "user", "list [USER]", "users' accounts, defaults and limits",
	    gctl_assoc_user },
	{ "reservation", "create --start TIME --duration D --nodes LIST|--gpus N "
	    "--users U,...|--accounts A,... [--flags maint] [--name NAME]",
	    "reserve nodes from a start to an end (operators; gctl "
	    "reservation --help)", gctl_resv },
	{ "reservation", "update NAME [OPTIONS] | delete NAME", "change or "
	    "delete a reservation (operators)", gctl_resv },
	{ "reservation", "list [NAME] [--json]", "the reservations: window, "
	    "nodes, GPUs, flags, users, state", gctl_resv },
	{ "replica", "list [--json]", "a replicated controller's replicas: "
	    "id, address, role, leader or follower (any replica)",
	    gctl_replica },
	{ "replica", "add HOST:PORT | remove ID", "add or remove a replica "
	    "(operators, on the leader; gctl replica --help)", gctl_replica },
	{ "purge", "--before DATE [--dry-run]", "delete the finished jobs "
	    "that ended before DATE (operators)", gctl_purge },
	{ "ca", "init [--days N] [--force]", "make the cluster's CA in the "
	    "TLS directory (files, not gbatchd)", gctl_run_ca },
	{ "cert", "issue NAME [--node|--controller] [--alt-name NAME]... "
	    "[--days N] [--force]", "a key and certificate for a daemon, "
	    "signed by the CA", gctl_run_ca },
	{ "cert", "revoke NAME", "stop trusting NAME's certificates (writes "
	    "crl.pem)", gctl_run_ca },
	{ "cert", "list", "certificates issued: name, role, serial, expiry, "
	    "status", gctl_run_ca },
	{ "help", "", "this help", gctl_help },
};
#define GCTL_NVERBS	(sizeof gctl_verbs / sizeof gctl_verbs[0])

unsigned	gctl_timeout;

static void
gctl_usage(FILE *f)
{
	size_t	i, w;

	fprintf(f, "usage: gctl [--timeout SECONDS] COMMAND [ARGS]\n"
	    "       gctl -h|--help|-V|--version\n"
	    "Administer gbatchd.\n\n");
	for (i = 0; i < GCTL_NVERBS; i++) {
		w = strlen(gctl_verbs[i].name) + strlen(gctl_verbs[i].args) +
		    (*gctl_verbs[i].args != '\0' ? 1 : 0);
		fprintf(f, "  %s%s%s", gctl_verbs[i].name,
		    *gctl_verbs[i].args != '\0' ? " " : "", gctl_verbs[i].args);
		/* A long synopsis puts its help on the next line. */
		if (w > 28)
			fprintf(f, "\n%31s%s\n", "", gctl_verbs[i].help);
		else
			fprintf(f, "%*s %s\n", (int)(28 - w), "",
			    gctl_verbs[i].help);
	}
	fprintf(f, "\n  --timeout SECONDS            how long to wait for gbatchd "
	    "(default 10,\n                               or GBATCH_TIMEOUT; "
	    "0 waits for ever)\n");
	fprintf(f, "  --dir DIR                    ca and cert: the CA's "
	    "directory (default\n                               "
	    GB_PATH_TLS_DIR ")\n");
	fprintf(f, "  --before DATE                purge: YYYY-MM-DD[THH:MM[:SS]] "
	    "(local time),\n                               now-30days, "
	    "yesterday, @EPOCH, ...\n");
	fprintf(f, "  --dry-run                    purge: count the jobs, "
	    "delete nothing\n");
	fprintf(f, "\nExit status: 0 ok, 1 refused by gbatchd (unknown node) or "
	    "by the CA\n(a name issued already), 2 usage error, 3 cannot reach "
	    "gbatchd (or it is\na replica that follows: the message names the "
	    "leader), 4 permission denied\n(operators only).\n");
}

static const struct option gctl_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	CMD_TIMEOUT_LONGOPT,
	{ NULL, 0, NULL, 0 }
};

static const struct cmd gctl_cmd = {
	.name = "gctl",
	.usage = gctl_usage,
	.shortopts = "+:hV",	/* "+": options after the verb are the verb's */
	.longopts = gctl_longopts,
};

static int
gctl_help(int argc, char **argv)
{
	return (cmd_help(&gctl_cmd));
}


int
gctl_call(json_t *req, json_t **reply, const char *what)
{
	struct client	*c;
	json_t		*rep = NULL;
	char		 err[1024];
	int		 r;

	if ((r = client_open(gctl_timeout, &c, err, sizeof err)) != 0) {
		fprintf(stderr, "gctl: %s\n", err);
		json_decref(req);
		return (r);
	}
	r = client_call(c, req, &rep, err, sizeof err);
	json_decref(req);
	client_free(c);
	if (r != 0) {
		if (what != NULL && (r == EXIT_REFUSED || r == EXIT_PERMISSION))
			fprintf(stderr, "gctl: %s: %s\n", what, err);
		else
			fprintf(stderr, "gctl: %s\n", err);
		return (r);
	}
	if (reply != NULL)
		*reply = rep;
	else
		json_decref(rep);
	return (EXIT_OK);
}

static int
gctl_ping(int argc, char **argv)
{
	json_t		*reply;
	const char	*server;
	char		 up[64], safe[256];
	json_int_t	 uptime;
	int		 r;

	if (argc > 1)
		return (cmd_usage_error(&gctl_cmd, "ping: unexpected argument "
		    "\"%s\"", argv[1]));
	if ((r = gctl_call(proto_msg(MSG_PING), &reply, "ping")) != 0)
		return (r);
	server = json_string_value(json_object_get(reply, "server"));
	uptime = json_integer_value(json_object_get(reply, "uptime"));
	printf("%s (protocol %lld, pid %lld) up %s\n",
	    server != NULL ? safe_text_str(server, safe, sizeof safe) :
	    "gbatchd",
	    (long long)json_integer_value(json_object_get(reply, "version")),
	    (long long)json_integer_value(json_object_get(reply, "pid")),
	    duration_format(uptime > 0 ? (uint64_t)uptime : 0, up, sizeof up));
	if ((server = json_string_value(json_object_get(reply, "cluster"))) !=
	    NULL)
		printf("cluster: %s\n", safe_text_str(server, safe,
		    sizeof safe));
	printf("jobs: %lld pending, %lld running\n",
	    (long long)json_integer_value(json_object_get(
	    json_object_get(reply, "jobs"), "pending")),
	    (long long)json_integer_value(json_object_get(
	    json_object_get(reply, "jobs"), "running")));
	printf("nodes: %lld up, %lld down\n",
	    (long long)json_integer_value(json_object_get(
	    json_object_get(reply, "nodes"), "up")),
	    (long long)json_integer_value(json_object_get(
	    json_object_get(reply, "nodes"), "down")));
	json_decref(reply);
	return (EXIT_OK);
}

static int
gctl_shutdown(int argc, char **argv)
{
	int	r;

	if (argc > 1)
		return (cmd_usage_error(&gctl_cmd, "shutdown: unexpected "
		    "argument \"%s\"", argv[1]));
	if ((r = gctl_call(proto_msg(MSG_SHUTDOWN), NULL, "shutdown")) == 0)
		printf("gbatchd is shutting down\n");
	return (r);
}

static int
gctl_node_update(int argc, char **argv, const char *action)
{
	static const struct option drain_opts[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	}, resume_opts[] = {
		/* Known, to be refused by name: taken as drain's, it would
		 * take the next word as its value. */
		{ "reason", optional_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	/* No "+": the node name comes before --reason, as the usage shows,
	 * so getopt permutes (GNU's default). */
	const struct cmd	 verb = {
		.name = "gctl",
		.verb = action,
		.shortopts = strcmp(action, "drain") == 0 ? ":r:" : ":",
		.longopts = strcmp(action, "drain") == 0 ? drain_opts :
		    resume_opts,
	};
	json_t			*req;
	const char		*reason = NULL;
	int			 ch, r;

	optind = 0;
	while ((ch = cmd_getopt(&verb, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (r);
		case 'r':
			if (verb.longopts == resume_opts)
				return (cmd_usage_error(&verb, "--reason is "
				    "for drain only"));
			if (*optarg == '\0')
				return (cmd_usage_error(&verb, "--reason: "
				    "expected text, got \"%s\"", optarg));
			reason = optarg;
			break;
		}
	}
	if (optind == argc)
		return (cmd_usage_error(&verb, "expected a node name"));
	if (argc - optind > 1)
		return (cmd_usage_error(&verb, "unexpected argument \"%s\"; "
		    "one node at a time", argv[optind + 1]));
	req = proto_msg(MSG_NODE_UPDATE);
	json_object_set_new(req, "node", json_string(argv[optind]));
	json_object_set_new(req, "action", json_string(action));
	if (reason != NULL)
		json_object_set_new(req, "reason", json_string(reason));
	if (json_object_get(req, "node") == NULL ||
	    (reason != NULL && json_object_get(req, "reason") == NULL)) {
		json_decref(req);
		return (cmd_usage_error(&verb, "the node name and reason must "
		    "be UTF-8 text"));
	}
	return (gctl_call(req, NULL, action));
}

static int
gctl_drain(int argc, char **argv)
{
	return (gctl_node_update(argc, argv, "drain"));
}

/* Whether word names a job (42, 42_7, 42_[3-5]) rather than a node: it
 * starts with a digit and holds only what a job's id may. */
static bool
gctl_is_job_id(const char *word)
{
	return (isdigit((unsigned char)word[0]) &&
	    word[strspn(word, "0123456789_[]-,%")] == '\0');
}

/* resume NODE (a drained node), or resume [job] ID... (suspended jobs):
 * words that all name jobs are jobs; "job" says so for a node named by
 * digits alone. */
static int
gctl_resume(int argc, char **argv)
{
	int	i;

	if (argc >= 2 && strcmp(argv[1], "job") == 0)
		return (gctl_job_update(argc - 1, argv + 1, "resume"));
	for (i = 1; i < argc && gctl_is_job_id(argv[i]); i++)
		;
	if (argc >= 2 && i == argc)
		return (gctl_job_update(argc, argv, "resume"));
	return (gctl_node_update(argc, argv, "resume"));
}

/* Asks gbatchd to hold, release, requeue, suspend or resume each job; the
 * exit status is
 * the worst seen. gbatchd's refusals name the job already. */
static int
gctl_job_update(int argc, char **argv, const char *action)
{
	json_t	*reqs;
	char	 err[256];
	size_t	 i;
	int	 r, worst = EXIT_OK;

	if (argc < 2)
		return (cmd_usage_error(&gctl_cmd, "%s: expected one or more "
		    "job ids", action));
	/* 42, or a job array's tasks: 42_7, 42_[3-5]; every id checked
	 * before the first is acted on. */
	if ((reqs = model_job_update_requests(argc - 1, argv + 1, action,
	    err, sizeof err)) == NULL)
		return (cmd_usage_error(&gctl_cmd, "%s: %s", action, err));
	for (i = 0; i < json_array_size(reqs); i++) {
		if ((r = gctl_call(json_incref(json_array_get(reqs, i)), NULL,
		    NULL)) > worst)
			worst = r;
	}
	json_decref(reqs);
	return (worst);
}

/* update job ID[,ID...] KEY=VALUE..., or update node NODE KEY=VALUE...:
 * what scontrol update does, read by the same words (update-words.h).
 * A job's changes go a job at a time, each job's all or none; the exit
 * status is the worst seen. */
static int
gctl_update(int argc, char **argv)
{
	struct update_words	 u;
	json_t			*reqs, *req;
	char			**words, err[512], *ids[1];
	size_t			 i;
	int			 r = EXIT_OK, worst = EXIT_OK, k;
	bool			 job;

	if (argc < 4 || (strcmp(argv[1], "job") != 0 &&
	    strcmp(argv[1], "node") != 0))
		return (cmd_usage_error(&gctl_cmd, "update: expected job "
		    "ID[,ID...] KEY=VALUE... or node NODE State=DRAIN|RESUME "
		    "[Reason=TEXT]"));
	job = strcmp(argv[1], "job") == 0;
	words = xcalloc((size_t)argc, sizeof *words);
	words[0] = xasprintf("%s=%s", job ? "JobId" : "NodeName", argv[2]);
	for (k = 3; k < argc; k++)
		words[k - 2] = argv[k];
	if (update_words_parse(argc - 2, words, &u, err, sizeof err) == -1) {
		r = cmd_usage_error(&gctl_cmd, "update: %s", err);
		goto out;
	}
	if (u.jobs != NULL) {
		ids[0] = (char *)u.jobs;
		if ((reqs = model_job_update_requests(1, ids, "set", err,
		    sizeof err)) == NULL) {
			r = cmd_usage_error(&gctl_cmd, "update: %s", err);
			goto out;
		}
		json_array_foreach(reqs, i, req) {
			json_object_update(req, u.set);
			if ((r = gctl_call(json_incref(req), NULL,
			    "update")) > worst)
				worst = r;
		}
		json_decref(reqs);
		r = worst;
	} else if (u.node != NULL && !job && u.state != NULL &&
	    (strcasecmp(u.state, "DRAIN") == 0 || strcasecmp(u.state,
	    "RESUME") == 0)) {
		req = proto_msg(MSG_NODE_UPDATE);
		json_object_set_new(req, "node", json_string(u.node));
		json_object_set_new(req, "action", json_string(strcasecmp(
		    u.state, "DRAIN") == 0 ? "drain" : "resume"));
		if (u.reason != NULL && strcasecmp(u.state, "DRAIN") == 0)
			json_object_set_new(req, "reason",
			    json_string(u.reason));
		r = gctl_call(req, NULL, "update");
	} else
		r = cmd_usage_error(&gctl_cmd, "update: a node takes "
		    "State=DRAIN or State=RESUME (with Reason=TEXT to drain)");
out:
	update_words_free(&u);
	free(words[0]);
	free(words);
	return (r);
}

static int
gctl_hold(int argc, char **argv)
{
	return (gctl_job_update(argc, argv, "hold"));
}

static int
gctl_release(int argc, char **argv)
{
	return (gctl_job_update(argc, argv, "release"));
}

static int
gctl_requeue(int argc, char **argv)
{
	return (gctl_job_update(argc, argv, "requeue"));
}

static int
gctl_suspend(int argc, char **argv)
{
	return (gctl_job_update(argc, argv, "suspend"));
}

/* Prints "group.key = value" per setting, values as JSON. Values such as
 * paths and operator names are the admin's text, escaped all the same. */
static void
gctl_print_config(const json_t *config)
{
	const char	*group, *key;
	json_t		*g, *v;
	char		*text;

	json_object_foreach((json_t *)config, group, g) {
		json_object_foreach(g, key, v) {
			text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			safe_text_fwrite(group, strlen(group), stdout);
			putchar('.');
			safe_text_fwrite(key, strlen(key), stdout);
			fputs(" = ", stdout);
			if (text != NULL)
				safe_text_json_fwrite(text, strlen(text),
				    stdout);
			else
				putchar('?');
			putchar('\n');
			free(text);
		}
	}
}

/* Prints "label FILE" for a reply's "file", or "label what" without one. */
static void
gctl_print_file(const char *label, const json_t *reply, const char *what)
{
	const char	*file = json_string_value(json_object_get(reply,
			    "file"));

	fputs(label, stdout);
	if (file != NULL)
		safe_text_fwrite(file, strlen(file), stdout);
	else
		fputs(what, stdout);
}

static int
gctl_show(int argc, char **argv)
{
	json_t		*reply;
	int		 r, json = 0;

	if (argc < 2)
		return (cmd_usage_error(&gctl_cmd, "show: expected what to "
		    "show: config"));
	if (strcmp(argv[1], "config") != 0)
		return (cmd_usage_error(&gctl_cmd, "show: unknown \"%s\"; "
		    "expected config", argv[1]));
	if (argc > 2 && strcmp(argv[2], "--json") == 0)
		json = 1;
	if (argc > 2 + json)
		return (cmd_usage_error(&gctl_cmd, "show config: unexpected "
		    "argument \"%s\"", argv[2 + json]));
	if ((r = gctl_call(proto_msg(MSG_CONFIG_SHOW), &reply,
	    "show config")) != 0)
		return (r);
	if (json)
		cmd_json_print(json_object_get(reply, "config"),
		    JSON_INDENT(2) | JSON_SORT_KEYS);
	else {
		gctl_print_file("# in force in gbatchd, read from ", reply,
		    "?");
		putchar('\n');
		gctl_print_config(json_object_get(reply, "config"));
	}
	json_decref(reply);
	return (EXIT_OK);
}

/* Prints a reply's list of setting names as "a, b". */
static void
gctl_print_names(const json_t *list)
{
	json_t	*v;
	size_t	 i;

	json_array_foreach((json_t *)list, i, v) {
		if (i > 0)
			fputs(", ", stdout);
		if (json_is_string(v))
			safe_text_fwrite(json_string_value(v),
			    json_string_length(v), stdout);
	}
}

static int
gctl_reconfigure(int argc, char **argv)
{
	json_t		*reply, *changed, *restart, *note;
	char		 safe[1024];
	size_t		 i;
	int		 r;

	if (argc > 1)
		return (cmd_usage_error(&gctl_cmd, "reconfigure: unexpected "
		    "argument \"%s\"", argv[1]));
	if ((r = gctl_call(proto_msg(MSG_RECONFIGURE), &reply,
	    "reconfigure")) != 0)
		return (r);
	changed = json_object_get(reply, "changed");
	restart = json_object_get(reply, "restart_needed");
	gctl_print_file("gbatchd read ", reply, "its file");
	fputs(" again: ", stdout);
	if (json_array_size(changed) == 0)
		printf("no setting changed\n");
	else {
		printf("changed ");
		gctl_print_names(changed);
		printf("\n");
	}
	if (json_array_size(restart) > 0) {
		printf("changed in the file, in force after gbatchd restarts: ");
		gctl_print_names(restart);
		printf("\n");
	}
	/* What the change does to jobs (a partition removed). */
	json_array_foreach(json_object_get(reply, "notes"), i, note) {
		if (json_is_string(note))
			printf("%s\n", safe_text_str(json_string_value(note),
			    safe, sizeof safe));
	}
	json_decref(reply);
	return (EXIT_OK);
}

/* gctl ca and gctl cert: the program that has OpenSSL (bin/gctl-ca.c),
 * beside gctl (a build tree), or in libexec/gbatch beside gctl's bin,
 * else where it was configured to be. gctl's other commands start without
 * loading OpenSSL. Returns only when it cannot be run. */
static int
gctl_run_ca(int argc, char **argv)
{
	char	 self[PATH_MAX], path[PATH_MAX + 64], *slash, **args;
	ssize_t	 n;
	int	 i;

	path[0] = '\0';
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL)
			*slash = '\0';
		/* A build tree; then a tree installed elsewhere than it
		 * was configured for (an unpacked package). */
		snprintf(path, sizeof path, "%s/gctl-ca", self);
		if (access(path, X_OK) == -1)
			snprintf(path, sizeof path, "%s/../libexec/gbatch/gctl-ca",
			    self);
	}
	if (path[0] == '\0' || access(path, X_OK) == -1)
		snprintf(path, sizeof path, "%s", GB_PATH_GCTL_CA);
	args = xcalloc((size_t)argc + 2, sizeof *args);
	args[0] = path;
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	execv(path, args);
	fprintf(stderr, "gctl: %s: cannot run it: %s; gctl ca and gctl cert "
	    "need it (the gbatch-client package installs it)\n", path,
	    strerror(errno));
	free(args);
	return (EXIT_REFUSED);
}

int
main(int argc, char **argv)
{
	const char	*topt = NULL;
	char		 err[512];
	size_t		 i;
	int		 ch, r;

	while ((ch = cmd_getopt(&gctl_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (r);
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (cmd_timeout(topt, &gctl_timeout, err, sizeof err) == -1)
		return (cmd_usage_error(&gctl_cmd, "%s", err));
	if (optind == argc)
		return (cmd_usage_error(&gctl_cmd, "no command given; expected "
		    "one of: ping, shutdown, drain, resume, hold, release, "
		    "requeue, suspend, update, show, reconfigure, account, "
		    "user, reservation, replica, purge, ca, cert, help"));
	for (i = 0; i < GCTL_NVERBS; i++) {
		if (strcmp(argv[optind], gctl_verbs[i].name) == 0)
			return (gctl_verbs[i].run(argc - optind, argv + optind));
	}
	return (cmd_usage_error(&gctl_cmd, "unknown command \"%s\"; expected "
	    "one of: ping, shutdown, drain, resume, hold, release, requeue, "
	    "suspend, update, show, reconfigure, account, user, reservation, "
	    "replica, purge, ca, cert, help", argv[optind]));
}
