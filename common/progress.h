/* progress.h: what a training job says of how it trains (issue 36), one
 * report a line on the file named by its GBATCH_PROGRESS, read by gnoded
 * and passed on in NODE_HEARTBEAT for the scheduler's model of the job's
 * speedup (policy/goodput.c):
 *
 *   step_time=0.31 sync_time=0.08 local_bsz=64 samples=128000
 *   grad_sqr=0.0021 grad_var=0.047
 *
 * key=value words, any order, blanks between; step_time (seconds an
 * optimizer step takes on the job's allocation, 0 < t <= 86400),
 * sync_time (of which gradient synchronisation, 0 <= s <= step_time) and
 * local_bsz (samples a GPU takes a step, 1 to 10^7) are needed; samples
 * (processed in all, this run and before), and grad_sqr and grad_var
 * (Pollux's gradient statistics: the squared norm of the gradient and its
 * variance, both or neither, 0 to 10^30) may follow. A key this gbatch
 * does not know is skipped (a newer trainer's); a line of more than
 * PROGRESS_MAX_LINE bytes, a word that is no key=value, a number that is
 * none or outside its bounds, a key twice, or a needed key missing makes
 * the line bad, and the scheduler sees none of it. The bounds keep a
 * report to what a real job could measure; the scheduler's own rule
 * (never more than a linear speedup) keeps any report from winning a job
 * GPUs. docs/protocol.md has the format for trainers. Pure: no I/O. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define PROGRESS_MAX_LINE	512
#define PROGRESS_MAX_STEP	86400.0
#define PROGRESS_MAX_BSZ	10000000
#define PROGRESS_MAX_SAMPLES	UINT64_C(1000000000000000000)
#define PROGRESS_MAX_GRAD	1e30

struct progress {
	double		 step_time;	/* s */
	double		 sync_time;	/* s */
	uint64_t	 local_bsz;
	uint64_t	 samples;	/* has_samples */
	double		 grad_sqr;	/* has_grad */
	double		 grad_var;
	bool		 has_samples;
	bool		 has_grad;
};

/* Parses line[0..len) (no newline) into *p: 0, or -1 with err naming what
 * is wrong and what is accepted. */
int	progress_parse(const char *line, size_t len, struct progress *p,
	    char *err, size_t errlen);
/* The report as NODE_HEARTBEAT's "progress" entry members (a new object),
 * and back: progress_from_json checks what a peer sent against the same
 * bounds (-1 with err). */
json_t	*progress_to_json(const struct progress *);
int	progress_from_json(const json_t *, struct progress *p, char *err,
	    size_t errlen);

#endif
