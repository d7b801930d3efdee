/* stale-copy-test.c: what a node's report of a job it runs means
 * (stale-copy.c). Never two copies of a job: a copy of a job that ended,
 * runs elsewhere or waits in a state that cannot run is stopped; a job
 * requeued while its node was away is taken back only when the copy is the
 * whole job, its last run, on GPUs still free; a copy of a job running
 * there is kept, and stopped when its user cancelled it meanwhile. */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/stale-copy.h"
#include "tests/unit/tap.h"

/* A 4-GPU job requeued once while its node was away, reported on GPUs 0-3
 * of a node whose GPUs are all free: it can be taken back. */
static void
copy_make(struct stale_copy *c)
{
	memset(c, 0, sizeof *c);
	c->known = true;
	c->state = JOB_PENDING;
	c->gpus = 4;
	c->restarts = 1;
	c->mask = 0xf;
	c->num_nodes = 1;
	c->has_restarts = true;
	c->report_restarts = 0;
	c->free_mask = 0xff;
}

static void
stop_is(const struct stale_copy *c, const char *why, const char *what)
{
	char			buf[160];
	enum stale_copy_verdict	v = stale_copy_judge(c, buf, sizeof buf);

	if (!ok(v == STALE_COPY_STOP && strcmp(buf, why) == 0,
	    "%s: stopped", what))
		printf("#   got %d, \"%s\"; want \"%s\"\n", (int)v, buf, why);
}

int
main(void)
{
	struct stale_copy	c;
	char			why[160];

	copy_make(&c);
	c.known = false;
	stop_is(&c, "the job has ended", "a copy of a job that ended");

	/* Running, and this node runs a part of it. */
	copy_make(&c);
	c.state = JOB_RUNNING;
	c.here = true;
	strcpy(why, "junk");
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_RUNS,
	    "the copy the controller runs there is kept");
	is_str(why, "", "with no reason to stop it");
	c.state = JOB_PREEMPTING;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_RUNS,
	    "so is one being preempted");
	c.cancel_requested = true;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_CANCEL,
	    "cancelled while its node was away: it is stopped as cancelled");
	c.state = JOB_RUNNING;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_CANCEL,
	    "running or preempting alike");

	/* Running somewhere else. */
	copy_make(&c);
	c.state = JOB_RUNNING;
	c.runs_on = "n2";
	stop_is(&c, "the job was requeued and runs on n2",
	    "requeued and started elsewhere");
	c.state = JOB_PREEMPTING;
	stop_is(&c, "the job was requeued and runs on n2",
	    "requeued, started elsewhere, now preempted");
	c.cancel_requested = true;
	stop_is(&c, "the job was requeued and runs on n2",
	    "elsewhere and cancelled: still the stale copy");

	/* Waiting in a state that cannot run. */
	copy_make(&c);
	c.state = JOB_HELD;
	stop_is(&c, "the job is HELD", "requeued then held");

	/* Pending: taken back, or not. */
	copy_make(&c);
	strcpy(why, "junk");
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_READOPT,
	    "requeued, its last run, its GPUs free: taken back");
	is_str(why, "", "with no reason to stop it");
	c.has_restarts = false;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_READOPT,
	    "a report without a restart count is not judged by it");
	copy_make(&c);
	c.num_nodes = 2;
	c.mask = 0x3;
	c.gpus = 4;
	stop_is(&c, "it is one part of a multi-node job that was requeued",
	    "one part of a gang");
	copy_make(&c);
	c.num_nodes = 2;
	stop_is(&c, "it is one part of a multi-node job that was requeued",
	    "a gang's part holding the job's GPU count still is one part");
	copy_make(&c);
	c.mask = 0x3;
	stop_is(&c, "it is one part of a multi-node job that was requeued",
	    "fewer GPUs than the job asks: a part");
	copy_make(&c);
	c.report_restarts = 0;
	c.restarts = 2;
	stop_is(&c, "it is an older run than the last",
	    "a run older than the last requeue");
	copy_make(&c);
	c.report_restarts = 1;
	c.restarts = 1;
	stop_is(&c, "it is an older run than the last",
	    "a restart count that is not the one before the last requeue");
	copy_make(&c);
	c.free_mask = 0xf0;
	stop_is(&c, "its GPUs were given to another job",
	    "its GPUs were taken meanwhile");
	copy_make(&c);
	c.free_mask = 0xfe;
	stop_is(&c, "its GPUs were given to another job",
	    "one of its GPUs was taken meanwhile");
	copy_make(&c);
	c.mask = 0;
	c.gpus = 0;
	c.free_mask = 0;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_READOPT,
	    "a CPU job's copy holds no GPU: taken back, whatever is free");
	copy_make(&c);
	c.mask = 0xf0;
	c.free_mask = 0xf0;
	is_int(stale_copy_judge(&c, why, sizeof why), STALE_COPY_READOPT,
	    "taken back on the GPUs it runs on, wherever they are");

	/* A short buffer is cut, not overrun. */
	copy_make(&c);
	c.known = false;
	memset(why, 'x', sizeof why);
	(void)stale_copy_judge(&c, why, 5);
	ok(strcmp(why, "the ") == 0 && why[5] == 'x', "the text fits its "
	    "buffer");
	return (tap_done());
}
