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

static struct event		*service_ev;
static const struct conf	*service_conf;
static char			 service_reload[256];	/* how the last went */
static char			 service_last[1024];	/* the line sent */

/* "2 nodes up, 0 down; 3 jobs running, 5 pending; commands on ..., nodes
 * on ...", and how the last reload went. */
static void
service_line(char *buf, size_t len)
{
	size_t	up = node_count_up();

	snprintf(buf, len, "%zu node%s up, %zu down; %zu job%s running, %zu "
	    "pending; commands on %s, nodes on %s%s", up, up == 1 ? "" : "s",
	    node_count() - up, job_count(JOB_RUNNING) +
	    job_count(JOB_PREEMPTING), job_count(JOB_RUNNING) +
	    job_count(JOB_PREEMPTING) == 1 ? "" : "s",
	    job_count(JOB_PENDING) + job_count(JOB_HELD), service_conf->socket,
	    service_conf->listen, service_reload);
}

static void
service_send(enum notify_state state)
{
	char	line[sizeof service_last];

	service_line(line, sizeof line);
	if (state == NOTIFY_STATUS && strcmp(line, service_last) == 0)
		return;
	memcpy(service_last, line, sizeof service_last);
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

	service_conf = c;
	service_send(NOTIFY_READY);
	service_ev = event_new(base, -1, EV_PERSIST, service_tick_cb, NULL);
	event_add(service_ev, &tv);
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
		snprintf(service_reload, sizeof service_reload, "; reloaded %s "
		    "at %s: %zu setting%s changed", file, when, nchanged,
		    nchanged == 1 ? "" : "s");
	else
		snprintf(service_reload, sizeof service_reload, "; reload of %s "
		    "at %s failed, settings unchanged: %s", file, when, err);
	if (service_conf != NULL)
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
	if (service_ev != NULL)
		event_free(service_ev);
	service_ev = NULL;
	service_conf = NULL;
}
