/* job-list.c: the JOB_LIST record writer (docs/protocol.md, 201). The
 * strings come from jansson (submit) or the store, so they are valid UTF-8
 * and only need JSON escaping.
 *
 * 10,000 records are 3.4 MB, and the listing must take a few milliseconds,
 * so the writer makes room once per record (an upper bound from the string
 * lengths) and then copies without checking, formats integers by hand, and
 * the caller sizes the buffer from the previous reply so it rarely grows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc-text.h"
#include "common/xmalloc.h"
#include "daemon/controller/job-list.h"
#include "daemon/controller/store-sql.h"
#include "daemon/controller/store.h"

/* Room for a record besides its strings: member names, integers, 64 GPU
 * indexes. */
#define JOB_LIST_ROW_FIXED	1280

void
job_list_init(struct job_list_buf *b, size_t size)
{
	b->len = 0;
	b->size = size < 4096 ? 4096 : size;
	b->buf = xmalloc(b->size);
}

void
job_list_reserve(struct job_list_buf *b, size_t n)
{
	if (b->len + n <= b->size)
		return;
	if (b->size == 0)
		b->size = 65536;
	while (b->len + n > b->size)
		b->size *= 2;
	b->buf = xrealloc(b->buf, b->size);
}

void
job_list_add(struct job_list_buf *b, const char *s, size_t n)
{
	job_list_reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

/* The appends below assume job_list_reserve made room. */
static void
job_list_put(struct job_list_buf *b, const char *s, size_t n)
{
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

#define JOB_LIST_LIT(b, s)	job_list_put(b, s, sizeof s - 1)

static void
job_list_put_int(struct job_list_buf *b, int64_t v)
{
	char		tmp[24];
	size_t		i = sizeof tmp;
	uint64_t	u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--i] = '-';
	job_list_put(b, tmp + i, sizeof tmp - i);
}

void
job_list_int(struct job_list_buf *b, int64_t v)
{
	job_list_reserve(b, 24);
	job_list_put_int(b, v);
}

/* Writes s (len bytes) as a JSON string; needs room for 6 * len + 2. */
static void
job_list_put_string(struct job_list_buf *b, const char *s, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	const char		*end = s + len, *run;
	unsigned char		 c;
	char			*o;

	b->buf[b->len++] = '"';
	for (run = s; s < end; s++) {
		c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		job_list_put(b, run, (size_t)(s - run));
		o = b->buf + b->len;
		o[0] = '\\';
		switch (c) {
		case '"':
		case '\\':
			o[1] = (char)c;
			b->len += 2;
			break;
		case '\n':
			o[1] = 'n';
			b->len += 2;
			break;
		case '\t':
			o[1] = 't';
			b->len += 2;
			break;
		default:
			memcpy(o + 1, "u00", 3);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 0xf];
			b->len += 6;
			break;
		}
		run = s + 1;
	}
	job_list_put(b, run, (size_t)(s - run));
	b->buf[b->len++] = '"';
}

void
job_list_string(struct job_list_buf *b, const char *s)
{
	size_t	len;

	if (s == NULL)
		s = "";
	len = strlen(s);
	job_list_reserve(b, 6 * len + 2);
	job_list_put_string(b, s, len);
}

int
job_list_fields(const json_t *names, uint64_t *fields, char *err,
    size_t errlen)
{
	const char	*name;
	size_t		 i, off;
	int		 f;

	if (names == NULL || json_is_null(names)) {
		*fields = job_field_wire_mask();
		return (0);
	}
	if (!json_is_array(names))
		goto bad;
	*fields = JOB_FIELD_BIT(JF_ID);
	for (i = 0; i < json_array_size(names); i++) {
		if ((name = json_string_value(json_array_get(names, i))) ==
		    NULL)
			goto bad;
		if ((f = job_field_by_wire(name, strlen(name))) == -1) {
			off = (size_t)snprintf(err, errlen, "fields: unknown "
			    "field \"%s\"; accepted:", name);
			goto names;
		}
		*fields |= JOB_FIELD_BIT(f);
	}
	return (0);
bad:
	off = (size_t)snprintf(err, errlen, "fields: expected an array of "
	    "field names; accepted:");
names:
	for (f = 0; f < JF_COUNT && off < errlen; f++) {
		if (job_fields[f].wire != NULL)
			off += (size_t)snprintf(err + off, errlen - off, " %s",
			    job_fields[f].wire);
	}
	return (-1);
}

uint64_t
job_list_store_fields(uint64_t fields)
{
	uint64_t	m = fields | JOB_FIELD_BIT(JF_ID) | JOB_FIELD_BIT(JF_STATE);

	if (fields & (JOB_FIELD_BIT(JF_ALLOC) | JOB_FIELD_BIT(JF_NODES)))
		m |= JOB_FIELD_BIT(JF_NODE) | JOB_FIELD_BIT(JF_GPU_MASK) |
		    JOB_FIELD_BIT(JF_ALLOC_TEXT);
	if (fields & JOB_FIELD_BIT(JF_ELAPSED))
		m |= JOB_FIELD_BIT(JF_START_TIME) | JOB_FIELD_BIT(JF_END_TIME);
	if (fields & JOB_FIELD_BIT(JF_JCT))
		m |= JOB_FIELD_BIT(JF_SUBMIT_TIME) | JOB_FIELD_BIT(JF_END_TIME);
	return (m);
}

/* Each field's member name as written: ,"name": */
static struct job_list_key {
	char	text[40];
	size_t	len;
} job_list_keys[JF_COUNT];

/* Writes the member name of field f: a comma unless it is the first. */
static void
job_list_key(struct job_list_buf *b, int f, int *first)
{
	struct job_list_key	*k = &job_list_keys[f];

	if (k->len == 0)
		k->len = (size_t)snprintf(k->text, sizeof k->text, ",\"%s\":",
		    job_fields[f].wire);
	job_list_put(b, k->text + *first, k->len - (size_t)*first);
	*first = 0;
}

#define JOB_LIST_WANT(fields, f)	(((fields) >> (f)) & 1)

/* Field f of row, by its kind. */
#define JOB_LIST_MEMBER(r, f, type) \
	(*(const type *)(const void *)((const char *)(r) + store_job_offset[f]))

/* Writes mask's GPU indexes as a JSON array. */
static void
job_list_put_gpus(struct job_list_buf *b, uint64_t mask)
{
	unsigned	i;
	int		first = 1;

	b->buf[b->len++] = '[';
	for (i = 0; i < 64; i++) {
		if ((mask & (UINT64_C(1) << i)) == 0)
			continue;
		if (!first)
			b->buf[b->len++] = ',';
		job_list_put_int(b, i);
		first = 0;
	}
	b->buf[b->len++] = ']';
}

/* A multi-node allocation's text ("n1:0xf,n2:0xf", store.h) as the alloc
 * array, or (nodes) as "n1,n2". Needs room for 8 x its length plus 260
 * per node. */
static void
job_list_put_alloc_text(struct job_list_buf *b, const char *text, int nodes)
{
	struct alloc_part	 a;
	size_t			 n = 0;

	b->buf[b->len++] = nodes ? '"' : '[';
	/* A malformed part ends the list: what came before it stands. */
	while (alloc_text_next(&text, &a) == 1) {
		if (n++ > 0)
			b->buf[b->len++] = ',';
		if (nodes) {
			job_list_put(b, a.node, a.node_len);
			continue;
		}
		JOB_LIST_LIT(b, "{\"node\":");
		job_list_put_string(b, a.node, a.node_len);
		JOB_LIST_LIT(b, ",\"gpus\":");
		job_list_put_gpus(b, a.mask);
		b->buf[b->len++] = '}';
	}
	b->buf[b->len++] = nodes ? '"' : ']';
}

void
job_list_alloc(struct job_list_buf *b, const char *text)
{
	job_list_reserve(b, 8 * strlen(text) + 260 * (strlen(text) / 4 + 1) +
	    2);
	job_list_put_alloc_text(b, text, 0);
}

void
job_list_row(struct job_list_buf *b, const struct store_job *r, int64_t now,
    uint64_t fields)
{
	const char	*s[JF_COUNT] = { NULL };
	size_t		 n[JF_COUNT] = { 0 }, room = JOB_LIST_ROW_FIXED;
	const char	*node, *alloc;
	int64_t		 elapsed = 0, v;
	int		 f, first = 1;

	fields &= job_field_wire_mask();
	node = r->node != NULL && r->gpu_mask != 0 ? r->node : "";
	/* Node names are letters, digits, '-', '_' and '.' (req-hello.c):
	 * the nodes list needs no escaping. */
	alloc = r->alloc != NULL && *r->alloc != '\0' ? r->alloc : NULL;
	if (alloc != NULL)
		room += 8 * strlen(alloc) + 260 * (strlen(alloc) / 4 + 1);
	for (f = 0; f < JF_COUNT; f++) {
		if (!JOB_LIST_WANT(fields, f))
			continue;
		switch (job_fields[f].kind) {
		case JFK_TEXT:
		case JFK_TEXT0:
			s[f] = JOB_LIST_MEMBER(r, f, char *);
			break;
		case JFK_STATE:
			s[f] = job_state_name(r->state);
			break;
		default:
			break;
		}
	}
	s[JF_REASON] = r->reason != NULL && *r->reason != '\0' ?
	    r->reason : "None";
	s[JF_ALLOC] = node;
	s[JF_NODES] = node;
	/* argv is JSON text already, checked at submit. */
	s[JF_ARGV] = r->argv != NULL && *r->argv != '\0' ? r->argv : "[]";
	for (f = 0; f < JF_COUNT; f++) {
		if (!JOB_LIST_WANT(fields, f) || (s[f] == NULL &&
		    job_fields[f].kind != JFK_TEXT &&
		    job_fields[f].kind != JFK_TEXT0))
			continue;
		if (s[f] == NULL)
			s[f] = "";
		n[f] = strlen(s[f]);
		room += 6 * n[f] + 2;
	}
	job_list_reserve(b, room);

	if (r->start_time != 0) {
		if (r->end_time != 0)
			elapsed = r->end_time - r->start_time;
		else if (r->state == JOB_RUNNING || r->state == JOB_PREEMPTING)
			elapsed = now - r->start_time;
		if (elapsed < 0)
			elapsed = 0;
	}
	b->buf[b->len++] = '{';
	for (f = 0; f < JF_COUNT; f++) {
		if (!JOB_LIST_WANT(fields, f))
			continue;
		job_list_key(b, f, &first);
		switch (f) {
		case JF_ALLOC:
			if (alloc != NULL) {
				job_list_put_alloc_text(b, alloc, 0);
				continue;
			}
			b->buf[b->len++] = '[';
			if (*node == '\0') {
				b->buf[b->len++] = ']';
				continue;
			}
			JOB_LIST_LIT(b, "{\"node\":");
			job_list_put_string(b, node, n[f]);
			JOB_LIST_LIT(b, ",\"gpus\":");
			job_list_put_gpus(b, r->gpu_mask);
			JOB_LIST_LIT(b, "}]");
			continue;
		case JF_NODES:
			if (alloc != NULL)
				job_list_put_alloc_text(b, alloc, 1);
			else
				job_list_put_string(b, s[f], n[f]);
			continue;
		case JF_ELAPSED:
			job_list_put_int(b, elapsed);
			continue;
		case JF_JCT:
			/* Submit to end: only a finished job has one. */
			if (r->end_time == 0 || !job_state_is_terminal(r->state))
				JOB_LIST_LIT(b, "null");
			else
				job_list_put_int(b, r->end_time - r->submit_time);
			continue;
		case JF_ARGV:
			job_list_put(b, s[f], n[f]);
			continue;
		case JF_QUEUE:
			/* Only jobs the scheduler holds have one. */
			if (r->queue < 0)
				JOB_LIST_LIT(b, "null");
			else
				job_list_put_int(b, r->queue);
			continue;
		case JF_RANK:
			/* Only pending jobs have one. */
			if (r->rank < 1)
				JOB_LIST_LIT(b, "null");
			else
				job_list_put_int(b, r->rank);
			continue;
		}
		switch (job_fields[f].kind) {
		case JFK_U64:
			v = (int64_t)JOB_LIST_MEMBER(r, f, uint64_t);
			break;
		case JFK_I64:
			v = JOB_LIST_MEMBER(r, f, int64_t);
			break;
		case JFK_U32:
			v = JOB_LIST_MEMBER(r, f, uint32_t);
			break;
		case JFK_INT:
		case JFK_NULLINT:
			v = JOB_LIST_MEMBER(r, f, int);
			break;
		case JFK_EXIT:
			if (!r->has_exit) {
				JOB_LIST_LIT(b, "null");
				continue;
			}
			v = JOB_LIST_MEMBER(r, f, int);
			break;
		default:
			job_list_put_string(b, s[f], n[f]);
			continue;
		}
		/* Milliseconds (GPU-ms for attained service) go out as
		 * seconds, as gbatch.conf's thresholds. */
		if (job_fields[f].flags & JFF_MS)
			v /= 1000;
		job_list_put_int(b, v);
	}
	b->buf[b->len++] = '}';
}
