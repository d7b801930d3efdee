/* schedule.h: the scheduling passes (schedule.c). Requests and node reports
 * change jobs through job-change.c, which tells the core (core.h); the
 * end-of-pass event (commit.c) runs one pass when something changed, and
 * the core's own timer (core_wake_arm) marks it changed when a demotion, a
 * promotion or a begin time is due. A pass starts jobs and preempts jobs in the
 * same transaction as the requests of that loop pass. */
#ifndef GB_CTL_SCHEDULE_H
#define GB_CTL_SCHEDULE_H

/* Runs one pass: hands the core the jobs whose begin time or dependencies
 * came, then starts and launches, preempts, and arms the next wake-up.
 * Whether one is wanted is core_is_dirty(). */
void	schedule_run(void);

#endif
