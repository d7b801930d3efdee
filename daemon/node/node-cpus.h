/* node-cpus.h: sets of host CPUs, as lists ("0-3,8") and as cpu_set_t, and
 * the choice of the CPUs a job is pinned to: free ones, near its GPUs
 * (their NUMA node, as NVML or node.gpu_cpus tells) where they can be,
 * shared out between its GPUs. Pure: no I/O. */
#ifndef GB_NODE_CPUS_H
#define GB_NODE_CPUS_H

#include <sched.h>
#include <stddef.h>

/* Reads list ("0-3,8,10-11"; "" is the empty set) into set. Returns 0,
 * or -1 when list is not one (a range backwards, a CPU at or above
 * CPU_SETSIZE, anything but digits, '-' and ','). */
int	node_cpus_parse(const char *list, cpu_set_t *set);
/* Writes set as a list, runs as ranges, into buf. Returns 0, or -1 when it
 * does not fit (buf then holds a cut list). */
int	node_cpus_format(const cpu_set_t *set, char *buf, size_t len);

/* Picks n CPUs of avail for a job on the GPUs whose near CPUs are near[0]
 * to near[ngpus - 1] (empty sets: not known), into out: each GPU's share
 * of n (n / ngpus, the first ones one more) from its near CPUs, lowest
 * first; what is left from any GPU's near CPUs, then from the others.
 * Returns how many it found (fewer than n when avail has fewer). */
unsigned node_cpus_pick(const cpu_set_t *avail, const cpu_set_t *near,
	    size_t ngpus, unsigned n, cpu_set_t *out);

#endif
