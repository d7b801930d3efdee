/* job-shape.h: a job's shape and tasks as JOB_SUBMIT gives them (sbatch's
 * -N, --gpus-per-node, --ntasks-per-node, --gpu-bind; gsub's --any-shape),
 * checked, and whether the cluster's nodes could ever hold the shape. */
#ifndef GB_CTL_JOB_SHAPE_H
#define GB_CTL_JOB_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-req.h"
#include "daemon/controller/store.h"

/* Checks the shape and tasks of a request read through common/job-req.h
 * (v) whose numbers are in row already (gpus, num_nodes, cpus_per_gpu,
 * cpus_per_task, mem, mem_per_gpu): num_nodes divides the GPUs, any_shape
 * is not with num_nodes, one of each pair of CPUs and memory, gpu_bind
 * "none" only with tasks_per_node "gpu". Sets row's tasks_per_node
 * (written into tasks, room for 16 bytes) and flags. Returns 0, or -1
 * with err naming the members and what they accept together. */
int	job_shape_read(const struct job_req_val *v, struct store_job *row,
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
