/* node-cpus-test.c: CPU lists read and written back, refusals, and the
 * choice of a job's CPUs near its GPUs (daemon/node/node-cpus.c). */
#include <sched.h>
#include <string.h>

#include "daemon/node/node-cpus.h"
#include "tests/unit/tap.h"

/* The list of the set list reads, written back. */
static const char *
t_round(const char *list)
{
	static char	buf[256];
	cpu_set_t	set;

	if (node_cpus_parse(list, &set) == -1)
		return ("(refused)");
	if (node_cpus_format(&set, buf, sizeof buf) == -1)
		return ("(too long)");
	return (buf);
}

/* Picks n of avail (a list) for GPUs near the lists in near; the result as
 * a list, or "short" when fewer were found. */
static const char *
t_pick(const char *avail, const char *const *near, size_t ngpus, unsigned n)
{
	static char	buf[256];
	cpu_set_t	a, sets[8], out;
	size_t		i;

	node_cpus_parse(avail, &a);
	for (i = 0; i < ngpus; i++)
		node_cpus_parse(near[i], &sets[i]);
	if (node_cpus_pick(&a, sets, ngpus, n, &out) < n)
		return ("short");
	node_cpus_format(&out, buf, sizeof buf);
	return (buf);
}

int
main(void)
{
	static const char *const two[] = { "0-3", "4-7" };
	static const char *const rev[] = { "1", "1", "0", "0" };
	static const char *const none[] = { "", "" };
	cpu_set_t	 set;
	char		 tiny[4];

	is_str(t_round("0-3,8,10-11"), "0-3,8,10-11", "a list reads back");
	is_str(t_round("3,2,1,0"), "0-3", "out of order: one run");
	is_str(t_round("5"), "5", "one CPU");
	is_str(t_round(""), "", "the empty set");
	is_str(t_round("1023"), "1023", "the last CPU there can be");
	is_str(t_round("1024"), "(refused)", "past CPU_SETSIZE");
	is_str(t_round("3-1"), "(refused)", "a range backwards");
	is_str(t_round("1,,2"), "(refused)", "an empty item");
	is_str(t_round("1-"), "(refused)", "a range without its end");
	is_str(t_round("a"), "(refused)", "a letter");
	is_str(t_round(" 1"), "(refused)", "a space");
	is_str(t_round("1,"), "(refused)", "a trailing comma");
	node_cpus_parse("0-1,100-200", &set);
	is_int(node_cpus_format(&set, tiny, sizeof tiny), -1,
	    "a list too long for its buffer says so");

	/* Near its GPU, not the lowest free. */
	is_str(t_pick("0-7", two, 1, 2), "0-1", "GPU near 0-3: 0-1");
	is_str(t_pick("0-7", two + 1, 1, 2), "4-5", "GPU near 4-7: 4-5");
	/* Two GPUs on two NUMA nodes: shared out. */
	is_str(t_pick("0-7", two, 2, 4), "0-1,4-5", "2 + 2 across the nodes");
	is_str(t_pick("0-7", two, 2, 3), "0-1,4", "an odd count: the first one more");
	/* A node's near CPUs taken: from the other GPU's, then anywhere. */
	is_str(t_pick("2-7", two, 1, 3), "2-4", "near ones first, then others");
	is_str(t_pick("0-1", rev, 1, 1), "1", "GPU 0 near CPU 1");
	is_str(t_pick("0-1", rev + 2, 1, 1), "0", "GPU 2 near CPU 0");
	/* Nothing known: the lowest free, as before. */
	is_str(t_pick("2-7", none, 2, 2), "2-3", "unknown: the lowest free");
	is_str(t_pick("0-1", two, 1, 3), "short", "too few free");
	return (tap_done());
}
