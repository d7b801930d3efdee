/* worker-test.c: daemon/controller/worker.c, a function on a thread of its
 * own: the loop hears of its end through a real pipe and a real libevent
 * loop, and a worker joined before that is never reported. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon/controller/worker.h"
#include "tests/unit/tap.h"

struct t_job {
	atomic_bool		 go;	/* the loop lets fn finish */
	uint64_t		 sum;	/* fn's work */
	int			 done;	/* done() calls */
	struct event_base	*base;
};

static void
t_fn(void *arg)
{
	struct t_job	*j = arg;
	uint64_t	 i;

	while (!atomic_load(&j->go))
		usleep(1000);
	for (i = 1; i <= 1000000; i++)
		j->sum += i;
}

static void
t_done(void *arg)
{
	struct t_job	*j = arg;

	j->done++;
	event_base_loopbreak(j->base);
}

static void
t_go(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	atomic_store(&((struct t_job *)arg)->go, true);
}

int
main(void)
{
	struct event_base	*base = event_base_new();
	struct t_job		 j = { false, 0, 0, base };
	struct t_job		 k = { true, 0, 0, base };
	struct timeval		 soon = { 0, 20000 }, limit = { 10, 0 };
	struct worker		*w;
	struct event		*go;

	/* done() runs in the loop, after fn, and once. */
	w = worker_start(base, t_fn, t_done, &j);
	ok(w != NULL, "a worker starts");
	go = evtimer_new(base, t_go, &j);
	evtimer_add(go, &soon);
	event_base_loopexit(base, &limit);
	event_base_dispatch(base);
	is_int(j.done, 1, "done() was called once, from the loop");
	ok(j.sum == UINT64_C(500000500000), "after fn had done its work");

	/* Joined before the loop hears of it: no done(), nothing left. */
	w = worker_start(base, t_fn, t_done, &k);
	ok(w != NULL, "a second worker starts");
	worker_join(w);
	ok(k.sum == UINT64_C(500000500000), "join waits for fn");
	event_base_loopexit(base, &soon);
	event_base_dispatch(base);
	is_int(k.done, 0, "a joined worker's done() is never called");
	worker_join(NULL);

	event_free(go);
	event_base_free(base);
	return (tap_done());
}
