/* jobspec-test.c: gsub's options and #GSUB directives: precedence, where
 * the directive block ends, bad values with their line, --export, output
 * patterns, and the JOB_SUBMIT body built from them. */
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/jobspec.h"
#include "client/jobspec-int.h"
#include "common/job-req.h"
#include "tests/unit/tap.h"

static char *test_env[] = {
	"PATH=/usr/bin:/bin", "HOME=/home/alice", "USER=alice",
	"LOGNAME=alice", "SHELL=/bin/sh", "FOO=foo", "BAR=bar", "NOEQUALS",
	NULL
};

/* Parses argv (NULL-terminated, without "gsub") into a new jobspec. */
static struct jobspec *
parse(char *err, size_t errlen, int *ret, ...)
{
	struct jobspec		*js = jobspec_create();
	enum jobspec_action	 action;
	char			*argv[32];
	int			 argc = 0;
	va_list			 ap;

	argv[argc++] = "gsub";
	va_start(ap, ret);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	err[0] = '\0';
	*ret = jobspec_parse_args(js, argc, argv, &action, err, errlen);
	return (js);
}

/* Builds the request as gsub does: the shape resolved first. */
static json_t *
build_env(struct jobspec *js, char **env)
{
	char	err[512];

	if (jobspec_check(js, err, sizeof err) != 0)
		return (NULL);
	return (jobspec_build(js, env, "/home/alice/work", 027, err,
	    sizeof err));
}

static json_t *
build(struct jobspec *js)
{
	return (build_env(js, test_env));
}

static const char *
str(json_t *job, const char *key)
{
	return (json_string_value(json_object_get(job, key)));
}

static long long
num(json_t *job, const char *key)
{
	return ((long long)json_integer_value(json_object_get(job, key)));
}

static void
test_defaults(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "--wrap", "echo hi", NULL);
	is_int(r, 0, "--wrap parses");
	job = build(js);
	ok(job != NULL, "wrap job builds");
	is_str(str(job, "name"), "wrap", "wrap job is named wrap");
	is_str(str(job, "script"), "#!/bin/sh\necho hi\n",
	    "wrap script runs the command with /bin/sh");
	is_str(str(job, "command"), "echo hi", "wrap command is shown");
	is_int(num(job, "gpus"), 1, "one GPU by default");
	is_int(num(job, "time_limit"), 0, "no time limit by default");
	is_str(str(job, "stdout"), "gbatch-%j.out", "default stdout pattern");
	is_str(str(job, "stderr"), "gbatch-%j.out",
	    "stderr goes with stdout by default");
	is_str(str(job, "workdir"), "/home/alice/work",
	    "workdir is the current directory");
	ok(json_is_false(json_object_get(job, "hold")), "not held");
	is_int(num(job, "umask"), 027, "the submitter's umask goes along");
	is_int(json_object_size(json_object_get(job, "env")), 7,
	    "--export=ALL by default: every NAME=VALUE variable");
	json_decref(job);
	jobspec_free(js);
}

static void
test_options(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "-G", "4", "-J", "resnet", "-o",
	    "out-%x-%j.log", "-t", "1-02:03:04", "-D", "sub", "-H",
	    "--parsable", "--wrap", "true", NULL);
	is_int(r, 0, "options parse");
	job = build(js);
	is_int(num(job, "gpus"), 4, "-G 4");
	is_str(str(job, "name"), "resnet", "-J");
	is_str(str(job, "stdout"), "out-%x-%j.log", "-o");
	is_str(str(job, "stderr"), "out-%x-%j.log", "-o without -e: stderr "
	    "follows");
	is_int(num(job, "time_limit"), 86400 + 2 * 3600 + 3 * 60 + 4,
	    "-t d-h:m:s");
	is_str(str(job, "workdir"), "/home/alice/work/sub",
	    "-D relative is made absolute");
	ok(json_is_true(json_object_get(job, "hold")), "-H holds");
	ok(jobspec_parsable(js), "--parsable");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-e", "err.%u", "-o", "out", "-D",
	    "/scratch", "/x/train.sh", "--lr", "0.1", NULL);
	is_int(r, 0, "options before the script, arguments after");
	jobspec_free(js);
}

/* gsub takes what gbatchd and gnoded take (common/job-req.h), no more and
 * no less: each option that sets a member of the request at the row's
 * least and most, written as gsub's users write it, and refused one past
 * either. */
static void
test_request_bounds(void)
{
	static const struct {
		const char	*opt;
		enum job_req	 f;
		const char	*form;	/* 'n' as is, 'M' MB, 't' M:S, 's'
					 * USR1@N, 'l' a text of n bytes */
	} opts[] = {
		{ "--gpus", JRQ_GPUS, "n" },
		{ "--nodes", JRQ_NUM_NODES, "n" },
		{ "--ntasks-per-node", JRQ_TASKS_PER_NODE, "n" },
		{ "--cpus-per-task", JRQ_CPUS_PER_TASK, "n" },
		{ "--cpus-per-gpu", JRQ_CPUS_PER_GPU, "n" },
		{ "--mem", JRQ_MEM, "M" },
		{ "--mem-per-gpu", JRQ_MEM_PER_GPU, "M" },
		{ "--time", JRQ_TIME_LIMIT, "t" },
		{ "--ckpt-grace", JRQ_CKPT_GRACE, "t" },
		{ "--signal", JRQ_WARN_TIME, "s" },
		{ "--job-name", JRQ_NAME, "l" },
		{ "--comment", JRQ_COMMENT, "l" },
		{ "--account", JRQ_ACCOUNT, "l" },
	};
	static char	 text[8192];
	struct jobspec	*js;
	json_t		*job;
	char		 err[512], val[64], *arg;
	size_t		 i;
	int64_t		 v, least;
	int		 k, r, good = 1, bad = 1;

	for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		const struct job_req_desc *d = &job_reqs[opts[i].f];

		/* A text is at least a byte; a count at least 1. */
		least = d->min > 0 || *opts[i].form == 'l' ||
		    *opts[i].form == 'M' ? (d->min > 0 ? d->min : 1) : 0;
		for (k = 0; k < 3; k++) {
			v = k == 0 ? least : k == 1 ? d->max : d->max + 1;
			arg = val;
			switch (*opts[i].form) {
			case 'M':
				snprintf(val, sizeof val, "%lldM", (long long)v);
				break;
			case 't':
				snprintf(val, sizeof val, "%lld:%02lld",
				    (long long)(v / 60), (long long)(v % 60));
				break;
			case 's':
				snprintf(val, sizeof val, "USR1@%lld",
				    (long long)v);
				break;
			case 'l':
				memset(text, 'a', (size_t)v);
				text[v] = '\0';
				arg = text;
				break;
			default:
				snprintf(val, sizeof val, "%lld", (long long)v);
				break;
			}
			js = parse(err, sizeof err, &r, opts[i].opt, arg,
			    "--wrap", "true", NULL);
			if (k < 2 && r != 0) {
				good = 0;
				printf("# %s %.20s: %s\n", opts[i].opt, arg, err);
			}
			if (k == 2 && r != -1) {
				bad = 0;
				printf("# %s %.20s taken\n", opts[i].opt, arg);
			}
			jobspec_free(js);
		}
	}
	ok(good, "gsub takes each option at its member's least and most");
	ok(bad, "and refuses one past the most");

	/* The bound gsub, gbatchd and gnoded share: 365 days. */
	js = parse(err, sizeof err, &r, "-t", "365-00:00:00", "--wrap", "true",
	    NULL);
	is_int(r, 0, "-t 365-00:00:00 is taken");
	job = build(js);
	is_int(num(job, "time_limit"), job_reqs[JRQ_TIME_LIMIT].max,
	    "as the most gbatchd takes");
	json_decref(job);
	jobspec_free(js);
	js = parse(err, sizeof err, &r, "-t", "365-00:00:01", "--wrap", "true",
	    NULL);
	is_int(r, -1, "a second more is refused");
	is_str(err, "--time: time \"365-00:00:01\" is longer than 365 days, "
	    "the most accepted; UNLIMITED for no limit", "saying the most");
	jobspec_free(js);
	js = parse(err, sizeof err, &r, "--ckpt-grace", "1-00:00:01", "--wrap",
	    "true", NULL);
	is_int(r, -1, "a checkpoint grace over a day is refused by gsub too");
	is_str(err, "--ckpt-grace: time \"1-00:00:01\" is longer than 1 day, "
	    "the most accepted", "saying the most");
	jobspec_free(js);
	js = parse(err, sizeof err, &r, "--wrap", "echo a\necho b", NULL);
	is_int(r, -1, "a --wrap of two lines is refused, as its command");
	ok(strncmp(err, "--wrap: expected a command line of 1 to 4096 bytes of "
	    "text on one line", 60) == 0, "saying what is taken");
	jobspec_free(js);
}

/* CPU jobs: -G 0 under gsub; no GPU option under sbatch. */
static void
test_cpu_jobs(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "-G", "0", "-n", "4", "-c", "2",
	    "--wrap", "true", NULL);
	job = build(js);
	ok(job != NULL, "-G 0 -n 4 builds");
	is_int(num(job, "gpus"), 0, "-G 0: no GPU");
	is_int(num(job, "tasks_per_node"), 4, "-n 4: four tasks on its node");
	is_int(num(job, "cpus_per_task"), 2, "-c 2");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-N", "2", "--wrap", "true", NULL);
	jobspec_sbatch(js);
	job = build(js);
	is_int(num(job, "gpus"), 0, "sbatch -N 2 names no GPU: none");
	is_int(num(job, "num_nodes"), 2, "sbatch -N 2: two nodes");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-N", "2", "--wrap", "true", NULL);
	job = build(js);
	is_int(num(job, "gpus"), 2, "gsub -N 2: a GPU on each");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-N", "2", "--gpus-per-node", "2",
	    "--wrap", "true", NULL);
	jobspec_sbatch(js);
	job = build(js);
	is_int(num(job, "gpus"), 4, "sbatch --gpus-per-node 2 -N 2: four");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--gres", "gpu:0", "--wrap", "true",
	    NULL);
	job = build(js);
	is_int(num(job, "gpus"), 0, "--gres=gpu:0: none");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-G", "0", "--ntasks-per-node", "gpu",
	    "--wrap", "true", NULL);
	is_int(jobspec_check(js, err, sizeof err), -1,
	    "-G 0 --ntasks-per-node gpu is refused");
	is_str(err, "--ntasks-per-node gpu with no GPU: a CPU job's tasks "
	    "are a number (--ntasks-per-node N)", "saying what to give");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-G", "0", "-N", "2", "-n", "3",
	    "--wrap", "true", NULL);
	is_int(jobspec_check(js, err, sizeof err), -1,
	    "-G 0 -N 2 -n 3 is refused");
	is_str(err, "--ntasks 3: gbatch starts the same tasks on each node; "
	    "give -N with a divisor of it, or --ntasks-per-node",
	    "saying what to give");
	jobspec_free(js);
}

static void
test_bad_options(void)
{
	static const struct {
		const char	*opt, *val, *want;
	} bad[] = {
		{ "--gpus", "65537", "--gpus: expected a whole number from 0 to "
		    "65536, got \"65537\"" },
		{ "--gpus", "-1", "--gpus: expected a whole number from 0 to "
		    "65536, got \"-1\"" },
		{ "--gpus", "two", "--gpus: expected a whole number from 0 to "
		    "65536, got \"two\"" },
		{ "--gpus", "", "--gpus: expected a whole number from 0 to "
		    "65536, got \"\"" },
		{ "--gpus", "2x", "--gpus: expected a whole number from 0 to "
		    "65536, got \"2x\"" },
		{ "--time", "abc", "--time: " },
		{ "--output", "%q", "--output: unknown \"%q\"" },
		{ "--output", "a%", "--output: unknown \"%\"" },
		{ "--error", "", "--error: expected a file name pattern" },
		{ "--job-name", "", "--job-name: expected 1 to" },
		{ "--job-name", "a\tb", "--job-name: expected 1 to" },
		{ "--export", "1X", "--export: \"1X\" is not a variable name" },
		{ "--export", "ALL,NONE", "--export: ALL and NONE" },
		{ "--export", "A,,B", "--export: empty item" },
		{ "--bogus", NULL, "unknown or ambiguous option \"--bogus\"" },
		{ "--hold=yes", NULL, "option --hold takes no value" },
		{ "-G", NULL, "option -G/--gpus needs a value" },
	};
	struct jobspec	*js;
	char		 err[512];
	size_t		 i;
	int		 r;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (bad[i].val != NULL)
			js = parse(err, sizeof err, &r, bad[i].opt, bad[i].val,
			    "--wrap", "true", NULL);
		else
			js = parse(err, sizeof err, &r, bad[i].opt, NULL);
		is_int(r, -1, "%s %s is refused", bad[i].opt,
		    bad[i].val != NULL ? bad[i].val : "");
		if (!ok(strncmp(err, bad[i].want, strlen(bad[i].want)) == 0,
		    "%s: message names the option", bad[i].opt))
			printf("#   got \"%s\"\n", err);
		jobspec_free(js);
	}
	js = parse(err, sizeof err, &r, NULL);
	is_int(r, 0, "no script and no --wrap parses: standard input, maybe");
	jobspec_free(js);
	js = parse(err, sizeof err, &r, "--wrap", "true", "x.sh", NULL);
	is_int(r, -1, "--wrap with a script is refused");
	jobspec_free(js);
}

static void
test_directives(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "-G", "2", "--wrap", "x", NULL);
	r = jobspec_parse_directives(js,
	    "#!/bin/bash\n"
	    "# a comment\n"
	    "\n"
	    "#GSUB -G 8\n"
	    "#GSUB --job-name 'my job' -t 10   # ten minutes\n"
	    "  # indented comment\n"
	    "#GSUB\t--output=\"o %j\"\n"
	    "#SBATCH -J other -t 20\n"
	    "echo start\n"
	    "#GSUB -t 99\n"
	    "#GSUB --bogus\n", "train.sh", err, sizeof err);
	is_int(r, 0, "directives parse");
	job = build(js);
	is_int(num(job, "gpus"), 2, "the command line wins over #GSUB -G");
	is_str(str(job, "name"), "my job", "quoted directive value");
	is_int(num(job, "time_limit"), 600,
	    "#GSUB -t wins over #SBATCH -t; directives after the first "
	    "command are ignored");
	is_str(str(job, "stdout"), "o %j", "--output=VALUE in a directive");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB -G 1\n\n#GSUB "
	    "--gpus x\n", "train.sh", err, sizeof err);
	is_int(r, -1, "bad directive value is refused");
	is_str(err, "train.sh:4: #GSUB --gpus: expected a whole number from 0 "
	    "to 65536, got \"x\"", "and names the script line");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "-G", "3", "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB -G x\n", "t.sh",
	    err, sizeof err);
	is_int(r, -1, "a bad directive is refused even when the command line "
	    "overrides it");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB --frobnicate\n",
	    "t.sh", err, sizeof err);
	is_int(r, -1, "unknown directive option is refused");
	is_str(err, "t.sh:2: #GSUB: unknown or ambiguous option "
	    "\"--frobnicate\"", "and names it with its line");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB --wrap ls\n",
	    "t.sh", err, sizeof err);
	is_int(r, -1, "--wrap in a directive is refused");
	is_str(err, "t.sh:2: #GSUB --wrap: not allowed in a script",
	    "and named as an option, not by its value");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB --timeout 5\n",
	    "t.sh", err, sizeof err);
	is_int(r, -1, "--timeout in a directive is refused: it is gsub's, "
	    "not the job's");
	is_str(err, "t.sh:2: #GSUB --timeout: not allowed in a script",
	    "and named");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB -G 2 stray\n",
	    "t.sh", err, sizeof err);
	is_int(r, -1, "a stray word in a directive is refused");
	ok(strstr(err, "t.sh:2: #GSUB: unexpected \"stray\"") != NULL,
	    "and named: %s", err);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB -J 'open\n",
	    "t.sh", err, sizeof err);
	is_int(r, -1, "an unterminated quote is refused");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\r\n#GSUB -G 5\r\n",
	    "t.sh", err, sizeof err);
	is_int(r, 0, "CRLF lines parse");
	job = build(js);
	is_int(num(job, "gpus"), 5, "CRLF directive applies");
	json_decref(job);
	jobspec_free(js);

	/* A Windows editor's last line: no newline, ends in \r. gsub
	 * once spun here forever (alarm() in main turns that into a
	 * failure). */
	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\r\n#GSUB -G 6\r", "t.sh",
	    err, sizeof err);
	is_int(r, 0, "a last line ending in \\r without a newline parses");
	job = build(js);
	is_int(num(job, "gpus"), 6, "and its directive applies");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n  \r", "t.sh", err,
	    sizeof err);
	is_int(r, 0, "a last line of blanks and \\r parses");
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "\r", "t.sh", err, sizeof err);
	is_int(r, 0, "a lone \\r parses");
	jobspec_free(js);
}

static void
test_export(void)
{
	struct jobspec	*js;
	json_t		*job, *env;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "--export=NONE", "--wrap", "x", NULL);
	job = build(js);
	env = json_object_get(job, "env");
	ok(json_object_get(env, "FOO") == NULL, "NONE: FOO not exported");
	is_str(json_string_value(json_object_get(env, "PATH")), "/usr/bin:/bin",
	    "NONE: PATH still exported (the job needs it)");
	is_int(json_object_size(env), 1, "NONE: only PATH (the node adds the "
	    "account's HOME, LOGNAME, SHELL and USER)");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--export=FOO,BAZ=1,MISSING",
	    "--wrap", "x", NULL);
	job = build(js);
	env = json_object_get(job, "env");
	is_str(json_string_value(json_object_get(env, "FOO")), "foo",
	    "list: FOO from the environment");
	is_str(json_string_value(json_object_get(env, "BAZ")), "1",
	    "list: BAZ=1 set");
	ok(json_object_get(env, "BAR") == NULL, "list: BAR not exported");
	ok(json_object_get(env, "MISSING") == NULL,
	    "list: an unset variable is skipped");
	ok(json_object_get(env, "PATH") != NULL && json_object_get(env,
	    "HOME") == NULL, "list: PATH kept, HOME left to the node");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--export=ALL,FOO=override,NEW=x",
	    "--wrap", "x", NULL);
	job = build(js);
	env = json_object_get(job, "env");
	is_str(json_string_value(json_object_get(env, "FOO")), "override",
	    "ALL,FOO=v overrides");
	is_str(json_string_value(json_object_get(env, "NEW")), "x",
	    "ALL,NEW=x adds");
	ok(json_object_get(env, "BAR") != NULL, "ALL keeps the rest");
	ok(json_object_get(env, "NOEQUALS") == NULL,
	    "an environment entry without = is skipped");
	json_decref(job);
	jobspec_free(js);
}

/* gsub reads no account database: HOME, LOGNAME, SHELL and USER that the
 * list does not export are left for the node to set from the account
 * (gsub.bats checks what the job sees); a stale one in gsub's environment
 * is not exported by NONE, and PATH always is. */
static void
test_export_identity(void)
{
	static char	*bare[] = { "PATH=/opt/bin:/bin", "FOO=foo", NULL };
	static char	*stale[] = { "USER=mallory", "LOGNAME=mallory",
			    "HOME=/tmp", "SHELL=/bin/false", NULL };
	struct jobspec	*js;
	json_t		*job, *env;
	char		 err[512];
	int		 r;

	js = parse(err, sizeof err, &r, "--export=NONE", "--wrap", "x", NULL);
	job = build_env(js, bare);
	env = json_object_get(job, "env");
	is_str(json_string_value(json_object_get(env, "PATH")), "/opt/bin:/bin",
	    "NONE: PATH from the environment");
	is_int(json_object_size(env), 1, "and nothing else: the account's "
	    "variables are the node's to set");
	json_decref(job);

	job = build_env(js, stale);
	env = json_object_get(job, "env");
	ok(json_object_get(env, "USER") == NULL && json_object_get(env,
	    "HOME") == NULL, "NONE: a stale USER or HOME is not exported");
	is_str(json_string_value(json_object_get(env, "PATH")),
	    "/usr/local/bin:/usr/bin:/bin", "no PATH at all: a default one");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--export=NONE,USER=bob", "--wrap",
	    "x", NULL);
	job = build_env(js, bare);
	is_str(json_string_value(json_object_get(json_object_get(job, "env"),
	    "USER")), "bob", "an explicit USER=VALUE is exported (the node "
	    "keeps it)");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	job = build_env(js, stale);
	env = json_object_get(job, "env");
	is_str(json_string_value(json_object_get(env, "HOME")), "/tmp",
	    "ALL exports the environment as it is");
	json_decref(job);
	job = build_env(js, bare);
	env = json_object_get(job, "env");
	ok(json_object_get(env, "USER") == NULL, "ALL: a USER the environment "
	    "lacks is left to the node");
	is_str(json_string_value(json_object_get(env, "FOO")), "foo",
	    "ALL keeps the rest");
	json_decref(job);
	jobspec_free(js);
}

/* Loads a --wrap job (no script to read), so only the checks run. */
static int
load_wrap(char *err, size_t errlen, ...)
{
	struct jobspec		*js = jobspec_create();
	enum jobspec_action	 action;
	char			*argv[32];
	int			 argc = 0, r;
	va_list			 ap;

	argv[argc++] = "gsub";
	va_start(ap, errlen);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc++] = "--wrap";
	argv[argc++] = "true";
	argv[argc] = NULL;
	err[0] = '\0';
	if ((r = jobspec_parse_args(js, argc, argv, &action, err,
	    errlen)) == 0)
		r = jobspec_load_script(js, err, errlen);
	jobspec_free(js);
	return (r);
}

static void
test_conflicts(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 err[512];
	int		 r;

	is_int(load_wrap(err, sizeof err, "--consolidate", "--spread", NULL),
	    -1, "--consolidate --spread is refused");
	is_str(err, "--consolidate and --spread exclude each other: the "
	    "fewest nodes, or the emptiest ones; give one", "naming both");
	is_int(load_wrap(err, sizeof err, "--spread", "--spread", NULL), 0,
	    "--spread twice is no conflict");
	is_int(load_wrap(err, sizeof err, "--no-requeue", "--ckpt-signal",
	    "USR2", NULL), -1, "--no-requeue --ckpt-signal is refused");
	ok(strncmp(err, "--no-requeue and --ckpt-signal exclude each other",
	    49) == 0, "naming both: %s", err);
	is_int(load_wrap(err, sizeof err, "--ckpt-grace", "30", "--no-requeue",
	    NULL), -1, "--no-requeue --ckpt-grace is refused");
	ok(strncmp(err, "--no-requeue and --ckpt-grace exclude each other",
	    48) == 0, "naming both: %s", err);
	is_int(load_wrap(err, sizeof err, "--no-requeue", NULL), 0,
	    "--no-requeue alone is fine");

	/* The command line overrides a directive: no conflict. */
	js = parse(err, sizeof err, &r, "--spread", "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB --consolidate\n",
	    "t.sh", err, sizeof err);
	is_int(r, 0, "command-line --spread over #GSUB --consolidate");
	job = build(js);
	is_str(str(job, "placement"), "spread", "the command line wins");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, "--wrap", "x", NULL);
	r = jobspec_parse_directives(js, "#!/bin/sh\n#GSUB --consolidate\n"
	    "#GSUB --spread\n", "t.sh", err, sizeof err);
	is_int(r, -1, "two directives that conflict are refused");
	ok(strncmp(err, "t.sh:3: #GSUB --consolidate and --spread", 40) == 0,
	    "with the line: %s", err);
	jobspec_free(js);
}

/* Makes fd 0 read the file at path (or a new terminal when path is NULL). */
static void
stdin_from(const char *path)
{
	int	fd, pt;

	if (path != NULL)
		fd = open(path, O_RDONLY);
	else {
		pt = posix_openpt(O_RDWR | O_NOCTTY);
		if (pt == -1 || grantpt(pt) == -1 || unlockpt(pt) == -1) {
			perror("posix_openpt");
			exit(1);
		}
		fd = open(ptsname(pt), O_RDONLY | O_NOCTTY);
	}
	if (fd == -1 || dup2(fd, STDIN_FILENO) == -1) {
		perror("stdin_from");
		exit(1);
	}
	close(fd);
}

static void
test_stdin(void)
{
	struct jobspec	*js;
	json_t		*job;
	char		 path[] = "/tmp/jobspec-test.XXXXXX", err[512];
	const char	*text = "#!/bin/sh\n#GSUB -G 2\necho from stdin\n";
	int		 fd, r, saved = dup(STDIN_FILENO);

	fd = mkstemp(path);
	ok(write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	    "script written");
	close(fd);

	stdin_from(path);
	js = parse(err, sizeof err, &r, NULL);
	r = jobspec_load_script(js, err, sizeof err);
	is_int(r, 0, "no script, stdin not a terminal: read from stdin");
	job = build(js);
	is_str(str(job, "script"), text, "the script is stdin's text");
	is_int(num(job, "gpus"), 2, "its directives apply");
	is_str(str(job, "name"), "stdin", "the job is named stdin");
	is_str(str(job, "command"), "(stdin)", "and its command says so");
	json_decref(job);
	jobspec_free(js);

	stdin_from(path);
	js = parse(err, sizeof err, &r, "-", "a", "b", NULL);
	r = jobspec_load_script(js, err, sizeof err);
	is_int(r, 0, "- reads stdin");
	job = build(js);
	is_int(json_array_size(json_object_get(job, "argv")), 2,
	    "and the arguments after - are the script's");
	json_decref(job);
	jobspec_free(js);

	fd = open(path, O_WRONLY | O_TRUNC);
	ok(write(fd, "#!/bin/sh\n#GSUB -G x\n", 21) == 21, "bad script");
	close(fd);
	stdin_from(path);
	js = parse(err, sizeof err, &r, NULL);
	is_int(jobspec_load_script(js, err, sizeof err), -1,
	    "a bad directive on stdin is refused");
	is_str(err, "stdin:2: #GSUB --gpus: expected a whole number from 0 to "
	    "65536, got \"x\"", "and named stdin:LINE");
	jobspec_free(js);

	stdin_from(NULL);
	js = parse(err, sizeof err, &r, NULL);
	is_int(jobspec_load_script(js, err, sizeof err), -1,
	    "no script and stdin a terminal is refused");
	ok(strstr(err, "no script given") != NULL && strstr(err, "- for "
	    "standard input") != NULL, "and says what is accepted: %s", err);
	jobspec_free(js);

	dup2(saved, STDIN_FILENO);
	close(saved);
	unlink(path);
}

static void
test_script(void)
{
	static const struct {
		const char	*text;
		size_t		 len;
		const char	*want;
	} bad[] = {
		{ "", 0, "the script is empty" },
		{ "#!/bin/sh\n\0\1", 12, "not a text script" },
		{ "echo hi\n", 8, "the first line must name an interpreter" },
	};
	struct jobspec	*js;
	json_t		*job;
	char		 path[] = "/tmp/jobspec-test.XXXXXX", err[512];
	size_t		 i;
	int		 fd, r;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fd = mkstemp(path);
		ok(write(fd, bad[i].text, bad[i].len) == (ssize_t)bad[i].len,
		    "script %zu written", i);
		close(fd);
		js = parse(err, sizeof err, &r, path, NULL);
		r = jobspec_load_script(js, err, sizeof err);
		is_int(r, -1, "bad script %zu refused", i);
		ok(strstr(err, bad[i].want) != NULL && strstr(err, path) != NULL,
		    "message names the path and the problem: %s", err);
		jobspec_free(js);
		unlink(path);
		strcpy(path, "/tmp/jobspec-test.XXXXXX");
	}

	js = parse(err, sizeof err, &r, "/nonexistent/x.sh", NULL);
	is_int(jobspec_load_script(js, err, sizeof err), -1,
	    "missing script refused");
	is_str(err, "/nonexistent/x.sh: cannot read the script: No such file "
	    "or directory", "with the errno text");
	jobspec_free(js);

	fd = mkstemp(path);
	ok(write(fd, "#!/bin/sh\n#GSUB -G 3\n#GSUB -J fromdirective\necho\n", 48) == 48,
	    "script written");
	close(fd);
	js = parse(err, sizeof err, &r, "-J", "cli", path, "a", "b", NULL);
	r = jobspec_load_script(js, err, sizeof err);
	is_int(r, 0, "script loads");
	job = build(js);
	is_int(num(job, "gpus"), 3, "directive from the file applies");
	is_str(str(job, "name"), "cli", "command-line name wins");
	is_str(str(job, "command"), path, "command is the absolute path");
	is_int(json_array_size(json_object_get(job, "argv")), 2,
	    "script arguments travel");
	json_decref(job);
	jobspec_free(js);

	js = parse(err, sizeof err, &r, path, NULL);
	jobspec_load_script(js, err, sizeof err);
	job = build(js);
	is_str(str(job, "name"), "fromdirective", "directive name applies");
	json_decref(job);
	jobspec_free(js);
	unlink(path);
}

int
main(void)
{
	/* A parser that loops forever fails here instead of hanging the
	 * suite. */
	alarm(30);
	test_defaults();
	test_options();
	test_bad_options();
	test_cpu_jobs();
	test_request_bounds();
	test_directives();
	test_export();
	test_export_identity();
	test_conflicts();
	test_stdin();
	test_script();
	return (tap_done());
}
