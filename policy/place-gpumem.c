/* place-gpumem.c: each GPU's free memory, as its node measures it (place.h).
 * Kept apart from the free masks: a GPU time-sliced among frozen jobs is
 * held, and its memory says whether one more fits beside them. */
#include <stdint.h>
#include <stdlib.h>

#include "policy/place-int.h"
#include "policy/place.h"

int
place_gpumem_set(struct place_cluster *cl, uint32_t node, uint32_t gpu,
    uint32_t free_mb)
{
	struct place_node	*nd;
	uint32_t		 i;

	if (node >= cl->n || gpu >= cl->nodes[node].gpus)
		return (-1);
	nd = &cl->nodes[node];
	if (nd->gpu_mem == NULL) {
		if ((nd->gpu_mem = malloc(nd->gpus * sizeof *nd->gpu_mem)) ==
		    NULL)
			return (-1);
		for (i = 0; i < nd->gpus; i++)
			nd->gpu_mem[i] = PLACE_GPUMEM_UNKNOWN;
	}
	nd->gpu_mem[gpu] = free_mb;
	return (0);
}

uint32_t
place_gpumem_free(const struct place_cluster *cl, uint32_t node, uint32_t gpu)
{
	const struct place_node	*nd;

	if (node >= cl->n)
		return (PLACE_GPUMEM_UNKNOWN);
	nd = &cl->nodes[node];
	if (nd->gpu_mem == NULL || gpu >= nd->gpus)
		return (PLACE_GPUMEM_UNKNOWN);
	return (nd->gpu_mem[gpu]);
}
