/* stale-copy.h: what a node's report of a job it runs means (in HELLO, as
 * it comes back): the controller runs that job there (it is re-adopted as
 * it is), or the job was requeued while the node was away and can be taken
 * back, or the copy is stale and must stop (the job ended, runs elsewhere,
 * is one part of a gang, an older run, or its GPUs were given away). Never
 * two copies of a job run once a node is back.
 *
 * Pure: the caller (job-report.c) describes the job and the report and
 * carries out the verdict (re-adopts, stops the copy through its checkpoint
 * signal, keeps its GPUs from other jobs until it ends).
 * tests/unit/stale-copy-test.c covers every verdict. */
#ifndef GB_CTL_STALE_COPY_H
#define GB_CTL_STALE_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"

/* A node's report of a copy of a job running there, beside the job as the
 * controller has it. */
struct stale_copy {
	/* The job: known is false once it has ended (it is no longer in
	 * memory). */
	bool		 known;
	enum job_state	 state;
	bool		 here;		/* one of its parts is on the node */
	bool		 cancel_requested;
	const char	*runs_on;	/* running, not here: rank 0's node */
	uint32_t	 gpus;		/* the GPUs it asks for */
	uint32_t	 restarts;
	/* The report: the copy's GPUs, the nodes its run spans, and the
	 * restart count it was launched with (when it says). */
	uint64_t	 mask;
	int64_t		 num_nodes;
	bool		 has_restarts;
	int64_t		 report_restarts;
	/* The node's GPUs no job holds now. */
	uint64_t	 free_mask;
};

enum stale_copy_verdict {
	STALE_COPY_RUNS,	/* it runs there: nothing changes */
	STALE_COPY_CANCEL,	/* it runs there but was cancelled while the
				 * node was away: stop it (SIGTERM) */
	STALE_COPY_STOP,	/* a stale copy: stop it through its
				 * checkpoint signal */
	STALE_COPY_READOPT,	/* requeued while the node was away, still
				 * running there: take it back, PENDING ->
				 * RUNNING on the copy's GPUs */
};

/* Judges report c. For STALE_COPY_STOP, why (len bytes) says why ("the job
 * was requeued and runs on n2"); it is "" otherwise. */
enum stale_copy_verdict stale_copy_judge(const struct stale_copy *c,
		    char *why, size_t len);

#endif
