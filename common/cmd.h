/* cmd.h: what every program does the same way: its front door (--help,
 * --version, bad options and usage errors), lists of ids and names, signal
 * names, --timeout, --json's printing. */
#ifndef GB_CMD_H
#define GB_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * A program's front door: what it is called and what it takes. Every
 * program answers the same way (the exit statuses are common/proto.h's):
 *
 *   --help        the usage on stdout; status 0 (EXIT_OK)
 *   --version     "NAME (gbatch) VERSION" on stdout; status 0
 *   a bad option  "NAME: what was wrong" and "Try 'NAME --help' for more
 *   or argument   information." on stderr; status 2 (EXIT_USAGE)
 *
 * --help and --version are the rows of longopts so named, whatever their
 * values: gq's -h means --noheader, so its --help has a value of its own.
 * A verb with options of its own (gctl purge --before) describes them in
 * a struct cmd of its own, with verb set: its errors read "gctl: purge:
 * ...", and point to the program's --help.
 */
struct cmd {
	const char		*name;	/* as it runs: "gq", or "sbatch" */
	const char		*verb;	/* gctl purge's "purge"; or NULL */
	void			(*usage)(FILE *);	/* prints --help; or NULL */
	/* For cmd_getopt(): getopt_long()'s, shortopts from its ':'. */
	const char		*shortopts;
	const struct option	*longopts;
	bool			 protocol;	/* --version adds the protocol */
};

/* What cmd_getopt() returns when it has answered the option itself. */
#define CMD_OPT_EXIT	(-2)

/* getopt_long() over argv with cmd's options, as a program's option loop
 * calls it: returns the next option's value (optarg set), -1 after the
 * last (optind at the first argument), or CMD_OPT_EXIT when it has
 * answered --help or --version or said what was wrong with an option: the
 * program then ends with *status. shortopts must start with ':' (after a
 * '+' or '-'), so that a missing value is told from an unknown option;
 * anything else is a programmer's error and aborts. Resetting optind
 * before the first call is the caller's. */
int	cmd_getopt(const struct cmd *, int argc, char **argv, int *status);

/* Prints cmd's usage to stdout; returns EXIT_OK. */
int	cmd_help(const struct cmd *);

/* Prints "NAME (gbatch) VERSION" to stdout (", protocol N" after it for a
 * cmd with protocol set); returns EXIT_OK. */
int	cmd_version(const struct cmd *);

/* Prints the usage error fmt says, as "NAME: [VERB: ]message" and the
 * line that points to --help, to stderr; returns EXIT_USAGE. The message
 * quotes what the user typed, so it is made safe for a terminal
 * (safe-text.h): an escape sequence typed shows as \e, not obeyed. */
int	cmd_usage_error(const struct cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Prints "NAME: msg" and a newline to stderr, msg made safe for a
 * terminal as cmd_usage_error's. */
void	cmd_error(const struct cmd *, const char *msg);

/* Describes the getopt_long() failure just seen (c is '?' or ':'), naming
 * the option, into err: for parsers that report to their caller rather
 * than to the user (client/jobspec.c). argv, shortopts and longopts are
 * what getopt_long() had. */
void	cmd_option_error(int c, char **argv, const char *shortopts,
	    const struct option *longopts, char *err, size_t errlen);

/* Parses a job id: a whole number >= 1. Returns 0 or -1 with err. */
int	cmd_parse_id(const char *, uint64_t *, char *err, size_t errlen);

/* Parses a signal: a name with or without SIG (USR1, SIGUSR1, any case)
 * or a number from 1 to 64. Returns 0 or -1 with err listing names. */
int	cmd_parse_signal(const char *, int *, char *err, size_t errlen);

/* --timeout SECONDS, which every command takes: how long it waits for
 * gbatchd (to accept the connection, to take the request, to answer it)
 * before it gives up with exit status 3. 0 waits for ever. */
#define CMD_OPT_TIMEOUT		0x1000	/* getopt_long()'s value for it */
#define CMD_TIMEOUT_LONGOPT	{ "timeout", required_argument, NULL, \
				    CMD_OPT_TIMEOUT }
#define CMD_TIMEOUT_DEFAULT	10
#define CMD_TIMEOUT_MAX		86400

/* Sets *secs from arg (--timeout's value), or when arg is NULL from
 * $GBATCH_TIMEOUT, or else to CMD_TIMEOUT_DEFAULT. Returns 0, or -1 with
 * err naming the option or variable, what it got and what it accepts. */
int	cmd_timeout(const char *arg, unsigned *secs, char *err,
	    size_t errlen);

/* Prints v as JSON (jansson's flags, e.g. JSON_INDENT(2)) and a newline to
 * stdout: --json's output. Strings come from peers and users, so the C1
 * controls and DEL that jansson leaves raw are written \u-escaped
 * (safe-text.h); the value printed is exactly v. */
void	cmd_json_print(const json_t *v, size_t flags);

/* Splits a comma-separated list: calls fn for every non-empty item.
 * Returns 0, -1 when fn fails (err set by fn) or an item is empty. */
int	cmd_split(const char *list, const char *what,
	    int (*fn)(const char *item, void *arg, char *err, size_t errlen),
	    void *arg, char *err, size_t errlen);
/* A cmd_split() callback for --jobs lists: appends item, a job id, to the
 * JSON array arr. Returns 0, or -1 with err naming --jobs. */
int	cmd_add_id(const char *item, void *arr, char *err, size_t errlen);
/* The same for listings, which also take an array's tasks as users write
 * them ("42_7", "42_[3-5]"): those go in as strings, the controller's
 * JOB_LIST and JOB_ACCT "ids" take both. */
int	cmd_add_job(const char *item, void *arr, char *err, size_t errlen);
/* A cmd_split() callback for lists of names: appends item to the JSON
 * array arr. Returns 0. */
int	cmd_add_string(const char *item, void *arr, char *err, size_t errlen);
/* Whether s is one of the strings of the JSON array list; a NULL or empty
 * list holds every string (no selection given). */
bool	cmd_list_has(const json_t *list, const char *s);

/* Gives stdout a 64 KiB buffer, fully buffered: a listing of thousands of
 * lines goes out in large writes. Call it before the first output. */
void	cmd_stdout_buffer(void);

/* Whether the program runs under name: argv0 without its directories is
 * it (gsub installed as sbatch, gcancel as scancel, grun as srun, sacct as
 * sstat). */
bool	cmd_runs_as(const char *argv0, const char *name);

#endif
