/* metrics-http.c: the HTTP side of the metrics. A scrape gathers the
 * gauges from their owners (jobs, nodes, peers, the scheduler) into a
 * struct metrics_gauges and has metrics.c write the text: O(jobs + nodes)
 * per scrape (jobs x log accounts for the accounts and QOS), the active
 * jobs only, once every few seconds at most.
 *
 * Whoever reaches the port must not stall gbatchd: requests are small and
 * bounded (headers, no body), every connection has a timeout for reading
 * the request and writing the reply, and an accept that runs out of
 * descriptors pauses the listener instead of spinning (as listener.c). */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "common/job-req.h"
#include "common/label.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/hostport.h"
#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/core.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/listener.h"
#include "daemon/controller/metrics-http.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/qos.h"
#include "daemon/controller/req.h"

/* Seconds a connection has to send its request, and to take the reply. */
#define METRICS_HTTP_TIMEOUT		10
/* A scraper's request is a line and a few headers. */
#define METRICS_HTTP_MAX_HEADERS	8192
#define METRICS_HTTP_MAX_BODY		1024

/* The HTTP server of controller.metrics_listen. */
struct metrics_http {
	struct evhttp		*server;
	struct evconnlistener	*lev;
	bool			 bound;	/* evhttp owns lev */
	struct event		*backoff;
};

static void
metrics_http_backoff_cb(evutil_socket_t fd, short what, void *arg)
{
	struct metrics_http	*mh = arg;

	evconnlistener_enable(mh->lev);
}

static void
metrics_http_error_cb(struct evconnlistener *lev, void *arg)
{
	struct metrics_http	*mh = arg;

	listener_accept_failed(lev, mh->backoff, "metrics");
}

/* The gauges as they are now; *nodes is a new array the caller frees
 * (its strings are the nodes'). */
/* Room for every request type (req.c's table). */
#define METRICS_HTTP_REQUESTS	64

/* The partitions' jobs and GPUs (a new array, a group for each
 * partition of the settings, or gbatch's one). */
static void
metrics_http_parts(struct metrics_gauges *g, struct metrics_group **parts)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct part	*v[PART_MAX_ASKED];
	struct metrics_group	*mp;
	struct job		*j;
	char			 run[LABEL_MAX + 1];
	size_t			 n, i, k, np = ps->n > 0 ? ps->n : 1;

	*parts = mp = xcalloc(np, sizeof *mp);
	for (k = 0; k < ps->n; k++)
		mp[k].name = ps->v[k].name;
	if (ps->n == 0)
		mp[0].name = JOB_REQ_PARTITION;
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_state(j) == JOB_PENDING) {
			n = part_listed(ps, job_partition(j), v, NULL);
			for (i = 0; i < n; i++)
				mp[v[i] - ps->v].pending++;
			if (ps->n == 0)
				mp[0].pending++;
			continue;
		}
		if (!job_state_on_node(job_state(j)))
			continue;
		(void)core_part_run(j, run, sizeof run);
		for (k = 0; k < np; k++) {
			if (strcmp(mp[k].name, run) == 0) {
				mp[k].running++;
				mp[k].gpus += job_run_gpus(j);
				break;
			}
		}
	}
	g->groups[METRICS_BY_PARTITION] = mp;
	g->ngroups[METRICS_BY_PARTITION] = np;
}

/* The index of group name in v (n sorted by name), put there with
 * nothing counted when it is not. */
static size_t
metrics_http_group(struct metrics_group *v, size_t *n, const char *name)
{
	size_t	lo = 0, hi = *n, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(v[mid].name, name)) == 0)
			return (mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&v[lo + 1], &v[lo], (*n - lo) * sizeof *v);
	memset(&v[lo], 0, sizeof *v);
	v[lo].name = name;
	(*n)++;
	return (lo);
}

/* A job's account, and its QOS as it is reported (qos_key). */
static const char *
metrics_http_account_of(const struct job *j)
{
	return (job_account(j));
}

static const char *
metrics_http_qos_of(const struct job *j)
{
	return (qos_key(&ctx_conf()->qos, job_qos(j)));
}

/* The active jobs and GPUs by the group name_of names for each, into
 * g's groups[by] (a new array, by name): every one of names (nnames),
 * and any other an active job is of. */
static struct metrics_group *
metrics_http_by(struct metrics_gauges *g, int by, const char *const *names,
    size_t nnames, const char *(*name_of)(const struct job *))
{
	struct metrics_group	*v;
	struct job		*j;
	enum job_state		 st;
	size_t			 n = 0, i, room = nnames + 1;

	for (j = job_table_first(); j != NULL; j = job_table_next(j))
		room++;
	v = xcalloc(room, sizeof *v);
	for (i = 0; i < nnames; i++)
		(void)metrics_http_group(v, &n, names[i]);
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		st = job_state(j);
		if (st != JOB_PENDING && !job_state_on_node(st))
			continue;
		i = metrics_http_group(v, &n, name_of(j));
		if (st == JOB_PENDING)
			v[i].pending++;
		else {
			v[i].running++;
			v[i].gpus += job_run_gpus(j);
		}
	}
	g->groups[by] = v;
	g->ngroups[by] = n;
	return (v);
}

/* The accounts' groups: every account of the table, and any other an
 * active job is charged to; the QOS's: every QOS of the settings (or the
 * built-in one), and any other an active job is of. groups[] gets each
 * new array. */
static void
metrics_http_accounts_qos(struct metrics_gauges *g,
    struct metrics_group **groups)
{
	const struct assoc_tab	*t = core_assoc();
	const struct qoses	*qs = &ctx_conf()->qos;
	const char		**names;
	size_t			 i, n = t->nacc + qs->n + 1;

	names = xcalloc(n, sizeof *names);
	for (i = 0; i < t->nacc; i++)
		names[i] = t->acc[i].name;
	groups[METRICS_BY_ACCOUNT] = metrics_http_by(g, METRICS_BY_ACCOUNT,
	    names, t->nacc, metrics_http_account_of);
	for (i = 0; i < qs->n; i++)
		names[i] = qs->v[i].name;
	if (qs->n == 0)
		names[0] = qos_default(qs)->name;
	groups[METRICS_BY_QOS] = metrics_http_by(g, METRICS_BY_QOS, names,
	    qs->n > 0 ? qs->n : 1, metrics_http_qos_of);
	free(names);
}

static void
metrics_http_gather(struct metrics_gauges *g, struct metrics_node **nodes,
    struct metrics_group **groups, struct metrics_request *requests)
{
	struct metrics_node	*mn;
	struct node		*n;
	struct node_use		 use;
	struct job		*j;
	int			 q;

	memset(g, 0, sizeof *g);
	g->nqueues = core_queues();
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if ((q = core_job_queue(j)) < 0 || q >= SCHED_MAX_QUEUES)
			q = SCHED_MAX_QUEUES;
		g->jobs[job_state(j)][q]++;
	}
	*nodes = xcalloc(node_count() + 1, sizeof **nodes);
	for (n = node_first(); n != NULL; n = node_next(n)) {
		mn = &(*nodes)[g->nnodes++];
		mn->name = node_name(n);
		core_node_use(n, &use);
		mn->state = node_state_name(n, use.held, use.cpus);
		mn->gpus_total = node_gpus_total(n);
		mn->gpus_allocated = core_node_busy(n);
		mn->gpus_down = node_is_up(n) ? 0 : mn->gpus_total;
	}
	g->nodes = *nodes;
	metrics_http_parts(g, &groups[METRICS_BY_PARTITION]);
	metrics_http_accounts_qos(g, groups);
	peer_count(&g->clients[METRICS_CLIENT_LOCAL],
	    &g->clients[METRICS_CLIENT_RELAYED],
	    &g->clients[METRICS_CLIENT_NODE]);
	g->requests = requests;
	g->nrequests = req_stats(requests, METRICS_HTTP_REQUESTS);
	g->start_time = ctx_started();
}

/* Sends a short plain-text reply. */
static void
metrics_http_reply(struct evhttp_request *req, int code, const char *reason,
    const char *text)
{
	struct evbuffer	*body = evbuffer_new();

	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; charset=utf-8");
	evbuffer_add(body, text, strlen(text));
	evhttp_send_reply(req, code, reason, body);
	evbuffer_free(body);
}

static void
metrics_http_scrape(struct evhttp_request *req)
{
	struct metrics_gauges	 g;
	struct metrics_node	*nodes;
	struct metrics_group	*groups[METRICS_BY_COUNT];
	struct metrics_request	 requests[METRICS_HTTP_REQUESTS];
	struct evbuffer		*body;
	char			*text = NULL;
	size_t			 len = 0;
	FILE			*f;
	int			 rc, by;

	if ((f = open_memstream(&text, &len)) == NULL) {
		log_warn("metrics: %s", strerror(errno));
		metrics_http_reply(req, HTTP_INTERNAL, "Internal Server Error",
		    "out of memory\n");
		return;
	}
	metrics_http_gather(&g, &nodes, groups, requests);
	rc = metrics_write(f, &g);
	if (fclose(f) != 0)
		rc = -1;
	free(nodes);
	for (by = 0; by < METRICS_BY_COUNT; by++)
		free(groups[by]);
	if (rc != 0) {
		log_warn("metrics: cannot write the figures");
		metrics_http_reply(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot write the figures\n");
		free(text);
		return;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	body = evbuffer_new();
	evbuffer_add(body, text, len);
	evhttp_send_reply(req, HTTP_OK, "OK", body);
	evbuffer_free(body);
	free(text);
}

static void
metrics_http_cb(struct evhttp_request *req, void *arg)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	const char		*path = NULL;
	enum evhttp_cmd_type	 m = evhttp_request_get_command(req);

	if (uri != NULL)
		path = evhttp_uri_get_path(uri);
	if (path == NULL || strcmp(path, "/metrics") != 0) {
		metrics_http_reply(req, HTTP_NOTFOUND, "Not Found",
		    "not found: gbatchd serves /metrics only\n");
		return;
	}
	if (m != EVHTTP_REQ_GET && m != EVHTTP_REQ_HEAD) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", "GET, HEAD");
		metrics_http_reply(req, 405, "Method Not Allowed",
		    "method not allowed: /metrics answers GET and HEAD\n");
		return;
	}
	metrics_http_scrape(req);
}

struct metrics_http *
metrics_http_open(struct event_base *base, const char *hostport, char *err,
    size_t errlen)
{
	struct metrics_http	*mh;
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	char			*host = NULL, *port = NULL, why[256];
	const char		*what = NULL;
	int			 fd = -1;

	if (hostport_split(hostport, 1, &host, &port, why, sizeof why) != 0) {
		snprintf(err, errlen, "metrics_listen: %s", why);
		return (NULL);
	}
	mh = xcalloc(1, sizeof *mh);
	if ((fd = listener_bind(host, port, &ss, &sslen, &what)) == -1 ||
	    listen(fd, 16) != 0) {
		snprintf(err, errlen, "metrics_listen %s: %s", hostport,
		    what != NULL ? what : strerror(errno));
		goto fail;
	}
	evutil_make_socket_nonblocking(fd);
	mh->server = evhttp_new(base);
	mh->lev = evconnlistener_new(base, NULL, NULL,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (mh->lev != NULL)
		fd = -1;	/* the listener's */
	if (mh->server == NULL || mh->lev == NULL ||
	    evhttp_bind_listener(mh->server,
	    mh->lev) == NULL) {
		snprintf(err, errlen, "metrics_listen %s: cannot set up the "
		    "HTTP server", hostport);
		goto fail;
	}
	mh->bound = true;
	/* After evhttp_bind_listener, which sets the accept callback. */
	evconnlistener_set_error_cb(mh->lev, metrics_http_error_cb);
	mh->backoff = evtimer_new(base, metrics_http_backoff_cb, mh);
	/* Every method reaches metrics_http_cb, which answers 405 to all
	 * but GET and HEAD (evhttp itself would answer 501). */
	evhttp_set_allowed_methods(mh->server, EVHTTP_REQ_GET |
	    EVHTTP_REQ_POST | EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
	    EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE |
	    EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
	evhttp_set_max_headers_size(mh->server,
	    METRICS_HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(mh->server, METRICS_HTTP_MAX_BODY);
	evhttp_set_timeout(mh->server, METRICS_HTTP_TIMEOUT);
	evhttp_set_gencb(mh->server, metrics_http_cb, NULL);
	log_info("metrics: serving http://%s/metrics", hostport);
	free(host);
	free(port);
	return (mh);
fail:
	if (fd != -1)
		close(fd);
	metrics_http_close(mh);
	free(host);
	free(port);
	return (NULL);
}

void
metrics_http_close(struct metrics_http *mh)
{
	if (mh == NULL)
		return;
	/* evhttp_free frees the listener bound to it, and the scrapes
	 * under way. */
	if (!mh->bound && mh->lev != NULL)
		evconnlistener_free(mh->lev);
	if (mh->server != NULL)
		evhttp_free(mh->server);
	if (mh->backoff != NULL)
		event_free(mh->backoff);
	free(mh);
}
