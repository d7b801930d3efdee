/* sched-core-window.c: advance reservations in the core: the windows
 * (policy/sched-window.h says who may use a node when, and why a pass
 * reads them through a view), and what they leave each job a pass looks
 * at: its view, found once a job a pass, and its sets of nodes narrowed
 * to the view's (placement, victims and promises all read them here). A
 * job no window concerns costs one test. */
#include <string.h>

#include "policy/sched-core-int.h"

void
sched_core_window_set(struct sched_core *core, uint64_t id, int64_t start,
    int64_t end, bool maint, const uint32_t *nodes, size_t n)
{
	sched_window_set(&core->windows, id, start, end, maint, nodes, n);
	core->wjob.valid = false;
}

bool
sched_core_window_clear(struct sched_core *core, uint64_t id)
{
	core->wjob.valid = false;
	return (sched_window_clear(&core->windows, id));
}

/* The view of a job no window concerns. */
static const struct sched_window_view	sched_core_no_view;
/* The set a job that may use no node has: empty, not NULL (any). */
static const uint32_t			sched_core_no_nodes[1];

const struct sched_window_view *
sched_core_window_of(struct sched_core *core, const struct sched_cjob *p)
{
	struct sched_core_wjob	*c = &core->wjob;

	/* No window: no cost beyond this test, as before windows. */
	if (core->windows.n == 0 && p->shape->resv == 0)
		return (&sched_core_no_view);
	if (c->valid && c->pass == core->npass && c->id == p->id)
		return (&c->v);
	c->valid = true;
	c->ready = false;
	c->pass = core->npass;
	c->id = p->id;
	sched_window_view(&core->windows, place_nodes(core->cluster),
	    p->shape->resv, (int64_t)p->limit_s * 1000, core->wnow, &c->v);
	return (&c->v);
}

bool
sched_core_window_listed(struct sched_core *core, const struct sched_cjob *p)
{
	return (sched_cjob_listed(p) || (!core->wbypass &&
	    sched_core_window_of(core, p)->key != 0));
}

uint32_t
sched_core_window_nsets(const struct sched_cjob *p)
{
	return (p->shape->nsets > 1 ? p->shape->nsets : 1);
}

/* Narrows p's sets to the view's nodes, into core->wjob. */
static void
sched_core_window_narrow(struct sched_core *core, const struct sched_cjob *p)
{
	struct sched_core_wjob	*c = &core->wjob;
	const uint32_t		*v;
	uint32_t		 k, i, n, nsets = sched_core_window_nsets(p), at = 0;

	if (c->endsize < nsets) {
		c->endsize = nsets;
		c->ends = sched_core_xalloc(c->ends, nsets, sizeof *c->ends);
	}
	if (c->nodesize < p->shape->nnodes + 1) {
		c->nodesize = p->shape->nnodes + 1;
		c->nodes = sched_core_xalloc(c->nodes, c->nodesize,
		    sizeof *c->nodes);
	}
	for (k = 0; k < nsets; k++) {
		v = sched_shape_set(p->shape, k, &n);
		for (i = 0; i < n; i++) {
			if (sched_window_in_view(&core->windows, &c->v, v[i]))
				c->nodes[at++] = v[i];
		}
		c->ends[k] = at;
	}
	c->ready = true;
}

const uint32_t *
sched_core_window_nodes(struct sched_core *core, const struct sched_cjob *p,
    uint32_t k, uint32_t *n)
{
	const struct sched_window_view	*v = sched_core_window_of(core, p);
	struct sched_core_wjob		*c = &core->wjob;
	uint32_t			 start;

	*n = 0;
	if (v->key == 0 || core->wbypass) {
		if (!sched_cjob_listed(p))
			return (NULL);
		return (sched_shape_set(p->shape, k, n));
	}
	if (v->never)
		return (sched_core_no_nodes);
	if (!sched_cjob_listed(p)) {
		*n = (uint32_t)v->n;
		return (v->n > 0 ? v->nodes : sched_core_no_nodes);
	}
	if (!c->ready)
		sched_core_window_narrow(core, p);
	start = k == 0 ? 0 : c->ends[k - 1];
	*n = c->ends[k] - start;
	return (c->nodes + start);
}

