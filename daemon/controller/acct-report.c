/* acct-report.c: the figures of gacct's reports (acct-report.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc-text.h"
#include "common/xmalloc.h"
#include "daemon/controller/acct-report.h"
#include "daemon/controller/acct-series.h"

/* Queue levels above this are counted in it: the scheduler has a handful,
 * and a row from a damaged database must not size an array. */
#define ACCT_MAX_QUEUES	64

/* Values kept for percentiles. */
struct acct_vals {
	int64_t		*v;
	size_t		 n;
	size_t		 size;
	int64_t		 sum;
};

struct acct_group {
	struct acct_report_group pub;
	struct acct_vals	 jct;
	struct acct_vals	 wait;
};

struct acct_user {
	struct acct_report_user	 pub;
	struct acct_vals	 jct;
	struct acct_vals	 wait;
};

/* A node's state: up (or drained) 0, 1, or 2 while not yet known. */
#define ACCT_UNKNOWN	2

struct acct_node {
	struct acct_report_node	 pub;
	bool			 listed;	/* in the nodes table */
	int			 up;
	int			 drained;
	/* What the first event of each kind said the state became (-1:
	 * none yet): the unknown state before it is the other one. */
	int			 first_up;
	int			 first_drained;
	int64_t			 t;		/* the last change */
	int64_t			 up_since;	/* the last UP/DOWN event */
	int64_t			 secs[3][3];	/* by up, drained */
};

/* Names to indexes: open addressing, the table at most half full. */
struct acct_map {
	char		**keys;
	size_t		 *idx;
	size_t		  size;
	size_t		  count;
};

struct acct_report {
	int64_t			 since;
	int64_t			 until;
	struct acct_map		 user_map;
	struct acct_user	*users;
	size_t			 nusers;
	struct acct_map		 node_map;
	struct acct_node	*nodes;
	size_t			 nnodes;
	struct acct_group	 all;
	struct acct_group	 bucket[ACCT_NBUCKETS];
	struct acct_group	 jct[ACCT_NJCT];
	struct acct_group	*queue;
	int			 nqueues;
	bool			 users_only;
	struct acct_series	*series;	/* NULL: none asked for */
	bool			 finished;
	struct acct_report_user	*user_rows;
	struct acct_report_node	*node_rows;
	struct acct_report_group queue_rows[ACCT_MAX_QUEUES];
	struct acct_report_cluster cluster;
};

static const enum job_state acct_report_states[ACCT_NSTATES] = {
	JOB_COMPLETED, JOB_FAILED, JOB_TIMEOUT, JOB_CANCELLED, JOB_NODE_FAIL,
	JOB_OUT_OF_MEMORY
};

static const char *const acct_report_buckets[ACCT_NBUCKETS] = {
	"0", "1", "2-4", "5-8", ">8"
};

/* The JCT ranges' upper ends, seconds (the last has none), and names. */
static const int64_t acct_report_jct_ends[ACCT_NJCT - 1] = {
	60, 600, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400
};
static const char *const acct_report_jcts[ACCT_NJCT] = {
	"<1m", "1m-10m", "10m-1h", "1h-4h", "4h-12h", "12h-1d", "1d-3d", ">3d"
};

enum job_state
acct_report_state(int i)
{
	return (acct_report_states[i]);
}

const char *
acct_report_bucket_name(int i)
{
	return (acct_report_buckets[i]);
}

const char *
acct_report_jct_name(int i)
{
	return (acct_report_jcts[i]);
}

static int
acct_report_jct(int64_t jct)
{
	int	i;

	for (i = 0; i < ACCT_NJCT - 1; i++) {
		if (jct < acct_report_jct_ends[i])
			return (i);
	}
	return (ACCT_NJCT - 1);
}

static int
acct_report_state_index(enum job_state s)
{
	int	i;

	for (i = 0; i < ACCT_NSTATES; i++) {
		if (acct_report_states[i] == s)
			return (i);
	}
	return (-1);
}

static int
acct_report_bucket(uint32_t gpus)
{
	/* CPU jobs apart. */
	if (gpus == 0)
		return (0);
	if (gpus == 1)
		return (1);
	if (gpus <= 4)
		return (2);
	if (gpus <= 8)
		return (3);
	return (4);
}

static uint64_t
acct_map_hash(const char *s, size_t len)
{
	uint64_t	h = UINT64_C(14695981039346656037);
	size_t		i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
	return (h);
}

static void acct_map_put(struct acct_map *, char *key, size_t idx);

static void
acct_map_grow(struct acct_map *m)
{
	struct acct_map	 old = *m;
	size_t		 i;

	m->size = old.size != 0 ? old.size * 2 : 64;
	m->keys = xcalloc(m->size, sizeof *m->keys);
	m->idx = xcalloc(m->size, sizeof *m->idx);
	m->count = 0;
	for (i = 0; i < old.size; i++) {
		if (old.keys[i] != NULL)
			acct_map_put(m, old.keys[i], old.idx[i]);
	}
	free(old.keys);
	free(old.idx);
}

static void
acct_map_put(struct acct_map *m, char *key, size_t idx)
{
	size_t	i;

	if (2 * (m->count + 1) > m->size)
		acct_map_grow(m);
	i = acct_map_hash(key, strlen(key)) & (m->size - 1);
	while (m->keys[i] != NULL)
		i = (i + 1) & (m->size - 1);
	m->keys[i] = key;
	m->idx[i] = idx;
	m->count++;
}

/* The index of the len bytes at key, or (size_t)-1. */
static size_t
acct_map_get(const struct acct_map *m, const char *key, size_t len)
{
	size_t	i;

	if (m->size == 0)
		return ((size_t)-1);
	i = acct_map_hash(key, len) & (m->size - 1);
	for (; m->keys[i] != NULL; i = (i + 1) & (m->size - 1)) {
		if (strncmp(m->keys[i], key, len) == 0 &&
		    m->keys[i][len] == '\0')
			return (m->idx[i]);
	}
	return ((size_t)-1);
}

static void
acct_map_free(struct acct_map *m)
{
	size_t	i;

	for (i = 0; i < m->size; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->idx);
}

static void
acct_vals_add(struct acct_vals *v, int64_t x)
{
	if (v->n == v->size) {
		v->size = v->size != 0 ? v->size * 2 : 16;
		v->v = xreallocarray(v->v, v->size, sizeof *v->v);
	}
	v->v[v->n++] = x;
	v->sum += x;
}

/* Moves the k-th smallest of v[lo..hi] to v[k], the smaller ones before
 * it and the larger after (Hoare's selection, median of three): linear on
 * average, where sorting a million waits would be most of a report. */
static void
acct_vals_select(int64_t *v, long lo, long hi, long k)
{
	int64_t	pivot, t;
	long	i, j, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo]) { t = v[mid]; v[mid] = v[lo]; v[lo] = t; }
		if (v[hi] < v[lo]) { t = v[hi]; v[hi] = v[lo]; v[lo] = t; }
		if (v[hi] < v[mid]) { t = v[hi]; v[hi] = v[mid]; v[mid] = t; }
		pivot = v[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i]; v[i] = v[j]; v[j] = t;
				i++;
				j--;
			}
		}
		/* Now v[lo..j] <= pivot <= v[i..hi], and i > j. */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Nearest rank: the value at rank ceil(p/100 x n), 1-based, of the values
 * sorted. The p95 is selected first; the median then among the values
 * before it. */
static size_t
acct_vals_rank(size_t n, unsigned p)
{
	size_t	rank = ((size_t)p * n + 99) / 100;

	return (rank < 1 ? 0 : rank - 1);
}

static void
acct_vals_stat(struct acct_vals *v, struct acct_stat *s)
{
	size_t	k95, k50;

	memset(s, 0, sizeof *s);
	if (v->n == 0)
		return;
	k95 = acct_vals_rank(v->n, 95);
	k50 = acct_vals_rank(v->n, 50);
	acct_vals_select(v->v, 0, (long)v->n - 1, (long)k95);
	if (k50 < k95)
		acct_vals_select(v->v, 0, (long)k95 - 1, (long)k50);
	s->n = v->n;
	s->avg = (double)v->sum / (double)v->n;
	s->median = v->v[k50];
	s->p95 = v->v[k95];
}

struct acct_report *
acct_report_create(int64_t since, int64_t until)
{
	struct acct_report	*r = xcalloc(1, sizeof *r);

	r->since = since;
	r->until = until > since ? until : since;
	return (r);
}

void
acct_report_users_only(struct acct_report *r)
{
	r->users_only = true;
}

void
acct_report_series(struct acct_report *r, int bins)
{
	if (r->series == NULL)
		r->series = acct_series_create(r->since, r->until, bins);
}

static void
acct_group_free(struct acct_group *g)
{
	free(g->jct.v);
	free(g->wait.v);
}

void
acct_report_free(struct acct_report *r)
{
	size_t	i;
	int	q;

	if (r == NULL)
		return;
	for (i = 0; i < r->nusers; i++) {
		free(r->users[i].jct.v);
		free(r->users[i].wait.v);
	}
	free(r->users);
	free(r->nodes);
	acct_map_free(&r->user_map);
	acct_map_free(&r->node_map);
	acct_group_free(&r->all);
	for (q = 0; q < ACCT_NBUCKETS; q++)
		acct_group_free(&r->bucket[q]);
	for (q = 0; q < ACCT_NJCT; q++)
		acct_group_free(&r->jct[q]);
	acct_series_free(r->series);
	for (q = 0; q < r->nqueues; q++)
		acct_group_free(&r->queue[q]);
	free(r->queue);
	free(r->user_rows);
	free(r->node_rows);
	free(r);
}

static struct acct_user *
acct_report_user(struct acct_report *r, const char *name)
{
	size_t		 i = acct_map_get(&r->user_map, name, strlen(name));
	struct acct_user *u;

	if (i != (size_t)-1)
		return (&r->users[i]);
	r->users = xreallocarray(r->users, r->nusers + 1, sizeof *r->users);
	u = &r->users[r->nusers];
	memset(u, 0, sizeof *u);
	u->pub.user = xstrdup(name);
	acct_map_put(&r->user_map, (char *)u->pub.user, r->nusers++);
	return (u);
}

static struct acct_node *
acct_report_node_get(struct acct_report *r, const char *name, size_t len)
{
	size_t		 i = acct_map_get(&r->node_map, name, len);
	struct acct_node *n;
	char		*key;

	if (i != (size_t)-1)
		return (&r->nodes[i]);
	r->nodes = xreallocarray(r->nodes, r->nnodes + 1, sizeof *r->nodes);
	n = &r->nodes[r->nnodes];
	memset(n, 0, sizeof *n);
	key = xmalloc(len + 1);
	memcpy(key, name, len);
	key[len] = '\0';
	n->pub.name = key;
	n->up = n->drained = ACCT_UNKNOWN;
	n->first_up = n->first_drained = -1;
	n->t = n->up_since = r->since;
	acct_map_put(&r->node_map, key, r->nnodes++);
	return (n);
}

static void
acct_group_add(struct acct_group *g, int state, const struct
    acct_report_job *j)
{
	g->pub.jobs++;
	g->pub.by_state[state]++;
	g->pub.preemptions += j->preemptions;
	acct_vals_add(&g->jct, j->end_time - j->submit_time);
	acct_vals_add(&g->wait, j->queue_delay);
}

/* The group of queue level q (0 <= q < ACCT_MAX_QUEUES), made on demand. */
static struct acct_group *
acct_report_queue(struct acct_report *r, int q)
{
	if (q >= r->nqueues) {
		r->queue = xreallocarray(r->queue, (size_t)q + 1,
		    sizeof *r->queue);
		memset(&r->queue[r->nqueues], 0, (size_t)(q + 1 - r->nqueues) *
		    sizeof *r->queue);
		r->nqueues = q + 1;
	}
	return (&r->queue[q]);
}

static void
acct_vals_merge(struct acct_vals *into, const struct acct_vals *from)
{
	if (from->n == 0)
		return;
	if (into->size - into->n < from->n) {
		into->size = into->n + from->n;
		into->v = xreallocarray(into->v, into->size, sizeof *into->v);
	}
	memcpy(into->v + into->n, from->v, from->n * sizeof *from->v);
	into->n += from->n;
	into->sum += from->sum;
}

static void
acct_group_merge(struct acct_group *into, const struct acct_group *from)
{
	int	i;

	into->pub.jobs += from->pub.jobs;
	for (i = 0; i < ACCT_NSTATES; i++)
		into->pub.by_state[i] += from->pub.by_state[i];
	into->pub.preemptions += from->pub.preemptions;
	acct_vals_merge(&into->jct, &from->jct);
	acct_vals_merge(&into->wait, &from->wait);
}

void
acct_report_merge(struct acct_report *into, const struct acct_report *from)
{
	const struct acct_user	*f;
	struct acct_user	*u;
	struct acct_node	*n;
	size_t			 i;
	int			 q, k;

	for (i = 0; i < from->nusers; i++) {
		f = &from->users[i];
		u = acct_report_user(into, f->pub.user);
		u->pub.jobs += f->pub.jobs;
		for (k = 0; k < ACCT_NSTATES; k++)
			u->pub.by_state[k] += f->pub.by_state[k];
		u->pub.preemptions += f->pub.preemptions;
		u->pub.gpu_s += f->pub.gpu_s;
		u->pub.charged += f->pub.charged;
		acct_vals_merge(&u->jct, &f->jct);
		acct_vals_merge(&u->wait, &f->wait);
	}
	into->cluster.gpu_s += from->cluster.gpu_s;
	if (into->series != NULL && from->series != NULL)
		acct_series_merge(into->series, from->series);
	for (i = 0; i < from->nnodes; i++) {
		n = acct_report_node_get(into, from->nodes[i].pub.name,
		    strlen(from->nodes[i].pub.name));
		n->pub.gpu_s += from->nodes[i].pub.gpu_s;
	}
	if (into->users_only)
		return;
	acct_group_merge(&into->all, &from->all);
	for (k = 0; k < ACCT_NBUCKETS; k++)
		acct_group_merge(&into->bucket[k], &from->bucket[k]);
	for (k = 0; k < ACCT_NJCT; k++)
		acct_group_merge(&into->jct[k], &from->jct[k]);
	for (q = 0; q < from->nqueues; q++)
		acct_group_merge(acct_report_queue(into, q), &from->queue[q]);
}

void
acct_report_job(struct acct_report *r, const struct acct_report_job *j)
{
	struct acct_user	*u;
	int			 s = acct_report_state_index(j->state);
	int			 q = j->last_queue;

	if (s == -1)
		return;
	if (r->series != NULL)
		acct_series_job(r->series, j->submit_time, j->end_time);
	u = acct_report_user(r, j->user);
	u->pub.jobs++;
	u->pub.by_state[s]++;
	u->pub.preemptions += j->preemptions;
	acct_vals_add(&u->jct, j->end_time - j->submit_time);
	acct_vals_add(&u->wait, j->queue_delay);
	if (r->users_only)
		return;
	acct_group_add(&r->all, s, j);
	acct_group_add(&r->bucket[acct_report_bucket(j->gpus)], s, j);
	acct_group_add(&r->jct[acct_report_jct(j->end_time - j->submit_time)],
	    s, j);
	if (q < 0)
		q = 0;
	if (q >= ACCT_MAX_QUEUES)
		q = ACCT_MAX_QUEUES - 1;
	acct_group_add(acct_report_queue(r, q), s, j);
}

void
acct_report_run(struct acct_report *r, const struct acct_report_run *run)
{
	struct acct_user	*u;
	struct alloc_part	 part;
	const char		*pos = run->alloc != NULL ? run->alloc : "";
	int64_t			 start, end, secs;
	uint64_t		 gpu_s = 0, g;
	uint32_t		 milli = 0;
	bool			 any = false;

	start = run->start_time > r->since ? run->start_time : r->since;
	end = run->end_time != 0 && run->end_time < r->until ?
	    run->end_time : r->until;
	if (end <= start)
		return;
	secs = end - start;
	/* A part of shards is charged its share of the GPU. */
	while (alloc_text_next(&pos, &part) == 1) {
		milli += alloc_text_part_milli(&part);
		g = alloc_text_part_gpu_s(&part, (uint64_t)secs);
		if (!r->users_only)
			acct_report_node_get(r, part.node,
			    part.node_len)->pub.gpu_s += g;
		gpu_s += g;
		any = true;
	}
	if (!any) {
		milli = run->gpus * 1000;
		gpu_s = (uint64_t)run->gpus * (uint64_t)secs;
	}
	if (r->series != NULL)
		acct_series_run(r->series, start, end, milli);
	u = acct_report_user(r, run->user);
	u->pub.gpu_s += gpu_s;
	u->pub.charged += gpu_s * run->weight;
	r->cluster.gpu_s += gpu_s;
}

void
acct_report_node(struct acct_report *r, const char *name, uint32_t gpus,
    int up, int drained)
{
	struct acct_node	*n = acct_report_node_get(r, name, strlen(name));

	n->listed = true;
	n->pub.gpus = gpus;
	n->up = up == -1 ? ACCT_UNKNOWN : up != 0;
	n->drained = drained == -1 ? ACCT_UNKNOWN : drained != 0;
}

/* The node was up from its last UP/DOWN event (or since) until t. */
static void
acct_report_up(struct acct_report *r, struct acct_node *n, int64_t t)
{
	if (r->series != NULL && n->listed)
		acct_series_capacity(r->series, n->up_since, t, n->pub.gpus);
}

/* Counts the time since the node's last change in its current state. */
static void
acct_node_advance(struct acct_report *r, struct acct_node *n, int64_t t)
{
	if (t > r->until)
		t = r->until;
	if (t <= n->t)
		return;
	n->secs[n->up][n->drained] += t - n->t;
	n->t = t;
}

void
acct_report_node_event(struct acct_report *r, const char *name,
    int64_t time, enum acct_node_event ev)
{
	struct acct_node	*n = acct_report_node_get(r, name, strlen(name));

	if (time >= r->until)
		return;
	acct_node_advance(r, n, time);
	switch (ev) {
	case ACCT_NODE_UP:
	case ACCT_NODE_DOWN:
		/* Up until now: it was, or its first event says it went
		 * down (acct_node_finish's rule). */
		if (n->up == 1 || (n->up == ACCT_UNKNOWN &&
		    ev == ACCT_NODE_DOWN))
			acct_report_up(r, n, time);
		n->up_since = time;
		n->up = ev == ACCT_NODE_UP;
		if (n->first_up == -1)
			n->first_up = n->up;
		break;
	case ACCT_NODE_DRAINED:
	case ACCT_NODE_RESUMED:
		n->drained = ev == ACCT_NODE_DRAINED;
		if (n->first_drained == -1)
			n->first_drained = n->drained;
		break;
	}
}

/* Resolves the time in unknown states (see acct-report.h) and sums it. */
static void
acct_node_finish(struct acct_report *r, struct acct_node *n)
{
	int	up_before, drained_before, u, d, uu, dd;
	int64_t	absent = 0;

	acct_node_advance(r, n, r->until);
	if (n->up != 0)
		acct_report_up(r, n, r->until);
	up_before = n->first_up == -1 ? 1 : !n->first_up;
	drained_before = n->first_drained == -1 ? 0 : !n->first_drained;
	for (u = 0; u < 3; u++) {
		for (d = 0; d < 3; d++) {
			uu = u == ACCT_UNKNOWN ? up_before : u;
			dd = d == ACCT_UNKNOWN ? drained_before : d;
			/* A node whose first event is coming UP was not yet
			 * in the cluster: neither down nor capacity. */
			if (u == ACCT_UNKNOWN && n->first_up == 1)
				absent += n->secs[u][d];
			else if (!uu)
				n->pub.down_s += n->secs[u][d];
			else if (dd)
				n->pub.drained_s += n->secs[u][d];
		}
	}
	n->pub.capacity_s = n->listed ? (uint64_t)n->pub.gpus *
	    (uint64_t)(r->until - r->since - n->pub.down_s - absent) : 0;
	r->cluster.capacity_s += n->pub.capacity_s;
	r->cluster.down_gpu_s += (uint64_t)n->pub.gpus *
	    (uint64_t)n->pub.down_s;
	r->cluster.drained_gpu_s += (uint64_t)n->pub.gpus *
	    (uint64_t)n->pub.drained_s;
}

static void
acct_group_finish(struct acct_group *g)
{
	acct_vals_stat(&g->jct, &g->pub.jct);
	acct_vals_stat(&g->wait, &g->pub.wait);
}

static int
acct_user_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct acct_report_user *)a)->user,
	    ((const struct acct_report_user *)b)->user));
}

static int
acct_node_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct acct_report_node *)a)->name,
	    ((const struct acct_report_node *)b)->name));
}

void
acct_report_finish(struct acct_report *r)
{
	size_t	i;
	int	q;

	if (r->finished)
		return;
	r->finished = true;
	r->user_rows = xcalloc(r->nusers + 1, sizeof *r->user_rows);
	for (i = 0; i < r->nusers; i++) {
		acct_vals_stat(&r->users[i].jct, &r->users[i].pub.jct);
		acct_vals_stat(&r->users[i].wait, &r->users[i].pub.wait);
		r->user_rows[i] = r->users[i].pub;
	}
	qsort(r->user_rows, r->nusers, sizeof *r->user_rows, acct_user_cmp);
	r->node_rows = xcalloc(r->nnodes + 1, sizeof *r->node_rows);
	for (i = 0; i < r->nnodes; i++) {
		acct_node_finish(r, &r->nodes[i]);
		r->node_rows[i] = r->nodes[i].pub;
	}
	qsort(r->node_rows, r->nnodes, sizeof *r->node_rows, acct_node_cmp);
	acct_group_finish(&r->all);
	r->cluster.all = r->all.pub;
	for (q = 0; q < ACCT_NBUCKETS; q++) {
		acct_group_finish(&r->bucket[q]);
		r->cluster.bucket[q] = r->bucket[q].pub;
	}
	for (q = 0; q < ACCT_NJCT; q++) {
		acct_group_finish(&r->jct[q]);
		r->cluster.jct[q] = r->jct[q].pub;
	}
	for (q = 0; q < r->nqueues; q++) {
		acct_group_finish(&r->queue[q]);
		r->queue_rows[q] = r->queue[q].pub;
	}
	r->cluster.nqueues = r->nqueues;
	r->cluster.queue = r->queue_rows;
}

size_t
acct_report_users(const struct acct_report *r,
    const struct acct_report_user **rows)
{
	*rows = r->user_rows;
	return (r->nusers);
}

size_t
acct_report_nodes(const struct acct_report *r,
    const struct acct_report_node **rows)
{
	*rows = r->node_rows;
	return (r->nnodes);
}

const struct acct_report_cluster *
acct_report_cluster(const struct acct_report *r)
{
	return (&r->cluster);
}

void
acct_report_alive(struct acct_report *r, int64_t submit_time)
{
	if (r->series != NULL)
		acct_series_job(r->series, submit_time, 0);
}

size_t
acct_report_series_bins(const struct acct_report *r,
    const struct acct_series_bin **bins)
{
	*bins = NULL;
	if (r->series == NULL)
		return (0);
	return (acct_series_bins(r->series, bins));
}
