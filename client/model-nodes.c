/* model-nodes.c: a NODE_LIST reply read into rows (model-nodes.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jscan.h"
#include "client/model-nodes.h"
#include "common/xmalloc.h"

struct model_nodes_scan {
	struct model_nodes	*out;
	char			*strp;		/* next free byte of strings */
	size_t			 rows_size, gpus_size, ngpus;
	size_t			*first;		/* each row's first GPU */
};

/* Decodes a string value into the pool. A decoded string and its NUL are
 * never longer than the quoted text they came from, so a pool as long as
 * the reply always has room. */
static const char *
model_nodes_str(struct model_nodes_scan *s, const struct jscan_val *v)
{
	char	*p = s->strp;
	size_t	 n;

	if (v->type != JSCAN_STRING)
		return ("");
	n = jscan_string(v, p, v->n + 1);
	s->strp += (n < v->n ? n : v->n) + 1;
	return (p);
}

/* An array of job ids (v, lazy) as the text "17,18" in the rows' strings
 * (never longer than the array's own text); "" for none. Returns it, or
 * NULL on bad syntax. */
static const char *
model_nodes_ids(struct model_nodes_scan *s, struct jscan_val *v)
{
	struct jscan_val	 e;
	char			*p = s->strp;
	size_t			 pos = 0, n = 0;
	long long		 id;
	int			 r;

	*p = '\0';
	if (v->type != JSCAN_ARRAY)
		return (p);
	while ((r = jscan_element_lazy(v, &pos, &e)) == 1) {
		if (jscan_int(&e, &id) == 0 && id > 0)
			n += (size_t)sprintf(p + n, "%s%lld", n > 0 ? "," : "",
			    id);
		if (jscan_resume(v, &pos, &e) == -1)
			return (NULL);
	}
	if (r == -1)
		return (NULL);
	jscan_close(v, pos);
	s->strp += n + 1;
	return (p);
}

static long long
model_nodes_int(const struct jscan_val *v, long long none)
{
	long long	n;

	return (jscan_int(v, &n) == 0 ? n : none);
}

/* The GPU or node obj (lazy) was walked to pos: moves its parent's walk
 * (*ppos) past it. Returns 0, or -1 on bad syntax. */
static int
model_nodes_resume(const struct jscan_val *parent, size_t *ppos,
    struct jscan_val *obj, size_t pos)
{
	jscan_close(obj, pos);
	return (jscan_resume(parent, ppos, obj));
}

const char *
model_nodes_job_name(const struct model_gpu *g, char *buf, size_t len)
{
	if (g->job == 0)
		snprintf(buf, len, "%s", "");
	else if (g->task >= 0 && g->array != 0)
		snprintf(buf, len, "%llu_%lld", (unsigned long long)g->array,
		    g->task);
	else
		snprintf(buf, len, "%llu", (unsigned long long)g->job);
	return (buf);
}

/* A GPU of a brief listing: [index, job, util, mem_used_mb, low_since],
 * and [..., array_job_id, array_task_id] when its job is an array's
 * task. */
static int
model_nodes_gpu_brief(struct model_nodes_scan *s, struct model_gpu *g,
    struct jscan_val *arr, const struct jscan_val *parent, size_t *ppos)
{
	struct jscan_val	 val;
	size_t			 pos = 0, n = 0;
	long long		 v;
	int			 r;

	while ((r = jscan_element(arr, &pos, &val)) == 1) {
		v = model_nodes_int(&val, -1);
		switch (n++) {
		case 0:
			g->index = v >= 0 ? v : 0;
			break;
		case 1:
			g->job = v > 0 ? (uint64_t)v : 0;
			break;
		case 2:
			g->util = v >= 0 && v <= 100 ? (int)v : -1;
			break;
		case 3:
			g->mem_used_mb = v;
			break;
		case 4:
			g->low_since = v > 0 ? v : 0;
			break;
		case 5:
			g->array = v > 0 ? (uint64_t)v : 0;
			break;
		case 6:
			g->task = v;
			break;
		case 7:
			if ((g->also = model_nodes_ids(s, &val)) == NULL)
				return (-1);
			break;
		default:
			return (-1);
		}
	}
	if (r == -1 || (n != 5 && n != 7 && n != 8))
		return (-1);
	return (model_nodes_resume(parent, ppos, arr, pos));
}

static int
model_nodes_gpu(struct model_nodes_scan *s, struct jscan_val *obj,
    const struct jscan_val *parent, size_t *ppos)
{
	struct jscan_val	 key, val;
	struct model_gpu	*g;
	size_t			 pos = 0;
	long long		 util;
	int			 r;

	if (obj->type != JSCAN_OBJECT && obj->type != JSCAN_ARRAY)
		return (-1);
	if (s->ngpus == s->gpus_size) {
		s->gpus_size = s->gpus_size != 0 ? s->gpus_size * 2 : 64;
		s->out->gpus = xreallocarray(s->out->gpus, s->gpus_size,
		    sizeof *s->out->gpus);
	}
	g = &s->out->gpus[s->ngpus++];
	memset(g, 0, sizeof *g);
	g->name = g->uuid = g->also = "";
	g->util = -1;
	g->mem_used_mb = -1;
	g->task = -1;
	if (obj->type == JSCAN_ARRAY)
		return (model_nodes_gpu_brief(s, g, obj, parent, ppos));
	while ((r = jscan_member_lazy(obj, &pos, &key, &val)) == 1) {
		if (jscan_key_is(&key, "index"))
			g->index = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "name"))
			g->name = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "uuid"))
			g->uuid = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "memory_mb"))
			g->memory_mb = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "job"))
			g->job = (uint64_t)model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "also")) {
			if ((g->also = model_nodes_ids(s, &val)) == NULL)
				return (-1);
		}
		else if (jscan_key_is(&key, "util")) {
			util = model_nodes_int(&val, -1);
			g->util = util >= 0 && util <= 100 ? (int)util : -1;
		} else if (jscan_key_is(&key, "mem_used_mb"))
			g->mem_used_mb = model_nodes_int(&val, -1);
		else if (jscan_key_is(&key, "low_since"))
			g->low_since = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "array_job_id"))
			g->array = (uint64_t)model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "array_task_id"))
			g->task = model_nodes_int(&val, -1);
		if (jscan_resume(obj, &pos, &val) == -1)
			return (-1);
	}
	if (r == 0)
		r = model_nodes_resume(parent, ppos, obj, pos);
	return (r);
}

static int
model_nodes_row(struct model_nodes_scan *s, struct jscan_val *obj,
    const struct jscan_val *parent, size_t *ppos)
{
	struct jscan_val	 key, val, gpu;
	struct model_node	*n;
	size_t			 pos = 0, gpos;
	int			 r;

	if (obj->type != JSCAN_OBJECT)
		return (-1);
	if (s->out->n == s->rows_size) {
		s->rows_size = s->rows_size != 0 ? s->rows_size * 2 : 16;
		s->out->rows = xreallocarray(s->out->rows, s->rows_size,
		    sizeof *s->out->rows);
		s->first = xreallocarray(s->first, s->rows_size,
		    sizeof *s->first);
	}
	/* Where its GPUs start in out->gpus, which may still move. */
	s->first[s->out->n] = s->ngpus;
	n = &s->out->rows[s->out->n++];
	memset(n, 0, sizeof *n);
	n->cpus_total = n->mem_total = -1;
	n->gpu_shards = 1;
	n->name = n->state = n->reason = n->addr = n->gpu_source = n->sw = "";
	n->cpu_jobs = n->partitions = n->reservation = "";
	while ((r = jscan_member_lazy(obj, &pos, &key, &val)) == 1) {
		if (jscan_key_is(&key, "name"))
			n->name = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "state"))
			n->state = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "reason"))
			n->reason = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "addr"))
			n->addr = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "gpu_source"))
			n->gpu_source = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "switch"))
			n->sw = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "partitions"))
			n->partitions = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "reservation"))
			n->reservation = model_nodes_str(s, &val);
		else if (jscan_key_is(&key, "gpus_total"))
			n->gpus_total = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "gpus_alloc"))
			n->gpus_alloc = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "cpus_total"))
			n->cpus_total = model_nodes_int(&val, -1);
		else if (jscan_key_is(&key, "cpus_alloc"))
			n->cpus_alloc = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "memory_mb"))
			n->mem_total = model_nodes_int(&val, -1);
		else if (jscan_key_is(&key, "memory_alloc_mb"))
			n->mem_alloc = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "last_seen"))
			n->last_seen = model_nodes_int(&val, 0);
		else if (jscan_key_is(&key, "gpu_shards"))
			n->gpu_shards = model_nodes_int(&val, 1);
		else if (jscan_key_is(&key, "cpu_jobs")) {
			if ((n->cpu_jobs = model_nodes_ids(s, &val)) == NULL)
				return (-1);
		}
		else if (jscan_key_is(&key, "gpus") && val.type ==
		    JSCAN_ARRAY) {
			gpos = 0;
			while ((r = jscan_element_lazy(&val, &gpos, &gpu)) ==
			    1) {
				if (model_nodes_gpu(s, &gpu, &val, &gpos) == -1)
					return (-1);
				n->ngpus++;
			}
			if (r == -1)
				return (-1);
			jscan_close(&val, gpos);
		}
		if (jscan_resume(obj, &pos, &val) == -1)
			return (-1);
	}
	if (r == 0)
		r = model_nodes_resume(parent, ppos, obj, pos);
	return (r);
}

int
model_nodes_scan(char *body, size_t len, struct model_nodes *out)
{
	struct model_nodes_scan	 s;
	struct jscan_val	 top, key, val, nodes, node;
	size_t			 pos = 0, npos, i;
	int			 r;

	memset(out, 0, sizeof *out);
	memset(&s, 0, sizeof s);
	s.out = out;
	out->body = body;
	out->len = len;
	out->strings = s.strp = xmalloc(len + 1);
	nodes.type = JSCAN_NONE;
	if (jscan_open(body, len, &top) == -1)
		goto bad;
	/* One walk over the reply, each container read where it lies. */
	while ((r = jscan_member_lazy(&top, &pos, &key, &val)) == 1) {
		if (jscan_key_is(&key, "nodes") && val.type == JSCAN_ARRAY) {
			nodes = val;
			npos = 0;
			while ((r = jscan_element_lazy(&val, &npos, &node)) ==
			    1) {
				if (model_nodes_row(&s, &node, &val, &npos) ==
				    -1)
					goto bad;
			}
			if (r == -1)
				goto bad;
			jscan_close(&val, npos);
		}
		if (jscan_resume(&top, &pos, &val) == -1)
			goto bad;
	}
	if (r == -1 || nodes.type != JSCAN_ARRAY)
		goto bad;
	for (i = 0; i < out->n; i++)
		out->rows[i].gpus = out->gpus + s.first[i];
	out->ngpus = s.ngpus;
	free(s.first);
	return (0);
bad:
	free(s.first);
	model_nodes_free(out);
	return (-1);
}

void
model_nodes_free(struct model_nodes *m)
{
	free(m->body);
	free(m->strings);
	free(m->rows);
	free(m->gpus);
	memset(m, 0, sizeof *m);
}

json_t *
model_nodes_json(const struct model_nodes *m)
{
	if (m->body == NULL)
		return (NULL);
	return (json_loadb(m->body, m->len, 0, NULL));
}
