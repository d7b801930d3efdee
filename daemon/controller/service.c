/* service.c: gbatchd's side of the service manager's readiness protocol.
 * See service.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/xmalloc.h"
#include "daemon/common/notify.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/service.h"

/* How often the status line is brought up to date. Only a line that
 * changed is sent. */
#define SERVICE_STATUS_INTERVAL	5

/* What gbatchd last told the service manager, and the loop it uses. */
struct service {
	struct event		*ev;
	const struct conf	*conf;
	char			 reload[256];	/* how the last went */
	char			 last[1024];	/* the line sent */
};

/* "2 nodes up, 0 down; 3 jobs running, 5 pending; commands on ..., nodes
 * on ...", and how the last reload went. */
static void
service_line(const struct service *svc, char *buf, size_t len)
{
	size_t	up = node_count_up();

	snprintf(buf, len, "%zu node%s up, %zu down; %zu job%s running, %zu "
	    "pending; commands on %s, nodes on %s%s", up, up == 1 ? "" : "s",
	    node_count() - up, job_table_count(JOB_RUNNING) +
	    job_table_count(JOB_PREEMPTING), job_table_count(JOB_RUNNING) +
	    job_table_count(JOB_PREEMPTING) == 1 ? "" : "s",
	    job_table_count(JOB_PENDING) + job_table_count(JOB_HELD),
	    svc->conf->socket, svc->conf->listen, svc->reload);
}

static void
service_send(struct service *svc, enum notify_state state)
{
	char	line[sizeof svc->last];

	service_line(svc, line, sizeof line);
	if (state == NOTIFY_STATUS && strcmp(line, svc->last) == 0)
		return;
	memcpy(svc->last, line, sizeof svc->last);
	notify_send(state, "%s", line);
}

static void
service_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	service_send(arg, NOTIFY_STATUS);
}

struct service *
service_ready(struct event_base *base, const struct conf *c)
{
	struct timeval	 tv = { SERVICE_STATUS_INTERVAL, 0 };
	struct service	*svc = xcalloc(1, sizeof *svc);

	svc->conf = c;
	service_send(svc, NOTIFY_READY);
	svc->ev = event_new(base, -1, EV_PERSIST, service_tick_cb, svc);
	event_add(svc->ev, &tv);
	return (svc);
}

void
service_reloading(const char *file)
{
	notify_send(NOTIFY_RELOADING, "reloading %s", file);
}

void
service_reloaded(struct service *svc, const char *file, bool ok,
    size_t nchanged, const char *err)
{
	struct tm	tm;
	time_t		now = time(NULL);
	char		when[16];

	localtime_r(&now, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	if (ok)
		snprintf(svc->reload, sizeof svc->reload, "; reloaded %s "
		    "at %s: %zu setting%s changed", file, when, nchanged,
		    nchanged == 1 ? "" : "s");
	else
		snprintf(svc->reload, sizeof svc->reload, "; reload of %s "
		    "at %s failed, settings unchanged: %s", file, when, err);
	service_send(svc, NOTIFY_READY);
}

void
service_stopping(const char *why)
{
	notify_send(NOTIFY_STOPPING, "stopping (%s); running jobs keep "
	    "running", why);
}

void
service_free(struct service *svc)
{
	if (svc == NULL)
		return;
	if (svc->ev != NULL)
		event_free(svc->ev);
	free(svc);
}
