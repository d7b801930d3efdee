/* job-shape.h: a job's shape and tasks as JOB_SUBMIT gives them (sbatch's
 * -N, --gpus-per-node, --ntasks-per-node, --gpu-bind; gsub's --any-shape),
 * checked, and whether the cluster's nodes could ever hold the shape. */
#ifndef GB_CTL_JOB_SHAPE_H
#define GB_CTL_JOB_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/controller/store.h"

/* Most processes a node starts for one job, CPUs a job asks for each, MB
 * of memory. */
#define JOB_SHAPE_MAX_TASKS	1024
#define JOB_SHAPE_MAX_CPUS	65536
#define JOB_SHAPE_MAX_MEM	((json_int_t)1 << 40)

/* Reads job's "num_nodes" (1 to JOB_MAX_PARTS, dividing gpus),
 * "any_shape" (true or false; not with num_nodes), "tasks_per_node" (1 to
 * JOB_SHAPE_MAX_TASKS, or "gpu") and "gpu_bind" ("none", or "task" the
 * default; none only with "gpu") into row's num_nodes, tasks_per_node
 * (written into tasks, room for 16 bytes) and flags; and what it asks
 * beside its GPUs: "cpus_per_gpu" or "cpus_per_task", "mem" (MB on each
 * node) or "mem_per_gpu" (MB). Returns 0, or -1 with err naming the member
 * and what it accepts. */
int	job_shape_read(const json_t *job, uint32_t gpus, struct store_job *row,
	    char *tasks, char *err, size_t errlen);

/* Whether the cluster's nodes, whatever their state, could ever hold gpus
 * GPUs in the shape (num_nodes, or an even split unless any_shape). NULL
 * when they could or no node is known yet; else why not, naming the
 * shape, what the nodes have and what to ask instead (a new string). */
char	*job_shape_unfit(uint32_t gpus, uint32_t num_nodes, bool any_shape);

/* Whether some node, whatever its state, has what one node of the job
 * must give beside its GPUs (its --mem, -c for its tasks, one GPU's worth
 * of --cpus-per-gpu or --mem-per-gpu). NULL when one has, or no node said
 * what it has; else why not (a new string). */
char	*job_shape_res_unfit(const struct store_job *row);

#endif
