/* service.c: gbatchd's side of the service manager's readiness protocol.
 * See service.h. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/common/notify.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/service.h"

/* How often the status line is brought up to date. Only a line that
 * changed is sent. */
#define SERVICE_STATUS_INTERVAL	5

/* What gbatchd last told the service manager, and the loop it uses. */
static struct {
	struct event		*ev;
	const struct conf	*conf;
	char			 reload[256];	/* how the last went */
	char			 last[1024];	/* the line sent */
} service;

/* "2 nodes up, 0 down; 3 jobs running, 5 pending; commands on ..., nodes
 * on ...", and how the last reload went. */
static void
service_line(char *buf, size_t len)
{
	size_t	up = node_count_up();

	snprintf(buf, len, "%zu node%s up, %zu down; %zu job%s running, %zu "
	    "pending; commands on %s, nodes on %s%s", up, up == 1 ? "" : "s",
	    node_count() - up, job_table_count(JOB_RUNNING) +
	    job_table_count(JOB_PREEMPTING), job_table_count(JOB_RUNNING) +
	    job_table_count(JOB_PREEMPTING) == 1 ? "" : "s",
	    job_table_count(JOB_PENDING) + job_table_count(JOB_HELD),
	    service.conf->socket, service.conf->listen, service.reload);
}

static void
service_send(enum notify_state state)
{
	char	line[sizeof service.last];

	service_line(line, sizeof line);
	if (state == NOTIFY_STATUS && strcmp(line, service.last) == 0)
		return;
	memcpy(service.last, line, sizeof service.last);
	notify_send(state, "%s", line);
}

static void
service_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	service_send(NOTIFY_STATUS);
}

void
service_ready(struct event_base *base, const struct conf *c)
{
	struct timeval	tv = { SERVICE_STATUS_INTERVAL, 0 };

	service.conf = c;
	service_send(NOTIFY_READY);
	service.ev = event_new(base, -1, EV_PERSIST, service_tick_cb, NULL);
	event_add(service.ev, &tv);
}

void
service_reloading(const char *file)
{
	notify_send(NOTIFY_RELOADING, "reloading %s", file);
}

void
service_reloaded(const char *file, bool ok, size_t nchanged, const char *err)
{
	struct tm	tm;
	time_t		now = time(NULL);
	char		when[16];

	localtime_r(&now, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	if (ok)
		snprintf(service.reload, sizeof service.reload, "; reloaded %s "
		    "at %s: %zu setting%s changed", file, when, nchanged,
		    nchanged == 1 ? "" : "s");
	else
		snprintf(service.reload, sizeof service.reload, "; reload of %s "
		    "at %s failed, settings unchanged: %s", file, when, err);
	if (service.conf != NULL)
		service_send(NOTIFY_READY);
}

void
service_stopping(const char *why)
{
	notify_send(NOTIFY_STOPPING, "stopping (%s); running jobs keep "
	    "running", why);
}

void
service_free(void)
{
	if (service.ev != NULL)
		event_free(service.ev);
	service.ev = NULL;
	service.conf = NULL;
}
