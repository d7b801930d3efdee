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
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/store-sql.h"
#include "daemon/controller/store.h"

/* Room for a record besides its strings: member names, integers, 64 GPU
 * indexes. */
#define JOB_LIST_ROW_FIXED	1280

int
job_list_fields(const json_t *names, struct job_field_set *fields,
    char *err, size_t errlen)
{
	const char	*name;
	size_t		 i, off;
	int		 f;

	if (names == NULL || json_is_null(names)) {
		*fields = job_field_wire_set();
		return (0);
	}
	if (!json_is_array(names))
		goto bad;
	*fields = jfs_one(JF_ID);
	for (i = 0; i < json_array_size(names); i++) {
		if ((name = json_string_value(json_array_get(names, i))) ==
		    NULL)
			goto bad;
		if ((f = job_field_by_wire(name, strlen(name))) == -1) {
			off = (size_t)snprintf(err, errlen, "fields: unknown "
			    "field \"%s\"; accepted:", name);
			goto names;
		}
		jfs_add(fields, f);
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

struct job_field_set
job_list_store_fields(struct job_field_set fields)
{
	struct job_field_set	m = fields;

	jfs_add(&m, JF_ID);
	jfs_add(&m, JF_STATE);
	if (jfs_has(fields, JF_ALLOC) || jfs_has(fields, JF_NODES)) {
		jfs_add(&m, JF_NODE);
		jfs_add(&m, JF_GPU_MASK);
		jfs_add(&m, JF_ALLOC_TEXT);
	}
	if (jfs_has(fields, JF_ELAPSED)) {
		jfs_add(&m, JF_START_TIME);
		jfs_add(&m, JF_END_TIME);
		jfs_add(&m, JF_RUN_SUSPENDED);
		jfs_add(&m, JF_SUSPEND_SINCE);
	}
	if (jfs_has(fields, JF_JCT)) {
		jfs_add(&m, JF_SUBMIT_TIME);
		jfs_add(&m, JF_END_TIME);
	}
	if (jfs_has(fields, JF_KIND))
		jfs_add(&m, JF_FLAGS);
	if (jfs_has(fields, JF_PREEMPT)) {
		jfs_add(&m, JF_FLAGS);
		jfs_add(&m, JF_CKPT_SIGNAL);
	}
	return (m);
}

/* A plan keeps field numbers in bytes. */
_Static_assert(JF_COUNT <= UINT8_MAX, "job_list_plan's f holds a field");

void
job_list_plan(struct job_list_plan *plan, struct job_field_set fields)
{
	struct job_list_key	*k;
	int			 f;

	fields = jfs_and(fields, job_field_wire_set());
	plan->n = 0;
	memset(&plan->preempt, 0, sizeof plan->preempt);
	for (f = 0; f < JF_COUNT; f++) {
		if (!jfs_has(fields, f))
			continue;
		k = &plan->key[plan->n];
		k->len = (uint8_t)snprintf(k->text, sizeof k->text, ",\"%s\":",
		    job_fields[f].wire);
		plan->f[plan->n++] = (uint8_t)f;
	}
}

/* Field f of row, by its kind. */
#define JOB_LIST_MEMBER(r, f, type) \
	(*(const type *)(const void *)((const char *)(r) + store_job_offset[f]))

/* Writes mask's GPU indexes as a JSON array. */
static void
job_list_put_gpus(struct jtext *b, uint64_t mask)
{
	unsigned	i;
	int		first = 1;

	b->buf[b->len++] = '[';
	for (i = 0; i < 64; i++) {
		if ((mask & (UINT64_C(1) << i)) == 0)
			continue;
		if (!first)
			b->buf[b->len++] = ',';
		jtext_put_int(b, i);
		first = 0;
	}
	b->buf[b->len++] = ']';
}

/* A multi-node allocation's text ("n1:0xf,n2:0xf", store.h) as the alloc
 * array, or (nodes) as "n1,n2". Needs room for 8 x its length plus 260
 * per node. */
static void
job_list_put_alloc_text(struct jtext *b, const char *text, int nodes)
{
	struct alloc_part	 a;
	size_t			 n = 0;

	b->buf[b->len++] = nodes ? '"' : '[';
	/* A malformed part ends the list: what came before it stands. */
	while (alloc_text_next(&text, &a) == 1) {
		if (n++ > 0)
			b->buf[b->len++] = ',';
		if (nodes) {
			jtext_put(b, a.node, a.node_len);
			continue;
		}
		JTEXT_LIT(b, "{\"node\":");
		jtext_put_string(b, a.node, a.node_len);
		JTEXT_LIT(b, ",\"gpus\":");
		job_list_put_gpus(b, a.mask);
		/* A run of shards: N of the GPU's S. */
		if (a.share > 0) {
			JTEXT_LIT(b, ",\"share\":");
			jtext_put_int(b, a.share);
			JTEXT_LIT(b, ",\"shards\":");
			jtext_put_int(b, a.shards);
		}
		b->buf[b->len++] = '}';
	}
	b->buf[b->len++] = nodes ? '"' : ']';
}

void
job_list_alloc(struct jtext *b, const char *text)
{
	jtext_reserve(b, 8 * strlen(text) + 260 * (strlen(text) / 4 + 1) +
	    2);
	job_list_put_alloc_text(b, text, 0);
}

void
job_list_columns(struct jtext *b, struct job_field_set fields)
{
	int	f, first = 1;

	fields = jfs_and(fields, job_field_wire_set());
	jtext_add(b, "[", 1);
	for (f = 0; f < JF_COUNT; f++) {
		if (!jfs_has(fields, f))
			continue;
		if (!first)
			jtext_add(b, ",", 1);
		jtext_string(b, job_fields[f].wire);
		first = 0;
	}
	jtext_add(b, "]", 1);
}

/* A record as an object, or with values as an array (blank: its fields
 * written as null). */
static void
job_list_write(struct jtext *b, const struct store_job *r, int64_t now,
    const struct job_list_plan *plan, struct job_field_set blank,
    bool values)
{
	const char	*s[JF_COUNT];
	size_t		 n[JF_COUNT], room = JOB_LIST_ROW_FIXED, i;
	const char	*node, *alloc;
	int64_t		 elapsed = 0, v;
	int		 f, first = 1;

	node = r->node != NULL ? r->node : "";
	/* Node names are letters, digits, '-', '_' and '.' (req-hello.c):
	 * the nodes list needs no escaping. */
	alloc = r->alloc != NULL && *r->alloc != '\0' ? r->alloc : NULL;
	if (alloc != NULL)
		room += 8 * strlen(alloc) + 260 * (strlen(alloc) / 4 + 1);
	for (i = 0; i < plan->n; i++) {
		f = plan->f[i];
		switch (f) {
		case JF_REASON:
			s[f] = r->reason != NULL && *r->reason != '\0' ?
			    r->reason : "None";
			break;
		case JF_ALLOC:
		case JF_NODES:
			s[f] = node;
			break;
		case JF_ARGV:
			/* argv is JSON text already, checked at submit. */
			s[f] = r->argv != NULL && *r->argv != '\0' ? r->argv :
			    "[]";
			break;
		default:
			switch (job_fields[f].kind) {
			case JFK_TEXT:
			case JFK_TEXT0:
				s[f] = JOB_LIST_MEMBER(r, f, char *);
				break;
			case JFK_STATE:
				s[f] = job_state_name(r->state);
				break;
			default:
				continue;
			}
		}
		if (s[f] == NULL)
			s[f] = "";
		n[f] = strlen(s[f]);
		room += 6 * n[f] + 2;
	}
	jtext_reserve(b, room);

	/* The last run's, its time suspended apart (sacct's Elapsed). */
	if (r->start_time != 0) {
		if (r->end_time != 0)
			elapsed = r->end_time - r->start_time;
		else if (job_state_on_node(r->state))
			elapsed = now - r->start_time;
		elapsed -= r->run_suspended / 1000;
		if (r->suspend_since != 0 && r->end_time == 0)
			elapsed -= now - r->suspend_since / 1000;
		if (elapsed < 0)
			elapsed = 0;
	}
	b->buf[b->len++] = values ? '[' : '{';
	for (i = 0; i < plan->n; i++) {
		f = plan->f[i];
		if (!values)
			jtext_put(b, plan->key[i].text + first,
			    plan->key[i].len - (size_t)first);
		else if (!first)
			b->buf[b->len++] = ',';
		first = 0;
		if (values && jfs_has(blank, f)) {
			JTEXT_LIT(b, "null");
			continue;
		}
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
			JTEXT_LIT(b, "{\"node\":");
			jtext_put_string(b, node, n[f]);
			JTEXT_LIT(b, ",\"gpus\":");
			job_list_put_gpus(b, r->gpu_mask);
			JTEXT_LIT(b, "}]");
			continue;
		case JF_NODES:
			if (alloc != NULL)
				job_list_put_alloc_text(b, alloc, 1);
			else
				jtext_put_string(b, s[f], n[f]);
			continue;
		case JF_ELAPSED:
			jtext_put_int(b, elapsed);
			continue;
		case JF_JCT:
			/* Submit to end: only a finished job has one. */
			if (r->end_time == 0 || !job_state_is_terminal(r->state))
				JTEXT_LIT(b, "null");
			else
				jtext_put_int(b, r->end_time - r->submit_time);
			continue;
		case JF_ARGV:
			jtext_put(b, s[f], n[f]);
			continue;
		case JF_PREEMPT:
			jtext_string(b, job_preempt_name(job_preempt_mode(
			    r->flags, r->ckpt_signal, plan->preempt.plain,
			    job_preempt_qos(&plan->preempt, r->qos))));
			continue;
		case JF_KIND:
			/* grun's jobs, or gsub's. */
			if (r->flags & JOB_F_INTERACTIVE)
				JTEXT_LIT(b, "\"interactive\"");
			else
				JTEXT_LIT(b, "\"batch\"");
			continue;
		case JF_QUEUE:
			/* Only jobs the scheduler holds have one. */
			if (r->queue < 0)
				JTEXT_LIT(b, "null");
			else
				jtext_put_int(b, r->queue);
			continue;
		case JF_RANK:
			/* Only pending jobs have one. */
			if (r->rank < 1)
				JTEXT_LIT(b, "null");
			else
				jtext_put_int(b, r->rank);
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
				JTEXT_LIT(b, "null");
				continue;
			}
			v = JOB_LIST_MEMBER(r, f, int);
			break;
		default:
			jtext_put_string(b, s[f], n[f]);
			continue;
		}
		/* Milliseconds (GPU-ms for attained service) go out as
		 * seconds, as gbatch.conf's thresholds. */
		if (job_fields[f].flags & JFF_MS)
			v /= 1000;
		jtext_put_int(b, v);
	}
	b->buf[b->len++] = values ? ']' : '}';
}

void
job_list_row(struct jtext *b, const struct store_job *r, int64_t now,
    const struct job_list_plan *plan)
{
	job_list_write(b, r, now, plan, jfs_none(), false);
}

void
job_list_values(struct jtext *b, const struct store_job *r, int64_t now,
    const struct job_list_plan *plan, struct job_field_set blank)
{
	job_list_write(b, r, now, plan, blank, true);
}
