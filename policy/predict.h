/* predict.h: a job's run time and GPU-time predicted from the finished
 * jobs that resemble it (issue 35), for gbatchd and gsim alike. The caller
 * feeds it each finished job, oldest first, and asks about new ones; it
 * answers with the rule that decided, so a listing can say "predicted
 * 2h13m from 7 runs of the user's similar name". Pure: no I/O, no clock.
 *
 * A new job is judged by the first of these that holds enough samples:
 *
 *   PREDICT_BY_NAME       the same user and the same name key (the name
 *                         without digits and separators, predict_name_key)
 *   PREDICT_BY_USER_GPUS  the same user and the same GPU count
 *   PREDICT_BY_GPUS       any user, the same GPU count
 *
 * and by none at all when no rule holds enough: the caller falls back to
 * the time limit, or says it does not know. Each key keeps its last
 * PREDICT_WINDOW runs; the prediction is their median. The reasons for
 * the order, the minimums and the median are in predict.c. */
#ifndef GB_PREDICT_H
#define GB_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The runs each key keeps, newest replacing oldest. */
#define PREDICT_WINDOW		16
/* The keys kept, by default: past it, the key learned from longest ago
 * goes. */
#define PREDICT_MAX_KEYS	65536
/* The samples each rule needs before it is trusted. */
#define PREDICT_MIN_BY_NAME	1
#define PREDICT_MIN_BY_USER_GPUS 2
#define PREDICT_MIN_BY_GPUS	5
/* The longest name key kept, in bytes: a job name is at most 256 bytes
 * (job-req.h), and its key is never longer; a longer name's key is cut
 * here. */
#define PREDICT_KEY_MAX		256

enum predict_how {
	PREDICT_NONE,		/* no rule had enough samples */
	PREDICT_BY_NAME,
	PREDICT_BY_USER_GPUS,
	PREDICT_BY_GPUS
};

/* What a job is recognised by. user and name are borrowed; NULL reads as
 * "" (and a name of no letters has no name key, so it is never judged
 * by name). */
struct predict_job {
	const char	*user;
	const char	*name;
	uint32_t	 gpus;
};

struct predict_guess {
	uint64_t		 run_ms;	/* wall-clock run time */
	uint64_t		 gpu_ms;	/* GPU-time: GPUs x run time */
	enum predict_how	 how;
	size_t			 samples;	/* runs the rule had */
};

struct predict;

/* A predictor with no history, keeping at most max_keys keys (fewer than
 * 3 are taken as 3: one finished job touches three). Aborts when memory
 * is out. */
struct predict	*predict_create(size_t max_keys);
/* Frees p and everything it learned; NULL does nothing. */
void		 predict_free(struct predict *p);

/* Learns that j ran run_ms and took gpu_ms of GPU-time: one more run for
 * its name key (if it has one), its user's GPU count and its GPU count.
 * Feed finished jobs oldest first: each key keeps the newest runs. Aborts
 * when memory is out. */
void		 predict_learn(struct predict *p, const struct predict_job *j,
		     uint64_t run_ms, uint64_t gpu_ms);

/* Fills out with the prediction for j and returns true; on a cold start
 * (no rule has its minimum) returns false with out's times 0, how
 * PREDICT_NONE and samples 0. */
bool		 predict_guess(const struct predict *p,
		     const struct predict_job *j, struct predict_guess *out);

/* Copies to out the GPU-times (GPU-ms) of the runs of the rule
 * predict_guess would use for j, for 2D-Gittins' history of similar jobs:
 * the newest max of them (PREDICT_WINDOW holds them all), oldest first.
 * Returns how many it copied: 0 on a cold start. */
size_t		 predict_similar(const struct predict *p,
		     const struct predict_job *j, uint64_t *out, size_t max);

/* A rule's words for a listing ("user's similar name", ...); "none" for
 * PREDICT_NONE. Static, never NULL. */
const char	*predict_how_name(enum predict_how how);

/* Writes name's key to buf (len bytes, NUL-terminated, cut to fit) and
 * returns the key's full length, as snprintf does. The key is the name's
 * words joined by '-': a word is a run of letters (ASCII letters and any
 * byte beyond ASCII, so UTF-8 letters stay whole); digits and every other
 * ASCII character (punctuation, space, control) only separate words and
 * are dropped, and so is a lone T, t, Z or z right after a digit, ISO
 * 8601's date-time separator and UTC mark. So dates, times, run numbers
 * and the separators between them vanish: "train-2026-11-28-run3",
 * "train_2026.12.01_run17" and "train 20261201T101500Z run 4" are all
 * "train-run", "resnet50_bs256" is "resnet-bs". Case is kept. A NULL or
 * empty name, or one of no letters ("12345"), has the key "". A hex id
 * keeps its letters ("run-a3f9c2" is "run-a-f-c"), so ids do not match. */
size_t		 predict_name_key(const char *name, char *buf, size_t len);

#endif
