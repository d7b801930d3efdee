/* node-relay.c: the Unix socket for commands on this node, relayed to
 * gbatchd. */
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/listener.h>

#include "common/frame.h"
#include "common/log-limit.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/frame-read.h"
#include "daemon/common/unixsock.h"
#include "daemon/common/dial.h"
#include "daemon/node/node-relay.h"

/* Commands relayed at once; more wait in the listen queue. One user may
 * hold only part of them (root all), so idle connections of one cannot
 * shut the others out; and a command silent this long is closed (as
 * gbatchd's controller.idle_timeout closes its clients). */
#define NODE_RELAY_MAX		256
#define NODE_RELAY_PER_UID	32
#define NODE_RELAY_IDLE_S	300
/* Replies a command has not read, beyond which it is cut: replies all
 * arrive on the one link, which must not stop for one slow reader, and
 * gnoded's memory must not grow for it. */
#define NODE_RELAY_OUT_MAX	(256U << 20)

struct node_relay_conn {
	struct node_relay		*relay;
	struct bufferevent		*bev;
	uint32_t			 chan;
	uid_t				 uid;
	gid_t				 gid;
	uint8_t				*env;	/* its RELAY envelope, packed */
	size_t				 envlen;
	bool				 closing;	/* the controller ended it */
	TAILQ_ENTRY(node_relay_conn)	 entry;
};
TAILQ_HEAD(node_relay_conns, node_relay_conn);

struct node_relay {
	struct evconnlistener		*lev;
	struct dial		*link;
	char				*path;
	struct node_relay_conns		 conns;
	unsigned			 nconns;
	uint32_t			 next_chan;
	uint32_t			 reply_chan;	/* of the next frame */
	/* Refusals, logged once per user and interval: a user can be
	 * refused as fast as they can connect. */
	struct log_limit		 refused;
};

/* How often the same refusal is logged again (seconds). */
#define NODE_RELAY_REFUSED_LOG_S	10

static void
node_relay_conn_free(struct node_relay_conn *c, bool tell)
{
	struct node_relay	*r = c->relay;
	json_t			*env;

	if (tell && dial_is_up(r->link)) {
		env = json_pack("{s:i, s:I, s:b}", "type", MSG_RELAY, "chan",
		    (json_int_t)c->chan, "close", 1);
		(void)dial_send(r->link, env);
		json_decref(env);
	}
	TAILQ_REMOVE(&r->conns, c, entry);
	r->nconns--;
	bufferevent_free(c->bev);
	free(c->env);
	free(c);
	if (r->nconns == NODE_RELAY_MAX - 1)
		evconnlistener_enable(r->lev);
}

static struct node_relay_conn *
node_relay_find(struct node_relay *r, uint32_t chan)
{
	struct node_relay_conn	*c;

	TAILQ_FOREACH(c, &r->conns, entry) {
		if (c->chan == chan)
			return (c);
	}
	return (NULL);
}

/* Passes the command's whole frames on; decoding them is gbatchd's work,
 * only their size is checked here. */
static void
node_relay_read_cb(struct bufferevent *bev, void *arg)
{
	struct node_relay_conn	*c = arg;
	struct node_relay	*r = c->relay;
	struct evbuffer		*in = bufferevent_get_input(bev), *batch;
	size_t			 len, need;
	char			 err[256];
	int			 rc;

	if (!dial_is_up(r->link)) {
		log_info("relay uid %u: gbatchd is not connected; closing",
		    (unsigned)c->uid);
		node_relay_conn_free(c, false);
		return;
	}
	/* Every whole frame read, each behind its envelope, goes to the
	 * link in one write. */
	batch = evbuffer_new();
	while ((rc = frame_read_peek(in, FRAME_MAX_REQUEST, &len, &need, err,
	    sizeof err)) == 1) {
		evbuffer_add(batch, c->env, c->envlen);
		evbuffer_remove_buffer(in, batch, FRAME_HEADER + len);
	}
	if (evbuffer_get_length(batch) != 0 &&
	    dial_send_buffer(r->link, batch) != 0) {
		evbuffer_free(batch);
		node_relay_conn_free(c, false);
		return;
	}
	evbuffer_free(batch);
	if (rc == -1) {
		log_info("relay uid %u: bad frame: %s", (unsigned)c->uid, err);
		node_relay_conn_free(c, true);
	}
}

static void
node_relay_write_cb(struct bufferevent *bev, void *arg)
{
	struct node_relay_conn	*c = arg;

	if (c->closing &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		node_relay_conn_free(c, false);
}

static void
node_relay_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct node_relay_conn	*c = arg;

	if (what & BEV_EVENT_TIMEOUT)
		log_info("relay uid %u: silent for %d s; closing",
		    (unsigned)c->uid, NODE_RELAY_IDLE_S);
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
		node_relay_conn_free(c, !c->closing);
}

/* How many commands uid has relayed now. */
static unsigned
node_relay_count(struct node_relay *r, uid_t uid)
{
	struct node_relay_conn	*c;
	unsigned		 n = 0;

	TAILQ_FOREACH(c, &r->conns, entry) {
		if (c->uid == uid)
			n++;
	}
	return (n);
}

static void
node_relay_accept_cb(struct evconnlistener *lev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct node_relay	*r = arg;
	struct node_relay_conn	*c;
	struct ucred		 cred;
	socklen_t		 len = sizeof cred;
	struct timeval		 idle = { NODE_RELAY_IDLE_S, 0 };
	json_t			*env;
	char			 who[32], note[LOG_LIMIT_NOTE];

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		log_warn("relay: SO_PEERCRED: %s", strerror(errno));
		evutil_closesocket(fd);
		return;
	}
	if (cred.uid != 0 && node_relay_count(r, cred.uid) >=
	    NODE_RELAY_PER_UID) {
		snprintf(who, sizeof who, "uid %u", (unsigned)cred.uid);
		if (log_limit_pass(&r->refused, who, (int64_t)time(NULL),
		    NODE_RELAY_REFUSED_LOG_S, note))
			log_info("relay %s: refused: already %d commands "
			    "open%s", who, NODE_RELAY_PER_UID, note);
		evutil_closesocket(fd);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->relay = r;
	c->uid = cred.uid;
	c->gid = cred.gid;
	/* Channel numbers are not reused while gnoded runs (2^32 commands),
	 * so a late reply can never reach another command. */
	if (++r->next_chan == 0)
		r->next_chan = 1;
	c->chan = r->next_chan;
	env = json_pack("{s:i, s:I, s:I, s:I}", "type", MSG_RELAY, "chan",
	    (json_int_t)c->chan, "uid", (json_int_t)c->uid, "gid",
	    (json_int_t)c->gid);
	c->env = frame_pack(env, FRAME_MAX_REQUEST, &c->envlen);
	json_decref(env);
	c->bev = bufferevent_socket_new(evconnlistener_get_base(lev), fd,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		evutil_closesocket(fd);
		free(c->env);
		free(c);
		return;
	}
	bufferevent_setcb(c->bev, node_relay_read_cb, node_relay_write_cb,
	    node_relay_event_cb, c);
	bufferevent_set_timeouts(c->bev, &idle, NULL);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	TAILQ_INSERT_TAIL(&r->conns, c, entry);
	if (++r->nconns >= NODE_RELAY_MAX)
		evconnlistener_disable(lev);
}

void
node_relay_reply(struct node_relay *r, uint32_t chan, bool close)
{
	struct node_relay_conn	*c;

	r->reply_chan = chan;
	if (close) {
		if ((c = node_relay_find(r, chan)) != NULL) {
			c->closing = true;
			bufferevent_disable(c->bev, EV_READ);
			node_relay_write_cb(c->bev, c);
		}
		return;
	}
	dial_next_raw(r->link);
}

void
node_relay_frame(struct node_relay *r, struct evbuffer *frame)
{
	struct node_relay_conn	*c;

	if ((c = node_relay_find(r, r->reply_chan)) == NULL) {
		/* The command left before its reply came. */
		evbuffer_drain(frame, evbuffer_get_length(frame));
		return;
	}
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) >
	    NODE_RELAY_OUT_MAX) {
		log_info("relay uid %u: does not read its replies; closing",
		    (unsigned)c->uid);
		evbuffer_drain(frame, evbuffer_get_length(frame));
		node_relay_conn_free(c, true);
		return;
	}
	bufferevent_write_buffer(c->bev, frame);
}

void
node_relay_link_down(struct node_relay *r)
{
	struct node_relay_conn	*c;

	while ((c = TAILQ_FIRST(&r->conns)) != NULL)
		node_relay_conn_free(c, false);
}

struct node_relay *
node_relay_create(struct event_base *base, const char *path,
    struct dial *link, char *err, size_t errlen)
{
	struct node_relay	*r;
	int			 fd;

	if ((fd = unixsock_bind(path, "gnoded", err, errlen)) == -1)
		return (NULL);
	r = xcalloc(1, sizeof *r);
	TAILQ_INIT(&r->conns);
	r->link = link;
	r->path = xstrdup(path);
	r->lev = evconnlistener_new(base, node_relay_accept_cb, r,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 64, fd);
	if (r->lev == NULL) {
		snprintf(err, errlen, "socket %s: cannot listen", path);
		unlink(path);
		free(r->path);
		free(r);
		return (NULL);
	}
	return (r);
}

void
node_relay_free(struct node_relay *r)
{
	if (r == NULL)
		return;
	node_relay_link_down(r);
	evconnlistener_free(r->lev);
	unlink(r->path);
	free(r->path);
	free(r);
}
