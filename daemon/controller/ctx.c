/* ctx.c: the controller's context (ctx.h). */
#include <stdbool.h>
#include <time.h>

#include "daemon/controller/ctx.h"

/* The one controller of the process: the settings, the loop and the root's
 * operations are singletons by nature, set once by gbatchd.c; every module
 * reads them through the functions below. Global: this is the context
 * itself, the one place modules find what would else be passed to all. */
static struct {
	const struct conf	*conf;
	const char		*file;
	struct ctx_root		 root;
	struct event_base	*base;
	int64_t			 started;
	bool			 stopping;
	struct replica		*replica;
} ctx;

void
ctx_configure(const struct conf *c, const char *file,
    const struct ctx_root *root)
{
	ctx.conf = c;
	ctx.file = file;
	ctx.root = *root;
}

void
ctx_open(struct event_base *base, int64_t started)
{
	ctx.base = base;
	ctx.started = started;
}

const struct conf *
ctx_conf(void)
{
	return (ctx.conf);
}

const char *
ctx_conf_file(void)
{
	return (ctx.file);
}

struct event_base *
ctx_base(void)
{
	return (ctx.base);
}

int64_t
ctx_started(void)
{
	return (ctx.started);
}

int64_t
ctx_now(void)
{
	return ((int64_t)time(NULL));
}

int64_t
ctx_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

struct replica *
ctx_replica(void)
{
	return (ctx.replica);
}

void
ctx_set_replica(struct replica *r)
{
	ctx.replica = r;
}

bool
ctx_stopping(void)
{
	return (ctx.stopping);
}

void
ctx_set_stopping(bool on)
{
	ctx.stopping = on;
}

void
ctx_stop(const char *why)
{
	ctx.root.stop(why);
}

int
ctx_reconfigure(json_t *changed, json_t *restart, json_t *notes, char *err,
    size_t errlen)
{
	return (ctx.root.reconfigure(changed, restart, notes, err, errlen));
}
