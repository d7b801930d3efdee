/* sched-fifo.c: strict first-come-first-served with gang allocation of whole
 * GPUs on one node. The baseline the Tiresias policies are measured against,
 * and the policy gbatchd runs in the first milestone. */
#include "policy/sched.h"

/* The pass keeps, for each count of free GPUs, the lowest node index with
 * exactly that many, so best fit is a look-up rather than a walk over every
 * node per start: an idle 1,000-node cluster filling up costs a scan of the
 * nodes plus a little per start, not nodes x starts. Lives on the stack: the
 * pass allocates nothing. */
struct sched_fifo_index {
	size_t	first[SCHED_MAX_GPUS_PER_NODE + 1];	/* nnodes: none */
	size_t	count[SCHED_MAX_GPUS_PER_NODE + 1];	/* nodes with c free */
};

static unsigned
sched_fifo_avail(const struct sched_node *node)
{
	return (sched_mask_count(sched_node_free(node)));
}

static void
sched_fifo_index_build(struct sched_fifo_index *ix,
    const struct sched_node *nodes, size_t nnodes)
{
	size_t		i;
	unsigned	c;

	for (c = 0; c <= SCHED_MAX_GPUS_PER_NODE; c++) {
		ix->first[c] = nnodes;
		ix->count[c] = 0;
	}
	for (i = 0; i < nnodes; i++) {
		c = sched_fifo_avail(&nodes[i]);
		if (ix->count[c]++ == 0)
			ix->first[c] = i;
	}
}

/* Returns the best-fit node for gpus GPUs (the fewest free GPUs that still
 * suffice, the lowest index among equals), or nnodes when none has enough. */
static size_t
sched_fifo_index_find(const struct sched_fifo_index *ix, size_t nnodes,
    uint32_t gpus)
{
	uint32_t	c;

	if (gpus == 0)
		return (nnodes);
	for (c = gpus; c <= SCHED_MAX_GPUS_PER_NODE; c++) {
		if (ix->count[c] > 0)
			return (ix->first[c]);
	}
	return (nnodes);
}

/* Node i, the lowest with was free GPUs, now has fewer; move it. */
static void
sched_fifo_index_update(struct sched_fifo_index *ix,
    const struct sched_node *nodes, size_t nnodes, size_t i, unsigned was)
{
	unsigned	now = sched_fifo_avail(&nodes[i]);
	size_t		j;

	if (ix->count[now]++ == 0 || i < ix->first[now])
		ix->first[now] = i;
	if (--ix->count[was] == 0) {
		ix->first[was] = nnodes;
		return;
	}
	/* i was the lowest with was free, so the next one lies above it;
	 * free counts only fall during a pass, so one exists. */
	for (j = i + 1; j < nnodes; j++) {
		if (sched_fifo_avail(&nodes[j]) == was)
			break;
	}
	ix->first[was] = j;
}

size_t
sched_fifo_pass(const struct sched_job *jobs, size_t njobs,
    struct sched_node *nodes, size_t nnodes, struct sched_start *out,
    size_t max, enum sched_reason *reasons)
{
	struct sched_fifo_index	ix;
	size_t			i, node, n = 0;
	uint64_t		mask;
	unsigned		was;
	int			blocked = 0;

	sched_fifo_index_build(&ix, nodes, nnodes);
	for (i = 0; i < njobs; i++) {
		/* Strict order: nothing overtakes a job that waits, so the
		 * rest only needs its reason. */
		if (blocked || n == max) {
			reasons[i] = SCHED_REASON_PRIORITY;
			continue;
		}
		node = sched_fifo_index_find(&ix, nnodes, jobs[i].gpus);
		if (node == nnodes) {
			reasons[i] = SCHED_REASON_RESOURCES;
			blocked = 1;
			continue;
		}
		was = sched_fifo_avail(&nodes[node]);
		mask = sched_mask_lowest(sched_node_free(&nodes[node]),
		    jobs[i].gpus);
		nodes[node].free_mask &= ~mask;
		sched_fifo_index_update(&ix, nodes, nnodes, node, was);
		out[n].job = i;
		out[n].node = node;
		out[n].gpu_mask = mask;
		n++;
		reasons[i] = SCHED_REASON_NONE;
	}
	return (n);
}
