/* gang-test.c: the rules of a job whose parts run as one (gang.c). A gang
 * never runs partly: the first part to fail stops the others and is what
 * the gang ends as; a part killed by SIGKILL requeues the gang a few times
 * unless it opted out; a part that completes, or ends while the gang is
 * stopping anyway, waits; a lost node ends its part and stops the others
 * through a preemption, and an interactive job whose node is lost ends
 * NODE_FAIL; a batch_once job (sbatch's) ends with its batch script, rank
 * 0, however that ended. */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/gang.h"
#include "tests/unit/tap.h"

/* The rules name nodes only through the name function they are given. */
struct node {
	const char	*name;
};

static struct node	nodes[3] = { { "n1" }, { "n2" }, { "n3" } };

static const char *
test_node_name(const struct node *n)
{
	return (n->name);
}

/* A running gang of n parts on n1, n2, n3, none ended. */
static void
gang_make(struct gang *g, struct job_part *parts, size_t n)
{
	size_t	i;

	memset(g, 0, sizeof *g);
	memset(parts, 0, n * sizeof *parts);
	for (i = 0; i < n; i++) {
		parts[i].node = &nodes[i];
		parts[i].mask = 0xf;
	}
	g->state = JOB_RUNNING;
	g->parts = parts;
	g->nparts = n;
	g->node_name = test_node_name;
}

/* Part rank ends as state with exit code and signal. */
static void
part_end(struct job_part *p, enum job_state state, int code, int sig)
{
	p->ended = true;
	p->end_state = state;
	p->has_exit = true;
	p->exit_code = code;
	p->signal = sig;
}

static const char *
step_name(enum gang_step s)
{
	static const char *const names[] = { "WAIT", "STOP_OTHERS",
	    "REQUEUE", "END" };

	return (names[s]);
}

#define is_step(got, want, ...) do {					\
	enum gang_step tg = (got), tw = (want);				\
	if (!ok(tg == tw, __VA_ARGS__))					\
		printf("#   got %s, want %s\n", step_name(tg),		\
		    step_name(tw));					\
} while (0)

static void
test_part_ended(void)
{
	struct gang	g;
	struct job_part	parts[3];
	char		detail[200];
	size_t		left;

	/* A part that completes waits for the others. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_COMPLETED, 0, 0);
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_WAIT, "a part that completed waits for the other");
	is_int(left, 1, "one part left");

	/* The first failure stops the others. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_FAILED, 3, 0);
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "a part that failed first stops the others");
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_TIMEOUT, 0, 15);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "so does one past its time limit");
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_CANCELLED, 0, 15);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "and one cancelled on its own node");
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_FAILED, 0, 15);
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "a SIGTERM is a failure, not a kill");

	/* Once the gang is stopping for any reason, a failure only waits. */
	gang_make(&g, parts, 2);
	g.stopping = true;
	part_end(&parts[0], JOB_FAILED, 7, 0);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_WAIT, "a failure after the first waits");
	gang_make(&g, parts, 2);
	g.state = JOB_PREEMPTING;
	part_end(&parts[0], JOB_FAILED, 7, 0);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_WAIT, "a failure while preempted waits: the others are "
	    "stopping already");
	gang_make(&g, parts, 2);
	g.cancel_requested = true;
	part_end(&parts[0], JOB_CANCELLED, 0, 15);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_WAIT, "a part of a cancelled gang waits");
	gang_make(&g, parts, 2);
	g.cancel_requested = true;
	part_end(&parts[0], JOB_FAILED, 0, 9);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_WAIT, "even killed, a part of a cancelled gang waits");

	/* Killed from outside: requeued, a few times at most. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_FAILED, 0, 9);
	detail[0] = '\0';
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_REQUEUE, "a part killed by SIGKILL requeues the gang");
	is_str(detail, "rank 1 on n2 was killed; stopping the others to "
	    "requeue", "and says which part, on which node");
	gang_make(&g, parts, 2);
	g.restarts = GANG_KILLED_REQUEUES - 1;
	part_end(&parts[0], JOB_FAILED, 0, 9);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_REQUEUE, "requeued after %d restarts", GANG_KILLED_REQUEUES -
	    1);
	is_str(detail, "rank 0 on n1 was killed; stopping the others to "
	    "requeue", "rank 0 named too");
	gang_make(&g, parts, 2);
	g.restarts = GANG_KILLED_REQUEUES;
	part_end(&parts[0], JOB_FAILED, 0, 9);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "after %d restarts a killed part fails the "
	    "gang", GANG_KILLED_REQUEUES);
	gang_make(&g, parts, 2);
	g.no_requeue = true;
	part_end(&parts[0], JOB_FAILED, 0, 9);
	is_step(gang_part_ended(&g, 0, &left, detail, sizeof detail),
	    GANG_STOP_OTHERS, "a --no-requeue gang is never requeued: it "
	    "fails");

	/* The last part ends the gang, however it ended. */
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	part_end(&parts[1], JOB_COMPLETED, 0, 0);
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_END, "the last part to complete ends the gang");
	is_int(left, 0, "no part left");
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	part_end(&parts[1], JOB_FAILED, 0, 9);
	is_step(gang_part_ended(&g, 1, &left, detail, sizeof detail),
	    GANG_END, "a killed last part ends it too: nothing to stop");

	/* Three parts: the others are counted. */
	gang_make(&g, parts, 3);
	part_end(&parts[2], JOB_COMPLETED, 0, 0);
	is_step(gang_part_ended(&g, 2, &left, detail, sizeof detail),
	    GANG_WAIT, "three parts: the first to complete waits");
	is_int(left, 2, "two parts left");
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	is_int(gang_left(&g), 1, "then one");
}

static void
test_end(void)
{
	struct gang	g;
	struct gang_end	end;
	struct job_part	parts[3];
	char		detail[200];

	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	part_end(&parts[1], JOB_COMPLETED, 0, 0);
	detail[0] = '\0';
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_COMPLETED,
	    "every part completed: COMPLETED");
	ok(end.rank == -1 && end.has_exit && detail[0] == '\0',
	    "no part named, the exit known");

	/* Rank 0 fails of its peer's failure (exit 7 on the SIGTERM that
	 * stops it); rank 1 failed first. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_FAILED, 3, 0);
	parts[1].first_failure = true;
	part_end(&parts[0], JOB_FAILED, 7, 0);
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_FAILED,
	    "the first failure decides: FAILED");
	ok(end.rank == 1 && end.exit_code == 3 && end.signal == 0 &&
	    end.has_exit, "with its rank and exit, not the lower rank's");
	is_str(detail, "rank 1 on n2 ended FAILED", "the text names it");

	/* Stopped after the first failure, the others are CANCELLED. */
	gang_make(&g, parts, 3);
	part_end(&parts[0], JOB_CANCELLED, 0, 15);
	part_end(&parts[1], JOB_CANCELLED, 0, 15);
	part_end(&parts[2], JOB_TIMEOUT, 0, 9);
	parts[2].first_failure = true;
	parts[2].message = "time limit reached";
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_TIMEOUT,
	    "a gang ends TIMEOUT as its part did");
	ok(end.rank == 2 && end.signal == 9, "rank 2, signal 9");
	is_str(detail, "rank 2 on n3 ended TIMEOUT: time limit reached",
	    "the part's message follows");

	/* No first failure (the gang was preempted or lost a node): the
	 * lowest rank that failed on its own, not a cancelled one. */
	gang_make(&g, parts, 3);
	part_end(&parts[0], JOB_CANCELLED, 0, 15);
	part_end(&parts[1], JOB_FAILED, 1, 0);
	part_end(&parts[2], JOB_NODE_FAIL, 0, 0);
	parts[2].has_exit = false;
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_FAILED,
	    "no first failure: the lowest rank that failed, not one "
	    "cancelled");
	is_int(end.rank, 1, "rank 1");
	gang_make(&g, parts, 3);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	part_end(&parts[1], JOB_CANCELLED, 0, 15);
	part_end(&parts[2], JOB_NODE_FAIL, 0, 0);
	parts[2].has_exit = false;
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_NODE_FAIL,
	    "a lost part ends it NODE_FAIL before a cancelled one");
	ok(end.rank == 2 && !end.has_exit, "rank 2, no exit known");
	is_str(detail, "rank 2 on n3 ended NODE_FAIL", "named");

	/* Only cancelled parts besides completed ones. */
	gang_make(&g, parts, 3);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	part_end(&parts[1], JOB_CANCELLED, 0, 15);
	part_end(&parts[2], JOB_CANCELLED, 0, 9);
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_CANCELLED,
	    "cancelled parts: CANCELLED");
	ok(end.rank == 1 && end.signal == 15, "the lowest cancelled rank");

	/* A completed first failure cannot be: a completed part is never
	 * what the gang ends as. */
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	parts[0].first_failure = true;
	part_end(&parts[1], JOB_COMPLETED, 0, 0);
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_COMPLETED,
	    "a completed part never decides");

	/* A short buffer is cut, not overrun. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_FAILED, 3, 0);
	parts[1].first_failure = true;
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	memset(detail, 'x', sizeof detail);
	(void)gang_end(&g, &end, detail, 8);
	ok(strlen(detail) == 7 && detail[8] == 'x', "the text fits its "
	    "buffer");
}

static void
test_lost(void)
{
	struct gang	g;
	struct job_part	parts[3];
	enum job_state	to;

	gang_make(&g, parts, 1);
	is_int(gang_lost(&g, 0, &to), GANG_LOST_ALONE,
	    "a job of one part is requeued alone");
	is_int(to, JOB_PENDING, "back to PENDING");
	g.interactive = true;
	is_int(gang_lost(&g, 0, &to), GANG_LOST_ALONE, "so is an "
	    "interactive one");
	is_int(to, JOB_NODE_FAIL, "which ends NODE_FAIL: its session is "
	    "broken");
	gang_make(&g, parts, 2);
	is_int(gang_lost(&g, -1, &to), GANG_LOST_ALONE,
	    "a gang with no part on the node: as a job of one part");

	gang_make(&g, parts, 2);
	is_int(gang_lost(&g, 1, &to), GANG_LOST_STOP_OTHERS,
	    "a gang losing a part stops the others");
	gang_make(&g, parts, 3);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	is_int(gang_lost(&g, 1, &to), GANG_LOST_STOP_OTHERS,
	    "while any other part runs");
	gang_make(&g, parts, 2);
	g.state = JOB_PREEMPTING;
	is_int(gang_lost(&g, 1, &to), GANG_LOST_STOP_OTHERS,
	    "preempted already: the others are told again");
	gang_make(&g, parts, 2);
	g.stopping = true;
	is_int(gang_lost(&g, 0, &to), GANG_LOST_WAIT,
	    "stopping already: it waits for the others");
	gang_make(&g, parts, 2);
	g.cancel_requested = true;
	is_int(gang_lost(&g, 0, &to), GANG_LOST_WAIT,
	    "cancelled: it waits for the others");

	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_FAILED, 0, 15);
	g.stopping = true;
	g.state = JOB_PREEMPTING;
	is_int(gang_lost(&g, 1, &to), GANG_LOST_END,
	    "the lost part was the last: the gang ends");
	is_int(to, JOB_PENDING, "requeued");
	g.interactive = true;
	(void)gang_lost(&g, 1, &to);
	is_int(to, JOB_NODE_FAIL, "interactive: NODE_FAIL");
	g.interactive = false;
	g.cancel_requested = true;
	(void)gang_lost(&g, 1, &to);
	is_int(to, JOB_CANCELLED, "cancelled while preempted: CANCELLED");
	/* A cancel on its way to a running job does not make a lost node's
	 * job CANCELLED, where a reported end would (requeue_end): kept as
	 * it is, questioned in gang.h. */
	g.state = JOB_RUNNING;
	(void)gang_lost(&g, 1, &to);
	is_int(to, JOB_PENDING, "cancelled while running, its last part "
	    "lost: requeued, not CANCELLED");
	gang_make(&g, parts, 1);
	g.cancel_requested = true;
	(void)gang_lost(&g, 0, &to);
	is_int(to, JOB_PENDING, "so is a job of one part cancelled while "
	    "running");
	/* The lost part's own mark does not count. */
	gang_make(&g, parts, 2);
	part_end(&parts[1], JOB_NODE_FAIL, 0, 0);
	is_int(gang_lost(&g, 1, &to), GANG_LOST_STOP_OTHERS,
	    "the lost part, marked already, is not counted as left");
}

/* sbatch's: rank 0 runs the script, the others hold their nodes. */
static void
test_batch_once(void)
{
	struct job_part		parts[3];
	struct gang		g;
	struct gang_end		end;
	enum gang_step		step;
	char			detail[256];
	size_t			left;

	gang_make(&g, parts, 3);
	g.batch_once = true;
	/* The script completes: the holders are stopped, and the job
	 * completes as rank 0 did, though they end by SIGTERM. */
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	step = gang_part_ended(&g, 0, &left, detail, sizeof detail);
	is_str(step_name(step), "STOP_OTHERS",
	    "batch_once: rank 0 completing stops the others");
	is_int(left, 2, "batch_once: two parts left");
	parts[0].first_failure = true;
	g.stopping = true;
	part_end(&parts[1], JOB_FAILED, 0, 15);
	is_str(step_name(gang_part_ended(&g, 1, &left, detail,
	    sizeof detail)), "WAIT", "batch_once: a holder stopped waits");
	part_end(&parts[2], JOB_FAILED, 0, 15);
	is_str(step_name(gang_part_ended(&g, 2, &left, detail,
	    sizeof detail)), "END", "batch_once: the last ends the job");
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_COMPLETED,
	    "batch_once: it ends as rank 0, COMPLETED");
	ok(end.rank == 0 && end.has_exit && end.exit_code == 0 &&
	    end.signal == 0, "batch_once: with rank 0's exit");
	is_str(detail, "", "batch_once: no message for a completed script");

	/* The script fails with 4: the job fails with 4, named. */
	gang_make(&g, parts, 3);
	g.batch_once = true;
	part_end(&parts[0], JOB_FAILED, 4, 0);
	is_str(step_name(gang_part_ended(&g, 0, &left, detail,
	    sizeof detail)), "STOP_OTHERS", "batch_once: a failed script too");
	parts[0].first_failure = true;
	part_end(&parts[1], JOB_FAILED, 0, 15);
	part_end(&parts[2], JOB_FAILED, 0, 15);
	is_int(gang_end(&g, &end, detail, sizeof detail), JOB_FAILED,
	    "batch_once: it fails as rank 0");
	is_int(end.exit_code, 4, "batch_once: with its status");
	is_str(detail, "rank 0 on n1 ended FAILED", "batch_once: named");

	/* A holder killed before the script ends: the gang's rules. */
	gang_make(&g, parts, 2);
	g.batch_once = true;
	part_end(&parts[1], JOB_FAILED, 0, 9);
	is_str(step_name(gang_part_ended(&g, 1, &left, detail,
	    sizeof detail)), "REQUEUE", "batch_once: a holder killed "
	    "requeues as any part");
	/* Not batch_once: rank 0 completing waits for the others. */
	gang_make(&g, parts, 2);
	part_end(&parts[0], JOB_COMPLETED, 0, 0);
	is_str(step_name(gang_part_ended(&g, 0, &left, detail,
	    sizeof detail)), "WAIT", "per task: rank 0 completing waits");
}

int
main(void)
{
	test_part_ended();
	test_batch_once();
	test_end();
	test_lost();
	return (tap_done());
}
