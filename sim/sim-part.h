/* sim-part.h: gsim --conf: the partitions of a gbatch.conf (its
 * partitions group, as gbatchd reads it: daemon/controller/part.c) laid
 * over the simulated cluster, whose nodes --nodes names (a host list, in
 * the cluster's order; n1, n2, ... by default). Each trace job is judged
 * as gbatchd judges a submit (its partition list, else the default; its
 * time_limit, GPUs, num_nodes and account against each partition's
 * limits) and given the node sets of the partitions that take it, in its
 * list's order, and the first one's tier: so the replay places and
 * orders it as gbatchd would. */
#ifndef GB_SIM_PART_H
#define GB_SIM_PART_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"

struct sim_parts;

/* Reads the partitions of conf over cluster c, its nodes named by nodes
 * (NULL: n1 to nN). Returns 0 with *out (freed with sim_part_free), or
 * -1 with err naming the file and line, or the node list's fault. */
int	sim_part_load(const char *conf, const char *nodes,
	    const struct sim_cluster *c, struct sim_parts **out, char *err,
	    size_t errlen);

/* Gives each job of t its node sets and tier (borrowed from parts, which
 * must outlive the replay). A job no partition of its list takes, or
 * whose partitions cannot hold it on an idle cluster, is an error naming
 * its line (path:LINE: ...) and why. even: a job larger than a node takes
 * an even split (gsim --shape even). Returns 0, or -1 with err. */
int	sim_part_apply(struct sim_parts *parts, const char *path,
	    struct sim_trace *t, const struct sim_cluster *c, bool even,
	    char *err, size_t errlen);

/* Sets the rules between the QOS' preemption classes in core (a
 * sim_opts' rules, its arg the sim_parts). */
struct sched_core;
void	sim_part_rules(void *sp, struct sched_core *core);

void	sim_part_free(struct sim_parts *);

#endif
