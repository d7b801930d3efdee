/* node-judge-test.c: when a node is judged silent (node-judge.c). A node
 * that is up is silent once it has been heard from longer ago than
 * node_timeout, not exactly as long; a down node is never judged. After a
 * gap of more than two seconds between two checks (the controller did not
 * run), no node is judged for one heartbeat interval, and a node silent
 * past node_timeout is judged once the grace is over. */
#include <stdio.h>

#include "daemon/controller/node-judge.h"
#include "tests/unit/tap.h"

static void
test_silent(void)
{
	char	why[100];

	ok(!node_judge_silent(true, 100, 95, 5, why, sizeof why),
	    "heard 5 s ago, node_timeout 5 s: not silent");
	ok(node_judge_silent(true, 100, 94, 5, why, sizeof why),
	    "heard 6 s ago: silent");
	is_str(why, "silent for 6 s (node_timeout 5 s)", "saying how long");
	ok(!node_judge_silent(false, 100, 10, 5, why, sizeof why),
	    "a node down already is not judged again");
	ok(!node_judge_silent(true, 100, 100, 5, why, sizeof why),
	    "heard this second: not silent");
	ok(!node_judge_silent(true, 100, 130, 5, why, sizeof why),
	    "heard after now (a clock stepped back): not silent");
	ok(node_judge_silent(true, 1000, 0, 300, why, sizeof why),
	    "never heard from, long after: silent");
	is_str(why, "silent for 1000 s (node_timeout 300 s)", "and how long");
}

static void
test_stall(void)
{
	struct node_judge_clock	c;
	int64_t			stalled;

	/* Checks every second from 100 s; interval 1 s. */
	node_judge_clock_start(&c, 100000);
	ok(node_judge_tick(&c, 101, 101000, 1, &stalled), "a check a second "
	    "later judges");
	is_int(stalled, 0, "no stall");
	ok(node_judge_tick(&c, 103, 103000, 1, &stalled), "2 s later: late, "
	    "but no stall");
	is_int(stalled, 0, "a gap of exactly 2 s is no stall");

	/* Stopped for 8 s: the next check finds the gap. */
	ok(!node_judge_tick(&c, 111, 111001, 1, &stalled), "after a stall "
	    "nothing is judged");
	is_int(stalled, 8001, "the stall's length");
	ok(!node_judge_tick(&c, 111, 111500, 1, &stalled), "nor within the "
	    "interval");
	is_int(stalled, 0, "that check is no stall of its own");
	ok(node_judge_tick(&c, 112, 112000, 1, &stalled), "one interval on, "
	    "nodes are judged again");

	/* A longer interval gives a longer grace; a stall within it starts
	 * the grace again. */
	node_judge_clock_start(&c, 200000);
	ok(!node_judge_tick(&c, 210, 210000, 5, &stalled), "stalled, "
	    "interval 5 s");
	ok(!node_judge_tick(&c, 212, 212000, 5, &stalled) &&
	    !node_judge_tick(&c, 214, 214000, 5, &stalled), "4 s on: still "
	    "the grace");
	ok(!node_judge_tick(&c, 220, 220000, 5, &stalled), "stalled again "
	    "within the grace");
	is_int(stalled, 6000, "6 s");
	ok(!node_judge_tick(&c, 221, 221000, 5, &stalled), "the grace "
	    "counts from the second stall");
	ok(!node_judge_tick(&c, 222, 222000, 5, &stalled) &&
	    !node_judge_tick(&c, 223, 223000, 5, &stalled) &&
	    !node_judge_tick(&c, 224, 224000, 5, &stalled), "and the seconds "
	    "after");
	ok(node_judge_tick(&c, 225, 225000, 5, &stalled), "5 s after it, "
	    "judged");

	/* A clock that stepped back is no stall. */
	node_judge_clock_start(&c, 300000);
	ok(node_judge_tick(&c, 290, 290000, 1, &stalled), "a clock stepped "
	    "back judges on");
	is_int(stalled, 0, "and is no stall");
}

int
main(void)
{
	test_silent();
	test_stall();
	return (tap_done());
}
