/* worker.c: a function run on a thread of its own (worker.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/worker.h"

struct worker {
	pthread_t	 th;
	void		(*fn)(void *);
	void		(*done)(void *);
	void		*arg;
	int		 pipe[2];	/* the thread writes a byte at its end */
	struct event	*ev;
};

static void *
worker_main(void *arg)
{
	struct worker	*w = arg;
	char		 c = 0;

	w->fn(w->arg);
	while (write(w->pipe[1], &c, 1) == -1 && errno == EINTR)
		continue;
	return (NULL);
}

static void
worker_free(struct worker *w)
{
	if (w->ev != NULL)
		event_free(w->ev);
	close(w->pipe[0]);
	close(w->pipe[1]);
	free(w);
}

static void
worker_wait(struct worker *w)
{
	int	e;

	if ((e = pthread_join(w->th, NULL)) != 0) {
		/* Only for a thread not ours, or ourselves: a bug. */
		log_error("worker: pthread_join: %s", strerror(e));
		abort();
	}
}

/* The thread has written its byte: it has returned or is about to. */
static void
worker_ended(evutil_socket_t fd, short what, void *arg)
{
	struct worker	*w = arg;
	void		(*done)(void *) = w->done;
	void		*done_arg = w->arg;
	char		 c;

	(void)what;
	if (read(fd, &c, 1) != 1)
		return;
	worker_wait(w);
	worker_free(w);
	done(done_arg);
}

struct worker *
worker_start(struct event_base *base, void (*fn)(void *),
    void (*done)(void *), void *arg)
{
	struct worker	*w = xcalloc(1, sizeof *w);
	int		 e;

	w->fn = fn;
	w->done = done;
	w->arg = arg;
	if (pipe2(w->pipe, O_CLOEXEC | O_NONBLOCK) == -1) {
		log_warn("worker: pipe2: %s", strerror(errno));
		free(w);
		return (NULL);
	}
	w->ev = event_new(base, w->pipe[0], EV_READ |
	    EV_PERSIST, worker_ended, w);
	if (w->ev == NULL || event_add(w->ev, NULL) == -1) {
		log_warn("worker: cannot watch its pipe");
		worker_free(w);
		return (NULL);
	}
	if ((e = pthread_create(&w->th, NULL, worker_main, w)) != 0) {
		log_warn("worker: pthread_create: %s", strerror(e));
		worker_free(w);
		return (NULL);
	}
	return (w);
}

void
worker_join(struct worker *w)
{
	if (w == NULL)
		return;
	worker_wait(w);
	worker_free(w);
}
