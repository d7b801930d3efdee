/* fair.h: how fairly a replay shared the GPUs between users, against the
 * shares of a fair_tree (fair-tree.h). Time is cut into fixed windows from
 * an origin (gsim's: the first submit, FAIR_WINDOW_MS long). In a window w:
 *
 *   - a user competes when at some instant of w one of its jobs waited or
 *     ran; it waited when one of its jobs waited (submitted or preempted,
 *     not running);
 *   - received(u, w) is the GPU-time u's jobs ran in w, and wanted(u, w)
 *     the GPU-time they asked for in w: each job's GPUs times its time in
 *     w waiting or running;
 *   - delivered(w) is the GPU-time all jobs ran in w, and entitled(u, w)
 *     u's part of it shared out by weighted max-min fairness down the tree
 *     of shares, none above what it wanted (fair_tree_fill): where every
 *     user wants more than its share, delivered(w) times its share
 *     renormalised over the users that compete in w;
 *   - w counts when two users or more compete and delivered(w) > 0; a pair
 *     (u, w) counts when w counts and u waited in w.
 *
 * min_share is the lowest received / entitled over the pairs that count;
 * each user's received and entitled are summed over its pairs that count,
 * and jain is Jain's index of those users' ratios. docs/scheduling.md
 * ("Measuring it in gsim") says why these. Pure: no I/O, no clock. */
#ifndef GB_SIM_FAIR_H
#define GB_SIM_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/fair-tree.h"

#define FAIR_WINDOW_MS	(6 * 3600 * INT64_C(1000))

/* What each user did in each window of one replay. */
struct fair_usage;

/* The tree must keep its nodes while the usage lives (no node added). */
struct fair_usage	*fair_usage_create(const struct fair_tree *,
			    int64_t origin_ms, int64_t window_ms);
void			 fair_usage_free(struct fair_usage *);

/* A job of user node u held gpus GPUs over [from, to) (a fraction of
 * one for a job of shards of a GPU): its GPU-time goes to each window it
 * overlaps, split at the boundaries, to the ms. Times before the origin
 * count from the origin. */
void	fair_usage_ran(struct fair_usage *, size_t u, double gpus,
	    int64_t from, int64_t to);
/* A job of user node u, of gpus GPUs, waited over [from, to); an empty
 * stretch is no wait. */
void	fair_usage_waited(struct fair_usage *, size_t u, double gpus,
	    int64_t from, int64_t to);

/* The windows seen so far (up to the last instant given), and the GPU-ms
 * node u's jobs ran and wanted in window w (0 past the last). */
size_t		fair_usage_windows(const struct fair_usage *);
uint64_t	fair_usage_gpu_ms(const struct fair_usage *, size_t u,
		    size_t w);
uint64_t	fair_usage_want_ms(const struct fair_usage *, size_t u,
		    size_t w);

struct fair_figures {
	size_t		 nnodes;	/* the tree's size */
	/* Per node (an account: the sums of the users below it): GPU-ms
	 * received and entitled over the pairs that count, and GPU-ms run
	 * over the whole replay. */
	double		*received;
	double		*entitled;
	uint64_t	*gpu_ms;
	double		 jain;		/* NAN: no user's pair counts */
	double		 min_share;	/* NAN: no pair counts */
	size_t		 windows;	/* all, and those that count */
	size_t		 windows_counted;
};

/* Fills f (freed with fair_figures_free) from u. */
void	fair_usage_figures(const struct fair_usage *, struct fair_figures *);
void	fair_figures_free(struct fair_figures *);

/* Jain's index of x[0..n-1]: (sum x)^2 / (n sum x^2), 1 when all are
 * equal, 1/n when one has everything; NAN when n is 0 or every x is 0. */
double	fair_jain(const double *x, size_t n);

#endif
