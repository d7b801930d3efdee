/* fill-db.c (bench): fills a controller database with finished jobs, as a
 * year of a busy cluster would leave them, for the history benchmarks
 * (bench/history).
 *   fill-db [-t NOW] DIR N [SEED]
 * DIR is a gbatchd state directory (made if missing): its gbatch.db is
 * created, or brought to the current schema, by the controller's own
 * store module, and every row is written by the store's own functions (store.h), the ones
 * gbatchd's submit and transitions call: the jobs row from the field table
 * (common/job-field.h), each run in job_runs, each transition in
 * job_events, scripts and environments shared in job_texts the way gsub's
 * sweeps share them. So a new field or table follows without an edit here,
 * and the database is the one gbatchd would have written, only faster:
 * one transaction per FILL_COMMIT_EVERY jobs, no fsync per job.
 *
 * Deterministic: the same N, SEED and NOW give the same rows. NOW
 * (default: the time of the run) is the end of the year the submits are
 * spread over. Nodes n1..n4 of 8 GPUs are saved too, with N = 0 as well,
 * so an "empty" database differs from a filled one only in its jobs.
 *
 * The history is not one 32 GPUs could have run: a million jobs of one
 * minute to a day in a year keep about a thousand GPUs busy. Only sizes
 * and shapes matter here, not utilization. */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store.h"

#define FILL_USERS		200
#define FILL_NODES		4
#define FILL_NODE_GPUS		8
#define FILL_COMMIT_EVERY	50000
#define FILL_YEAR		(365 * 86400)

static uint64_t fill_state;

/* xorshift64*, as bench/gen-trace: a uniform double in (0, 1). */
static double
fill_uniform(void)
{
	fill_state ^= fill_state >> 12;
	fill_state ^= fill_state << 25;
	fill_state ^= fill_state >> 27;
	return ((double)(((fill_state * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) /
	    9007199254740992.0);
}

/* An integer in [lo, hi]. */
static int64_t
fill_range(int64_t lo, int64_t hi)
{
	return (lo + (int64_t)(fill_uniform() * (double)(hi - lo + 1)));
}

/* Log-uniform in [lo, hi]: many short jobs, a few long ones. */
static int64_t
fill_loguniform(double lo, double hi)
{
	return ((int64_t)exp(log(lo) + fill_uniform() * (log(hi) - log(lo))));
}

static long long
fill_arg(const char *s, const char *what, long long lo, long long hi)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		fprintf(stderr, "fill-db: %s: expected %lld-%lld, got \"%s\"\n",
		    what, lo, hi, s);
		exit(2);
	}
	return (v);
}

/* Who submits: a few heavy users and a long tail (user i weighs 1/(i+1)),
 * as on a shared cluster. */
static unsigned
fill_user(void)
{
	static double	cum[FILL_USERS];
	double		u;
	unsigned	i, lo, hi;

	if (cum[FILL_USERS - 1] == 0) {
		for (i = 0; i < FILL_USERS; i++)
			cum[i] = (i > 0 ? cum[i - 1] : 0) + 1.0 / (i + 1);
	}
	u = fill_uniform() * cum[FILL_USERS - 1];
	for (lo = 0, hi = FILL_USERS - 1; lo < hi;) {
		i = (lo + hi) / 2;
		if (cum[i] < u)
			lo = i + 1;
		else
			hi = i;
	}
	return (lo);
}

static uint32_t
fill_gpus(void)
{
	static const struct { double p; uint32_t g; } mix[] = {
		{ 0.50, 1 }, { 0.20, 2 }, { 0.15, 4 }, { 0.10, 8 },
		{ 0.05, 16 },
	};
	double		u = fill_uniform();
	unsigned	i;

	for (i = 0; i < sizeof mix / sizeof mix[0] - 1; i++) {
		if ((u -= mix[i].p) < 0)
			break;
	}
	return (mix[i].g);
}

/* Where a run of gpus GPUs sits: the parts as the daemon writes them in
 * job_runs ("n1:0x3", "n1:0xff,n2:0xff"), the jobs row's node, mask and
 * alloc ('' for one part) and the event's "n1 GPUs 0,1". */
struct fill_place {
	char		 runs[64];
	char		 node[8];
	uint64_t	 mask;
	char		 alloc[64];
	char		 where[128];
};

static void
fill_place(uint32_t gpus, struct fill_place *p)
{
	unsigned	n = (unsigned)fill_range(1, FILL_NODES), parts, i, k;
	unsigned	first = 0, count = gpus;
	size_t		off;

	if (gpus > FILL_NODE_GPUS) {
		parts = gpus / FILL_NODE_GPUS;
		count = FILL_NODE_GPUS;
		if (n + parts - 1 > FILL_NODES)
			n = FILL_NODES - parts + 1;
	} else {
		parts = 1;
		first = (unsigned)fill_range(0, FILL_NODE_GPUS - gpus) /
		    gpus * gpus;
	}
	p->mask = ((UINT64_C(1) << count) - 1) << first;
	snprintf(p->node, sizeof p->node, "n%u", n);
	p->runs[0] = p->where[0] = '\0';
	for (i = 0; i < parts; i++) {
		off = strlen(p->runs);
		snprintf(p->runs + off, sizeof p->runs - off, "%sn%u:0x%" PRIx64,
		    i > 0 ? "," : "", n + i, p->mask);
		off = strlen(p->where);
		snprintf(p->where + off, sizeof p->where - off, "%sn%u GPUs ",
		    i > 0 ? ", " : "", n + i);
		for (k = first; k < first + count; k++) {
			off = strlen(p->where);
			snprintf(p->where + off, sizeof p->where - off, "%s%u",
			    k > first ? "," : "", k);
		}
	}
	snprintf(p->alloc, sizeof p->alloc, "%s", parts > 1 ? p->runs : "");
}

/* What a user's shell and sweep look like to gsub: an environment of
 * about 1.5 KB per login session, a script per sweep. */
static char *
fill_env(unsigned user, unsigned session)
{
	char	pad[1200];

	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	return (xasprintf("{\"HOME\":\"/home/user%03u\",\"USER\":\"user%03u\","
	    "\"PATH\":\"/home/user%03u/.local/bin:/usr/local/bin:/usr/bin:"
	    "/bin\",\"SHELL\":\"/bin/bash\",\"SESSION\":\"%u\","
	    "\"LS_COLORS\":\"%s\"}", user, user, user, session, pad));
}

static const char *const fill_models[] = {
	"resnet50", "vgg16", "inception3", "bert", "gpt2", "vit", "llama-ft",
	"unet",
};
#define FILL_NMODELS	(sizeof fill_models / sizeof fill_models[0])

struct fill {
	int64_t		 now;
	uint64_t	 jobs;		/* written so far */
	uint64_t	 runs;
	uint64_t	 events;
};

static int
fill_event(struct fill *f, uint64_t id, int64_t when, const char *from,
    const char *to, const char *detail)
{
	f->events++;
	return (store_event_insert(id, when, from, to, detail));
}

/* One finished job of a sweep, submitted at submit: its row, its runs
 * and its transitions, as gbatchd writes them. */
static int
fill_job(struct fill *f, unsigned user, const char *name, uint32_t gpus,
    int64_t submit, const char *script, const char *env)
{
	struct store_job	 r;
	struct fill_place	 p;
	char			 user_s[16], home[64], out[80], detail[192];
	int64_t			 t, run_ms, start = 0, dur, wait;
	unsigned		 nruns = 1, k;
	double			 u = fill_uniform();
	int			 rc = 0;

	memset(&r, 0, sizeof r);
	snprintf(user_s, sizeof user_s, "user%03u", user);
	snprintf(home, sizeof home, "/home/%s/exp", user_s);
	snprintf(out, sizeof out, "%s/gbatch-%%j.out", home);
	r.id = store_job_next_id();
	r.name = name;
	r.user = user_s;
	r.uid = r.gid = 10000 + user;
	r.reason = "None";
	r.gpus = gpus;
	r.time_limit = 86400;
	r.submit_time = submit;
	r.workdir = home;
	r.stdout_path = r.stderr_path = out;
	r.command = "/bin/bash";
	r.argv = "[\"train.sh\"]";
	r.message = "";
	r.ckpt_signal = 10;
	r.umask = 022;
	r.script = script;
	r.env = env;
	r.queue = -1;

	/* 70% complete, 15% fail, 10% are cancelled (a third of them
	 * before they ran), 5% time out; a tenth of those that run are
	 * preempted once and run again. */
	r.state = u < 0.70 ? JOB_COMPLETED : u < 0.85 ? JOB_FAILED :
	    u < 0.95 ? JOB_CANCELLED : JOB_TIMEOUT;
	if (r.state == JOB_CANCELLED && fill_uniform() < 1.0 / 3) {
		nruns = 0;
		t = submit + fill_loguniform(10, 86400);
		r.queue_delay = (t - submit) * 1000;
	} else if (fill_uniform() < 0.1)
		nruns = 2;
	if ((rc = store_job_insert(&r)) != 0)
		goto out;
	f->jobs++;
	if ((rc = fill_event(f, r.id, submit, "", "PENDING", "submitted")) != 0)
		goto out;

	t = submit;
	for (k = 0; k < nruns; k++) {
		/* Bigger jobs wait longer for their GPUs to come free. */
		wait = fill_loguniform(1, 600.0 * gpus);
		start = t + wait;
		r.queue_delay += wait * 1000;
		dur = r.state == JOB_TIMEOUT && k == nruns - 1 ?
		    (int64_t)r.time_limit : fill_loguniform(60, 86400);
		if (r.first_start == 0)
			r.first_start = start * 1000;
		fill_place(gpus, &p);
		snprintf(detail, sizeof detail, "on %s", p.where);
		if ((rc = fill_event(f, r.id, start, "PENDING", "RUNNING",
		    detail)) != 0 || (rc = store_run_start(r.id, k, start, gpus,
		    p.runs, "gbatch")) != 0)
			goto out;
		f->runs++;
		t = start + dur;
		run_ms = dur * 1000;
		r.run_total += run_ms;
		r.attained += (uint64_t)run_ms * gpus;
		if (k + 1 < nruns) {
			/* Preempted for a job of a higher queue; requeued. */
			r.preemptions++;
			r.restarts++;
			if ((rc = store_run_preempt(r.id, t)) != 0 ||
			    (rc = fill_event(f, r.id, t, "RUNNING",
			    "PREEMPTING", "(preempted in queue 0 for a job of "
			    "queue 0)")) != 0)
				goto out;
			t += 30;
			if ((rc = store_run_end(r.id, t, "PREEMPTED", false, 0,
			    0)) != 0 || (rc = fill_event(f, r.id, t,
			    "PREEMPTING", "PENDING", "(stopped after its "
			    "preemption; requeued)")) != 0)
				goto out;
			r.pending_since = t * 1000;
			continue;
		}
		r.start_time = start;
		r.node = p.node;
		r.gpu_mask = p.mask;
		r.alloc = p.alloc;
	}
	r.end_time = t;
	r.executed = r.run_total;
	r.last_stop = t * 1000;
	r.last_queue = r.attained >= 3600 * 1000 ? 1 : 0;
	switch (r.state) {
	case JOB_COMPLETED:
		r.has_exit = true;
		break;
	case JOB_FAILED:
		r.has_exit = true;
		if (fill_uniform() < 0.2)
			r.signal = 9;
		else
			r.exit_code = 1;
		break;
	case JOB_TIMEOUT:
		r.has_exit = true;
		r.signal = 15;
		break;
	default:
		r.has_exit = nruns > 0;
		r.signal = nruns > 0 ? 15 : 0;
		break;
	}
	if (r.has_exit && r.signal != 0)
		snprintf(detail, sizeof detail, "(signal %d)", r.signal);
	else if (r.has_exit)
		snprintf(detail, sizeof detail, "(exit %d)", r.exit_code);
	else
		detail[0] = '\0';
	if ((rc = store_job_update(&r)) != 0 || (rc = fill_event(f, r.id, t,
	    nruns > 0 ? "RUNNING" : "PENDING", job_state_name(r.state),
	    detail)) != 0)
		goto out;
	if (nruns > 0)
		rc = store_run_end(r.id, t, job_state_name(r.state), r.has_exit,
		    r.exit_code, r.signal);
out:
	return (rc);
}

static int
fill_commit(void)
{
	char	err[256];

	if (store_commit(err, sizeof err) != 0) {
		fprintf(stderr, "fill-db: %s\n", err);
		return (-1);
	}
	return (0);
}

static void
fill_usage(void)
{
	fprintf(stderr, "usage: fill-db [-t NOW] DIR N [SEED]\n"
	    "Writes N finished jobs, submitted over the year before NOW (seconds "
	    "since\nthe epoch; default: now), into DIR/gbatch.db.\n");
}

int
main(int argc, char **argv)
{
	struct fill		 f;
	struct store_node	 node;
	struct timespec		 t0, t1;
	char			 err[512], nname[8], name[64];
	char			*script = NULL, *env = NULL;
	long long		 n, seed = 1;
	int64_t			 submit;
	double			 secs;
	unsigned		 user, i, k, sweeps, sweep_jobs, session = 0;
	uint32_t		 gpus;
	int			 ch, rc = 1;

	memset(&f, 0, sizeof f);
	f.now = time(NULL);
	while ((ch = getopt(argc, argv, "t:")) != -1) {
		switch (ch) {
		case 't':
			f.now = fill_arg(optarg, "-t", FILL_YEAR, INT32_MAX);
			break;
		default:
			fill_usage();
			return (2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc > 3) {
		fill_usage();
		return (2);
	}
	n = fill_arg(argv[1], "N", 0, 100000000);
	if (argc == 3)
		seed = fill_arg(argv[2], "SEED", 0, LLONG_MAX);
	fill_state = 0x2545f4914f6cdd1dULL ^ ((uint64_t)seed * 0x9e3779b97f4a7c15ULL);
	if (fill_state == 0)
		fill_state = 1;

	/* The store's log: its warnings and errors only, on stderr. */
	log_open("fill-db", 0, LOG_LEVEL_WARN);
	if (mkdir(argv[0], 0700) == -1 && errno != EEXIST) {
		fprintf(stderr, "fill-db: %s: %s\n", argv[0], strerror(errno));
		return (1);
	}
	if (store_open(argv[0], STORE_SYNC_NORMAL, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "fill-db: %s\n", err);
		return (1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i <= FILL_NODES; i++) {
		snprintf(nname, sizeof nname, "n%u", i);
		node.name = nname;
		node.gpus = FILL_NODE_GPUS;
		node.drained = false;
		node.reason = "";
		node.last_seen = f.now;
		if (store_node_save(&node) != 0)
			goto out;
	}

	/* A login session: one user, one environment, one to four sweeps
	 * of one to sixteen jobs each, submitted seconds apart. The store
	 * shares a text between the jobs that carry it, as it does for
	 * gsub's. Submits are spread evenly over the year before NOW,
	 * leaving a day for the last jobs to end. */
	while (f.jobs < (uint64_t)n) {
		user = fill_user();
		free(env);
		env = fill_env(user, session++);
		sweeps = (unsigned)fill_range(1, 4);
		for (i = 0; i < sweeps && f.jobs < (uint64_t)n; i++) {
			const char *model = fill_models[fill_range(0,
			    FILL_NMODELS - 1)];

			free(script);
			script = xasprintf("#!/bin/bash\n#GBATCH -J %s\n"
			    "cd ~/exp && python train.py --model %s --lr "
			    "\"$1\" --ckpt \"$GBATCH_CKPT_DIR\"\n", model, model);
			gpus = fill_gpus();
			sweep_jobs = (unsigned)fill_range(1, 16);
			submit = f.now - FILL_YEAR + (int64_t)((double)(FILL_YEAR -
			    2 * 86400) * (double)f.jobs / (double)n);
			for (k = 0; k < sweep_jobs && f.jobs < (uint64_t)n;
			    k++) {
				snprintf(name, sizeof name, "%s-lr%u", model,
				    k + 1);
				if (fill_job(&f, user, name, gpus, submit + k,
				    script, env) != 0)
					goto out;
				if (f.jobs % FILL_COMMIT_EVERY == 0 &&
				    fill_commit() != 0)
					goto out;
			}
		}
	}
	if (fill_commit() != 0)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("fill-db: %" PRIu64 " jobs, %" PRIu64 " runs, %" PRIu64
	    " events in %.2f s: %.0f jobs/s\n", f.jobs, f.runs, f.events, secs,
	    secs > 0 ? (double)f.jobs / secs : 0);
	rc = 0;
out:
	free(script);
	free(env);
	store_close();
	return (rc);
}
