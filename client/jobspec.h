/* jobspec.h: what gsub submits, from its command line and from the #GSUB
 * directives at the top of the script (as sbatch reads #SBATCH). Both go
 * through one option table and one validator, so a directive accepts what
 * the command line accepts and says so the same way; the command line wins
 * over a directive. */
#ifndef GB_JOBSPEC_H
#define GB_JOBSPEC_H

#include <sys/types.h>

#include <getopt.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/job-req.h"
#include "common/outpat.h"

/* The default output file (common/outpat.h has the one copy). */
#define JOBSPEC_DEFAULT_OUTPUT	OUTPAT_DEFAULT
/* sbatch's, when gsub runs as sbatch (jobspec_sbatch). */
#define JOBSPEC_SBATCH_OUTPUT	"slurm-%j.out"
/* A job array's, a file per task. */
#define JOBSPEC_ARRAY_OUTPUT	OUTPAT_ARRAY_DEFAULT
#define JOBSPEC_SBATCH_ARRAY_OUTPUT	"slurm-%A_%a.out"
/* The largest script: the request's (common/job-req.h). */
#define JOBSPEC_MAX_SCRIPT	((unsigned)JOB_REQ_MAX_SCRIPT)

enum jobspec_action {
	JOBSPEC_SUBMIT = 0,
	JOBSPEC_HELP,
	JOBSPEC_VERSION,
};

struct jobspec;

struct jobspec	*jobspec_create(void);
void		 jobspec_free(struct jobspec *);
/* Takes sbatch's defaults where they differ from gsub's: the output file
 * slurm-%j.out, no GPU where the job names none, and the script run once
 * on the first node rather than once a task (gsub run as sbatch,
 * slurm-compat). */
void		 jobspec_sbatch(struct jobspec *);
/* The options jobspec_parse_args takes, as getopt_long's tables (for a
 * front that reads its own first, srun's). */
const struct option *jobspec_options(const char **shortopts);

/* Parses gsub's command line (options, then the script and its
 * arguments; no script is left to jobspec_load_script()). Sets *action for
 * --help and --version. Returns 0, or -1 with err naming the bad option or
 * value. Uses getopt_long(). */
int		 jobspec_parse_args(struct jobspec *, int argc, char **argv,
		     enum jobspec_action *action, char *err, size_t errlen);

/* How a script read from standard input is named: the job's default
 * name, and "stdin:LINE" in errors. sbatch says "sbatch"; this says where
 * the script came from. */
#define JOBSPEC_STDIN_NAME	"stdin"

/* Reads the script named on the command line (nothing with --wrap): "-",
 * or none when standard input is not a terminal, means standard input (as
 * sbatch). Checks it is a non-empty text script starting with #!, applies
 * its #GSUB directives, then checks that the options agree with each
 * other (--no-requeue and --ckpt-signal/--ckpt-grace). Returns 0, or -1
 * with err naming the path and what is wrong (or PATH:LINE for a bad
 * directive). */
int		 jobspec_load_script(struct jobspec *, char *err, size_t errlen);

/* Applies the #GSUB directives of script text (name is how errors call
 * it): the block of comments and blank lines after the #! line, up to the
 * first other line. Options already given on the command line keep their
 * value, but a bad directive is an error all the same. Returns 0 or -1. */
int		 jobspec_parse_directives(struct jobspec *, const char *text,
		     const char *name, char *err, size_t errlen);

/* Builds the "job" object of JOB_SUBMIT (docs/protocol.md): env is the
 * environment to export from (environ), cwd the directory relative paths
 * start from, mask the submitter's umask, which the job's files are
 * created with. Returns a new reference, or NULL with err set. */
json_t		*jobspec_build(const struct jobspec *, char *const *env,
		     const char *cwd, mode_t mask, char *err, size_t errlen);

/* jobspec_build for this process: its environment (environ), its current
 * directory and umask; the working directory must be
 * one. Returns a new reference, or NULL with err set. */
json_t		*jobspec_build_here(const struct jobspec *, char *err,
		     size_t errlen);

/* The value arg of gsub's option name (its long name: "time",
 * "job-name", "nodes", ...), read and checked as gsub reads it (the
 * option's forms, its member's bounds), as the member of a request it
 * sets: its name in *member (static), its value in *value (a new
 * reference). For a command that takes gsub's values under other names,
 * scontrol update's TimeLimit=, Name=, NumNodes=. Returns 0, or -1 with
 * err saying what is wrong and what is accepted, without the option's
 * name. */
int		 jobspec_opt_value(const char *name, const char *arg,
		     const char **member, json_t **value, char *err,
		     size_t errlen);

/* --parsable: print only the job id. */
bool		 jobspec_parsable(const struct jobspec *);
/* -Q, --quiet (sbatch's): print nothing when the job is submitted. */
bool		 jobspec_quiet(const struct jobspec *);
/* --test-only: say where and when the job would start; submit nothing. */
bool		 jobspec_test_only(const struct jobspec *);
/* -W, --wait: return once the job has ended, with its exit status. */
bool		 jobspec_wait(const struct jobspec *);
/* grun: the command line's words after the options are a command and
 * its arguments (no script is read), and grun's options (--pty, --jobid,
 * --preemptible) are taken; gsub refuses them. */
void		 jobspec_command(struct jobspec *);
bool		 jobspec_pty(const struct jobspec *);
bool		 jobspec_preemptible(const struct jobspec *);
/* --jobid: the running job to attach to; 0 none. */
uint64_t	 jobspec_jobid(const struct jobspec *);
/* -w as given (grun --jobid: the node to attach on), or NULL. */
const char	*jobspec_nodelist(const struct jobspec *);
/* --timeout (or $GBATCH_TIMEOUT, or the default), for client_open(). */
unsigned	 jobspec_timeout(const struct jobspec *);

#endif
