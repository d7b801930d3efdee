/* gsim: replays a cluster trace through the scheduling core gbatchd uses
 * (policy/) on a virtual clock and reports job completion times, for one
 * policy or several side by side. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cmd.h"
#include "common/xmalloc.h"
#include "policy/place.h"
#include "sim/fair-shares.h"
#include "sim/plot.h"
#include "sim/report.h"
#include "sim/sim-apps.h"
#include "sim/sim-elastic.h"
#include "sim/sim-fit.h"
#include "sim/sim-part.h"

#define GSIM_EXIT_OK	0
#define GSIM_EXIT_DATA	1	/* bad trace, cluster or samples; I/O */
#define GSIM_EXIT_USAGE	2

#define GSIM_DEFAULT_POLICIES	"fifo,dlas,gittins"
/* What a job loses at each resume after its turn: a freeze and a thaw of
 * its cgroup, as bench/suspend-switch measured them (6.4 ms median, 14 ms
 * worst, on a 2-CPU host's cgroup v1 freezer), rounded up. */
#define GSIM_SWITCH_COST_MS	20
#define GSIM_SWITCH_COST_TEXT	"0.02"

enum {
	GSIM_OPT_SPEC = 256,
	GSIM_OPT_PROMOTE,
	GSIM_OPT_STRICT,
	GSIM_OPT_NO_STRICT,
	GSIM_OPT_OVERHEAD,
	GSIM_OPT_BACKFILL,
	GSIM_OPT_FAIRSHARE,
	GSIM_OPT_GITTINS_HISTORY,
	GSIM_OPT_FS_HALF_LIFE,
	GSIM_OPT_FS_PREEMPT,
	GSIM_OPT_PREEMPT_IN_QUEUE,
	GSIM_OPT_INTERFERENCE,
	GSIM_OPT_NO_AVOID,
	GSIM_OPT_ELASTIC,
	GSIM_OPT_ELASTIC_ORACLE,
	GSIM_OPT_SEED,
	GSIM_OPT_SHAPE,
	GSIM_OPT_NODE_CPUS,
	GSIM_OPT_NODE_MEM,
	GSIM_OPT_GPU_SHARDS,
	GSIM_OPT_JSON,
	GSIM_OPT_JOBS,
	GSIM_OPT_PLOT,
	GSIM_OPT_CONF,
	GSIM_OPT_NODES,
	GSIM_OPT_SHARES,
	GSIM_OPT_APPS,
	GSIM_OPT_APP_MAX_LOCAL,
	GSIM_OPT_INTERVAL,
	GSIM_OPT_PREDICTIONS,
	GSIM_OPT_TIME_SLICE,
	GSIM_OPT_SLICE_JOBS,
	GSIM_OPT_SLICE_SHARE,
	GSIM_OPT_SWITCH_COST,
	GSIM_OPT_HELP,
};

static const struct option gsim_longopts[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "cluster", required_argument, NULL, 'c' },
	{ "cluster-spec", required_argument, NULL, GSIM_OPT_SPEC },
	{ "queues", required_argument, NULL, 'K' },
	{ "thresholds", required_argument, NULL, 'T' },
	{ "promote", required_argument, NULL, GSIM_OPT_PROMOTE },
	{ "placement", required_argument, NULL, 'P' },
	{ "strict", no_argument, NULL, GSIM_OPT_STRICT },
	{ "no-strict", no_argument, NULL, GSIM_OPT_NO_STRICT },
	{ "samples", required_argument, NULL, 'S' },
	{ "overhead", required_argument, NULL, GSIM_OPT_OVERHEAD },
	{ "backfill", required_argument, NULL, GSIM_OPT_BACKFILL },
	{ "fairshare", required_argument, NULL, GSIM_OPT_FAIRSHARE },
	{ "gittins-history", required_argument, NULL,
	    GSIM_OPT_GITTINS_HISTORY },
	{ "fairshare-half-life", required_argument, NULL,
	    GSIM_OPT_FS_HALF_LIFE },
	{ "fairshare-preempt", no_argument, NULL, GSIM_OPT_FS_PREEMPT },
	{ "preempt-in-queue", no_argument, NULL, GSIM_OPT_PREEMPT_IN_QUEUE },
	{ "interference", required_argument, NULL, GSIM_OPT_INTERFERENCE },
	{ "no-avoid-interference", no_argument, NULL, GSIM_OPT_NO_AVOID },
	{ "elastic", no_argument, NULL, GSIM_OPT_ELASTIC },
	{ "elastic-oracle", no_argument, NULL, GSIM_OPT_ELASTIC_ORACLE },
	{ "seed", required_argument, NULL, GSIM_OPT_SEED },
	{ "shape", required_argument, NULL, GSIM_OPT_SHAPE },
	{ "node-cpus", required_argument, NULL, GSIM_OPT_NODE_CPUS },
	{ "node-mem-gb", required_argument, NULL, GSIM_OPT_NODE_MEM },
	{ "gpu-shards", required_argument, NULL, GSIM_OPT_GPU_SHARDS },
	{ "json", no_argument, NULL, GSIM_OPT_JSON },
	{ "jobs", required_argument, NULL, GSIM_OPT_JOBS },
	{ "plot", required_argument, NULL, GSIM_OPT_PLOT },
	{ "conf", required_argument, NULL, GSIM_OPT_CONF },
	{ "nodes", required_argument, NULL, GSIM_OPT_NODES },
	{ "shares", required_argument, NULL, GSIM_OPT_SHARES },
	{ "apps", required_argument, NULL, GSIM_OPT_APPS },
	{ "app-max-local", required_argument, NULL, GSIM_OPT_APP_MAX_LOCAL },
	{ "interval", required_argument, NULL, GSIM_OPT_INTERVAL },
	{ "predictions", no_argument, NULL, GSIM_OPT_PREDICTIONS },
	{ "time-slice", required_argument, NULL, GSIM_OPT_TIME_SLICE },
	{ "slice-jobs", required_argument, NULL, GSIM_OPT_SLICE_JOBS },
	{ "slice-share", required_argument, NULL, GSIM_OPT_SLICE_SHARE },
	{ "switch-cost", required_argument, NULL, GSIM_OPT_SWITCH_COST },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, GSIM_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct gsim {
	const char		*policies;
	const char		*cluster;
	const char		*cluster_spec;
	const char		*samples;
	const char		*jobs;
	const char		*plot;
	const char		*conf_file;	/* --conf: its partitions */
	const char		*nodes;		/* --nodes: the nodes' names */
	const char		*shares;	/* --shares: fairness's tree */
	const char		*apps;		/* --apps: the tables' dir */
	const char		*app_caps;	/* --app-max-local */
	bool			 elastic;	/* --elastic: a run more */
	bool			 elastic_oracle;	/* --elastic-oracle */
	int64_t			 interval_ms;	/* --interval; 0: none */
	/* Time-slicing's runs (P+slice): --time-slice, --slice-jobs,
	 * --slice-share (-1: the trace's column, else every job) and
	 * --switch-cost. */
	uint32_t		 time_slice;
	uint32_t		 slice_jobs;
	double			 slice_share;
	int64_t			 switch_ms;
	struct sched_conf	 conf;		/* the flags; each run's base */
	unsigned		 queues;	/* -K, 0: not given */
	bool			 thresholds;	/* -T given */
	bool			 placement;	/* -P given */
	bool			 json;
	bool			 quiet;
	bool			 predictions;	/* --predictions */
	int64_t			 overhead_ms;
	double			 interference;	/* --interference */
	int64_t			 fs_half_life_ms;
	bool			 even_shapes;	/* --shape even */
	uint32_t		 node_cpus;	/* --node-cpus; 0: not given */
	uint64_t		 node_mem;	/* --node-mem-gb, in MB */
	uint32_t		 gpu_shards;	/* --gpu-shards; 1: none */

	/* The progress bar of the run under way. */
	const char		*label;
	struct timespec		 started, drawn;
	bool			 bar;
};

static void
gsim_usage(FILE *f)
{
	fprintf(f,
"usage: gsim [options] -c NODESxGPUS TRACE.csv\n"
"Replay a job trace through gbatch's scheduler on a simulated cluster and\n"
"report job completion times (JCT), waits by job size and how fairly users\n"
"were served, one column per policy.\n"
"\n"
"  -p, --policy P[:PLACE][+slice][,...]  policies to compare: fifo, dlas,\n"
"                            gittins, srtf (oracle); :PLACE overrides -P for\n"
"                            one run, +slice time-slices the jobs that opt\n"
"                            in (default: " GSIM_DEFAULT_POLICIES ")\n"
"  -c, --cluster SPEC        NODESxGPUS (3x4) or SWITCHESxNODESxGPUS (2x16x8)\n"
"      --cluster-spec FILE   the cluster from a Tiresias cluster-spec CSV\n"
"  -T, --thresholds LIST     queue thresholds in GPU-seconds, rising\n"
"                            (default: 3600, i.e. two queues)\n"
"  -K, --queues K            number of queues; alone, thresholds are 3600\n"
"                            GPU-s times 10 per queue (3600,36000,...)\n"
"      --promote KNOB        promote a job to Q0 once it has waited KNOB x\n"
"                            its executed time (default 0: never)\n"
"  -P, --placement PLACE     consolidate (default), yarn, spread, random\n"
"      --strict              fifo: a job that does not fit blocks the queue\n"
"                            (the default)\n"
"      --no-strict           fifo: skip a job that does not fit\n"
"  -S, --samples FILE        gittins: GPU-times (GPU-s) under a \"duration\"\n"
"                            header (default: the trace's own GPU-times)\n"
"      --preempt-in-queue    dlas: a job preempts the jobs of its own queue\n"
"                            that came after it, as the Tiresias and Pollux\n"
"                            simulators run their queues\n"
"      --overhead SECONDS    time a preempted job loses on each restart\n"
"                            (default 0); a job of --apps, at each start\n"
"      --interference F      a job on several nodes runs 1/(1+F) as fast\n"
"                            while a node of its holds part of another such\n"
"                            job (0.25: a quarter slower; default 0)\n"
"      --no-avoid-interference  place jobs on several nodes without\n"
"                            avoiding each other's nodes\n"
"      --gittins-history H   gittins: each job's index from the GPU-times of\n"
"                            the jobs like it replayed before it (similar:\n"
"                            same user and name, else user and GPUs, else\n"
"                            GPUs) or of every job (cluster, the default)\n"
"      --fairshare WEIGHT    order waiting jobs by their user's fair-share\n"
"                            standing (every user and account one share)\n"
"                            plus WEIGHT x their queue: 0 serves the user\n"
"                            furthest below their share first\n"
"      --fairshare-half-life SECONDS  usage decays by half in SECONDS\n"
"                            (default 604800, 7 days; 0: never)\n"
"      --fairshare-preempt   with --fairshare: a job whose user holds less\n"
"                            than their part of the cluster may preempt\n"
"                            jobs of users who keep theirs without them\n"
"      --backfill DEPTH      promise the first DEPTH jobs that cannot start\n"
"                            the earliest time their GPUs are free, and start\n"
"                            a job behind them only where it keeps the\n"
"                            promises: by its time_limit, or its run time\n"
"                            learned from the jobs replayed before it\n"
"                            (default 0: skip what does not fit)\n"
"      --seed N              seed of random placement (default 1)\n"
"      --node-cpus N         each node's CPUs, which jobs take beside their\n"
"                            GPUs (their num_cpu, else the node's share);\n"
"                            default: the spec's num_cpu_p_node, or none\n"
"      --node-mem-gb N       each node's memory, likewise (mem_gb,\n"
"                            mem_p_node)\n"
"      --gpu-shards N        each GPU is offered in N shards, which the\n"
"                            trace's gpu_share jobs take (2 to 64; default\n"
"                            1: none, GPUs go whole)\n"
"      --shape any|even      how a job larger than a node splits when the\n"
"                            trace gives no num_nodes: any split, as the\n"
"                            Tiresias simulator (default), or an even one,\n"
"                            k nodes of GPUs/k, as gbatchd places it\n"
"      --conf FILE           the partitions of a gbatch.conf: each job runs\n"
"                            in the first of its list (its partition\n"
"                            column, else the default) whose limits take\n"
"                            it, in that partition's nodes and tier, as\n"
"                            gbatchd runs it\n"
"      --nodes LIST          with --conf: the simulated nodes' names, a\n"
"                            host list in the cluster's order (gpu[01-16];\n"
"                            default n1, n2, ...)\n"
"      --apps DIR            the tables of the applications the trace's jobs\n"
"                            train (its application column: Pollux's\n"
"                            workloads): DIR/APP/placements.csv,\n"
"                            scalability.csv and validation-BSZ.csv; a job\n"
"                            runs its epochs at its placement's speed\n"
"      --app-max-local APP=N[,...]  cap APP's local batch size at N\n"
"                            (Pollux's yolov3=8)\n"
"      --elastic             a run more, every job elastic: from 1 GPU to\n"
"                            the most its application can use, the GPUs\n"
"                            shared by speedup every --interval (60 s),\n"
"                            speedups learnt from what the jobs report; a\n"
"                            running job grows where the time it saves is\n"
"                            --overhead or more a GPU\n"
"      --elastic-oracle      the same, speedups from the tables\n"
"      --time-slice SECONDS  +slice runs: a turn's length (default 300)\n"
"      --slice-jobs N        +slice runs: most jobs sharing GPUs in turns\n"
"                            (default 4)\n"
"      --slice-share F       the fraction of jobs that opt in, spread evenly\n"
"                            (default: the trace's time_slice column, else\n"
"                            every job)\n"
"      --switch-cost SECONDS what a job loses each time it resumes after its\n"
"                            turn (default " GSIM_SWITCH_COST_TEXT ", measured by\n"
"                            bench/suspend-switch)\n"
"      --interval SECONDS    schedule at multiples of SECONDS only, as\n"
"                            Pollux's simulator does every 60 (default 0:\n"
"                            at each arrival, end and timer)\n"
"      --shares FILE         the accounts and users the fairness figures\n"
"                            measure against, and --fairshare schedules\n"
"                            by: a CSV of kind,name,parent,shares\n"
"                            (default: accounts equal under the root,\n"
"                            users equal within their account)\n"
"      --predictions         also report how well each job's run time was\n"
"                            predicted at its submit, from the jobs ended\n"
"                            before it (as gbatchd predicts it): per rule,\n"
"                            the errors, the share within a factor of 2\n"
"                            and the share predicted short\n"
"      --json                print the figures as JSON\n"
"      --jobs FILE           write one CSV line per job and policy to FILE\n"
"      --plot FILE.png       draw the JCT CDF of each policy (gnuplot)\n"
"  -q, --quiet               no progress bar\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"TRACE has a header; columns found by name: submit_time, num_gpus (or\n"
"num_gpu; 0: a CPU job, of num_cpu CPUs, one at least), duration, in\n"
"seconds; optional job_id, name (or model_name), user, array_id,\n"
"array_throttle, num_nodes (the job's exact node count, num_gpus /\n"
"num_nodes GPUs each), num_cpu and mem_gb (the job's CPUs and memory in\n"
"all, beside its GPUs), account, partition and time_limit (seconds; gacct\n"
"--trace writes them; --conf judges them), time_slice (0 or 1: the job\n"
"opts in to +slice runs) and gpu_share (N: the job takes N shards of one\n"
"GPU; see --gpu-shards). The Tiresias trace format is read as it is. A\n"
"CPU job gains service at its CPUs' worth in GPUs: the nodes' CPUs per\n"
"GPU (--node-cpus), else 8.\n"
"\n"
"Exit status: 0 ok, 1 bad trace, cluster or samples file (or an output\n"
"that cannot be written), 2 usage error.\n");
}

static const struct cmd gsim_cmd = {
	.name = "gsim",
	.usage = gsim_usage,
	.shortopts = ":p:c:K:T:P:S:qV",
	.longopts = gsim_longopts,
};

static double
gsim_elapsed(const struct timespec *a, const struct timespec *b)
{
	return ((double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9);
}

/* Draws the bar once a run has taken half a second, at most ten times a
 * second; a short run draws nothing. */
static void
gsim_progress(void *arg, size_t done, size_t total)
{
	struct gsim	*g = arg;
	struct timespec	 now;
	int		 i, width = 30, filled;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (gsim_elapsed(&g->started, &now) < 0.5 ||
	    (g->bar && gsim_elapsed(&g->drawn, &now) < 0.1 && done < total))
		return;
	g->bar = true;
	g->drawn = now;
	filled = total > 0 ? (int)((double)width * (double)done /
	    (double)total) : width;
	fprintf(stderr, "\rgsim: %-12s [", g->label);
	for (i = 0; i < width; i++)
		fputc(i < filled ? '#' : ' ', stderr);
	fprintf(stderr, "] %3d%% %zu/%zu jobs", total > 0 ?
	    (int)(100 * done / total) : 100, done, total);
	fflush(stderr);
}

static int
gsim_number(const char *s, const char *opt, double min, double *out,
    char *err, size_t errlen)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < min || v > 1e12) {
		snprintf(err, errlen, "%s \"%s\": expected a number >= %g", opt,
		    s, min);
		return (-1);
	}
	*out = v;
	return (0);
}

/* Adds one -p item, "POLICY[:PLACEMENT]", as a run. */
static int
gsim_add_run(const char *item, void *arg, char *err, size_t errlen)
{
	void			**a = arg;
	struct gsim		 *g = a[0];
	struct report		 *r = a[1];
	struct report_run	 *run;
	char			 *name, *place, why[256];
	size_t			  k, len;
	int			  ret = -1;

	for (k = 0; k < r->nruns; k++) {
		if (strcmp(r->runs[k].label, item) == 0) {
			snprintf(err, errlen, "--policy: %s is given twice",
			    item);
			return (-1);
		}
	}

	r->runs = xreallocarray(r->runs, r->nruns + 1, sizeof *r->runs);
	run = &r->runs[r->nruns];
	memset(run, 0, sizeof *run);
	run->conf = g->conf;
	name = xstrdup(item);
	/* P+slice: time-slicing on, at --time-slice. */
	if ((len = strlen(name)) > 6 && strcmp(name + len - 6, "+slice") == 0) {
		name[len - 6] = '\0';
		run->conf.time_slice = g->time_slice;
		run->conf.slice_jobs = g->slice_jobs;
	}
	if ((place = strchr(name, ':')) != NULL)
		*place++ = '\0';
	if (sched_conf_policy_parse(name, &run->conf.policy, why,
	    sizeof why) != 0) {
		snprintf(err, errlen, "--policy: %s", why);
		goto out;
	}
	if (place != NULL && sched_conf_placement_parse(place,
	    &run->conf.placement, why, sizeof why) != 0) {
		snprintf(err, errlen, "--policy %s: %s", item, why);
		goto out;
	}
	run->label = xstrdup(item);
	r->nruns++;
	ret = 0;
out:
	free(name);
	return (ret);
}

/* Reads the options into g. Returns 0, -1 with err (a usage error), or
 * CMD_OPT_EXIT when the front door answered (--help, --version, a bad
 * option): gsim then ends with *status. */
static int
gsim_options(struct gsim *g, int argc, char **argv, int *status, char *err,
    size_t errlen)
{
	double	v;
	int	ch;
	char	why[512];

	while ((ch = cmd_getopt(&gsim_cmd, argc, argv, status)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (CMD_OPT_EXIT);
		case 'p':
			g->policies = optarg;
			break;
		case 'c':
			g->cluster = optarg;
			break;
		case GSIM_OPT_SPEC:
			g->cluster_spec = optarg;
			break;
		case 'K':
			if (gsim_number(optarg, "--queues", 1, &v, err,
			    errlen) != 0 || v != floor(v) ||
			    v > SCHED_MAX_QUEUES) {
				snprintf(err, errlen, "--queues \"%s\": expected "
				    "a whole number from 1 to %d", optarg,
				    SCHED_MAX_QUEUES);
				return (-1);
			}
			g->queues = (unsigned)v;
			break;
		case 'T':
			if (sched_conf_thresholds_parse(optarg, &g->conf, why,
			    sizeof why) != 0) {
				snprintf(err, errlen, "--thresholds: %s", why);
				return (-1);
			}
			g->thresholds = true;
			break;
		case GSIM_OPT_PROMOTE:
			if (gsim_number(optarg, "--promote", 0,
			    &g->conf.promote_knob, err, errlen) != 0)
				return (-1);
			break;
		case 'P':
			if (sched_conf_placement_parse(optarg,
			    &g->conf.placement, why, sizeof why) != 0) {
				snprintf(err, errlen, "--placement: %s", why);
				return (-1);
			}
			break;
		case GSIM_OPT_STRICT:
		case GSIM_OPT_NO_STRICT:
			g->conf.strict = (ch == GSIM_OPT_STRICT);
			break;
		case 'S':
			g->samples = optarg;
			break;
		case GSIM_OPT_OVERHEAD:
			if (gsim_number(optarg, "--overhead", 0, &v, err,
			    errlen) != 0)
				return (-1);
			g->overhead_ms = llround(v * 1000);
			break;
		case GSIM_OPT_BACKFILL:
			if (gsim_number(optarg, "--backfill", 0, &v, err,
			    errlen) != 0 || v != floor(v) || v > 64) {
				snprintf(err, errlen, "--backfill \"%s\": "
				    "expected a whole number of jobs, 0 to 64",
				    optarg);
				return (-1);
			}
			g->conf.backfill_depth = (uint32_t)v;
			break;
		case GSIM_OPT_GITTINS_HISTORY:
			if (strcmp(optarg, "cluster") != 0 &&
			    strcmp(optarg, "similar") != 0) {
				snprintf(err, errlen, "--gittins-history \"%s\": "
				    "expected cluster or similar", optarg);
				return (-1);
			}
			g->conf.gittins_similar = strcmp(optarg, "similar") == 0;
			break;
		case GSIM_OPT_FAIRSHARE:
			if (gsim_number(optarg, "--fairshare", 0, &v, err,
			    errlen) != 0 || v != floor(v) || v > 1e9) {
				snprintf(err, errlen, "--fairshare \"%s\": "
				    "expected a queue's weight in places of "
				    "standing, a whole number from 0", optarg);
				return (-1);
			}
			g->conf.fairshare = true;
			g->conf.fairshare_queue_weight = (uint32_t)v;
			break;
		case GSIM_OPT_FS_HALF_LIFE:
			if (gsim_number(optarg, "--fairshare-half-life", 0, &v,
			    err, errlen) != 0)
				return (-1);
			g->fs_half_life_ms = llround(v * 1000);
			break;
		case GSIM_OPT_FS_PREEMPT:
			g->conf.fairshare_preempt = true;
			break;
		case GSIM_OPT_INTERFERENCE:
			if (gsim_number(optarg, "--interference", 0, &v, err,
			    errlen) != 0)
				return (-1);
			if (v > 10) {
				snprintf(err, errlen, "--interference \"%s\": "
				    "expected a slowdown from 0 to 10 (0.25: "
				    "a quarter slower)", optarg);
				return (-1);
			}
			g->interference = v;
			break;
		case GSIM_OPT_NO_AVOID:
			g->conf.avoid_interference = false;
			break;
		case GSIM_OPT_PREEMPT_IN_QUEUE:
			g->conf.preempt_in_queue = true;
			break;
		case GSIM_OPT_ELASTIC:
			g->elastic = true;
			break;
		case GSIM_OPT_ELASTIC_ORACLE:
			g->elastic_oracle = true;
			break;
		case GSIM_OPT_SEED:
			if (gsim_number(optarg, "--seed", 0, &v, err,
			    errlen) != 0 || v != floor(v) || v > 9e15) {
				snprintf(err, errlen, "--seed \"%s\": expected "
				    "a whole number", optarg);
				return (-1);
			}
			g->conf.seed = (uint64_t)v;
			break;
		case GSIM_OPT_SHAPE:
			if (strcmp(optarg, "any") != 0 &&
			    strcmp(optarg, "even") != 0) {
				snprintf(err, errlen, "--shape: expected a "
				    "shape (any or even), got \"%s\"", optarg);
				return (-1);
			}
			g->even_shapes = strcmp(optarg, "even") == 0;
			break;
		case GSIM_OPT_NODE_CPUS:
		case GSIM_OPT_NODE_MEM:
			if (gsim_number(optarg, ch == GSIM_OPT_NODE_CPUS ?
			    "--node-cpus" : "--node-mem-gb", 1, &v, err,
			    errlen) != 0 || v != floor(v) || v > 65536 * 16) {
				snprintf(err, errlen, "%s \"%s\": expected a "
				    "whole number from 1 to 1048576", ch ==
				    GSIM_OPT_NODE_CPUS ? "--node-cpus" :
				    "--node-mem-gb", optarg);
				return (-1);
			}
			if (ch == GSIM_OPT_NODE_CPUS)
				g->node_cpus = (uint32_t)v;
			else
				g->node_mem = (uint64_t)v * 1024;
			break;
		case GSIM_OPT_GPU_SHARDS:
			if (gsim_number(optarg, "--gpu-shards", 1, &v, err,
			    errlen) != 0 || v != floor(v) ||
			    v > PLACE_MAX_SHARDS) {
				snprintf(err, errlen, "--gpu-shards \"%s\": "
				    "expected the shards of a GPU, 1 (none) to "
				    "%d", optarg, PLACE_MAX_SHARDS);
				return (-1);
			}
			g->gpu_shards = (uint32_t)v;
			break;
		case GSIM_OPT_JSON:
			g->json = true;
			break;
		case GSIM_OPT_JOBS:
			g->jobs = optarg;
			break;
		case GSIM_OPT_PLOT:
			g->plot = optarg;
			break;
		case GSIM_OPT_CONF:
			g->conf_file = optarg;
			break;
		case GSIM_OPT_NODES:
			g->nodes = optarg;
			break;
		case GSIM_OPT_SHARES:
			g->shares = optarg;
			break;
		case GSIM_OPT_APPS:
			g->apps = optarg;
			break;
		case GSIM_OPT_APP_MAX_LOCAL:
			g->app_caps = optarg;
			break;
		case GSIM_OPT_INTERVAL:
			if (gsim_number(optarg, "--interval", 0, &v, err,
			    errlen) != 0 || v > 86400 * 365) {
				snprintf(err, errlen, "--interval \"%s\": "
				    "expected seconds between passes, 0 (at each "
				    "event, the default) to a year", optarg);
				return (-1);
			}
			g->interval_ms = llround(v * 1000);
			break;
		case GSIM_OPT_PREDICTIONS:
			g->predictions = true;
			break;
		case GSIM_OPT_TIME_SLICE:
		case GSIM_OPT_SLICE_JOBS:
			if (gsim_number(optarg, ch == GSIM_OPT_TIME_SLICE ?
			    "--time-slice" : "--slice-jobs", 1, &v, err,
			    errlen) != 0 || v != floor(v) || v > 86400) {
				snprintf(err, errlen, "%s \"%s\": expected %s",
				    ch == GSIM_OPT_TIME_SLICE ? "--time-slice" :
				    "--slice-jobs", optarg, ch ==
				    GSIM_OPT_TIME_SLICE ? "whole seconds, 1 to "
				    "86400" : "a whole number of jobs, 2 or more");
				return (-1);
			}
			if (ch == GSIM_OPT_TIME_SLICE)
				g->time_slice = (uint32_t)v;
			else if ((g->slice_jobs = (uint32_t)v) < 2) {
				snprintf(err, errlen, "--slice-jobs \"%s\": "
				    "expected a whole number of jobs, 2 or "
				    "more", optarg);
				return (-1);
			}
			break;
		case GSIM_OPT_SLICE_SHARE:
			if (gsim_number(optarg, "--slice-share", 0, &v, err,
			    errlen) != 0 || v > 1) {
				snprintf(err, errlen, "--slice-share \"%s\": "
				    "expected a fraction of the jobs, 0 to 1",
				    optarg);
				return (-1);
			}
			g->slice_share = v;
			break;
		case GSIM_OPT_SWITCH_COST:
			if (gsim_number(optarg, "--switch-cost", 0, &v, err,
			    errlen) != 0)
				return (-1);
			g->switch_ms = llround(v * 1000);
			break;
		case 'q':
			g->quiet = true;
			break;
		}
	}
	if (g->conf.fairshare_preempt && !g->conf.fairshare) {
		snprintf(err, errlen, "--fairshare-preempt preempts for fair "
		    "share: it needs --fairshare WEIGHT");
		return (-1);
	}
	if (optind >= argc) {
		snprintf(err, errlen, "no trace given; expected one CSV file");
		return (-1);
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument \"%s\"; gsim takes "
		    "one trace", argv[optind + 1]);
		return (-1);
	}
	if (g->nodes != NULL && g->conf_file == NULL) {
		snprintf(err, errlen, "--nodes names the nodes of --conf's "
		    "partitions; give --conf FILE too");
		return (-1);
	}
	if ((g->cluster == NULL) == (g->cluster_spec == NULL)) {
		snprintf(err, errlen, "give the cluster once: -c NODESxGPUS "
		    "or --cluster-spec FILE");
		return (-1);
	}
	if (g->queues != 0 && g->thresholds &&
	    g->queues != g->conf.nqueues) {
		snprintf(err, errlen, "--queues %u but --thresholds gives %u "
		    "queues (one more than its values)", g->queues,
		    g->conf.nqueues);
		return (-1);
	}
	if (g->queues != 0 && !g->thresholds)
		sched_conf_set_queues(&g->conf, g->queues);
	return (0);
}

/* The trace's own GPU-times, for gittins when no sample file is given:
 * its GPU jobs' (a CPU job's is 0; a job of shards, its part of a GPU's,
 * as the core counts its service), *n of them. */
static uint64_t *
gsim_trace_samples(const struct sim_trace *t, const struct sim_cluster *c,
    size_t *n)
{
	const struct sim_job	*j;
	uint64_t		*v;
	size_t			 i;

	v = xcalloc(t->njobs, sizeof *v);
	for (i = *n = 0; i < t->njobs; i++) {
		j = &t->jobs[i];
		if (j->gpus > 0)
			v[(*n)++] = (uint64_t)llround((double)j->duration_ms *
			    sim_cluster_held(c, j->gpus, j->shards));
	}
	return (v);
}

static int
gsim_write_jobs(const struct report *r, const char *path, char *err,
    size_t errlen)
{
	FILE	*fp;
	int	 bad;

	if ((fp = fopen(path, "w")) == NULL) {
		snprintf(err, errlen, "--jobs %s: %s", path, strerror(errno));
		return (-1);
	}
	bad = report_jobs(r, fp);
	if (fclose(fp) != 0 || bad) {
		snprintf(err, errlen, "--jobs %s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct gsim		 g;
	struct report		 r;
	struct sim_trace	 trace;
	struct sim_opts		 so;
	struct sim_parts	*parts = NULL;
	struct sim_apps		 apps;
	struct fair_tree	*tree;
	struct fairshare_account *fs_acc = NULL;
	struct fairshare_user	*fs_usr = NULL;
	size_t			 fs_nacc = 0, fs_nusr = 0;
	uint64_t		*samples = NULL;
	size_t			 nsamples = 0, k;
	void			*addarg[2];
	char			 err[1024], why[768];
	bool			 gittins = false;
	int			 opt, ret = GSIM_EXIT_USAGE;

	memset(&g, 0, sizeof g);
	memset(&r, 0, sizeof r);
	memset(&trace, 0, sizeof trace);
	memset(&apps, 0, sizeof apps);
	sched_conf_default(&g.conf);
	g.fs_half_life_ms = INT64_C(7) * 24 * 3600 * 1000;
	g.conf.seed = 1;
	g.policies = GSIM_DEFAULT_POLICIES;
	g.time_slice = 300;
	g.slice_jobs = 4;
	g.slice_share = -1;
	g.switch_ms = GSIM_SWITCH_COST_MS;
	g.gpu_shards = 1;
	if ((opt = gsim_options(&g, argc, argv, &ret, err,
	    sizeof err)) == CMD_OPT_EXIT)
		goto out;
	if (opt != 0)
		goto usage;
	addarg[0] = &g;
	addarg[1] = &r;
	if (cmd_split(g.policies, "--policy", gsim_add_run, addarg, err,
	    sizeof err) != 0)
		goto usage;
	for (k = 0; k < 2; k++) {
		if (!(k == 0 ? g.elastic : g.elastic_oracle))
			continue;
		if (g.apps == NULL) {
			snprintf(err, sizeof err, "%s replays jobs that train "
			    "applications: it needs --apps DIR", k == 0 ?
			    "--elastic" : "--elastic-oracle");
			goto usage;
		}
		r.runs = xreallocarray(r.runs, r.nruns + 1, sizeof *r.runs);
		memset(&r.runs[r.nruns], 0, sizeof r.runs[r.nruns]);
		r.runs[r.nruns].conf = g.conf;
		r.runs[r.nruns].elastic = true;
		r.runs[r.nruns].oracle = k == 1;
		r.runs[r.nruns].label = xstrdup(k == 0 ? "elastic" :
		    "elastic-oracle");
		r.nruns++;
	}
	for (k = 0; k < r.nruns; k++)
		gittins |= (r.runs[k].conf.policy == SCHED_GITTINS);

	ret = GSIM_EXIT_DATA;
	if (g.plot != NULL && !plot_available()) {
		fprintf(stderr, "gsim: --plot needs gnuplot, which is not on "
		    "PATH (Debian: apt-get install gnuplot-nox)\n");
		goto out;
	}
	r.trace_path = argv[optind];
	r.trace = &trace;
	r.overhead_ms = g.overhead_ms;
	r.even_shapes = g.even_shapes;
	r.seed = g.conf.seed;
	if ((g.cluster != NULL ? sim_cluster_parse(g.cluster, &r.cluster, why,
	    sizeof why) : sim_cluster_load(g.cluster_spec, &r.cluster, why,
	    sizeof why)) != 0) {
		if (g.cluster != NULL) {
			snprintf(err, sizeof err, "--cluster: %s", why);
			goto usage;
		}
		fprintf(stderr, "gsim: %s\n", why);
		goto out;
	}
	if (g.node_cpus > 0)
		r.cluster.cpus_per_node = g.node_cpus;
	if (g.node_mem > 0)
		r.cluster.mem_per_node = g.node_mem;
	r.cluster.gpu_shards = g.gpu_shards;
	if (sim_trace_load(r.trace_path, &trace, err, sizeof err) != 0 ||
	    sim_apps_load(&apps, g.apps, g.app_caps, r.trace_path, &trace,
	    &r.cluster, err, sizeof err) != 0 ||
	    sim_fit_check(r.trace_path, &trace, &r.cluster, g.even_shapes,
	    err, sizeof err) != 0 || (g.conf_file != NULL && (sim_part_load(
	    g.conf_file, g.nodes, &r.cluster, &parts, err, sizeof err) != 0 ||
	    sim_part_apply(parts, r.trace_path, &trace, &r.cluster,
	    g.even_shapes, err, sizeof err) != 0)) || (gittins && g.samples != NULL &&
	    sim_trace_load_samples(g.samples, &samples, &nsamples, err,
	    sizeof err) != 0)) {
		fprintf(stderr, "gsim: %s\n", err);
		goto out;
	}
	if (gittins && g.samples == NULL)
		samples = gsim_trace_samples(&trace, &r.cluster, &nsamples);
	sim_trace_slice_share(&trace, g.slice_share);
	tree = fair_tree_create();
	if (g.shares != NULL && fair_shares_load(g.shares, tree, err,
	    sizeof err) != 0) {
		fair_tree_free(tree);
		fprintf(stderr, "gsim: --shares: %s\n", err);
		goto out;
	}
	/* --fairshare schedules by the file's tree, before the trace's
	 * users join it (the root's name, "", is the root to both). */
	fair_tree_export(tree, &fs_acc, &fs_nacc, &fs_usr, &fs_nusr);
	report_fair_init(&r.fair, tree, &trace);
	for (k = 0; k < r.nruns; k++) {
		r.runs[k].conf.samples = samples;
		r.runs[k].conf.nsamples = nsamples;
		if (sched_conf_check(&r.runs[k].conf, why, sizeof why) != 0) {
			snprintf(err, sizeof err, "%s: %s", r.runs[k].label,
			    why);
			goto usage;
		}
	}

	memset(&so, 0, sizeof so);
	so.overhead_ms = g.overhead_ms;
	so.interference = g.interference;
	so.even_shapes = g.even_shapes;
	so.interval_ms = g.interval_ms;
	so.switch_ms = g.switch_ms;
	so.apps = (const struct sim_app *const *)apps.v;
	so.napps = apps.n;
	so.fs_half_life_ms = g.fs_half_life_ms;
	so.predictions = g.predictions;
	so.fs_accounts = fs_acc;
	so.fs_naccounts = fs_nacc;
	so.fs_users = fs_usr;
	so.fs_nusers = fs_nusr;
	if (parts != NULL) {
		/* The QOS' rules between preemption classes. */
		so.rules = sim_part_rules;
		so.rules_arg = parts;
	}
	if (!g.quiet && isatty(STDERR_FILENO)) {
		so.progress = gsim_progress;
		so.progress_arg = &g;
	}
	for (k = 0; k < r.nruns; k++) {
		g.label = r.runs[k].label;
		g.bar = false;
		clock_gettime(CLOCK_MONOTONIC, &g.started);
		if ((r.runs[k].elastic ? sim_elastic_run(&trace, &r.cluster,
		    &so, r.runs[k].oracle, &r.runs[k].result, err,
		    sizeof err) :
		    sim_run(&trace, &r.cluster, &r.runs[k].conf, &so,
		    &r.runs[k].result, err, sizeof err)) != 0) {
			if (g.bar)
				fputs("\r\033[K", stderr);
			fprintf(stderr, "gsim: %s: %s\n", r.runs[k].label, err);
			goto out;
		}
		if (g.bar)
			fputs("\r\033[K", stderr);
		if (r.runs[k].result.unsettled > 0)
			fprintf(stderr, "gsim: %s: warning: at %llu instants "
			    "the scheduler still started or preempted jobs "
			    "after %d passes (a preemption cycle): its figures "
			    "are not to be trusted\n", r.runs[k].label,
			    (unsigned long long)r.runs[k].result.unsettled,
			    SIM_ROUNDS);
	}

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (g.json)
		report_json(&r, stdout);
	else
		report_text(&r, stdout);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "gsim: stdout: %s\n", strerror(errno));
		goto out;
	}
	if (g.jobs != NULL && gsim_write_jobs(&r, g.jobs, err,
	    sizeof err) != 0) {
		fprintf(stderr, "gsim: %s\n", err);
		goto out;
	}
	if (g.plot != NULL && plot_jct_cdf(&r, g.plot, err, sizeof err) != 0) {
		fprintf(stderr, "gsim: %s\n", err);
		goto out;
	}
	ret = GSIM_EXIT_OK;
	goto out;

usage:
	ret = cmd_usage_error(&gsim_cmd, "%s", err);
out:
	for (k = 0; k < r.nruns; k++) {
		sim_result_free(&r.runs[k].result);
		free(r.runs[k].label);
	}
	free(r.runs);
	free(samples);
	sim_trace_free(&trace);
	sim_apps_free(&apps);
	sim_part_free(parts);
	report_fair_free(&r.fair);
	free(fs_acc);
	free(fs_usr);
	return (ret);
}
