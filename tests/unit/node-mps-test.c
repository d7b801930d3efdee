/* node-mps-test.c: the rules of gnoded's MPS daemons (daemon/node/
 * node-mps.c): who a GPU's daemon serves, when it starts and quits, and
 * each job's share of the GPU's threads and memory; and that a node whose
 * GPUs are not NVML's, or that offers no shards, runs none. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-gpu.h"
#include "daemon/node/node-mps.h"
#include "tests/unit/tap.h"

/* One GPU's daemon through a day: the first job opens it for its user,
 * that user's next joins, another user's runs outside it, the last of
 * the served jobs to leave stops it, and the next job opens it again for
 * whoever it is. */
static void
t_rule(void)
{
	struct node_mps_gpu	g = { 0, 0 };

	ok(!node_mps_rule_leave(&g), "no daemon: a leave stops nothing");
	is_int(node_mps_rule_join(&g, 1000), NODE_MPS_OPEN,
	    "the first job opens the GPU's daemon");
	is_int(g.users, 1, "it serves one job");
	is_int(g.uid, 1000, "for its user");
	is_int(node_mps_rule_join(&g, 1000), NODE_MPS_JOIN,
	    "the same user's next job joins it");
	is_int(node_mps_rule_join(&g, 1001), NODE_MPS_OUTSIDE,
	    "another user's job runs outside it (MPS would hold it)");
	is_int(g.users, 2, "and is not counted");
	is_int(g.uid, 1000, "the daemon still serves the first user");
	ok(!node_mps_rule_leave(&g), "one of two leaves: it runs on");
	is_int(node_mps_rule_join(&g, 1001), NODE_MPS_OUTSIDE,
	    "another user's job still runs outside it");
	ok(node_mps_rule_leave(&g), "the last served job leaves: it quits");
	is_int(g.users, 0, "none served");
	ok(!node_mps_rule_leave(&g), "a leave more stops nothing");
	is_int(node_mps_rule_join(&g, 1001), NODE_MPS_OPEN,
	    "the next job opens it again, for its own user");
	is_int(g.uid, 1001, "now that user's");
	is_int(node_mps_rule_join(&g, 0), NODE_MPS_OUTSIDE,
	    "root's job too runs outside another user's daemon");
}

/* Hand-worked shares: N of S shards of the threads, floored, never 0;
 * of the memory, floored in MB. */
static void
t_share(void)
{
	is_int(node_mps_threads(1, 2), 50, "1 of 2 shards: 50%% of threads");
	is_int(node_mps_threads(1, 3), 33, "1 of 3: 33%%");
	is_int(node_mps_threads(2, 3), 66, "2 of 3: 66%%");
	is_int(node_mps_threads(1, 4), 25, "1 of 4: 25%%");
	is_int(node_mps_threads(3, 4), 75, "3 of 4: 75%%");
	is_int(node_mps_threads(1, 64), 1, "1 of 64: 1%% (1.56 floored)");
	is_int(node_mps_threads(64, 64), 100, "all 64: 100%%");
	is_int(node_mps_threads(1, 200), 1, "never 0%%: at least 1");
	is_int(node_mps_threads(5, 4), 100, "more than all: 100%%");
	is_int(node_mps_threads(1, 0), 100, "no shards: the whole GPU");
	is_int((long long)node_mps_mem_mb(81920, 1, 4), 20480,
	    "an 80 GiB GPU, 1 of 4 shards: 20480 MB");
	is_int((long long)node_mps_mem_mb(143771, 1, 3), 47923,
	    "a 140 GiB H200, 1 of 3: 47923 MB (47923.67 floored)");
	is_int((long long)node_mps_mem_mb(143771, 2, 3), 95847,
	    "2 of 3: 95847 MB");
	is_int((long long)node_mps_mem_mb(0, 1, 2), 0,
	    "memory not known: 0 (no limit set)");
	is_int((long long)node_mps_mem_mb(40960, 4, 4), 40960,
	    "all shards: all of it");
	is_int((long long)node_mps_mem_mb(1ULL << 43, 63, 64),
	    (long long)((1ULL << 43) / 64 * 63), "no overflow near 2^43 MB");
}

/* No daemon where there is nothing for one to do or no way to run it. */
static void
t_create(void)
{
	struct node_conf	 conf;
	struct node_gpus	*gpus;
	char			 err[256], dir[] = "/tmp/gb-mps-XXXXXX";

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	memset(&conf, 0, sizeof conf);
	conf.name = "n1";
	conf.state_dir = dir;
	conf.gpus = 2;
	conf.gpus_set = true;
	conf.gpu_model = "Simulated GPU";
	conf.gpu_use_file = "";
	conf.gpu_source = NODE_GPU_SIMULATED;
	conf.gpu_shards = 4;
	conf.mps_control = "/bin/true";
	if ((gpus = node_gpu_discover(&conf, err, sizeof err)) == NULL) {
		ok(0, "simulated GPUs: %s", err);
		rmdir(dir);
		return;
	}
	ok(node_mps_create(&conf, gpus) == NULL,
	    "configured GPUs: no MPS (NVML's alone have it)");
	conf.gpu_shards = 1;
	ok(node_mps_create(&conf, gpus) == NULL, "no shards: no MPS");
	ok(access(dir, F_OK) == 0, "state directory left as it was");
	node_gpu_free(gpus);
	rmdir(dir);
}

int
main(void)
{
	t_rule();
	t_share();
	t_create();
	return (tap_done());
}
