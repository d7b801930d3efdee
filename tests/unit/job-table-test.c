/* job-table-test.c: the controller's table of jobs (job.c), an array in id
 * order with holes where jobs were freed. Jobs made and freed at random,
 * as the controller does (ids growing, a start-up's load in any order, a
 * job older than the newest now and then), must leave every job found by
 * its id, no freed one found, the walk in id order over exactly the jobs
 * there, and each job's strings its own. The listeners of transitions are
 * told in the order added. A waiting job's request changed
 * (job_set_asked) takes its new strings and numbers, the other jobs and
 * fields keep theirs, and the shared blocks are counted right. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/job-int.h"
#include "daemon/controller/job-shared.h"
#include "daemon/controller/job.h"
#include "tests/unit/tap.h"

#define MAXID	20000

static struct job	*made[MAXID + 1];

static struct job *
make(uint64_t id)
{
	struct store_job	r;
	char			name[32], dir[32];

	memset(&r, 0, sizeof r);
	snprintf(name, sizeof name, "job%" PRIu64, id);
	snprintf(dir, sizeof dir, "/home/u%" PRIu64, id % 7);
	r.id = id;
	r.name = name;
	r.user = "alice";
	r.command = "true";
	r.workdir = dir;
	r.state = JOB_PENDING;
	r.reason = "None";
	r.gpus = 1;
	r.array_task_id = -1;
	return (made[id] = job_create(&r));
}

/* Checks the table against made[]; returns the number of faults. */
static int
check(const char *what)
{
	struct job	*j;
	struct store_job r;
	uint64_t	 id, last = 0;
	size_t		 walked = 0, there = 0;
	int		 bad = 0;
	char		 name[32], dir[32];

	for (id = 0; id <= MAXID + 1; id++) {
		j = job_table_find(id);
		if (id <= MAXID && made[id] != NULL)
			there++;
		if (j != (id <= MAXID ? made[id] : NULL))
			bad++;
	}
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_id(j) <= last || made[job_id(j)] != j)
			bad++;
		snprintf(name, sizeof name, "job%" PRIu64, job_id(j));
		snprintf(dir, sizeof dir, "/home/u%" PRIu64, job_id(j) % 7);
		job_to_row(j, &r);
		if (strcmp(job_name(j), name) != 0 ||
		    strcmp(r.workdir, dir) != 0 ||
		    strcmp(job_user(j), "alice") != 0)
			bad++;
		last = job_id(j);
		walked++;
	}
	if (walked != there || job_table_count(JOB_PENDING) != there)
		bad++;
	ok(bad == 0, "%s: %zu jobs found by id, walked in order", what,
	    there);
	return (bad);
}

static void
drop(uint64_t id)
{
	job_free(made[id]);
	made[id] = NULL;
}

/* What the listeners heard, in order: "A3:PENDING>RUNNING" a call. */
static char	heard[256];

static void
hear(char who, struct job *j, enum job_state from, enum job_state to)
{
	size_t	len = strlen(heard);

	snprintf(heard + len, sizeof heard - len, "%s%c%" PRIu64 ":%s>%s",
	    len > 0 ? " " : "", who, job_id(j), job_state_name(from),
	    job_state_name(to));
}

static void
hear_a(struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row)
{
	(void)row;
	hear('A', j, from, to);
}

static void
hear_b(struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row)
{
	(void)row;
	hear('B', j, from, to);
}

/* The listeners of transitions: told in the order they were added, each
 * once, and forgotten when the table is freed. */
static void
listeners(void)
{
	struct job	*j = job_table_find(3);

	job_table_tell(j, JOB_PENDING, JOB_RUNNING, NULL);
	is_str(heard, "", "no listener: nobody is told");
	job_table_listen(hear_a);
	job_table_listen(hear_b);
	job_table_tell(j, JOB_PENDING, JOB_RUNNING, NULL);
	job_table_tell(j, JOB_RUNNING, JOB_COMPLETED, NULL);
	is_str(heard, "A3:PENDING>RUNNING B3:PENDING>RUNNING "
	    "A3:RUNNING>COMPLETED B3:RUNNING>COMPLETED",
	    "each transition told to every listener, in the order added");
	job_table_free_all();
	memset(made, 0, sizeof made);
	heard[0] = '\0';
	j = make(4);
	job_table_tell(j, JOB_PENDING, JOB_HELD, NULL);
	is_str(heard, "", "freeing the table forgets its listeners");
}

/* The parsed dependencies freed (job_table_set_dep_free's hook). */
static int	deps_freed;

static void
dep_free(struct job_dep *d)
{
	(void)d;
	deps_freed++;
}

/* job_set_asked: name, comment and dependency rebuilt, time limit and
 * nodes re-interned with the shared strings; a job made alike keeps its
 * own. */
static void
asked(void)
{
	struct job		*j, *twin;
	struct store_job	 r;
	size_t			 blocks, refs, blocks0, refs0;
	char			 name[300];

	job_table_set_dep_free(dep_free);
	j = make(11);
	twin = make(18);	/* the same workdir (id % 7): one block */
	blocks0 = job_shared_count(job_table_shared(), &refs0);
	job_to_row(j, &r);
	r.name = "renamed";
	r.comment = "a comment";
	r.dependency = "afterok:3";
	r.time_limit = 600;
	r.num_nodes = 2;
	job_set_asked(j, &r);
	job_to_row(j, &r);
	ok(strcmp(job_name(j), "renamed") == 0 && strcmp(r.comment,
	    "a comment") == 0 && strcmp(job_dependency(j), "afterok:3") == 0 &&
	    job_time_limit(j) == 600 && job_num_nodes(j) == 2,
	    "the job takes its new name, comment, dependency, time limit and "
	    "nodes");
	ok(strcmp(r.workdir, "/home/u4") == 0 && strcmp(job_user(j),
	    "alice") == 0 && strcmp(r.command, "true") == 0 &&
	    strcmp(r.argv, "[]") == 0 && job_gpus(j) == 1,
	    "and keeps the rest of its request");
	job_to_row(twin, &r);
	ok(strcmp(job_name(twin), "job18") == 0 && *r.comment == '\0' &&
	    job_time_limit(twin) == 0 && job_num_nodes(twin) == 0,
	    "a job that shared its block keeps its own");
	blocks = job_shared_count(job_table_shared(), &refs);
	ok(blocks == blocks0 + 1 && refs == refs0, "the changed job has a "
	    "shared block of its own: %zu blocks (was %zu), %zu jobs in them",
	    blocks, blocks0, refs);

	/* What was judged of a dependency goes with it, not before. */
	job_set_dep(j, (struct job_dep *)&deps_freed);
	job_to_row(j, &r);
	r.name = "again";
	job_set_asked(j, &r);
	ok(deps_freed == 0 && job_dep(j) != NULL && strcmp(job_name(j),
	    "again") == 0, "a new name keeps the parsed dependency");
	job_to_row(j, &r);
	r.dependency = "";
	job_set_asked(j, &r);
	ok(deps_freed == 1 && job_dep(j) == NULL && *job_dependency(j) ==
	    '\0', "a new dependency frees the one parsed");

	/* Back to its twin's numbers: one block again. A long name needs
	 * wider offsets. */
	memset(name, 'x', sizeof name - 1);
	name[256] = '\0';
	job_to_row(j, &r);
	r.name = name;
	r.time_limit = 0;
	r.num_nodes = 0;
	job_set_asked(j, &r);
	blocks = job_shared_count(job_table_shared(), &refs);
	job_to_row(j, &r);
	ok(blocks == blocks0 && refs == refs0 && strcmp(job_name(j),
	    name) == 0 && strcmp(r.comment, "a comment") == 0,
	    "back to the shared numbers, one block again; a long name");
	drop(11);
	drop(18);
	ok(deps_freed == 1, "freeing the job frees no dependency it lost");
}

int
main(void)
{
	uint64_t	id, next = 1, order[MAXID];
	size_t		i, k;
	int		round;

	/* A start-up's load: jobs of every state, in no order. */
	for (i = 0; i < 5000; i++)
		order[i] = i * 2 + 1;
	for (i = 4999; i > 0; i--) {
		k = tap_rand() % (i + 1);
		id = order[i];
		order[i] = order[k];
		order[k] = id;
	}
	job_table_load_begin();
	for (i = 0; i < 5000; i++) {
		(void)make(order[i]);
		if (i % 10 == 9)	/* one refused while loading */
			drop(order[i - 3]);
	}
	job_table_load_end();
	check("loaded out of order, some freed while loading");
	next = 10001;

	/* Submits (ids growing) and ends at random, the oldest most often,
	 * and now and then a job older than the newest (a hole's id). */
	for (round = 0; round < 6; round++) {
		for (i = 0; i < 3000; i++) {
			if (tap_rand() % 3 != 0 && next <= MAXID)
				(void)make(next++);
			for (k = 0; k < 2; k++) {
				id = 1 + tap_rand() % (next - 1);
				if (tap_rand() % 2 == 0)
					id = 1 + tap_rand() % (next / 4 + 1);
				if (made[id] != NULL) {
					drop(id);
					break;
				}
			}
			if (tap_rand() % 500 == 0) {
				/* Even ids below 10,000 were never used. */
				id = 2 + 2 * (tap_rand() % 4999);
				if (made[id] == NULL)
					(void)make(id);
			}
		}
		check("submits, ends and older jobs at random");
	}

	/* Every job but the newest freed, oldest first (the holes in front),
	 * then all. */
	for (id = 1; id < next - 1; id++) {
		if (made[id] != NULL)
			drop(id);
	}
	check("all but the newest freed, oldest first");
	(void)make(next - 2);
	check("one older than the newest, after the holes");
	job_table_free_all();
	memset(made, 0, sizeof made);
	check("all freed");
	(void)make(3);
	(void)make(2);
	(void)make(7);
	check("made again, out of order, with no load");
	asked();
	check("after a job's request changed");
	listeners();
	job_table_free_all();
	return (tap_done());
}
