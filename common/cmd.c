/* cmd.c: the programs' front door (--help, --version, option and usage
 * errors), and the ids, signals and lists the commands share. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/array.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

/* Job ids are positive and fit the controller's 63-bit integers. */
#define CMD_MAX_ID	((uint64_t)INT64_MAX)

/* Whether c is what getopt_long() returns for longopts' option called
 * name (a row without a flag; a program may have no such option). */
static bool
cmd_option_is(const struct option *longopts, const char *name, int c)
{
	for (; longopts->name != NULL; longopts++) {
		if (strcmp(longopts->name, name) == 0)
			return (longopts->flag == NULL && longopts->val == c);
	}
	return (false);
}

int
cmd_getopt(const struct cmd *cmd, int argc, char **argv, int *status)
{
	const char	*s = cmd->shortopts;
	char		 err[1024];
	int		 c;

	if (*s == '+' || *s == '-')
		s++;
	if (*s != ':')
		abort();	/* getopt would not tell ':' from '?' */
	opterr = 0;
	c = getopt_long(argc, argv, cmd->shortopts, cmd->longopts, NULL);
	if (c == '?' || c == ':') {
		cmd_option_error(c, argv, cmd->shortopts, cmd->longopts, err,
		    sizeof err);
		*status = cmd_usage_error(cmd, "%s", err);
		return (CMD_OPT_EXIT);
	}
	if (c == -1)
		return (-1);
	if (cmd_option_is(cmd->longopts, "help", c)) {
		*status = cmd_help(cmd);
		return (CMD_OPT_EXIT);
	}
	if (cmd_option_is(cmd->longopts, "version", c)) {
		*status = cmd_version(cmd);
		return (CMD_OPT_EXIT);
	}
	return (c);
}

int
cmd_help(const struct cmd *cmd)
{
	cmd->usage(stdout);
	return (EXIT_OK);
}

int
cmd_version(const struct cmd *cmd)
{
	if (cmd->protocol)
		printf("%s (gbatch) %s, protocol %d\n", cmd->name,
		    PACKAGE_VERSION, PROTO_VERSION);
	else
		printf("%s (gbatch) %s\n", cmd->name, PACKAGE_VERSION);
	return (EXIT_OK);
}

int
cmd_usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list	ap;
	char	*msg;

	fprintf(stderr, "%s: ", cmd->name);
	if (cmd->verb != NULL)
		fprintf(stderr, "%s: ", cmd->verb);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	if (msg != NULL) {
		safe_text_fwrite(msg, strlen(msg), stderr);
		free(msg);
	}
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
	    cmd->name);
	return (EXIT_USAGE);
}

void
cmd_error(const struct cmd *cmd, const char *msg)
{
	fprintf(stderr, "%s: ", cmd->name);
	safe_text_fwrite(msg, strlen(msg), stderr);
	fputc('\n', stderr);
}

void
cmd_json_print(const json_t *v, size_t flags)
{
	char	*text;

	if ((text = json_dumps(v, flags | JSON_ENCODE_ANY)) == NULL)
		abort();	/* Only out of memory: v is a decoded reply. */
	safe_text_json_fwrite(text, strlen(text), stdout);
	putchar('\n');
	free(text);
}

static const struct option *
cmd_option_find(const struct option *longopts, int val)
{
	for (; longopts->name != NULL; longopts++) {
		if (longopts->val == val)
			return (longopts);
	}
	return (NULL);
}

/* Whether getopt's value v is a letter of shortopts (-u), not only a long
 * option's value. */
static bool
cmd_option_letter(const char *shortopts, int v)
{
	return (v > 0 && v < 128 && isalnum(v) && strchr(shortopts, v) !=
	    NULL);
}

void
cmd_option_error(int c, char **argv, const char *shortopts,
    const struct option *longopts, char *err, size_t errlen)
{
	const struct option	*o = NULL;
	const char		*word = optind > 0 ? argv[optind - 1] : "";

	if (optopt != 0)
		o = cmd_option_find(longopts, optopt);
	if (c == ':') {
		if (o != NULL && cmd_option_letter(shortopts, optopt))
			snprintf(err, errlen, "option -%c/--%s needs a value",
			    optopt, o->name);
		else if (o != NULL)
			snprintf(err, errlen, "option --%s needs a value",
			    o->name);
		else
			snprintf(err, errlen, "option -%c needs a value",
			    optopt);
		return;
	}
	/* getopt_long() leaves optopt 0 for a long option it does not know
	 * or cannot tell from another, and the option's value for a long
	 * one given a value it takes none of; either way, the word is the
	 * last it passed. For a short option it does not know, optopt is
	 * the byte, and the word may be this one or the next. */
	if (optopt == 0)
		snprintf(err, errlen, "unknown or ambiguous option \"%s\"",
		    word);
	else if (o != NULL && o->has_arg == no_argument &&
	    strncmp(word, "--", 2) == 0 && strchr(word, '=') != NULL)
		snprintf(err, errlen, "option --%s takes no value", o->name);
	else if (optopt > 0 && optopt < 128 && isprint(optopt))
		snprintf(err, errlen, "unknown option -%c", optopt);
	else
		snprintf(err, errlen, "unknown option: byte 0x%02x is no "
		    "option's letter", (unsigned)(unsigned char)optopt);
}

int
cmd_parse_id(const char *s, uint64_t *id, char *err, size_t errlen)
{
	unsigned long long	 v;
	const char		*p;

	for (p = s; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p))
			break;
	}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (*s == '\0' || *p != '\0' || errno != 0 || v < 1 ||
	    v > CMD_MAX_ID) {
		snprintf(err, errlen, "\"%s\" is not a job id; expected a whole "
		    "number >= 1", s);
		return (-1);
	}
	*id = v;
	return (0);
}

static const struct {
	const char	*name;
	int		 sig;
} cmd_signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ABRT", SIGABRT }, { "KILL", SIGKILL }, { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
	{ "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG },
	{ "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM },
	{ "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "PWR", SIGPWR },
	{ "SYS", SIGSYS },
};

int
cmd_parse_signal(const char *s, int *sig, char *err, size_t errlen)
{
	const char	*name = s, *p;
	size_t		 i;
	long		 v;

	for (p = s; *p != '\0' && isdigit((unsigned char)*p); p++)
		/* nothing */;
	if (*s != '\0' && *p == '\0' && p - s <= 2) {
		v = strtol(s, NULL, 10);
		if (v >= 1 && v <= 64) {
			*sig = (int)v;
			return (0);
		}
	}
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (i = 0; i < sizeof cmd_signals / sizeof cmd_signals[0]; i++) {
		if (strcasecmp(name, cmd_signals[i].name) == 0) {
			*sig = cmd_signals[i].sig;
			return (0);
		}
	}
	snprintf(err, errlen, "unknown signal \"%s\"; expected a number from 1 "
	    "to 64 or a name such as USR1, USR2, TERM, INT, HUP, KILL, CONT, "
	    "STOP", s);
	return (-1);
}

int
cmd_timeout(const char *arg, unsigned *secs, char *err, size_t errlen)
{
	const char	*what = "--timeout", *p;
	unsigned long	 v = 0;

	if (arg == NULL) {
		arg = getenv("GBATCH_TIMEOUT");
		if (arg == NULL || *arg == '\0') {
			*secs = CMD_TIMEOUT_DEFAULT;
			return (0);
		}
		what = "GBATCH_TIMEOUT";
	}
	for (p = arg; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > CMD_TIMEOUT_MAX)
			break;
	}
	if (*arg == '\0' || *p != '\0' || v > CMD_TIMEOUT_MAX) {
		snprintf(err, errlen, "%s: expected whole seconds from 0 to %d "
		    "(0: wait for ever), got \"%s\"", what, CMD_TIMEOUT_MAX,
		    arg);
		return (-1);
	}
	*secs = (unsigned)v;
	return (0);
}

int
cmd_split(const char *list, const char *what,
    int (*fn)(const char *, void *, char *, size_t), void *arg, char *err,
    size_t errlen)
{
	char	*copy, *item, *next;
	int	 r = 0;

	copy = xstrdup(list);
	for (item = copy; item != NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if (*item == '\0') {
			snprintf(err, errlen, "%s: empty item in \"%s\"", what,
			    list);
			r = -1;
			break;
		}
		if ((r = fn(item, arg, err, errlen)) != 0)
			break;
	}
	free(copy);
	return (r);
}

int
cmd_add_string(const char *item, void *arr, char *err, size_t errlen)
{
	json_array_append_new(arr, json_string(item));
	return (0);
}

bool
cmd_list_has(const json_t *list, const char *s)
{
	const json_t	*v;
	size_t		 i;

	if (json_array_size(list) == 0)
		return (true);
	json_array_foreach(list, i, v) {
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return (true);
	}
	return (false);
}

int
cmd_add_id(const char *item, void *arr, char *err, size_t errlen)
{
	uint64_t	id;
	char		ierr[128];

	if (cmd_parse_id(item, &id, ierr, sizeof ierr) == -1) {
		snprintf(err, errlen, "--jobs: %s", ierr);
		return (-1);
	}
	json_array_append_new(arr, json_integer((json_int_t)id));
	return (0);
}

int
cmd_add_job(const char *item, void *arr, char *err, size_t errlen)
{
	struct array_set	tasks;
	uint64_t		id;
	char			ierr[256];

	if (strchr(item, '_') == NULL)
		return (cmd_add_id(item, arr, err, errlen));
	if (array_jobid_parse(item, &id, &tasks, ierr, sizeof ierr) == -1) {
		snprintf(err, errlen, "--jobs: %s", ierr);
		return (-1);
	}
	array_free(&tasks);
	json_array_append_new(arr, json_string(item));
	return (0);
}

bool
cmd_runs_as(const char *argv0, const char *name)
{
	const char	*slash = strrchr(argv0, '/');

	return (strcmp(slash != NULL ? slash + 1 : argv0, name) == 0);
}

void
cmd_stdout_buffer(void)
{
	static char	buf[1 << 16];

	/* glibc takes the size only with a buffer: given NULL, it keeps
	 * its own of a block (4 KiB), a write(2) each. */
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
}
