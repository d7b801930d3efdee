/* job-fit.h: whether the cluster's nodes, whatever their state, could
 * ever hold a job: its GPUs in its shape (sbatch's -N and
 * --gpus-per-node, gsub's --any-shape), and what one node must give
 * beside its GPUs (--mem, -c, --cpus-per-gpu, --mem-per-gpu). Asked at
 * submit, so that a job that could never start is refused then. */
#ifndef GB_CTL_JOB_FIT_H
#define GB_CTL_JOB_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/store.h"

/* Whether the cluster's nodes, whatever their state, could ever hold gpus
 * GPUs in the shape (num_nodes, or an even split unless any_shape), or a
 * CPU job's num_nodes (gpus 0) at all. NULL
 * when they could or no node is known yet; else why not, naming the
 * shape, what the nodes have and what to ask instead (a new string). */
char	*job_fit_shape(uint32_t gpus, uint32_t num_nodes, bool any_shape);

/* Whether some node, whatever its state, has what one node of the job
 * must give beside its GPUs (its --mem, -c for its tasks, one GPU's worth
 * of --cpus-per-gpu or --mem-per-gpu; a CPU job's CPU a task). NULL when one has, or no node said
 * what it has; else why not (a new string). */
char	*job_fit_res(const struct store_job *row);

#endif
