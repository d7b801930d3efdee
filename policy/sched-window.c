/* sched-window.c: windows of advance reservations on nodes, and the view
 * a pass reads them through (sched-window.h says why it is built so). */
#include <stdlib.h>
#include <string.h>

#include "policy/sched-window.h"

static void *
sched_window_xalloc(void *p, size_t n, size_t size)
{
	if (n != 0 && size > SIZE_MAX / n)
		abort();
	if ((p = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		abort();
	return (p);
}

static int
sched_window_by_node(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y ? -1 : x > y);
}

/* A node and its deadline, as the view sorts them: the latest deadline
 * first, then the lower index. */
struct sched_window_dl {
	int64_t		dl;
	uint32_t	node;
};

static int
sched_window_by_dl(const void *a, const void *b)
{
	const struct sched_window_dl	*x = a, *y = b;

	if (x->dl != y->dl)
		return (x->dl > y->dl ? -1 : 1);
	return (x->node < y->node ? -1 : x->node > y->node);
}

/* The window of id, or NULL. */
static struct sched_window *
sched_window_find(const struct sched_windows *ws, uint64_t id)
{
	size_t	i;

	for (i = 0; i < ws->n; i++) {
		if (ws->v[i].id == id)
			return (&ws->v[i]);
	}
	return (NULL);
}

/* Where node is in w's sorted nodes, or -1. */
static long
sched_window_index(const struct sched_window *w, uint32_t node)
{
	size_t	lo = 0, hi = w->nnodes, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->nodes[mid] == node)
			return ((long)mid);
		if (w->nodes[mid] < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (-1);
}

static void
sched_window_drop_view(struct sched_window *w)
{
	free(w->order);
	free(w->dl);
	free(w->opos);
	w->order = NULL;
	w->dl = NULL;
	w->opos = NULL;
	w->norder = 0;
}

void
sched_window_set(struct sched_windows *ws, uint64_t id, int64_t start,
    int64_t end, bool maint, const uint32_t *nodes, size_t n)
{
	struct sched_window	*w;
	size_t			 i, k = 0;

	if ((w = sched_window_find(ws, id)) == NULL) {
		ws->v = sched_window_xalloc(ws->v, ws->n + 1, sizeof *ws->v);
		w = &ws->v[ws->n++];
		memset(w, 0, sizeof *w);
	}
	sched_window_drop_view(w);
	w->id = id;
	w->start = start;
	w->end = end;
	w->maint = maint;
	w->nodes = sched_window_xalloc(w->nodes, n, sizeof *w->nodes);
	if (n > 0)
		memcpy(w->nodes, nodes, n * sizeof *nodes);
	qsort(w->nodes, n, sizeof *w->nodes, sched_window_by_node);
	for (i = 0; i < n; i++) {
		if (k == 0 || w->nodes[k - 1] != w->nodes[i])
			w->nodes[k++] = w->nodes[i];
	}
	w->nnodes = (uint32_t)k;
	ws->built = false;
}

bool
sched_window_clear(struct sched_windows *ws, uint64_t id)
{
	struct sched_window	*w;

	if ((w = sched_window_find(ws, id)) == NULL)
		return (false);
	sched_window_drop_view(w);
	free(w->nodes);
	*w = ws->v[--ws->n];
	ws->built = false;
	return (true);
}

void
sched_window_free(struct sched_windows *ws)
{
	while (ws->n > 0)
		sched_window_clear(ws, ws->v[ws->n - 1].id);
	free(ws->v);
	free(ws->order);
	free(ws->dl);
	free(ws->pos);
	memset(ws, 0, sizeof *ws);
}

/* now + limit, or SCHED_WINDOW_NEVER for no limit (or past the range). */
static int64_t
sched_window_run_end(int64_t limit, int64_t now)
{
	if (limit <= 0 || now > SCHED_WINDOW_NEVER - limit)
		return (SCHED_WINDOW_NEVER);
	return (now + limit);
}

bool
sched_window_allows(const struct sched_windows *ws, uint32_t node,
    uint64_t resv, int64_t limit, int64_t now)
{
	const struct sched_window	*w = NULL, *x;
	int64_t				 t = sched_window_run_end(limit, now);
	size_t				 i;

	if (resv != 0) {
		w = sched_window_find(ws, resv);
		if (w == NULL || now < w->start || now >= w->end ||
		    sched_window_index(w, node) < 0)
			return (false);
		/* Its run is over by its window's end. */
		if (w->end < t)
			t = w->end;
	}
	for (i = 0; i < ws->n; i++) {
		x = &ws->v[i];
		/* A maintenance's jobs pass over user windows. */
		if (x->id == resv || x->end <= now ||
		    (resv != 0 && w->maint && !x->maint) ||
		    sched_window_index(x, node) < 0)
			continue;
		if (t > x->start)
			return (false);
	}
	return (true);
}

/* The earliest and second earliest starts of the windows on each node
 * (of those not ended at now), and which window has the earliest:
 * a window's own jobs read the other windows' deadline there. Likewise
 * of the maintenance windows. */
struct sched_window_min {
	int64_t		first, second;
	size_t		who;
	int64_t		mfirst, msecond;
	size_t		mwho;
};

static void
sched_window_min_add(int64_t *first, int64_t *second, size_t *who, int64_t t,
    size_t w)
{
	if (t < *first) {
		*second = *first;
		*first = t;
		*who = w;
	} else if (t < *second)
		*second = t;
}

/* Sorts w's nodes below nnodes by their deadline of the other windows
 * (m: each node's earliest starts) into w's order. */
static void
sched_window_build_one(struct sched_windows *ws, size_t wi,
    const struct sched_window_min *m, struct sched_window_dl *tmp)
{
	struct sched_window	*w = &ws->v[wi];
	const struct sched_window_min *e;
	uint32_t		 j, k = 0;

	w->maint_dl = SCHED_WINDOW_NEVER;
	for (j = 0; j < w->nnodes; j++) {
		if (w->nodes[j] >= ws->nnodes)
			break;		/* sorted: the rest are past it too */
		e = &m[w->nodes[j]];
		tmp[k].node = w->nodes[j];
		/* A maintenance's jobs pass over user windows. */
		if (w->maint)
			tmp[k].dl = e->mwho == wi ? e->msecond : e->mfirst;
		else
			tmp[k].dl = e->who == wi ? e->second : e->first;
		k++;
		if ((e->mwho == wi ? e->msecond : e->mfirst) < w->maint_dl)
			w->maint_dl = e->mwho == wi ? e->msecond : e->mfirst;
	}
	qsort(tmp, k, sizeof *tmp, sched_window_by_dl);
	w->order = sched_window_xalloc(w->order, k, sizeof *w->order);
	w->dl = sched_window_xalloc(w->dl, k, sizeof *w->dl);
	w->opos = sched_window_xalloc(w->opos, w->nnodes, sizeof *w->opos);
	for (j = 0; j < w->nnodes; j++)
		w->opos[j] = UINT32_MAX;
	for (j = 0; j < k; j++) {
		w->order[j] = tmp[j].node;
		w->dl[j] = tmp[j].dl;
		w->opos[sched_window_index(w, tmp[j].node)] = j;
	}
	w->norder = k;
}

/* Builds the view of the windows not ended at now on nnodes nodes. */
static void
sched_window_build(struct sched_windows *ws, size_t nnodes, int64_t now)
{
	struct sched_window_min	*m;
	struct sched_window_dl	*tmp;
	struct sched_window	*w;
	size_t			 i, wi;
	uint32_t		 j;

	if (ws->size < nnodes) {
		ws->order = sched_window_xalloc(ws->order, nnodes,
		    sizeof *ws->order);
		ws->dl = sched_window_xalloc(ws->dl, nnodes, sizeof *ws->dl);
		ws->pos = sched_window_xalloc(ws->pos, nnodes,
		    sizeof *ws->pos);
		ws->size = nnodes;
	}
	m = sched_window_xalloc(NULL, nnodes, sizeof *m);
	tmp = sched_window_xalloc(NULL, nnodes, sizeof *tmp);
	for (i = 0; i < nnodes; i++) {
		m[i].first = m[i].second = SCHED_WINDOW_NEVER;
		m[i].mfirst = m[i].msecond = SCHED_WINDOW_NEVER;
		m[i].who = m[i].mwho = SIZE_MAX;
	}
	ws->nnodes = nnodes;
	ws->stale_at = SCHED_WINDOW_NEVER;
	ws->maint_dl = SCHED_WINDOW_NEVER;
	for (wi = 0; wi < ws->n; wi++) {
		w = &ws->v[wi];
		if (w->end <= now)
			continue;
		if (w->end < ws->stale_at)
			ws->stale_at = w->end;
		if (w->maint && w->start < ws->maint_dl)
			ws->maint_dl = w->start;
		for (j = 0; j < w->nnodes && w->nodes[j] < nnodes; j++) {
			sched_window_min_add(&m[w->nodes[j]].first,
			    &m[w->nodes[j]].second, &m[w->nodes[j]].who,
			    w->start, wi);
			if (w->maint)
				sched_window_min_add(&m[w->nodes[j]].mfirst,
				    &m[w->nodes[j]].msecond,
				    &m[w->nodes[j]].mwho, w->start, wi);
		}
	}
	for (i = 0; i < nnodes; i++) {
		tmp[i].node = (uint32_t)i;
		tmp[i].dl = m[i].first;
	}
	qsort(tmp, nnodes, sizeof *tmp, sched_window_by_dl);
	for (i = 0; i < nnodes; i++) {
		ws->order[i] = tmp[i].node;
		ws->dl[i] = tmp[i].dl;
		ws->pos[tmp[i].node] = (uint32_t)i;
	}
	for (wi = 0; wi < ws->n; wi++) {
		if (ws->v[wi].end <= now)
			sched_window_drop_view(&ws->v[wi]);
		else
			sched_window_build_one(ws, wi, m, tmp);
	}
	free(tmp);
	free(m);
	ws->built = true;
}

/* How many of dl[0..n) (latest first) a run ending at t may use: those
 * of a deadline at t or later, a prefix. */
static size_t
sched_window_prefix(const int64_t *dl, size_t n, int64_t t)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dl[mid] >= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

void
sched_window_view(struct sched_windows *ws, size_t nnodes, uint64_t resv,
    int64_t limit, int64_t now, struct sched_window_view *v)
{
	const struct sched_window	*w;
	int64_t				 t = sched_window_run_end(limit, now);
	size_t				 wi;

	/* Each member set, not memset: a pass asks once a job. */
	v->key = 0;
	v->nodes = NULL;
	v->n = 0;
	v->never = false;
	v->maint = false;
	if (ws->n == 0 && resv == 0)
		return;
	if (!ws->built || ws->nnodes != nnodes || now >= ws->stale_at)
		sched_window_build(ws, nnodes, now);
	if (resv == 0) {
		/* Ending by the earliest deadline: any node, no search. */
		if (nnodes == 0 || t <= ws->dl[nnodes - 1])
			return;
		v->n = sched_window_prefix(ws->dl, nnodes, t);
		if (v->n == nnodes)
			return;		/* no window is in its way */
		v->key = nnodes - v->n;
		v->nodes = ws->order;
		v->maint = t > ws->maint_dl;
		return;
	}
	w = sched_window_find(ws, resv);
	if (w == NULL || now < w->start || now >= w->end) {
		v->never = true;
		v->key = UINT64_MAX;
		return;
	}
	if (w->end < t)
		t = w->end;
	wi = (size_t)(w - ws->v);
	v->n = sched_window_prefix(w->dl, w->norder, t);
	v->key = (uint64_t)(wi + 1) << 32 | (w->norder - v->n);
	v->nodes = w->order;
	v->maint = t > w->maint_dl;
}

bool
sched_window_in_view(const struct sched_windows *ws,
    const struct sched_window_view *v, uint32_t node)
{
	const struct sched_window	*w;
	long				 j;

	if (v->key == 0)
		return (true);
	if (v->never)
		return (false);
	if ((v->key >> 32) == 0)
		return (node < ws->nnodes && ws->pos[node] < v->n);
	w = &ws->v[(v->key >> 32) - 1];
	return ((j = sched_window_index(w, node)) >= 0 &&
	    w->opos[j] < v->n);
}

bool
sched_window_open(const struct sched_windows *ws, uint64_t id, int64_t now)
{
	const struct sched_window	*w = sched_window_find(ws, id);

	return (w != NULL && w->start <= now && now < w->end);
}

int64_t
sched_window_next(const struct sched_windows *ws, int64_t now)
{
	const struct sched_window	*w;
	int64_t				 at = SCHED_WINDOW_NEVER, t;
	size_t				 i;

	for (i = 0; i < ws->n; i++) {
		w = &ws->v[i];
		t = w->start > now ? w->start : w->end > now ? w->end :
		    SCHED_WINDOW_NEVER;
		if (t < at)
			at = t;
	}
	return (at);
}
