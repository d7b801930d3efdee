/* slurm-fmt.h: what Slurm's commands print, for the slurm-compat ones
 * (squeue, sacct, sinfo): state names and codes, times as Slurm writes
 * them, and the "%.18i %j"-style formats with their widths. A script that
 * parses Slurm's output parses these the same way. */
#ifndef GB_SLURM_FMT_H
#define GB_SLURM_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "client/job-row.h"
#include "common/job-state.h"

/* A job row's member as text ("" when absent or null), as an integer (0
 * when absent), and its state (PENDING when unreadable). */
const char	*slurm_fmt_row_str(const struct job_row *, enum job_field,
		     char *buf, size_t len);
long long	 slurm_fmt_row_int(const struct job_row *, enum job_field);
enum job_state	 slurm_fmt_row_state(const struct job_row *);
/* The nodes a job's run holds (its comma list), 0 before it runs. */
int		 slurm_fmt_row_nnodes(const struct job_row *);
/* The tasks a job starts on each of its nodes nodes: its tasks_per_node,
 * "gpu" as its GPUs over the nodes; 1 when it said nothing. */
long long	 slurm_fmt_row_tasks(const struct job_row *, long long nodes);
/* The nodes a job holds, else those it asks for (-N), else 1; its tasks
 * on all of them. */
long long	 slurm_fmt_row_nodes(const struct job_row *);
long long	 slurm_fmt_row_ntasks(const struct job_row *);
/* What it asks for beside its GPUs, in all: CPUs per GPU or per task (a
 * CPU job's, one a task at least), memory (MB) per GPU or per node; 0
 * where it took the node's share. */
long long	 slurm_fmt_row_cpus_asked(const struct job_row *);
long long	 slurm_fmt_row_mem_asked(const struct job_row *);
/* The end of a TRES list: "node=N,gres/gpu=G", "node=N" for a CPU job. */
void		 slurm_fmt_node_gpus(const struct job_row *, char *buf,
		     size_t len);
/* Prints the time of the call as Slurm's long listings head them
 * ("Sat Nov 28 10:39:21 2026") and a newline. */
void		 slurm_fmt_dated(FILE *);
/* A cmd_split() callback for -u lists: adds a user to the job_filter
 * arg. */
int		 slurm_fmt_add_user(const char *item, void *arg, char *err,
		     size_t errlen);

/* Slurm's name of a gbatch state (HELD is PENDING, PREEMPTING RUNNING),
 * and its compact code (PD, R, CD, ...). */
const char	*slurm_fmt_state(enum job_state);
const char	*slurm_fmt_state_code(enum job_state);
/* Slurm's reason for a waiting job: gbatch's, Held as JobHeldUser. */
const char	*slurm_fmt_reason(enum job_state, const char *reason);

/* A duration: squeue's %M, M:SS, H:MM:SS or D-HH:MM:SS; with hours,
 * sacct's Elapsed, HH:MM:SS or D-HH:MM:SS. */
void		 slurm_fmt_duration(int64_t secs, bool hours, char *buf,
		     size_t len);
/* sacct's Start and End: local YYYY-MM-DDTHH:MM:SS, or none (0). */
void		 slurm_fmt_date(int64_t t, const char *none, char *buf,
		     size_t len);

/* One item of a format: a field letter (or 0 for literal text) and its
 * width: 0 none, right-justified with '.'. */
struct slurm_item {
	char		 field;
	int		 width;
	bool		 right;
	bool		 at_least;	/* -O's: a longer value is not cut */
	char		 text[64];	/* literal text, field 0 */
};

/* A -O/--Format field's name and the -o letter of the same field. */
struct slurm_long_field {
	const char	*name;
	char		 field;
};

/* Parses a -O/--Format list, "NAME[:[.][WIDTH]][,...]" (a name in any
 * case), into at most max items, as Slurm lays them out: each value at
 * least WIDTH (default 20) wide, left-justified unless '.', never cut,
 * with a space after each but the last. Returns how many, or -1 with err
 * naming what is wrong and the names prog takes. */
int		 slurm_fmt_parse_long(const char *list, const char *prog,
		     const struct slurm_long_field *fields, size_t nfields,
		     struct slurm_item *items, int max, char *err,
		     size_t errlen);

/* Parses an squeue/sinfo -o format ("%.18i %j|%u") into at most max
 * items, each field one of the letters in fields (prog's, for the
 * message). Returns how many, or -1 with err naming what is wrong and
 * what is taken. */
int		 slurm_fmt_parse(const char *fmt, const char *prog,
		     const char *fields, struct slurm_item *items, int max,
		     char *err, size_t errlen);
/* Prints value in item's width (a value longer than a width is cut, as
 * Slurm's are). */
void		 slurm_fmt_put(FILE *, const struct slurm_item *,
		     const char *value);

/* A member of a gbatch account's or association's (ASSOC's names,
 * docs/protocol.md) valued v, as sacctmgr and sshare write the keyword it
 * is: "gres/gpu=8" for max_gpus, GPU-minutes ("gres/gpu=30000") for
 * gpu_hours (whose v is the budget's GPU-seconds, as gbatchd keeps it),
 * sacct's "02:00:00" for max_time, the number otherwise; "" for 0, a
 * limit of none. Into buf; returns buf. */
char		*slurm_fmt_member(const char *member, uint64_t v, char *buf,
		     size_t len);

/* Slurm's print_fields, which sacct, sacctmgr and sshare write their
 * columns with. parsable is 0 for columns, 1 for -p (each value ended by
 * '|'), 2 for -P (values split by '|'); last says the line's last value.
 * In columns a value takes width characters, right-justified (left with a
 * negative width), a longer one cut with a '+' at its end, and a space
 * after it. */
void		 slurm_fmt_field(FILE *, int width, const char *value,
		     int parsable, bool last);
/* A header's name as Slurm prints it: in columns cut to the width without
 * a '+'. After the last, the caller ends the line and, in columns, writes
 * a rule of '-' under each name (slurm_fmt_field_rule). */
void		 slurm_fmt_field_name(FILE *, int width, const char *name,
		     int parsable, bool last);
void		 slurm_fmt_field_rule(FILE *, int width);

/* A line of items built in memory and written whole: a listing of 10,000
 * jobs is 10,000 writes to stdio rather than 100,000. A line longer than
 * the buffer is cut. */
struct slurm_line {
	size_t		 len;
	char		 buf[16384];
};
/* As slurm_fmt_put, onto the line. */
void		 slurm_fmt_line_put(struct slurm_line *,
		     const struct slurm_item *, const char *value);
/* Writes the line and a newline to f, and empties it. */
void		 slurm_fmt_line_end(struct slurm_line *, FILE *);

#endif
