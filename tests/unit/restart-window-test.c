/* restart-window-test.c: the window after a controller restart
 * (restart-window.c). Passes wait while a running job's node has not come
 * back, no longer than node_timeout after the start; once they run they
 * never wait again. The window's end comes once, at node_timeout after the
 * start and not before, and passes run from then on. */
#include <stdio.h>

#include "daemon/controller/restart-window.h"
#include "tests/unit/tap.h"

/* Started at 1000 s; node_timeout 5 s: the window ends at 1005 s. */
#define T0	1000
#define TO	5

static void
test_wait(void)
{
	struct restart_window	w;

	restart_window_open(&w, T0);
	ok(!restart_window_is_settled(&w), "a window just opened: passes "
	    "wait");
	is_int(restart_window_wait(&w, T0 * 1000, TO, false), 5000,
	    "at the start, a node missing: wait the whole node_timeout");
	is_int(restart_window_wait(&w, T0 * 1000 + 3250, TO, false), 1750,
	    "3.25 s in: 1.75 s left");
	ok(!restart_window_is_settled(&w), "still waiting");
	is_int(restart_window_wait(&w, T0 * 1000 + 4999, TO, false), 1,
	    "1 ms before the end: 1 ms");
	is_int(restart_window_wait(&w, T0 * 1000 + 5000, TO, false), 0,
	    "at the end: no wait, nodes or not");
	ok(restart_window_is_settled(&w), "settled");
	is_int(restart_window_wait(&w, T0 * 1000 + 5001, TO, false), 0,
	    "and from then on");

	restart_window_open(&w, T0);
	is_int(restart_window_wait(&w, T0 * 1000 + 100, TO, true), 0,
	    "every node back: no wait, long before the end");
	ok(restart_window_is_settled(&w), "settled once they are back");
	is_int(restart_window_wait(&w, T0 * 1000 + 200, TO, false), 0,
	    "a node going away later does not reopen it");

	/* A reload may change node_timeout while the window is open. */
	restart_window_open(&w, T0);
	is_int(restart_window_wait(&w, T0 * 1000 + 1000, 30, false), 29000,
	    "node_timeout 30 s: 29 s left after 1 s");
	is_int(restart_window_wait(&w, T0 * 1000 + 1000, 3, false), 2000,
	    "reloaded to 3 s: 2 s left");
	is_int(restart_window_wait(&w, T0 * 1000 + 1000, 1, false), 0,
	    "reloaded to 1 s: over");

	/* A clock behind the start (stepped back) waits, never negative. */
	restart_window_open(&w, T0);
	is_int(restart_window_wait(&w, T0 * 1000 - 2000, TO, false), 7000,
	    "a clock 2 s behind the start waits 7 s");
}

static void
test_end(void)
{
	struct restart_window	w;
	char			why[100];

	restart_window_open(&w, T0);
	ok(!restart_window_end(&w, T0, TO), "no end at the start");
	ok(!restart_window_end(&w, T0 + TO - 1, TO), "nor 1 s before "
	    "node_timeout");
	ok(!restart_window_is_settled(&w), "passes still wait");
	ok(restart_window_end(&w, T0 + TO, TO), "the end at node_timeout");
	ok(restart_window_is_settled(&w), "passes run from then on");
	is_int(restart_window_wait(&w, T0 * 1000, TO, false), 0,
	    "whatever the nodes");
	ok(!restart_window_end(&w, T0 + TO + 1, TO), "the end comes once");
	ok(!restart_window_end(&w, T0 + 100, TO), "once only");

	/* Settled early (every node back), the end still comes: a node that
	 * ran no job and never came back is down from then. */
	restart_window_open(&w, T0);
	(void)restart_window_wait(&w, T0 * 1000, TO, true);
	ok(!restart_window_end(&w, T0 + 1, TO), "settled early: no end "
	    "before node_timeout");
	ok(restart_window_end(&w, T0 + TO + 3, TO), "a late first check "
	    "still ends it");

	/* Opened again (the controller opened anew in one process). */
	restart_window_open(&w, T0 + 50);
	ok(!restart_window_is_settled(&w) && !restart_window_end(&w, T0 + 50,
	    TO), "a window opened again waits again");

	restart_window_why("n7", why, sizeof why);
	is_str(why, "node n7 did not re-register after the controller "
	    "restarted", "why a node that did not come back is down");
}

int
main(void)
{
	test_wait();
	test_end();
	return (tap_done());
}
