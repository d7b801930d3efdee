/* raft-wire.c: C-raft's messages and configurations as bytes (the format
 * is in raft-wire.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/raft-wire.h"

/* Where encoding writes. With p NULL it only counts, so each layout is
 * written once and run twice: to size the buffer, then to fill it. */
struct raft_wire_out {
	uint8_t	*p;
	size_t	 n;
};

/* What decoding has left to read, and where it says why it stopped. */
struct raft_wire_in {
	const uint8_t	*p;
	size_t		 left;
	char		*err;
	size_t		 errlen;
};

static const char *const raft_wire_names[] = {
	[RAFT_IO_APPEND_ENTRIES] = "append_entries",
	[RAFT_IO_APPEND_ENTRIES_RESULT] = "append_entries_result",
	[RAFT_IO_REQUEST_VOTE] = "request_vote",
	[RAFT_IO_REQUEST_VOTE_RESULT] = "request_vote_result",
	[RAFT_IO_INSTALL_SNAPSHOT] = "install_snapshot",
	[RAFT_IO_TIMEOUT_NOW] = "timeout_now",
};

static void
raft_wire_put8(struct raft_wire_out *o, uint8_t v)
{
	if (o->p != NULL)
		o->p[o->n] = v;
	o->n++;
}

static void
raft_wire_put64(struct raft_wire_out *o, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++)
		raft_wire_put8(o, (uint8_t)(v >> (8 * i)));
}

static void
raft_wire_put_bytes(struct raft_wire_out *o, const void *b, size_t n)
{
	raft_wire_put64(o, n);
	if (o->p != NULL && n != 0)
		memcpy(o->p + o->n, b, n);
	o->n += n;
}

static bool
raft_wire_role_is_known(int role)
{
	return (role == RAFT_STANDBY || role == RAFT_VOTER ||
	    role == RAFT_SPARE);
}

static bool
raft_wire_entry_type_is_known(unsigned type)
{
	return (type == RAFT_COMMAND || type == RAFT_BARRIER ||
	    type == RAFT_CHANGE);
}

static int
raft_wire_put_conf(struct raft_wire_out *o, const struct raft_configuration *c)
{
	const struct raft_server	*s;
	size_t				 i, alen;

	if (c->n > RAFT_WIRE_MAX_SERVERS)
		return (-1);
	raft_wire_put64(o, c->n);
	for (i = 0; i < c->n; i++) {
		s = &c->servers[i];
		if (s->id == 0 || !raft_wire_role_is_known(s->role) ||
		    s->address == NULL)
			return (-1);
		alen = strlen(s->address);
		if (alen == 0 || alen > RAFT_WIRE_MAX_ADDRESS)
			return (-1);
		raft_wire_put64(o, s->id);
		raft_wire_put8(o, (uint8_t)s->role);
		raft_wire_put_bytes(o, s->address, alen);
	}
	return (0);
}

static int
raft_wire_put_entries(struct raft_wire_out *o,
    const struct raft_append_entries *ae)
{
	const struct raft_entry	*e;
	unsigned		 i;

	raft_wire_put64(o, ae->term);
	raft_wire_put64(o, ae->prev_log_index);
	raft_wire_put64(o, ae->prev_log_term);
	raft_wire_put64(o, ae->leader_commit);
	raft_wire_put64(o, ae->n_entries);
	for (i = 0; i < ae->n_entries; i++) {
		e = &ae->entries[i];
		if (!raft_wire_entry_type_is_known(e->type))
			return (-1);
		raft_wire_put64(o, e->term);
		raft_wire_put8(o, (uint8_t)e->type);
		raft_wire_put_bytes(o, e->buf.base, e->buf.len);
	}
	return (0);
}

static int
raft_wire_put_message(struct raft_wire_out *o, const void *arg)
{
	const struct raft_message		*m = arg;
	const struct raft_request_vote		*rv = &m->request_vote;
	const struct raft_request_vote_result	*rvr = &m->request_vote_result;
	const struct raft_append_entries_result	*aer =
	    &m->append_entries_result;
	const struct raft_install_snapshot	*is = &m->install_snapshot;
	const struct raft_timeout_now		*tn = &m->timeout_now;

	raft_wire_put8(o, RAFT_WIRE_VERSION);
	raft_wire_put8(o, (uint8_t)m->type);
	switch (m->type) {
	case RAFT_IO_APPEND_ENTRIES:
		return (raft_wire_put_entries(o, &m->append_entries));
	case RAFT_IO_APPEND_ENTRIES_RESULT:
		raft_wire_put64(o, aer->term);
		raft_wire_put64(o, aer->rejected);
		raft_wire_put64(o, aer->last_log_index);
		return (0);
	case RAFT_IO_REQUEST_VOTE:
		raft_wire_put64(o, rv->term);
		raft_wire_put64(o, rv->candidate_id);
		raft_wire_put64(o, rv->last_log_index);
		raft_wire_put64(o, rv->last_log_term);
		raft_wire_put8(o, rv->disrupt_leader);
		raft_wire_put8(o, rv->pre_vote);
		return (0);
	case RAFT_IO_REQUEST_VOTE_RESULT:
		if (rvr->pre_vote != raft_tribool_unknown &&
		    rvr->pre_vote != raft_tribool_true &&
		    rvr->pre_vote != raft_tribool_false)
			return (-1);
		raft_wire_put64(o, rvr->term);
		raft_wire_put8(o, rvr->vote_granted);
		raft_wire_put8(o, (uint8_t)rvr->pre_vote);
		return (0);
	case RAFT_IO_INSTALL_SNAPSHOT:
		raft_wire_put64(o, is->term);
		raft_wire_put64(o, is->last_index);
		raft_wire_put64(o, is->last_term);
		raft_wire_put64(o, is->conf_index);
		if (raft_wire_put_conf(o, &is->conf) == -1)
			return (-1);
		raft_wire_put_bytes(o, is->data.base, is->data.len);
		return (0);
	case RAFT_IO_TIMEOUT_NOW:
		raft_wire_put64(o, tn->term);
		raft_wire_put64(o, tn->last_log_index);
		raft_wire_put64(o, tn->last_log_term);
		return (0);
	}
	return (-1);
}

static int
raft_wire_put_conf_alone(struct raft_wire_out *o, const void *arg)
{
	raft_wire_put8(o, RAFT_WIRE_VERSION);
	return (raft_wire_put_conf(o, arg));
}

/* Runs put twice, to count and to write. Returns a buffer the caller
 * frees, or NULL when put refuses its argument. */
static uint8_t *
raft_wire_pack(int (*put)(struct raft_wire_out *, const void *),
    const void *arg, size_t *len)
{
	struct raft_wire_out	o = { NULL, 0 };

	if (put(&o, arg) == -1)
		return (NULL);
	o.p = xmalloc(o.n);
	*len = o.n;
	o.n = 0;
	if (put(&o, arg) == -1 || o.n != *len)
		abort();
	return (o.p);
}

uint8_t *
raft_wire_encode(const struct raft_message *m, size_t *len)
{
	return (raft_wire_pack(raft_wire_put_message, m, len));
}

uint8_t *
raft_wire_conf_encode(const struct raft_configuration *c, size_t *len)
{
	return (raft_wire_pack(raft_wire_put_conf_alone, c, len));
}

static int __attribute__((format(printf, 2, 3)))
raft_wire_fail(struct raft_wire_in *in, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(in->err, in->errlen, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Puts where, from fmt, before the reason already in err: the lowest
 * reader says what was wrong, its callers where. */
static int __attribute__((format(printf, 2, 3)))
raft_wire_where(struct raft_wire_in *in, const char *fmt, ...)
{
	va_list	ap;
	char	where[64], why[256];

	if (in->errlen == 0)
		return (-1);
	va_start(ap, fmt);
	vsnprintf(where, sizeof where, fmt, ap);
	va_end(ap);
	snprintf(why, sizeof why, "%s", in->err);
	return (raft_wire_fail(in, "%s: %s", where, why));
}

static int
raft_wire_get8(struct raft_wire_in *in, const char *what, uint8_t *v)
{
	*v = 0;
	if (in->left < 1)
		return (raft_wire_fail(in, "%s: truncated", what));
	*v = *in->p++;
	in->left--;
	return (0);
}

/* Into unsigned long long, C-raft's type for every id, term and index. */
static int
raft_wire_get64(struct raft_wire_in *in, const char *what,
    unsigned long long *v)
{
	int	i;

	*v = 0;
	if (in->left < 8)
		return (raft_wire_fail(in, "%s: truncated (8 bytes needed, "
		    "%zu left)", what, in->left));
	for (i = 0; i < 8; i++)
		*v |= (unsigned long long)in->p[i] << (8 * i);
	in->p += 8;
	in->left -= 8;
	return (0);
}

static int
raft_wire_get_bool(struct raft_wire_in *in, const char *what, bool *v)
{
	uint8_t	b;

	if (raft_wire_get8(in, what, &b) == -1)
		return (-1);
	if (b > 1)
		return (raft_wire_fail(in, "%s: %u, expected 0 or 1", what, b));
	*v = b;
	return (0);
}

/* Reads a length and as many bytes, at most max of them. Sets *b to them,
 * in the input (borrowed). */
static int
raft_wire_get_bytes(struct raft_wire_in *in, const char *what, size_t max,
    const uint8_t **b, size_t *n)
{
	unsigned long long	len;

	if (raft_wire_get64(in, what, &len) == -1)
		return (-1);
	if (len > max)
		return (raft_wire_fail(in, "%s: %llu bytes, at most %zu",
		    what, len, max));
	if (len > in->left)
		return (raft_wire_fail(in, "%s: truncated (%llu bytes, %zu "
		    "left)", what, len, in->left));
	*b = in->p;
	*n = (size_t)len;
	in->p += len;
	in->left -= len;
	return (0);
}

/* Memory from C-raft's allocator, as it frees it; out of memory aborts,
 * as xmalloc does. */
static void *
raft_wire_alloc(size_t nmemb, size_t size)
{
	void	*p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		abort();
	if ((p = raft_malloc(nmemb * size)) == NULL)
		abort();
	return (p);
}

static int
raft_wire_get_server(struct raft_wire_in *in, struct raft_configuration *c)
{
	char			 address[RAFT_WIRE_MAX_ADDRESS + 1];
	const uint8_t		*b;
	unsigned long long	 id;
	uint8_t			 role;
	size_t			 alen;
	int			 rv;

	if (raft_wire_get64(in, "id", &id) == -1 ||
	    raft_wire_get8(in, "role", &role) == -1 ||
	    raft_wire_get_bytes(in, "address", RAFT_WIRE_MAX_ADDRESS, &b,
	    &alen) == -1)
		return (-1);
	/* C-raft asserts a nonzero id: check it here, before it could. */
	if (id == 0)
		return (raft_wire_fail(in, "id 0, expected 1 or more"));
	if (!raft_wire_role_is_known(role))
		return (raft_wire_fail(in, "role %u, expected %d (standby), %d "
		    "(voter) or %d (spare)", role, RAFT_STANDBY, RAFT_VOTER,
		    RAFT_SPARE));
	if (alen == 0 || memchr(b, '\0', alen) != NULL)
		return (raft_wire_fail(in, "address: %s", alen == 0 ? "empty" :
		    "holds a NUL"));
	memcpy(address, b, alen);
	address[alen] = '\0';
	rv = raft_configuration_add(c, id, address, role);
	if (rv == RAFT_NOMEM)
		abort();
	if (rv == RAFT_DUPLICATEID)
		return (raft_wire_fail(in, "id %llu appears twice", id));
	if (rv == RAFT_DUPLICATEADDRESS)
		return (raft_wire_fail(in, "address \"%s\" appears twice",
		    address));
	if (rv != 0)
		return (raft_wire_fail(in, "%s", raft_strerror(rv)));
	return (0);
}

/* Initialises c and fills it. On failure c is closed and empty again. */
static int
raft_wire_get_conf(struct raft_wire_in *in, struct raft_configuration *c)
{
	unsigned long long	n;
	size_t			i;

	raft_configuration_init(c);
	if (raft_wire_get64(in, "server count", &n) == -1)
		return (-1);
	if (n > RAFT_WIRE_MAX_SERVERS)
		return (raft_wire_fail(in, "%llu servers, at most %d", n,
		    RAFT_WIRE_MAX_SERVERS));
	for (i = 0; i < n; i++) {
		if (raft_wire_get_server(in, c) == -1) {
			raft_configuration_close(c);
			raft_configuration_init(c);
			return (raft_wire_where(in, "server %zu", i));
		}
	}
	return (0);
}

/* Reads one entry, its data left in the input (borrowed). */
static int
raft_wire_get_entry(struct raft_wire_in *in, struct raft_entry *e)
{
	const uint8_t		*b;
	unsigned long long	 term;
	uint8_t			 type;
	size_t			 n;

	if (raft_wire_get64(in, "term", &term) == -1 ||
	    raft_wire_get8(in, "type", &type) == -1)
		return (-1);
	if (!raft_wire_entry_type_is_known(type))
		return (raft_wire_fail(in, "type %u, expected %d (command), %d "
		    "(barrier) or %d (change)", type, RAFT_COMMAND,
		    RAFT_BARRIER, RAFT_CHANGE));
	if (raft_wire_get_bytes(in, "data", SIZE_MAX, &b, &n) == -1)
		return (-1);
	e->term = term;
	e->type = type;
	e->buf.base = (void *)(uintptr_t)b;
	e->buf.len = n;
	e->batch = NULL;
	return (0);
}

/* The entries, their data in one batch: C-raft's reply path frees only
 * entries[0].batch and the array, its other paths each distinct batch and
 * the array. It copies what it keeps, so the batch never outlives the
 * message's handling. No entries is a NULL array, as it asserts. */
static int
raft_wire_get_entries(struct raft_wire_in *in, struct raft_append_entries *ae)
{
	struct raft_wire_in	 scan;
	struct raft_entry	 e;
	unsigned long long	 n;
	uint8_t			*batch, *cursor;
	size_t			 i, total = 0;

	if (raft_wire_get64(in, "entry count", &n) == -1)
		return (-1);
	if (n > in->left / RAFT_WIRE_ENTRY_MIN || n > UINT_MAX)
		return (raft_wire_fail(in, "%llu entries cannot fit in the %zu "
		    "bytes left", n, in->left));
	if (n == 0)
		return (0);

	/* Checked whole first, so nothing is allocated for a bad one. */
	scan = *in;
	for (i = 0; i < n; i++) {
		if (raft_wire_get_entry(&scan, &e) == -1)
			return (raft_wire_where(in, "entry %zu", i));
		total += e.buf.len;
	}

	ae->entries = raft_wire_alloc(n, sizeof *ae->entries);
	ae->n_entries = (unsigned)n;
	/* At least a byte: every entry must have a batch. */
	batch = raft_wire_alloc(1, total == 0 ? 1 : total);
	cursor = batch;
	for (i = 0; i < n; i++) {
		if (raft_wire_get_entry(in, &ae->entries[i]) == -1)
			abort();
		if (ae->entries[i].buf.len != 0)
			memcpy(cursor, ae->entries[i].buf.base,
			    ae->entries[i].buf.len);
		ae->entries[i].buf.base = cursor;
		ae->entries[i].batch = batch;
		cursor += ae->entries[i].buf.len;
	}
	return (0);
}

static int
raft_wire_get_snapshot(struct raft_wire_in *in,
    struct raft_install_snapshot *is)
{
	const uint8_t	*b;
	size_t		 n;

	if (raft_wire_get64(in, "term", &is->term) == -1 ||
	    raft_wire_get64(in, "last_index", &is->last_index) == -1 ||
	    raft_wire_get64(in, "last_term", &is->last_term) == -1 ||
	    raft_wire_get64(in, "conf_index", &is->conf_index) == -1)
		return (-1);
	if (raft_wire_get_conf(in, &is->conf) == -1)
		return (raft_wire_where(in, "conf"));
	if (raft_wire_get_bytes(in, "data", SIZE_MAX, &b, &n) == -1) {
		raft_configuration_close(&is->conf);
		return (-1);
	}
	/* At least a byte, so the state machine's restore gets a buffer. */
	is->data.base = raft_wire_alloc(1, n == 0 ? 1 : n);
	is->data.len = n;
	if (n != 0)
		memcpy(is->data.base, b, n);
	return (0);
}

static int
raft_wire_get_body(struct raft_wire_in *in, struct raft_message *m)
{
	struct raft_request_vote		*rv = &m->request_vote;
	struct raft_request_vote_result		*rvr = &m->request_vote_result;
	struct raft_append_entries		*ae = &m->append_entries;
	struct raft_append_entries_result	*aer =
	    &m->append_entries_result;
	struct raft_timeout_now			*tn = &m->timeout_now;
	uint8_t					 pre_vote;

	switch (m->type) {
	case RAFT_IO_APPEND_ENTRIES:
		if (raft_wire_get64(in, "term", &ae->term) == -1 ||
		    raft_wire_get64(in, "prev_log_index",
		    &ae->prev_log_index) == -1 ||
		    raft_wire_get64(in, "prev_log_term",
		    &ae->prev_log_term) == -1 ||
		    raft_wire_get64(in, "leader_commit",
		    &ae->leader_commit) == -1)
			return (-1);
		return (raft_wire_get_entries(in, ae));
	case RAFT_IO_APPEND_ENTRIES_RESULT:
		return (raft_wire_get64(in, "term", &aer->term) == -1 ||
		    raft_wire_get64(in, "rejected", &aer->rejected) == -1 ||
		    raft_wire_get64(in, "last_log_index",
		    &aer->last_log_index) == -1 ? -1 : 0);
	case RAFT_IO_REQUEST_VOTE:
		return (raft_wire_get64(in, "term", &rv->term) == -1 ||
		    raft_wire_get64(in, "candidate_id", &rv->candidate_id) ==
		    -1 ||
		    raft_wire_get64(in, "last_log_index",
		    &rv->last_log_index) == -1 ||
		    raft_wire_get64(in, "last_log_term",
		    &rv->last_log_term) == -1 ||
		    raft_wire_get_bool(in, "disrupt_leader",
		    &rv->disrupt_leader) == -1 ||
		    raft_wire_get_bool(in, "pre_vote", &rv->pre_vote) == -1 ?
		    -1 : 0);
	case RAFT_IO_REQUEST_VOTE_RESULT:
		if (raft_wire_get64(in, "term", &rvr->term) == -1 ||
		    raft_wire_get_bool(in, "vote_granted",
		    &rvr->vote_granted) == -1 ||
		    raft_wire_get8(in, "pre_vote", &pre_vote) == -1)
			return (-1);
		if (pre_vote != raft_tribool_unknown &&
		    pre_vote != raft_tribool_true &&
		    pre_vote != raft_tribool_false)
			return (raft_wire_fail(in, "pre_vote: %u, expected %d "
			    "(unknown), %d (true) or %d (false)", pre_vote,
			    raft_tribool_unknown, raft_tribool_true,
			    raft_tribool_false));
		rvr->pre_vote = (raft_tribool)pre_vote;
		return (0);
	case RAFT_IO_INSTALL_SNAPSHOT:
		return (raft_wire_get_snapshot(in, &m->install_snapshot));
	case RAFT_IO_TIMEOUT_NOW:
		return (raft_wire_get64(in, "term", &tn->term) == -1 ||
		    raft_wire_get64(in, "last_log_index",
		    &tn->last_log_index) == -1 ||
		    raft_wire_get64(in, "last_log_term",
		    &tn->last_log_term) == -1 ? -1 : 0);
	}
	return (raft_wire_fail(in, "unknown message type %u, expected %d to "
	    "%d", m->type, RAFT_IO_APPEND_ENTRIES, RAFT_IO_TIMEOUT_NOW));
}

static int
raft_wire_get_version(struct raft_wire_in *in)
{
	uint8_t	version;

	if (raft_wire_get8(in, "version", &version) == -1)
		return (-1);
	if (version != RAFT_WIRE_VERSION)
		return (raft_wire_fail(in, "version %u, expected %d", version,
		    RAFT_WIRE_VERSION));
	return (0);
}

int
raft_wire_decode(const uint8_t *buf, size_t len, raft_id from,
    const char *from_address, struct raft_message *m, char *err,
    size_t errlen)
{
	struct raft_wire_in	in = { buf, len, err, errlen };
	uint8_t			type;

	memset(m, 0, sizeof *m);
	if (raft_wire_get_version(&in) == -1 ||
	    raft_wire_get8(&in, "type", &type) == -1)
		return (-1);
	m->type = type;
	if (raft_wire_get_body(&in, m) == -1) {
		memset(m, 0, sizeof *m);
		if (type >= RAFT_IO_APPEND_ENTRIES &&
		    type <= RAFT_IO_TIMEOUT_NOW)
			return (raft_wire_where(&in, "%s",
			    raft_wire_names[type]));
		return (-1);
	}
	if (in.left != 0) {
		raft_wire_free(m);
		return (raft_wire_fail(&in, "%s: %zu bytes after the message",
		    raft_wire_names[type], in.left));
	}
	m->server_id = from;
	m->server_address = from_address;
	return (0);
}

void
raft_wire_free(struct raft_message *m)
{
	struct raft_append_entries	*ae = &m->append_entries;

	switch (m->type) {
	case RAFT_IO_APPEND_ENTRIES:
		if (ae->n_entries != 0)
			raft_free(ae->entries[0].batch);
		raft_free(ae->entries);
		break;
	case RAFT_IO_INSTALL_SNAPSHOT:
		raft_configuration_close(&m->install_snapshot.conf);
		raft_free(m->install_snapshot.data.base);
		break;
	}
	memset(m, 0, sizeof *m);
}

int
raft_wire_conf_decode(const uint8_t *buf, size_t len,
    struct raft_configuration *c, char *err, size_t errlen)
{
	struct raft_wire_in	in = { buf, len, err, errlen };

	raft_configuration_init(c);
	if (raft_wire_get_version(&in) == -1 ||
	    raft_wire_get_conf(&in, c) == -1)
		return (-1);
	if (in.left != 0) {
		raft_configuration_close(c);
		raft_configuration_init(c);
		return (raft_wire_fail(&in, "%zu bytes after the "
		    "configuration", in.left));
	}
	return (0);
}
