/* schedule.h: the scheduling passes (schedule.c). Requests and node reports
 * change jobs through job-change.c, which tells the core (core.h); the
 * end-of-pass event (commit.c) runs one pass when something changed, and a
 * timer runs one when the core asked to be woken (a demotion, a promotion
 * or a begin time is due). A pass starts jobs and preempts jobs in the
 * same transaction as the requests of that loop pass. */
#ifndef GB_CTL_SCHEDULE_H
#define GB_CTL_SCHEDULE_H

struct event_base;

void	schedule_init(struct event_base *);
void	schedule_free(void);
/* Runs one pass: hands the core the jobs whose begin time or dependencies
 * came, then starts and launches, preempts, and arms the next wake-up.
 * Whether one is wanted is core_is_dirty(). */
void	schedule_run(void);

#endif
