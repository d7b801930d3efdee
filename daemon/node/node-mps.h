/* node-mps.h: NVIDIA's Multi-Process Service for jobs that share a GPU
 * (gsub --gpu-share). Where the GPUs are NVML's, node.gpu_shards is above
 * 1 and node.mps_control names a program found at start, gnoded runs one
 * MPS control daemon for each shared GPU, from the start of the first
 * shard job on it to the end of the last, and gives each job its share of
 * the GPU's threads and memory (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE,
 * CUDA_MPS_PINNED_DEVICE_MEM_LIMIT).
 *
 * An MPS server serves one user at a time: a client of another user waits
 * in its first CUDA call until the server's clients are all gone. So a
 * GPU's daemon serves the user of the job that opened it; a shard job of
 * another user on that GPU runs outside MPS (the driver time-slices it
 * with the server), and is told so in its log line. */
#ifndef GB_NODE_MPS_H
#define GB_NODE_MPS_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-gpu.h"
#include "daemon/node/node-launch.h"

/* A pipe directory's length at most: MPS makes sockets in it, and a
 * socket's path has 108 bytes. */
#define NODE_MPS_PIPE_MAX	80

/* The rule: a GPU's daemon as it stands. */
struct node_mps_gpu {
	unsigned	users;		/* jobs it serves; 0: none runs */
	uid_t		uid;		/* whose, while users > 0 */
};

enum node_mps_join {
	NODE_MPS_OUTSIDE,	/* it serves another user: run outside MPS */
	NODE_MPS_JOIN,		/* it runs, for this user */
	NODE_MPS_OPEN,		/* none runs: start one, for this user */
};

/* A shard job of uid starts on g; g counts it unless OUTSIDE. */
enum node_mps_join	 node_mps_rule_join(struct node_mps_gpu *g, uid_t);
/* A job g served has left: whether its daemon is to quit (its last). */
bool			 node_mps_rule_leave(struct node_mps_gpu *g);
/* The share of the GPU's threads, in percent (1 to 100), and of its
 * memory, in MB (0 where mem_mb is), that share of shards shards gives. */
unsigned		 node_mps_threads(unsigned share, unsigned shards);
uint64_t		 node_mps_mem_mb(uint64_t mem_mb, unsigned share,
			     unsigned shards);

struct node_mps;

/* NULL, with the reason logged once, where MPS is not used: shards off,
 * GPUs not NVML's, node.mps_control "" or not found. Makes the pipe and
 * log directories' parent under the state directory. */
struct node_mps		*node_mps_create(const struct node_conf *,
			     const struct node_gpus *);
/* The daemons are left running: jobs outlive gnoded. */
void			 node_mps_free(struct node_mps *);
/* Job id of uid, of share shards, starts on gpu: opens or joins the GPU's
 * daemon. True when MPS serves it (node_mps_env then fills its launch);
 * false when it runs outside MPS, logged. Blocks while the control
 * program starts its daemon (milliseconds; at most a few seconds). */
bool			 node_mps_join(struct node_mps *, unsigned gpu, uid_t,
			     uint64_t id);
/* A job that MPS served, found running when gnoded starts again: its
 * GPU's daemon outlived gnoded, and serves it still. */
void			 node_mps_rejoin(struct node_mps *, unsigned gpu, uid_t);
/* A job MPS served has ended: the GPU's daemon quits after the last. */
void			 node_mps_leave(struct node_mps *, unsigned gpu);
/* Once the jobs are re-attached at start: stops the daemons a gnoded that
 * died left on GPUs none of them uses. */
void			 node_mps_sweep(struct node_mps *);
/* Fills l's MPS members for a job (or a step of one) of share shards of
 * gpu, which MPS serves. */
void			 node_mps_env(const struct node_mps *, unsigned gpu,
			     unsigned share, struct node_launch *l);

#endif
