/* sim-app-int.h: the layout of struct sim_app, private to its reader
 * (sim-app-load.c), which builds it, and its lookups (sim-app.c). */
#ifndef GB_SIM_APP_INT_H
#define GB_SIM_APP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim-app.h"

/* The most nodes of a placement placements.csv may name: 16 digits of 1
 * to 9 still make a key of 64 bits. */
#define SIM_APP_MAX_NODES	16

/* A measured point: x (a local or a total batch size) and two values there
 * (step_time and sync_time, or grad_sqr and grad_var). */
struct sim_app_pt {
	double	x, a, b;
};

/* A run of entries below one key: [first, first + n) of the array the
 * span indexes. */
struct sim_app_span {
	uint64_t	key;
	size_t		first, n;
};

/* Points in two levels of keys, sorted: outer spans over inner spans over
 * points by x, so a lookup is a binary search at each level. placements.csv
 * keys its outer spans by placement (with one inner span each), S by
 * num_nodes, then num_replicas. */
struct sim_app_table {
	struct sim_app_span	*outer, *inner;
	size_t			 nouter, ninner;
	struct sim_app_pt	*pts;
};

struct sim_app {
	char			*name;
	struct sim_app_table	 place;		/* placements.csv */
	struct sim_app_table	 scale;		/* the point set S */
	/* Row r of every validation file (its last where it has fewer) is
	 * grad[r * nval, (r + 1) * nval), the files by BSZ: x BSZ, a grad_sqr,
	 * b grad_var. */
	struct sim_app_pt	*grad;
	size_t			 nval, nrows;
	double			*progress;	/* [0..epochs], [0] = 0 */
	uint32_t		 epochs;
	uint32_t		 min_local, max_local;
};

/* The key of a placement of counts[0..n) GPUs a node (zeros skipped): the
 * least rotation's digits read as a number. Returns 0, or -1 when no row
 * can have it (no GPU, a count over 9, more than SIM_APP_MAX_NODES nodes). */
int	sim_app_key(const uint32_t *counts, size_t n, uint64_t *key);

#endif
