/* sched-shape-test.c: the core's shared shapes. Jobs asking the same hold
 * one shape, counted; a job differing in any one member, in its node list
 * (members, order or length) or in its group holds its own; a node list
 * counts only for a listed job; res reads back and has_res says whether
 * anything is asked beside GPUs; the last job counted out frees a shape,
 * and 50,000 distinct shapes (the hash grows) are each found again. */
#include <stdlib.h>
#include <string.h>

#include "policy/sched-shape.h"
#include "tests/unit/tap.h"

static const uint32_t	t_nodes[] = { 3, 1, 4, 1, 5 };

static struct sched_shape
t_base(void)
{
	struct sched_shape	w;

	memset(&w, 0, sizeof w);
	w.gpus = 8;
	w.num_nodes = 2;
	w.placement = 1;
	return (w);
}

/* The base with member which (0 to 15) changed; -1: the base. */
static struct sched_shape
t_vary(int which)
{
	struct sched_shape	w = t_base();

	switch (which) {
	case 0: w.gpus++; break;
	case 1: w.num_nodes++; break;
	case 2: w.placement++; break;
	case 3: w.own_placement = true; break;
	case 4: w.consolidate = true; break;
	case 5: w.no_requeue = true; break;
	case 6: w.any_shape = true; break;
	case 7: w.listed = true; break;
	case 8: w.group = (struct sched_group *)(uintptr_t)&t_nodes; break;
	case 9: w.res.mem_node = 1; break;
	case 10: w.res.mem_gpu = 1; break;
	case 11: w.res.cpus_node = 1; break;
	case 12: w.res.cpus_gpu = 1; break;
	case 13: w.res.cpus_share = true; break;
	case 14: w.res.mem_share = true; break;
	default: break;
	}
	return (w);
}

#define MANY	50000

int
main(void)
{
	struct sched_shapes		 set = { 0 };
	struct sched_shape		 w;
	const struct sched_shape	*a, *b, *c, *l1, *l2, **many;
	uint32_t			 nodes[5];
	size_t				 i;
	int				 k, bad = 0;

	w = t_base();
	a = sched_shape_get(&set, &w, NULL, 0);
	b = sched_shape_get(&set, &w, NULL, 0);
	ok(a == b, "the same ask: one shape");
	ok(a->refs == 2 && set.n == 1, "counted for two jobs, one in the set");
	ok(a->gpus == 8 && a->num_nodes == 2 && a->placement == 1 &&
	    !a->has_res && !a->listed && a->nnodes == 0,
	    "its members read back; nothing beside GPUs");
	for (k = 0; k < 15; k++) {
		w = t_vary(k);
		c = sched_shape_get(&set, &w, NULL, 0);
		if (c == a || c->refs != 1 || c->has_res != (k >= 9))
			bad++;
		sched_shape_put(&set, c);
	}
	is_int(bad, 0, "a job differing in any one member has its own");
	is_int(set.n, 1, "each freed with its only job");

	/* A node list counts for a listed job only, whole and in order. */
	w = t_base();
	c = sched_shape_get(&set, &w, t_nodes, 5);
	ok(c == a, "a list given to a job not listed is not kept");
	sched_shape_put(&set, c);
	w.listed = true;
	l1 = sched_shape_get(&set, &w, t_nodes, 5);
	ok(l1 != a && l1->nnodes == 5 &&
	    memcmp(l1->nodes, t_nodes, sizeof t_nodes) == 0,
	    "a listed job's nodes read back");
	memcpy(nodes, t_nodes, sizeof nodes);
	l2 = sched_shape_get(&set, &w, nodes, 5);
	ok(l2 == l1 && l1->refs == 2, "the same list: the same shape");
	nodes[4] = 9;
	c = sched_shape_get(&set, &w, nodes, 5);
	ok(c != l1, "another last node: another shape");
	sched_shape_put(&set, c);
	c = sched_shape_get(&set, &w, nodes, 4);
	ok(c != l1, "a shorter list: another shape");
	sched_shape_put(&set, c);
	nodes[0] = 1;
	nodes[1] = 3;
	c = sched_shape_get(&set, &w, nodes, 5);
	ok(c != l1, "the same nodes in another order: another shape");
	sched_shape_put(&set, c);
	c = sched_shape_get(&set, &w, NULL, 0);
	ok(c != l1 && c != a && c->nnodes == 0,
	    "listed with no nodes: a shape of its own");
	sched_shape_put(&set, c);
	sched_shape_put(&set, l1);
	sched_shape_put(&set, l2);
	is_int(set.n, 1, "lists freed with their jobs");

	/* Many shapes: each found again, with its own members. */
	many = calloc(MANY, sizeof *many);
	for (i = 0; i < MANY; i++) {
		w = t_base();
		w.res.mem_node = i;
		w.gpus = (uint32_t)(tap_rand() % 64) + 1;
		many[i] = sched_shape_get(&set, &w, NULL, 0);
	}
	is_int(set.n, MANY + 1, "50,000 asks: 50,000 more shapes");
	bad = 0;
	for (i = 0; i < MANY; i++) {
		w = *many[i];
		w.res.mem_node = i;
		if (sched_shape_get(&set, &w, NULL, 0) != many[i] ||
		    many[i]->res.mem_node != i)
			bad++;
	}
	is_int(bad, 0, "each found again, with its own members");
	for (i = 0; i < MANY; i++) {
		sched_shape_put(&set, many[i]);
		sched_shape_put(&set, many[i]);
	}
	free(many);
	is_int(set.n, 1, "all freed with their jobs");
	sched_shape_put(&set, a);
	sched_shape_put(&set, b);
	ok(set.n == 0 && set.bucket == NULL, "the last job out frees the set");
	return (tap_done());
}
