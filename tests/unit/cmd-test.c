/* cmd-test.c: the programs' front door (common/cmd.c): --help, --version,
 * bad options and usage errors, as a program's option loop meets them.
 * What cmd_getopt() prints is read back from files that stand in for
 * stdout and stderr while it runs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cmd.h"
#include "common/proto.h"
#include "tests/unit/tap.h"

enum { T_OPT_JSON = 256, T_OPT_HELP };

static void
t_usage(FILE *f)
{
	fputs("usage: prog [options]\n  -u, --user USER\n", f);
}

/* A program whose -h is --help (gcancel's kind). */
static const struct option t_longopts[] = {
	{ "user", required_argument, NULL, 'u' },
	{ "gpus", required_argument, NULL, 'G' },
	{ "gpu-model", required_argument, NULL, 'M' },
	{ "json", no_argument, NULL, T_OPT_JSON },
	{ "before", required_argument, NULL, 'b' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};
static const struct cmd t_cmd = {
	.name = "prog",
	.usage = t_usage,
	.shortopts = ":u:G:M:hV",
	.longopts = t_longopts,
};

/* One whose -h is something else, as gq's --noheader, and whose --help
 * has a value of its own; a daemon, so --version names the protocol. */
static const struct option t_gq_longopts[] = {
	{ "noheader", no_argument, NULL, 'h' },
	{ "help", no_argument, NULL, T_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};
static const struct cmd t_gq_cmd = {
	.name = "progd",
	.usage = t_usage,
	.shortopts = ":hV",
	.longopts = t_gq_longopts,
	.protocol = true,
};

/* A verb's options, which stop at the first argument ("+"); no --help. */
static const struct option t_verb_longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};
static const struct cmd t_verb_cmd = {
	.name = "prog",
	.verb = "purge",
	.shortopts = "+:",
	.longopts = t_verb_longopts,
};

/* What one run of the option loop did: each option it returned (as
 * "u=VALUE," or "h,"), how it ended, and what it printed. */
struct t_run {
	char	opts[256];
	int	last;		/* -1 or CMD_OPT_EXIT */
	int	status;
	int	optind;
	char	out[1024];
	char	err[1024];
};

static FILE	*t_cap[2];
static int	 t_saved[2];

static void
t_capture(void)
{
	int	i;

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < 2; i++) {
		if ((t_cap[i] = tmpfile()) == NULL || (t_saved[i] =
		    dup(i + 1)) == -1 || dup2(fileno(t_cap[i]), i + 1) == -1)
			abort();
	}
}

static void
t_release(char *out, char *err, size_t len)
{
	char	*to[2] = { out, err };
	size_t	 n;
	int	 i;

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < 2; i++) {
		if (dup2(t_saved[i], i + 1) == -1)
			abort();
		close(t_saved[i]);
		rewind(t_cap[i]);
		n = fread(to[i], 1, len - 1, t_cap[i]);
		to[i][n] = '\0';
		fclose(t_cap[i]);
	}
}

/* Runs cmd's option loop over the words of line (argv[0] is "prog"). */
static void
t_loop(const struct cmd *cmd, const char *line, struct t_run *r)
{
	char	 buf[256], *argv[32], *w, *save = NULL;
	size_t	 len;
	int	 argc = 0, c;

	memset(r, 0, sizeof *r);
	r->status = -99;
	snprintf(buf, sizeof buf, "%s", line);
	argv[argc++] = "prog";
	for (w = strtok_r(buf, " ", &save); w != NULL && argc < 31;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;
	t_capture();
	while ((c = cmd_getopt(cmd, argc, argv, &r->status)) != -1 &&
	    c != CMD_OPT_EXIT) {
		len = strlen(r->opts);
		if (c < 256)
			snprintf(r->opts + len, sizeof r->opts - len, "%c",
			    c);
		else
			snprintf(r->opts + len, sizeof r->opts - len, "<%d>",
			    c);
		len = strlen(r->opts);
		snprintf(r->opts + len, sizeof r->opts - len, "%s%s,",
		    optarg != NULL ? "=" : "", optarg != NULL ? optarg : "");
	}
	r->last = c;
	r->optind = optind;
	t_release(r->out, r->err, sizeof r->out);
}

/* The usage error that line makes: message on stderr, then the pointer to
 * --help, nothing on stdout, status 2. */
static void
t_bad(const struct cmd *cmd, const char *line, const char *msg)
{
	struct t_run	r;
	char		want[1024];

	t_loop(cmd, line, &r);
	snprintf(want, sizeof want, "%s: %s%s%s\nTry '%s --help' for more "
	    "information.\n", cmd->name, cmd->verb != NULL ? cmd->verb : "",
	    cmd->verb != NULL ? ": " : "", msg, cmd->name);
	is_int(r.last, CMD_OPT_EXIT, "%s: \"%s\" ends the loop", cmd->name,
	    line);
	is_int(r.status, EXIT_USAGE, "%s: \"%s\" is a usage error (2)",
	    cmd->name, line);
	is_str(r.err, want, "%s: \"%s\" says: %s", cmd->name, line, msg);
	is_str(r.out, "", "%s: \"%s\" prints nothing on stdout", cmd->name,
	    line);
}

/* line answered on stdout with want, status 0. */
static void
t_answer(const struct cmd *cmd, const char *line, const char *want,
    const char *what)
{
	struct t_run	r;

	t_loop(cmd, line, &r);
	is_int(r.last, CMD_OPT_EXIT, "%s: \"%s\" ends the loop", cmd->name,
	    line);
	is_int(r.status, EXIT_OK, "%s: \"%s\" exits 0", cmd->name, line);
	is_str(r.out, want, "%s: \"%s\" prints %s", cmd->name, line, what);
	is_str(r.err, "", "%s: \"%s\" prints nothing on stderr", cmd->name,
	    line);
	is_str(r.opts, "", "%s: \"%s\" returns no option first", cmd->name,
	    line);
}

/* line read to the end: the options returned, optind after them. */
static void
t_opts(const struct cmd *cmd, const char *line, const char *want,
    int want_optind)
{
	struct t_run	r;

	t_loop(cmd, line, &r);
	is_int(r.last, -1, "%s: \"%s\" is read to the end", cmd->name, line);
	is_str(r.opts, want, "%s: \"%s\" gives %s", cmd->name, line, want);
	is_int(r.optind, want_optind, "%s: \"%s\" leaves optind at %d",
	    cmd->name, line, want_optind);
	is_str(r.out, "", "%s: \"%s\" prints nothing on stdout", cmd->name,
	    line);
	is_str(r.err, "", "%s: \"%s\" prints nothing on stderr", cmd->name,
	    line);
}

static void
t_usage_error(void)
{
	char	out[1024], err[1024];
	int	r;

	t_capture();
	r = cmd_usage_error(&t_cmd, "--gpus: expected 1-8, got \"%s\"", "two");
	t_release(out, err, sizeof out);
	is_int(r, EXIT_USAGE, "cmd_usage_error returns 2");
	is_str(err, "prog: --gpus: expected 1-8, got \"two\"\nTry 'prog "
	    "--help' for more information.\n", "cmd_usage_error prints the "
	    "message and the pointer to --help");
	is_str(out, "", "cmd_usage_error prints nothing on stdout");

	t_capture();
	r = cmd_usage_error(&t_verb_cmd, "unexpected argument \"%s\"", "x");
	t_release(out, err, sizeof out);
	is_int(r, EXIT_USAGE, "a verb's usage error returns 2");
	is_str(err, "prog: purge: unexpected argument \"x\"\nTry 'prog "
	    "--help' for more information.\n", "a verb's usage error names "
	    "the verb, and points to the program's --help");
}

int
main(void)
{
	const char	*usage = "usage: prog [options]\n  -u, --user USER\n";
	char		 v[128], vd[128];

	snprintf(v, sizeof v, "prog (gbatch) %s\n", PACKAGE_VERSION);
	snprintf(vd, sizeof vd, "progd (gbatch) %s, protocol %d\n",
	    PACKAGE_VERSION, PROTO_VERSION);

	/* --help and --version, however spelled. */
	t_answer(&t_cmd, "-h", usage, "the usage");
	t_answer(&t_cmd, "--help", usage, "the usage");
	t_answer(&t_cmd, "--hel", usage, "the usage");
	t_answer(&t_cmd, "-V", v, "the version");
	t_answer(&t_cmd, "--version", v, "the version");
	t_answer(&t_cmd, "--vers", v, "the version");
	t_answer(&t_cmd, "-V -h", v, "the version, the first asked");
	t_answer(&t_gq_cmd, "--help", usage, "the usage");
	t_answer(&t_gq_cmd, "--version", vd, "the version and protocol");

	/* The program's own options come back to it. */
	t_opts(&t_cmd, "-u alice --json -Gtwo a1 a2", "u=alice,<256>,G=two,",
	    5);
	t_opts(&t_cmd, "--user=bob --timeout 5 --gpu-m a100",
	    "u=bob,<4096>=5,M=a100,", 6);
	t_opts(&t_cmd, "", "", 1);
	/* -h is gq's --noheader: only the option named help is help. */
	t_opts(&t_gq_cmd, "-h", "h,", 2);
	/* "+": a verb's options stop at its first argument. */
	t_opts(&t_verb_cmd, "--dry-run n1 --dry-run", "n,", 2);

	/* What getopt refuses, said the same way by every program. */
	t_bad(&t_cmd, "-Z", "unknown option -Z");
	t_bad(&t_cmd, "-u x -Z", "unknown option -Z");
	t_bad(&t_cmd, "--bogus", "unknown or ambiguous option \"--bogus\"");
	t_bad(&t_cmd, "--bogus=1", "unknown or ambiguous option "
	    "\"--bogus=1\"");
	t_bad(&t_cmd, "--gpu 4", "unknown or ambiguous option \"--gpu\"");
	t_bad(&t_cmd, "-u", "option -u/--user needs a value");
	t_bad(&t_cmd, "--user", "option -u/--user needs a value");
	t_bad(&t_cmd, "--us", "option -u/--user needs a value");
	t_bad(&t_cmd, "--timeout", "option --timeout needs a value");
	t_bad(&t_cmd, "--json=1", "option --json takes no value");
	t_bad(&t_cmd, "--help=1", "option --help takes no value");
	t_bad(&t_cmd, "--version=yes", "option --version takes no value");
	t_bad(&t_gq_cmd, "--timeout 5", "unknown or ambiguous option "
	    "\"--timeout\"");
	/* An unknown letter in a word of letters is named as itself, not
	 * as the long option before it, which getopt_long() took. */
	t_bad(&t_cmd, "--json -Zh", "unknown option -Z");
	t_bad(&t_gq_cmd, "--noheader -Zh", "unknown option -Z");
	/* A long option's value that is a letter, without that short
	 * option (shortopts has no b), is named by its long name only. */
	t_bad(&t_cmd, "--before", "option --before needs a value");
	t_bad(&t_cmd, "--bef", "option --before needs a value");
	/* A byte that is no letter: named as a byte, not as a word that
	 * may be another (getopt_long() has not passed the word yet). */
	t_bad(&t_cmd, "-\303\251", "unknown option: byte 0xc3 is no "
	    "option's letter");
	t_bad(&t_cmd, "-u x -\001h", "unknown option: byte 0x01 is no "
	    "option's letter");
	t_bad(&t_verb_cmd, "--dry-run=1", "option --dry-run takes no value");
	/* A program without --help does not answer it. */
	t_bad(&t_verb_cmd, "--help", "unknown or ambiguous option "
	    "\"--help\"");
	/* The name a program runs under, its directories left out. */
	ok(cmd_runs_as("/usr/bin/sbatch", "sbatch"), "/usr/bin/sbatch runs as "
	    "sbatch");
	ok(cmd_runs_as("srun", "srun"), "srun runs as srun");
	ok(!cmd_runs_as("/usr/bin/gsub", "sbatch"), "gsub does not run as "
	    "sbatch");
	ok(!cmd_runs_as("/opt/sbatch/gsub", "sbatch"), "a directory named "
	    "sbatch is not the name");
	ok(!cmd_runs_as("sbatch2", "sbatch"), "sbatch2 is not sbatch");

	t_usage_error();
	return (tap_done());
}
