/* core-hold.c: who holds each GPU of each node (core-hold.h). The entries
 * are one array by node number, made as far as the highest number that
 * held anything: a listing reads them in turn, as it read them in each
 * node before, and a cluster's nodes are few enough. A GPU held by several
 * jobs (shards, a time-slicing ring) names the first in job[] and the
 * others in the node's short list of co-holders. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/core-hold.h"

/* A mask has a bit per GPU. */
#define CORE_HOLD_GPUS	64

struct core_hold_node {
	uint64_t	busy;		/* held by a job or a stale copy */
	uint64_t	stale;		/* of busy, by stale copies */
	uint64_t	job[CORE_HOLD_GPUS];	/* GPU i's holder, 0 if free */
	uint64_t	*cpu;		/* CPU jobs on it, ncpu, in no order */
	uint32_t	 ncpu, cpucap;
	/* The jobs beside job[gpu] on a GPU, nco of them, in no order. */
	struct core_hold_co	*co;
	uint32_t		 nco, cocap;
};

struct core_hold {
	struct core_hold_node	*nodes;		/* by node number */
	size_t			 nnodes;
};

struct core_hold *
core_hold_create(void)
{
	return (xcalloc(1, sizeof (struct core_hold)));
}

void
core_hold_free(struct core_hold *h)
{
	size_t	k;

	if (h == NULL)
		return;
	for (k = 0; k < h->nnodes; k++) {
		free(h->nodes[k].cpu);
		free(h->nodes[k].co);
	}
	free(h->nodes);
	free(h);
}

/* Node k's entry, or NULL when nothing ever held its GPUs. */
static const struct core_hold_node *
core_hold_find(const struct core_hold *h, uint32_t k)
{
	return (k < h->nnodes ? &h->nodes[k] : NULL);
}

/* Node k's entry, made (free) when needed. */
static struct core_hold_node *
core_hold_node(struct core_hold *h, uint32_t k)
{
	size_t	n;

	if (k >= h->nnodes) {
		n = h->nnodes * 2 + 16;
		if (n <= k)
			n = (size_t)k + 1;
		h->nodes = xreallocarray(h->nodes, n, sizeof *h->nodes);
		memset(h->nodes + h->nnodes, 0,
		    (n - h->nnodes) * sizeof *h->nodes);
		h->nnodes = n;
	}
	return (&h->nodes[k]);
}

/* Names job (0: nobody) as the holder of node e's GPUs of mask. */
static void
core_hold_name(struct core_hold_node *e, uint64_t mask, uint64_t job)
{
	unsigned	i;

	for (i = 0; i < CORE_HOLD_GPUS; i++) {
		if (mask & (UINT64_C(1) << i))
			e->job[i] = job;
	}
}

/* The GPUs of mask job holds on node e, as a stale copy or not. */
static uint64_t
core_hold_of(const struct core_hold_node *e, uint64_t mask, uint64_t job)
{
	uint64_t	found = 0;
	unsigned	i;

	mask &= e->busy;
	for (i = 0; i < CORE_HOLD_GPUS; i++) {
		if ((mask & (UINT64_C(1) << i)) && e->job[i] == job)
			found |= UINT64_C(1) << i;
	}
	return (found);
}

/* Where job is a co-holder of GPU i on node e, or e->nco. */
static uint32_t
core_hold_co_at(const struct core_hold_node *e, uint32_t i, uint64_t job)
{
	uint32_t	k;

	for (k = 0; k < e->nco; k++) {
		if (e->co[k].gpu == i && e->co[k].job == job)
			break;
	}
	return (k);
}

/* Job holds GPU i of node e beside its first holder. */
static void
core_hold_co_add(struct core_hold_node *e, uint32_t i, uint64_t job)
{
	if (core_hold_co_at(e, i, job) < e->nco)
		return;
	if (e->nco == e->cocap) {
		e->cocap = e->cocap * 2 + 4;
		e->co = xreallocarray(e->co, e->cocap, sizeof *e->co);
	}
	e->co[e->nco].gpu = i;
	e->co[e->nco++].job = job;
}

/* Takes co-holder k off node e's list; returns its job. */
static uint64_t
core_hold_co_drop(struct core_hold_node *e, uint32_t k)
{
	uint64_t	job = e->co[k].job;

	e->co[k] = e->co[--e->nco];
	return (job);
}

void
core_hold_take(struct core_hold *h, uint32_t k, uint64_t mask, uint64_t job)
{
	struct core_hold_node	*e;
	uint64_t		 bit;
	uint32_t		 i;

	if (mask == 0 || job == 0)
		return;
	e = core_hold_node(h, k);
	for (i = 0; i < CORE_HOLD_GPUS; i++) {
		bit = UINT64_C(1) << i;
		if ((mask & bit) == 0)
			continue;
		/* Beside a running job that holds it; a stale copy loses. */
		if ((e->busy & ~e->stale & bit) && e->job[i] != job)
			core_hold_co_add(e, i, job);
		else {
			e->busy |= bit;
			e->stale &= ~bit;
			e->job[i] = job;
		}
	}
}

uint64_t
core_hold_give(struct core_hold *h, uint32_t k, uint64_t mask, uint64_t job)
{
	struct core_hold_node	*e;
	uint64_t		 freed = 0, bit;
	uint32_t		 i, c;

	if (k >= h->nnodes)
		return (0);
	e = &h->nodes[k];
	mask &= e->busy & ~e->stale;
	for (i = 0; i < CORE_HOLD_GPUS; i++) {
		bit = UINT64_C(1) << i;
		if ((mask & bit) == 0)
			continue;
		if (e->job[i] != job) {
			if ((c = core_hold_co_at(e, i, job)) < e->nco)
				(void)core_hold_co_drop(e, c);
			continue;
		}
		/* The next holder of it, if any, comes first. */
		for (c = 0; c < e->nco && e->co[c].gpu != i; c++)
			;
		if (c < e->nco)
			e->job[i] = core_hold_co_drop(e, c);
		else {
			e->job[i] = 0;
			e->busy &= ~bit;
			freed |= bit;
		}
	}
	return (freed);
}

uint64_t
core_hold_stale_take(struct core_hold *h, uint32_t k, uint64_t mask,
    uint64_t job)
{
	struct core_hold_node	*e;

	if (job == 0 || (mask &= ~core_hold_busy(h, k)) == 0)
		return (0);
	e = core_hold_node(h, k);
	e->busy |= mask;
	e->stale |= mask;
	core_hold_name(e, mask, job);
	return (mask);
}

uint64_t
core_hold_stale_give(struct core_hold *h, uint32_t k, uint64_t job)
{
	struct core_hold_node	*e;
	uint64_t		 mask;

	if (k >= h->nnodes)
		return (0);
	e = &h->nodes[k];
	mask = core_hold_of(e, e->stale, job);
	e->busy &= ~mask;
	e->stale &= ~mask;
	core_hold_name(e, mask, 0);
	return (mask);
}

uint64_t
core_hold_stale_first(const struct core_hold *h, uint32_t k)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	if (e == NULL || e->stale == 0)
		return (0);
	return (e->job[__builtin_ctzll(e->stale)]);
}

uint64_t
core_hold_busy(const struct core_hold *h, uint32_t k)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	return (e != NULL ? e->busy : 0);
}

uint64_t
core_hold_stale(const struct core_hold *h, uint32_t k)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	return (e != NULL ? e->stale : 0);
}

uint64_t
core_hold_job(const struct core_hold *h, uint32_t k, uint32_t i)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	if (e == NULL || i >= CORE_HOLD_GPUS)
		return (0);
	return (e->job[i]);
}

const uint64_t *
core_hold_jobs(const struct core_hold *h, uint32_t k)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	return (e != NULL ? e->job : NULL);
}

const struct core_hold_co *
core_hold_co_jobs(const struct core_hold *h, uint32_t k, size_t *n)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	*n = e != NULL ? e->nco : 0;
	return (*n > 0 ? e->co : NULL);
}

void
core_hold_cpu_take(struct core_hold *h, uint32_t k, uint64_t job)
{
	struct core_hold_node	*e;
	uint32_t		 i;

	if (job == 0)
		return;
	e = core_hold_node(h, k);
	for (i = 0; i < e->ncpu; i++) {
		if (e->cpu[i] == job)
			return;
	}
	if (e->ncpu == e->cpucap) {
		e->cpucap = e->cpucap * 2 + 4;
		e->cpu = xreallocarray(e->cpu, e->cpucap, sizeof *e->cpu);
	}
	e->cpu[e->ncpu++] = job;
}

bool
core_hold_cpu_give(struct core_hold *h, uint32_t k, uint64_t job)
{
	struct core_hold_node	*e;
	uint32_t		 i;

	if (k >= h->nnodes)
		return (false);
	e = &h->nodes[k];
	for (i = 0; i < e->ncpu; i++) {
		if (e->cpu[i] == job) {
			e->cpu[i] = e->cpu[--e->ncpu];
			return (true);
		}
	}
	return (false);
}

const uint64_t *
core_hold_cpu_jobs(const struct core_hold *h, uint32_t k, size_t *n)
{
	const struct core_hold_node	*e = core_hold_find(h, k);

	*n = e != NULL ? e->ncpu : 0;
	return (*n > 0 ? e->cpu : NULL);
}
