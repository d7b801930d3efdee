/* array.h: job-array task sets as sbatch's --array writes them, parsed,
 * kept in one normal form and walked. Pure: no I/O, no clock. gsub checks a
 * user's text with it; gbatchd keeps a job's pending tasks in it and takes
 * them off one by one as they start.
 *
 *	7		one task
 *	0-99		tasks 0 to 99
 *	0-20:2		0, 2, 4, ... 20 (a last task off the step is cut
 *			down to the one below it: 0-9:4 is 0, 4, 8)
 *	1,3,5-7		items joined by ','; duplicates and overlaps merge
 *	0-99%10		any of these, then at most 10 tasks running at once
 *
 * The normal form is canonical: two texts naming the same tasks give the
 * same ranges, so array_format() gives them the same text. It is what
 * this rule makes of the tasks in ascending order, from the lowest:
 *
 *	if the next task is this one plus 1, take the longest run of
 *	consecutive tasks (a range of step 1, "3-5" or "3-4");
 *	else if this task and the next two are evenly spaced, take the
 *	longest run of tasks at that spacing (a range of step > 1 and at
 *	least 3 tasks, "0-20:2");
 *	else take this task alone (a range with first == last, step 1).
 *
 * So the ranges are sorted and disjoint, and no range reaches past the
 * first task of the next. */
#ifndef GB_ARRAY_H
#define GB_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_TASK_MAX	9999999u	/* highest task id accepted */
#define ARRAY_MAX_TASKS	100000u		/* most tasks in one array */

/* Tasks first, first + step, ... last; last is a member. */
struct array_range {
	uint32_t	 first, last, step;
};

struct array_set {
	struct array_range	*r;		/* normal form */
	size_t			 n;
	uint32_t		 throttle;	/* 0: none */
};

/* Parses s ("0-99", "1,3,5-7", "0-20:2", each optionally followed by
 * "%N", N >= 1) into a, in normal form; a->r is freed with array_free.
 * Returns 0, or -1 with err saying what is wrong, naming the text, and
 * what is accepted; a is then empty. Refused: empty text or items,
 * non-numbers, a task above ARRAY_TASK_MAX, step 0, a last task below
 * the first, more than ARRAY_MAX_TASKS tasks in all, a bad %N, and
 * anything after an item. The work is bounded by the text's items and
 * the span of its tasks, not by how often they repeat. */
int		 array_parse(const char *s, struct array_set *a, char *err,
		     size_t errlen);
/* Frees a's ranges and empties it; an empty set is fine. */
void		 array_free(struct array_set *a);

/* Writes a's normal form into buf (cut to len, NUL-terminated when
 * len > 0): "7", "3-5" and "0-20:2" joined by ','; with throttle and
 * a->throttle > 0, "%N" after them. An empty set is "". Returns the
 * length the whole text needs, as snprintf does. array_parse() of the
 * text gives a back. */
size_t		 array_format(const struct array_set *a, bool throttle,
		     char *buf, size_t len);

/* How many tasks a holds. */
uint32_t	 array_count(const struct array_set *a);
/* The lowest and highest task; both 0 for an empty set. */
uint32_t	 array_min(const struct array_set *a);
uint32_t	 array_max(const struct array_set *a);
/* Whether task is in a (a binary search over the ranges). */
bool		 array_has(const struct array_set *a, uint32_t task);

/* Sets *task to the lowest task above after (with first, the lowest of
 * all) and returns true; false when there is none. To walk a set:
 *	for (ok = array_next(a, 0, true, &t); ok;
 *	    ok = array_next(a, t, false, &t)) */
bool		 array_next(const struct array_set *a, uint32_t after,
		     bool first, uint32_t *task);

/* Takes task out of a, which must be in normal form, and keeps it so,
 * splitting a range where needed. Returns whether task was there. Only
 * the ranges near task are rebuilt (all of them at worst), never task by
 * task, so taking the lowest task of 0-9999 is cheap. */
bool		 array_remove(struct array_set *a, uint32_t task);

/* Parses a job id as users write it for arrays: "42" (the whole job or
 * array), "42_7" (one task) or "42_[3-5,9]" (tasks in array_parse's
 * syntax, without %N). Ids are 1 to 2^63-1 in decimal. Sets *id and
 * *tasks (empty, r NULL and n 0, for a plain id; freed with array_free).
 * Returns 0, or -1 with err naming the text and the accepted forms; *id
 * is then 0 and *tasks empty. */
int		 array_jobid_parse(const char *s, uint64_t *id,
		     struct array_set *tasks, char *err, size_t errlen);

#endif
