/* elastic.c: sharing GPUs among elastic jobs by speedup; see elastic.h. */
#include <stdlib.h>

#include "policy/elastic.h"

/* Gains closer than this are equal: the order decides. */
#define ELASTIC_EPS	1e-12

/* A job to sort: its work left and index. */
struct elastic_key {
	double		left;
	size_t		index;
};

/* Least work left first, then the earlier index. */
static int
elastic_by_left(const void *a, const void *b)
{
	const struct elastic_key	*x = a, *y = b;

	if (x->left != y->left)
		return (x->left < y->left ? -1 : 1);
	return (x->index < y->index ? -1 : x->index > y->index);
}

/* j's work left, seconds on one GPU: the caller's, else the guess from
 * its attained service (elastic.h). */
static double
elastic_left(const struct elastic_job *j)
{
	if (j->left > 0)
		return (j->left);
	return ((double)j->attained / 1000 + ELASTIC_LEFT_GUESS_S);
}

/* Rule 3 over order[0..n) (jobs that hold one GPU at least and are not
 * kept), work[i] the work left of jobs[i]: left GPUs, a best step at a
 * time. Returns what is left. */
static uint32_t
elastic_grow(struct elastic_job *jobs, const size_t *order, size_t n,
    const bool *kept, const double *work, uint32_t left)
{
	struct elastic_job	*j;
	double			 gain, bgain;
	uint32_t		 k, bstep = 0;
	size_t			 i, best;

	while (left > 0) {
		best = n;
		bgain = ELASTIC_EPS;
		for (i = 0; i < n; i++) {
			j = &jobs[order[i]];
			if (kept[order[i]] || j->want == 0 || j->want >= j->max)
				continue;
			for (k = 1; k <= left && j->want + k <= j->max; k++) {
				gain = (j->speedup[j->want + k] -
				    j->speedup[j->want]) / k / work[order[i]];
				if (gain > bgain + ELASTIC_EPS) {
					bgain = gain;
					best = i;
					bstep = k;
				}
			}
		}
		if (best == n)
			break;
		jobs[order[best]].want += bstep;
		left -= bstep;
	}
	return (left);
}

/* Whether j's growth from now to want pays for its restart: the time it
 * saves j on its work left w (seconds on one GPU) is restart_s or more
 * for each GPU it will run on (elastic.h, rule 4). */
static bool
elastic_pays(const struct elastic_job *j, double w, double restart_s)
{
	double	a = j->speedup[j->now], b = j->speedup[j->want];

	return (b > a && a > 0 && w / a - w / b >= restart_s * j->want);
}

uint32_t
elastic_share(struct elastic_job *jobs, size_t n, uint32_t gpus,
    double restart_s)
{
	struct elastic_key	*keys;
	size_t			*order;
	bool			*kept;
	double			*work;
	uint32_t		 left = gpus, d;
	size_t			 i, m = 0;

	order = calloc(n != 0 ? n : 1, sizeof *order);
	keys = calloc(n != 0 ? n : 1, sizeof *keys);
	kept = calloc(n != 0 ? n : 1, sizeof *kept);
	work = calloc(n != 0 ? n : 1, sizeof *work);
	if (order == NULL || keys == NULL || kept == NULL || work == NULL)
		abort();
	for (i = 0; i < n; i++) {
		if (jobs[i].now > jobs[i].max)
			jobs[i].now = jobs[i].max;
		jobs[i].want = 0;
		work[i] = elastic_left(&jobs[i]);
		if (jobs[i].fixed) {
			/* Rule 1. */
			jobs[i].want = jobs[i].now <= left ? jobs[i].now :
			    left;
			left -= jobs[i].want;
			kept[i] = true;
		} else {
			keys[m].left = work[i];
			keys[m++].index = i;
		}
	}
	qsort(keys, m, sizeof *keys, elastic_by_left);
	for (i = 0; i < m; i++)
		order[i] = keys[i].index;
	/* Rule 2. */
	for (i = 0; i < m && left > 0; i++) {
		jobs[order[i]].want = 1;
		left--;
	}
	left = elastic_grow(jobs, order, m, kept, work, left);
	/* Rule 4: growths that do not pay for their restart give their
	 * GPUs back, then shrinks are undone while there are GPUs to undo
	 * them; what is left grows the others again. */
	for (i = 0; i < m; i++) {
		struct elastic_job	*j = &jobs[order[i]];

		if (j->now > 0 && j->want > j->now && !elastic_pays(j,
		    work[order[i]], restart_s)) {
			left += j->want - j->now;
			j->want = j->now;
			kept[order[i]] = true;
		}
	}
	for (i = 0; i < m; i++) {
		struct elastic_job	*j = &jobs[order[i]];

		if (j->now > 0 && j->want > 0 && j->want < j->now &&
		    (d = j->now - j->want) <= left) {
			left -= d;
			j->want = j->now;
			kept[order[i]] = true;
		}
	}
	left = elastic_grow(jobs, order, m, kept, work, left);
	free(work);
	free(kept);
	free(keys);
	free(order);
	return (left);
}
