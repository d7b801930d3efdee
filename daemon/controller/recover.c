/* recover.c: start-up from the store. Nothing is killed or requeued here:
 * node-health.c and job-report.c decide once nodes re-register or the
 * timeout passes. */
#include <inttypes.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc-text.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/core.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/recover.h"
#include "daemon/controller/store.h"

static void
recover_node_cb(const struct store_node *r, void *arg)
{
	node_set_known(node_get(r->name), r->gpus, r->drained, r->reason,
	    r->last_seen);
}

/* Reads a multi-node allocation, "n1:0xf,n2:0xf", into parts. Returns
 * the number of parts, or 0 when the text is malformed. */
static size_t
recover_alloc(const char *text, struct job_part *parts, size_t max)
{
	struct alloc_part	 a;
	char			 name[256];
	size_t			 n = 0;
	int			 r;

	while ((r = alloc_text_next(&text, &a)) == 1) {
		if (n == max || a.node_len >= sizeof name)
			return (0);
		memcpy(name, a.node, a.node_len);
		name[a.node_len] = '\0';
		memset(&parts[n], 0, sizeof parts[n]);
		parts[n].node = node_get(name);
		parts[n].mask = a.mask;
		n++;
	}
	return (r == -1 ? 0 : n);
}

/* A running job of shards takes the shards its GPU had as its run
 * started from the run's record (alloc-text.h), which accounting
 * charges it by (job_run_milli); none there, its whole GPU. */
static void
recover_run_shards(struct job *j)
{
	struct alloc_part	 a;
	char			 text[512];
	const char		*pos = text;

	if (job_gpu_share(j) == 0 ||
	    store_run_open_alloc(job_id(j), text, sizeof text) != 0)
		return;
	if (alloc_text_next(&pos, &a) == 1)
		job_set_run_shards(j, a.shards);
}

/* What start-up found: jobs, of them running, and the interactive ones
 * (grun's), whose sessions died with the last gbatchd. */
struct recover_count {
	size_t		 jobs;
	size_t		 running;
	uint64_t	*sessions;
	size_t		 nsessions, sessions_size;
};

/* Running job j (row r) ran on the GPUs its row names: its parts, which
 * the core holds for it (core_build_job). */
static void
recover_run(struct job *j, const struct store_job *r)
{
	struct job_part	 one, *parts = &one;
	size_t		 n = 0;

	if (r->alloc != NULL && *r->alloc != '\0') {
		parts = xcalloc(JOB_MAX_PARTS, sizeof *parts);
		if ((n = recover_alloc(r->alloc, parts, JOB_MAX_PARTS)) == 0)
			log_error("job %" PRIu64 ": unreadable allocation "
			    "\"%s\"; taking its first node only", r->id,
			    r->alloc);
	}
	if (n == 0) {
		if (parts != &one)
			free(parts);
		parts = &one;
		memset(&one, 0, sizeof one);
		one.node = node_get(r->node);
		one.mask = r->gpu_mask;
		n = 1;
	}
	job_set_run(j, parts, n, 0);
	if (parts != &one)
		free(parts);
	recover_run_shards(j);
}

static void
recover_job_cb(const struct store_job *r, void *arg)
{
	struct recover_count *c = arg;
	struct job	*j;

	j = job_create(r);
	c->jobs++;
	if (job_is_interactive(j)) {
		if (c->nsessions == c->sessions_size) {
			c->sessions_size = c->sessions_size * 2 + 16;
			c->sessions = xreallocarray(c->sessions,
			    c->sessions_size, sizeof *c->sessions);
		}
		c->sessions[c->nsessions++] = r->id;
	}
	if (job_state_on_node(r->state) &&
	    r->node != NULL) {
		recover_run(j, r);
		c->running++;
	}
	core_build_job(j);
}

int
recover_load(void (*lost)(const uint64_t *ids, size_t n))
{
	struct recover_count c = { 0 };
	struct timespec	t0, t1;
	int		rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (store_node_each(recover_node_cb, NULL) != 0)
		return (-1);
	job_table_load_begin();
	core_build_begin();
	rc = store_job_each_active(recover_job_cb, &c);
	job_table_load_end();
	if (rc != 0) {
		free(c.sessions);
		return (-1);
	}
	core_build_end();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_info("store: %zu nodes known, %zu jobs not finished (%zu running, "
	    "waiting for their nodes), loaded in %.0f ms", node_count(),
	    c.jobs, c.running, (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	lost(c.sessions, c.nsessions);
	free(c.sessions);
#ifdef HAVE_MALLOC_TRIM
	/* What the load alone used (the store's rows, the sort) is free
	 * now, partly in holes between the jobs, which trimming the heap's
	 * top (gbatchd-main.c) does not reach: 0.3 MB with 100,000 jobs. */
	malloc_trim(0);
#endif
	return (0);
}
