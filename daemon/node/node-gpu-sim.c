/* node-gpu-sim.c: simulated GPUs (`gpus = N`, -g N), so development and the
 * test suite need no GPU. Their use is what node.gpu_use_file says, read
 * at each heartbeat (a test writes it), else 0. */
#include <stdio.h>
#include <stdlib.h>

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
		v[i].minor = i;
		snprintf(v[i].name, sizeof v[i].name, "%s", conf->gpu_model);
		snprintf(v[i].uuid, sizeof v[i].uuid, "GPU-sim-%s-%u",
		    conf->name, i);
		v[i].memory_mb = NODE_GPU_SIM_MEMORY_MB;
	}
	*out = v;
	*n = conf->gpus;
	return (0);
}

/* Lines "INDEX UTIL MEM_USED_MB"; anything else on a line, or a line out
 * of range, is skipped: the file is a test's, read while it is written. */
static void
node_gpu_sim_sample(const struct node_conf *conf, void **live,
    struct node_gpu_use *use, size_t n)
{
	FILE		*f;
	char		 line[256];
	long		 index, util, mem;
	size_t		 i;

	(void)live;
	for (i = 0; i < n; i++) {
		use[i].util = 0;
		use[i].mem_used_mb = 0;
	}
	if (conf->gpu_use_file == NULL || *conf->gpu_use_file == '\0' ||
	    (f = fopen(conf->gpu_use_file, "re")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%ld %ld %ld", &index, &util, &mem) != 3 ||
		    index < 0 || (size_t)index >= n || util < 0 ||
		    util > 100 || mem < 0)
			continue;
		use[index].util = (int)util;
		use[index].mem_used_mb = mem;
	}
	fclose(f);
}

const struct node_gpu_ops node_gpu_sim_ops = {
	.name = "simulated",
	.source = "config",
	.discover = node_gpu_sim_discover,
	.sample = node_gpu_sim_sample,
};
