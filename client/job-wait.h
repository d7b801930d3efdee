/* job-wait.h: waiting for jobs to end (gsub --wait, gq --wait), as a
 * workflow engine waits on sbatch --wait. The controller is asked for the
 * jobs' states now and then over a connection kept between asks (often at
 * first, then once a second), and asked again over a new one when it went
 * away, so a controller restart only delays the answer. */
#ifndef GB_JOB_WAIT_H
#define GB_JOB_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a job ended, from its JOB_LIST record. */
struct job_wait_end {
	uint64_t	 id;
	/* The job whose end this is, as users write it: "42", or a job
	 * array's task that did not complete, "42_3". */
	char		 name[32];
	char		 state[16];	/* a finished state's name */
	bool		 has_exit;
	int		 exit_code;
	int		 signal;	/* 0: none */
	uint64_t	 time_limit;	/* seconds, 0: none */
	char		 message[256];	/* the controller's word, or "" */
};

/* Waits until each of the n jobs has ended, filling ends[i] for ids[i].
 * A job array's id waits for every task of it; its end is the first task
 * that did not complete, else the last one.
 * timeout_s bounds each call (0: none). notice, when not NULL, is called
 * once with a line saying the controller cannot be reached while the wait
 * goes on. Returns 0, or an exit status (EXIT_REFUSED for a job that does
 * not exist, EXIT_PERMISSION, ...) with err set. */
int	job_wait(const uint64_t *ids, size_t n, unsigned timeout_s,
	    void (*notice)(const char *), struct job_wait_end *ends, char *err,
	    size_t errlen);

/* The exit status a shell gives for a job that ended so: 0 for COMPLETED,
 * its exit code, 128 + the signal that killed it, else 1. Unless it
 * completed, why says how it ended: "job 42 TIMEOUT: time limit of 5:00
 * reached", the controller's message after the state. */
int	job_wait_status(const struct job_wait_end *, char *why, size_t len);

#endif
