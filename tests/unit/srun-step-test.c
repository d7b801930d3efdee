/* srun-step-test.c: how srun lays a step's tasks over its job's nodes
 * (client/srun-step.c's srun_step_layout): the job's own tasks by
 * default, -N of its nodes, -n spread as evenly as they go (block, the
 * first nodes one more), --ntasks-per-node, and what does not fit. */
#include <stdio.h>
#include <string.h>

#include "client/srun-step.h"
#include "tests/unit/tap.h"

/* The layout of o on a job of nodes x per as "2+2", or the error. */
static const char *
t_lay(unsigned nodes, unsigned per, unsigned n, unsigned nn, unsigned k)
{
	static char		 buf[256];
	struct srun_opt		 o;
	struct srun_layout	 l;
	char			 err[256];
	size_t			 len = 0;
	unsigned		 i, sum = 0;

	memset(&o, 0, sizeof o);
	o.ntasks = n;
	o.nodes = nn;
	o.tasks_per_node = k;
	if (srun_step_layout(nodes, per, &o, &l, err, sizeof err) != 0) {
		snprintf(buf, sizeof buf, "%s", err);
		return (buf);
	}
	for (i = 0; i < l.nodes; i++) {
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u",
		    i > 0 ? "+" : "", l.count[i]);
		sum += l.count[i];
	}
	if (sum != l.tasks)
		snprintf(buf, sizeof buf, "counts %u, tasks %u", sum, l.tasks);
	srun_step_layout_free(&l);
	return (buf);
}

int
main(void)
{
	is_str(t_lay(2, 2, 0, 0, 0), "2+2", "the job's own tasks: 2 x 2");
	is_str(t_lay(1, 1, 0, 0, 0), "1", "a job of one task: one");
	is_str(t_lay(2, 2, 1, 0, 0), "1", "-n 1: one task, on the first node");
	is_str(t_lay(2, 2, 2, 0, 0), "1+1", "-n 2: one on each node");
	is_str(t_lay(2, 2, 3, 0, 0), "2+1", "-n 3: the first node one more");
	is_str(t_lay(2, 2, 0, 1, 0), "2", "-N 1: the first node's tasks");
	is_str(t_lay(2, 2, 4, 1, 0), "4", "-N 1 -n 4: four on it");
	is_str(t_lay(4, 1, 0, 0, 3), "3+3+3+3", "--ntasks-per-node 3");
	is_str(t_lay(4, 1, 6, 2, 3), "3+3", "-n 6 -N 2 --ntasks-per-node 3");
	is_str(t_lay(0, 0, 0, 0, 0), "1", "no job shape known: one task");
	is_str(t_lay(2, 2, 0, 3, 0), "-N 3: the job has 2 nodes; give at most "
	    "-N 2", "-N past the job's nodes is refused");
	is_str(t_lay(2, 2, 5, 2, 2), "-n 5 disagrees with --ntasks-per-node "
	    "2 on 2 nodes (4 tasks); give one of them",
	    "-n and --ntasks-per-node that disagree");
	is_str(t_lay(4, 1, 2, 3, 0), "-n 2 on -N 3: every node of a step runs "
	    "a task at least; give -n 3 or more, or -N 2",
	    "fewer tasks than nodes");
	is_str(t_lay(1, 1, 0, 1, 2000), "2000 tasks on 1 node: at most 1024 a "
	    "node", "too many on a node");
	return (tap_done());
}
