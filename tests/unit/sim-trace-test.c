/* sim-trace-test.c: gsim's readers (sim/csv.c, sim/sim-trace.c,
 * sim/sim-cluster.c): columns by name, quoting, CRLF and a BOM, the order of
 * jobs, seconds to milliseconds, a job's shards of a GPU (gpu_share), and
 * errors naming the line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"
#include "tests/unit/tap.h"

static char	t_path[64];

/* Writes text to a fresh temporary file named in t_path. */
static void
t_file(const char *text)
{
	FILE	*fp;
	int	 fd;

	if (t_path[0] != '\0')
		unlink(t_path);
	snprintf(t_path, sizeof t_path, "/tmp/gsim-trace-test.XXXXXX");
	if ((fd = mkstemp(t_path)) < 0 || (fp = fdopen(fd, "w")) == NULL) {
		perror("mkstemp");
		exit(1);
	}
	fputs(text, fp);
	fclose(fp);
}

/* Loads text as a trace expecting an error containing want. */
static void
t_bad(const char *text, const char *want, const char *what)
{
	struct sim_trace	t;
	char			err[512] = "";

	t_file(text);
	ok(sim_trace_load(t_path, &t, err, sizeof err) == -1 &&
	    strstr(err, want) != NULL && strstr(err, t_path) != NULL,
	    "%s", what);
	if (strstr(err, want) == NULL)
		printf("#   error: %s\n#   want: %s\n", err, want);
}

static void
t_tiresias(void)
{
	struct sim_trace	t;
	char			err[512];

	t_file("job_id,num_gpu,submit_time,iterations,model_name,duration,"
	    "interval\n0,1,0,606,vgg19,164,30\n1,8,30,133,vgg11,147,23\n");
	is_int(sim_trace_load(t_path, &t, err, sizeof err), 0,
	    "a Tiresias trace loads");
	is_int(t.njobs, 2, "two jobs");
	is_int(t.jobs[1].id, 1, "job_id read");
	is_int(t.jobs[1].gpus, 8, "num_gpu read");
	is_int(t.jobs[1].submit_ms, 30000, "submit_time in ms");
	is_int(t.jobs[1].duration_ms, 147000, "duration in ms");
	is_str(t.jobs[0].name, "vgg19", "model_name is the name");
	ok(t.jobs[0].user == NULL, "no user column, no user");
	is_int(t.jobs[1].line, 3, "lines counted from the header");
	sim_trace_free(&t);
}

static void
t_plain(void)
{
	struct sim_trace	t;
	char			err[512];

	/* BOM, CRLF, columns in another order, quotes, spaces, a blank
	 * line, fractions, and submit times out of order. */
	t_file("\xef\xbb\xbf" "Duration , user,NUM_GPUS,name,submit_time\r\n"
	    "10.5, alice ,2,\"a, \"\"quoted\"\" name\",7\r\n"
	    "\r\n"
	    "0.0004,bob,1,b,3.25\r\n"
	    "1,,4,,3.25\r\n"
	    "2,carol,1,c,0\r\n");
	ok(sim_trace_load(t_path, &t, err, sizeof err) == -1 &&
	    strstr(err, ":4: duration \"0.0004\"") != NULL,
	    "a duration under a millisecond is not positive");
	t_file("\xef\xbb\xbf" "Duration , user,NUM_GPUS,name,submit_time\r\n"
	    "10.5, alice ,2,\"a, \"\"quoted\"\" name\",7\r\n"
	    "\r\n"
	    "0.0016,bob,1,b,3.25\r\n"
	    "1,,4,,3.25\r\n"
	    "2,carol,1,c,0\r\n");
	is_int(sim_trace_load(t_path, &t, err, sizeof err), 0,
	    "a plain trace with a BOM and CRLF loads");
	if (t.njobs != 4) {
		ok(0, "four jobs, got %zu", t.njobs);
		return;
	}
	/* Without job_id, a job's id is its record's number from 0. */
	is_int(t.jobs[0].id, 3, "sorted by submit: record 3 (carol) first");
	is_int(t.jobs[1].id, 1, "equal submits keep file order (bob)");
	is_int(t.jobs[2].id, 2, "then record 2");
	is_int(t.jobs[3].id, 0, "the latest submit last");
	is_int(t.jobs[3].line, 2, "its line is kept");
	is_str(t.jobs[3].name, "a, \"quoted\" name", "quotes undone");
	is_str(t.jobs[3].user, "alice", "spaces around a field dropped");
	is_int(t.jobs[3].duration_ms, 10500, "10.5 s is 10500 ms");
	is_int(t.jobs[1].duration_ms, 2, "0.0016 s rounds to 2 ms");
	is_int(t.jobs[1].submit_ms, 3250, "3.25 s is 3250 ms");
	ok(t.jobs[2].name == NULL && t.jobs[2].user == NULL,
	    "empty name and user are none");
	sim_trace_free(&t);
}

static void
t_errors(void)
{
	t_bad("submit_time,duration\n0,1\n", ":1: no num_gpus column; the "
	    "header has: submit_time, duration", "missing GPU column named");
	t_bad("submit_time,num_gpus,duration\n0,1.5,3\n",
	    ":2: num_gpus \"1.5\": expected a whole number", "fractional GPUs");
	t_bad("submit_time,num_gpus,duration\n0,x,3\n",
	    ":2: num_gpus \"x\"", "GPUs not a number");
	t_bad("submit_time,num_gpus,duration\nnan,1,3\n",
	    ":2: submit_time \"nan\"", "NaN submit time");
	t_bad("submit_time,num_gpus,duration\n0,1,0\n",
	    ":2: duration \"0\": expected a positive", "zero duration");
	t_bad("submit_time,num_gpus,duration\n0,1\n",
	    ":2: 2 fields; the header names 3", "short record");
	t_bad("submit_time,num_gpus,duration,name\n0,1,3,\"x\"y\n",
	    ":2: a quoted field is not closed", "text after a closing quote");
	t_bad("job_id,submit_time,num_gpus,duration\n-1,0,1,3\n",
	    ":2: job_id \"-1\"", "negative job id");
	t_bad("job_id,submit_time,num_gpus,duration\n4,0,1,3\n5,0,1,3\n"
	    "4,0,1,3\n", ":4: job_id 4 is taken by line 2", "duplicate id");
	t_bad("", ": empty; expected a header", "empty file");
	t_bad("submit_time,num_gpus,duration\n\n\n", ": no jobs after the "
	    "header", "header only");
}

/* gpu_share: shards of one GPU, read as given; refused with several GPUs
 * or none, with time_slice or an application, or past 64. */
static void
t_shards(void)
{
	struct sim_trace	t;
	char			err[512];

	t_file("job_id,submit_time,num_gpus,duration,gpu_share\n"
	    "1,0,1,10,2\n2,1,1,10,\n3,2,4,10,0\n4,3,1,10,64\n");
	is_int(sim_trace_load(t_path, &t, err, sizeof err), 0,
	    "a trace with gpu_share loads");
	if (t.njobs != 4) {
		ok(0, "four jobs, got %zu", t.njobs);
		return;
	}
	is_int(t.jobs[0].shards, 2, "gpu_share 2: 2 shards");
	is_int(t.jobs[1].shards, 0, "empty: whole GPUs");
	is_int(t.jobs[2].shards, 0, "0: whole GPUs, 4 of them");
	is_int(t.jobs[3].shards, 64, "64 shards at most");
	/* No time_slice column: every job opts in, but a job of shards
	 * shares its GPU already; nor is it one of a share of the jobs. */
	sim_trace_slice_share(&t, -1);
	ok(!t.jobs[0].time_slice && t.jobs[1].time_slice &&
	    t.jobs[2].time_slice, "every job opts in but the job of shards");
	sim_trace_slice_share(&t, 1);
	ok(!t.jobs[0].time_slice && !t.jobs[3].time_slice &&
	    t.jobs[1].time_slice, "--slice-share 1: the same");
	sim_trace_free(&t);

	t_bad("submit_time,num_gpus,duration,gpu_share\n0,2,10,2\n",
	    ":2: gpu_share 2 takes shards of one GPU: num_gpus must be 1, "
	    "got 2", "gpu_share with 2 GPUs");
	t_bad("submit_time,num_gpu,duration,gpu_share\n0,0,10,1\n",
	    ":2: gpu_share 1 takes shards of one GPU: num_gpu must be 1, "
	    "got 0", "gpu_share of a CPU job, the column named as given");
	t_bad("submit_time,num_gpus,duration,gpu_share\n0,1,10,65\n",
	    ":2: gpu_share \"65\": expected a whole number from 0 to 64",
	    "gpu_share past 64");
	t_bad("submit_time,num_gpus,duration,gpu_share\n0,1,10,half\n",
	    ":2: gpu_share \"half\"", "gpu_share not a number");
	t_bad("submit_time,num_gpus,duration,time_slice,gpu_share\n"
	    "0,1,10,0,2\n5,1,10,1,2\n", ":3: gpu_share 2 with time_slice 1: "
	    "a job takes shards of a GPU, or whole GPUs in turns, not both",
	    "gpu_share with time_slice");
	t_bad("submit_time,num_gpus,application,gpu_share\n0,1,bert,2\n",
	    ":2: gpu_share 2 with an application", "gpu_share with an "
	    "application");
}

static void
t_samples(void)
{
	uint64_t	*v;
	size_t		 n;
	char		 err[512] = "";

	t_file("duration\n121\n0.5\n");
	is_int(sim_trace_load_samples(t_path, &v, &n, err, sizeof err), 0,
	    "samples load");
	is_int(n, 2, "two samples");
	if (n == 2) {
		is_int(v[0], 121000, "GPU-seconds to GPU-ms");
		is_int(v[1], 500, "fractions kept");
	}
	free(v);
	t_file("gpus\n1\n");
	ok(sim_trace_load_samples(t_path, &v, &n, err, sizeof err) == -1 &&
	    strstr(err, ":1: no duration column") != NULL,
	    "samples need a duration column");
}

static void
t_cluster(void)
{
	struct sim_cluster	c;
	char			err[512] = "";

	is_int(sim_cluster_parse("3x4", &c, err, sizeof err), 0, "3x4");
	ok(c.switches == 1 && c.nodes_per_switch == 3 &&
	    c.gpus_per_node == 4, "3x4 is one switch of 3 nodes of 4");
	is_int(sim_cluster_gpus(&c), 12, "12 GPUs");
	is_int(sim_cluster_parse("2X16x8", &c, err, sizeof err), 0,
	    "2X16x8");
	is_int(sim_cluster_gpus(&c), 256, "256 GPUs");
	ok(sim_cluster_parse("3x0", &c, err, sizeof err) == -1, "0 GPUs");
	ok(sim_cluster_parse("3x4x", &c, err, sizeof err) == -1, "3x4x");
	ok(sim_cluster_parse("1x2x3x4", &c, err, sizeof err) == -1,
	    "four numbers");
	ok(sim_cluster_parse("-3x4", &c, err, sizeof err) == -1, "-3x4");
	ok(sim_cluster_parse("4", &c, err, sizeof err) == -1, "one number");
	ok(sim_cluster_parse("2x65", &c, err, sizeof err) == -1 &&
	    strstr(err, "65 GPUs per node") != NULL, "65 GPUs per node");

	t_file("num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node\n"
	    "5,32,8,128\n");
	is_int(sim_cluster_load(t_path, &c, err, sizeof err), 0, "spec");
	is_int(sim_cluster_gpus(&c), 1280, "5 x 32 x 8");
	t_file("num_switch,num_node_p_switch,num_gpu_p_node\n1,2,0\n");
	ok(sim_cluster_load(t_path, &c, err, sizeof err) == -1 &&
	    strstr(err, ":2: num_gpu_p_node \"0\"") != NULL,
	    "spec with 0 GPUs per node names the line");
	t_file("num_switch,num_node_p_switch,num_gpu_p_node\n1,2,4\n1,2,4\n");
	ok(sim_cluster_load(t_path, &c, err, sizeof err) == -1 &&
	    strstr(err, ":3: a second cluster line") != NULL,
	    "spec with two lines");
}

/* What a job holds of the GPUs, for its GPU-time, and the nodes' shards
 * as the simulated cluster is built. */
static void
t_held(void)
{
	struct sim_cluster	 c;
	struct place_cluster	*pl;
	char			 err[512] = "";

	memset(&c, 0, sizeof c);
	is_int(sim_cluster_parse("2x2", &c, err, sizeof err), 0, "2x2");
	ok(sim_cluster_held(&c, 3, 0) == 3, "3 GPUs hold 3");
	ok(sim_cluster_held(&c, 1, 2) == 1,
	    "no shards offered: a GPU whole (the job never runs)");
	c.gpu_shards = 4;
	ok(sim_cluster_held(&c, 1, 2) == 0.5, "2 of 4 shards: half a GPU");
	ok(sim_cluster_held(&c, 1, 1) == 0.25, "1 of 4: a quarter");
	ok(sim_cluster_held(&c, 1, 4) == 1, "4 of 4: the GPU");
	ok(sim_cluster_held(&c, 2, 0) == 2, "whole GPUs as they are");
	pl = place_cluster_create(1);
	sim_cluster_build(&c, pl);
	ok(place_nodes(pl) == 2 && place_shard_count(pl, 0) == 4 &&
	    place_shard_count(pl, 1) == 4, "both nodes offer 4 shards");
	place_cluster_free(pl);
	c.gpu_shards = 1;
	pl = place_cluster_create(1);
	sim_cluster_build(&c, pl);
	is_int(place_shard_count(pl, 1), 1, "--gpu-shards 1: none");
	place_cluster_free(pl);
}

int
main(void)
{
	t_tiresias();
	t_plain();
	t_errors();
	t_shards();
	t_samples();
	t_cluster();
	t_held();
	if (t_path[0] != '\0')
		unlink(t_path);
	return (tap_done());
}
