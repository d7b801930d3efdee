/* node-gpu-sim.c: simulated GPUs (`gpus = N`, -g N), so development and the
 * test suite need no GPU. */
#include <stdio.h>

#include "common/xmalloc.h"
#include "daemon/node/node-gpu.h"

/* What a simulated GPU claims to have: an 80 GiB card. */
#define NODE_GPU_SIM_MEMORY_MB	81920

static int
node_gpu_sim_discover(const struct node_conf *conf, struct node_gpu **out,
    size_t *n, char *err, size_t errlen)
{
	struct node_gpu	*v;
	unsigned	 i;

	v = xcalloc(conf->gpus == 0 ? 1 : conf->gpus, sizeof *v);
	for (i = 0; i < conf->gpus; i++) {
		v[i].index = i;
		snprintf(v[i].name, sizeof v[i].name, "Simulated GPU");
		snprintf(v[i].uuid, sizeof v[i].uuid, "GPU-sim-%s-%u",
		    conf->name, i);
		v[i].memory_mb = NODE_GPU_SIM_MEMORY_MB;
	}
	*out = v;
	*n = conf->gpus;
	return (0);
}

const struct node_gpu_ops node_gpu_sim_ops = {
	.name = "simulated",
	.source = "config",
	.discover = node_gpu_sim_discover,
};
