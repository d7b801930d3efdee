/* schedule.h: carrying out the policy. A request that may let a job start
 * marks the schedule dirty; the end-of-pass event (commit.c) then runs one
 * pass over a snapshot with the pure sched_fifo_pass() and starts what it
 * picked, in the same transaction as the requests of that pass. */
#ifndef GB_CTL_SCHEDULE_H
#define GB_CTL_SCHEDULE_H

#include <stdbool.h>

void	schedule_mark_dirty(void);
bool	schedule_is_dirty(void);
/* Runs one pass: reasons for every pending job, starts and launches. */
void	schedule_run(void);
/* The scheduler settings changed (gctl reconfigure): schedule under them
 * from the next pass. */
void	schedule_reconfigure(void);
void	schedule_free(void);

#endif
