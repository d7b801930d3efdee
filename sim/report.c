/* report.c: gsim's figures, its table, its JSON and its per-job CSV; see
 * report.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/xmalloc.h"
#include "sim/report-predict.h"
#include "sim/report-table.h"
#include "sim/report.h"

static int
report_cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

/* The p-quantile (0..1) of sorted v, interpolated between neighbours
 * (numpy's default, so the median of an even count is the mean of the
 * middle two, as the Tiresias simulator reports it). */
static double
report_quantile(const int64_t *v, size_t n, double p)
{
	double	pos = p * (double)(n - 1), frac;
	size_t	i = (size_t)pos;

	if (i + 1 >= n)
		return ((double)v[n - 1]);
	frac = pos - (double)i;
	return ((double)v[i] + frac * (double)(v[i + 1] - v[i]));
}

/* A job's JCT and wait in ms. The time it ran is its duration plus the
 * overhead of each restart. */
static void
report_job_times(const struct report *r, const struct sim_job_result *jr,
    const struct sim_job *j, int64_t *jct, int64_t *wait)
{
	*jct = jr->end_ms - j->submit_ms;
	*wait = *jct - j->duration_ms - (int64_t)jr->preemptions *
	    r->overhead_ms;
}

int64_t *
report_sorted_jcts(const struct report *r, const struct report_run *run)
{
	int64_t	*jct, wait;
	size_t	 i, n = r->trace->njobs;

	jct = xcalloc(n != 0 ? n : 1, sizeof *jct);
	for (i = 0; i < n; i++)
		report_job_times(r, &run->result.jobs[i], &r->trace->jobs[i],
		    &jct[i], &wait);
	qsort(jct, n, sizeof *jct, report_cmp_i64);
	return (jct);
}

/* The size class of a job of gpus GPUs, or -1 for a CPU job. */
static int
report_size_class(uint32_t gpus)
{
	if (gpus == 0)
		return (-1);
	return (gpus == 1 ? 0 : gpus <= 8 ? 1 : gpus <= 31 ? 2 : 3);
}

static const char *const report_size_names[REPORT_SIZES] = { "1", "2-8",
    "9-31", "32+" };
static const char *const report_size_labels[REPORT_SIZES] = { "  1 GPU",
    "  2-8 GPUs", "  9-31 GPUs", "  32+ GPUs" };

/* Each size class's waits: first start less submit, so time a preempted
 * job spends waiting to restart is not in it (avg queueing has it). */
static void
report_waits(const struct report *r, const struct sim_result *res,
    struct report_wait *w)
{
	double	wait;
	size_t	i;
	int	c;

	for (i = 0; i < r->trace->njobs; i++) {
		if ((c = report_size_class(r->trace->jobs[i].gpus)) < 0)
			continue;
		wait = (double)(res->jobs[i].start_ms -
		    r->trace->jobs[i].submit_ms) / 1000;
		w[c].avg += wait;
		if (w[c].jobs++ == 0 || wait > w[c].max)
			w[c].max = wait;
	}
	for (c = 0; c < REPORT_SIZES; c++) {
		if (w[c].jobs > 0)
			w[c].avg /= (double)w[c].jobs;
	}
}

/* The time-slicing figures: the opted-in jobs' waits to first start,
 * switches, and the time suspended. */
static void
report_sliced(const struct report *r, const struct sim_result *res,
    struct report_figures *f)
{
	int64_t	*first;
	double	 sum = 0;
	size_t	 i, n = 0;

	first = xcalloc(r->trace->njobs + 1, sizeof *first);
	for (i = 0; i < r->trace->njobs; i++) {
		f->suspended += (double)res->jobs[i].suspended_ms / 1000;
		if (!r->trace->jobs[i].time_slice)
			continue;
		first[n] = res->jobs[i].start_ms - r->trace->jobs[i].submit_ms;
		sum += (double)first[n++];
	}
	qsort(first, n, sizeof *first, report_cmp_i64);
	f->sliced = n;
	if (n > 0) {
		f->sliced_first_median = report_quantile(first, n, 0.5) /
		    1000;
		f->sliced_first_avg = sum / (double)n / 1000;
	}
	f->switches = res->switches;
	free(first);
}

/* Whether a run of r time-slices. */
static bool
report_slices(const struct report *r)
{
	size_t	k;

	for (k = 0; k < r->nruns; k++)
		if (r->runs[k].conf.time_slice > 0)
			return (true);
	return (false);
}

void
report_figures(const struct report *r, const struct report_run *run,
    struct report_figures *f)
{
	const struct sim_result	*res = &run->result;
	int64_t			*jct, one, wait;
	double			 sum = 0, sumwait = 0, capacity;
	size_t			 i, n = r->trace->njobs;

	memset(f, 0, sizeof *f);
	for (i = 0; i < n; i++) {
		report_job_times(r, &res->jobs[i], &r->trace->jobs[i], &one,
		    &wait);
		sum += (double)one;
		sumwait += (double)wait;
	}
	jct = report_sorted_jcts(r, run);
	f->avg_jct = sum / (double)n / 1000;
	f->avg_wait = sumwait / (double)n / 1000;
	f->median_jct = report_quantile(jct, n, 0.5) / 1000;
	f->p95_jct = report_quantile(jct, n, 0.95) / 1000;
	f->p99_jct = report_quantile(jct, n, 0.99) / 1000;
	f->makespan = (double)res->makespan_ms / 1000;
	capacity = (double)sim_cluster_gpus(&r->cluster) *
	    (double)res->makespan_ms;
	f->utilization = capacity > 0 ? (double)res->busy_gpu_ms / capacity : 0;
	f->preemptions = res->preemptions;
	f->promotions = res->promotions;
	report_waits(r, res, f->waits);
	report_sliced(r, res, f);
	free(jct);
}

static const char *const report_rows[] = { "avg JCT (s)", "median JCT (s)",
    "p95 JCT (s)", "p99 JCT (s)", "avg queueing (s)", "makespan (s)",
    "GPU utilization", "preemptions", "promotions" };

/* Row i of the table for one run. */
static void
report_cell(const struct report_figures *f, size_t i, struct report_table *t)
{
	double	secs[] = { f->avg_jct, f->median_jct, f->p95_jct, f->p99_jct,
		    f->avg_wait, f->makespan };

	if (i < sizeof secs / sizeof secs[0])
		report_table_cell(t, "%.1f", secs[i]);
	else if (i == 6)
		report_table_cell(t, "%.1f%%", 100 * f->utilization);
	else
		report_table_cell(t, "%llu", (unsigned long long)(i == 7 ?
		    f->preemptions : f->promotions));
}

/* The trace's durations in ms, what each prediction is measured against;
 * a new array. */
static int64_t *
report_ran_ms(const struct report *r)
{
	int64_t	*ran;
	size_t	 i, n = r->trace->njobs;

	ran = xcalloc(n != 0 ? n : 1, sizeof *ran);
	for (i = 0; i < n; i++)
		ran[i] = r->trace->jobs[i].duration_ms;
	return (ran);
}

/* The table of the predictions at submit, where they were asked for. */
static void
report_text_predictions(const struct report *r, const char *const *heads,
    FILE *fp)
{
	const struct predict_guess	**g;
	int64_t				 *ran;
	size_t				  k;

	g = xcalloc(r->nruns != 0 ? r->nruns : 1, sizeof *g);
	for (k = 0; k < r->nruns; k++)
		g[k] = r->runs[k].result.guesses;
	ran = report_ran_ms(r);
	report_predict_text(g, heads, r->nruns, ran, r->trace->njobs, fp);
	free(ran);
	free(g);
}

void
report_text(const struct report *r, FILE *fp)
{
	struct report_figures	*f;
	struct fair_figures	*ff;
	struct report_table	*t;
	const char		**heads;
	const struct report_wait *w;
	size_t			 i, k;
	int			 c;
	char			 shards[48];

	f = xcalloc(r->nruns, sizeof *f);
	ff = xcalloc(r->nruns, sizeof *ff);
	heads = xcalloc(r->nruns, sizeof *heads);
	for (k = 0; k < r->nruns; k++) {
		report_figures(r, &r->runs[k], &f[k]);
		report_fair_figures(&r->fair, r->trace, &r->cluster,
		    &r->runs[k].result, &ff[k]);
		heads[k] = r->runs[k].label;
	}
	shards[0] = '\0';
	if (r->cluster.gpu_shards > 1)
		snprintf(shards, sizeof shards, ", each GPU in %u shards",
		    r->cluster.gpu_shards);
	fprintf(fp, "%zu jobs; %u node%s x %u GPUs = %llu GPUs on %u "
	    "switch%s%s; restart overhead %.3g s; %s shapes\n\n",
	    r->trace->njobs,
	    r->cluster.switches * r->cluster.nodes_per_switch,
	    r->cluster.switches * r->cluster.nodes_per_switch != 1 ? "s" : "",
	    r->cluster.gpus_per_node,
	    (unsigned long long)sim_cluster_gpus(&r->cluster),
	    r->cluster.switches, r->cluster.switches != 1 ? "es" : "", shards,
	    (double)r->overhead_ms / 1000, r->even_shapes ? "even" : "any");
	t = report_table_create(r->nruns, heads);
	for (i = 0; i < sizeof report_rows / sizeof report_rows[0]; i++) {
		report_table_row(t, report_rows[i]);
		for (k = 0; k < r->nruns; k++)
			report_cell(&f[k], i, t);
	}
	report_table_row(t, "wait avg/max (s)");
	for (c = 0; c < REPORT_SIZES; c++) {
		report_table_row(t, report_size_labels[c]);
		for (k = 0; k < r->nruns; k++) {
			w = &f[k].waits[c];
			if (w->jobs == 0)
				report_table_cell(t, "-");
			else
				report_table_cell(t, "%.1f/%.1f", w->avg,
				    w->max);
		}
	}
	if (report_slices(r)) {
		report_table_row(t, "time-sliced jobs' first start (s)");
		report_table_row(t, "  median");
		for (k = 0; k < r->nruns; k++)
			report_table_cell(t, "%.1f", f[k].sliced_first_median);
		report_table_row(t, "  avg");
		for (k = 0; k < r->nruns; k++)
			report_table_cell(t, "%.1f", f[k].sliced_first_avg);
		report_table_row(t, "switches");
		for (k = 0; k < r->nruns; k++)
			report_table_cell(t, "%llu",
			    (unsigned long long)f[k].switches);
		report_table_row(t, "suspended (s, all jobs)");
		for (k = 0; k < r->nruns; k++)
			report_table_cell(t, "%.0f", f[k].suspended);
	}
	report_fair_rows(&r->fair, ff, r->nruns, t);
	report_table_print(t, fp);
	report_table_free(t);
	report_text_predictions(r, heads, fp);
	for (k = 0; k < r->nruns; k++)
		fair_figures_free(&ff[k]);
	free(heads);
	free(ff);
	free(f);
}

/* Seconds rounded to the millisecond, so the JSON reads 310.417. */
static json_t *
report_secs(double s)
{
	return (json_real(round(s * 1000) / 1000));
}

/* {"1": {"jobs": n, "avg": s, "max": s}, "2-8": ...}, null for a class
 * with no job. */
static json_t *
report_waits_json(const struct report_figures *f)
{
	json_t	*o = json_object();
	int	 c;

	for (c = 0; c < REPORT_SIZES; c++)
		json_object_set_new(o, report_size_names[c],
		    f->waits[c].jobs == 0 ? json_null() : json_pack(
		    "{s:I, s:o, s:o}", "jobs", (json_int_t)f->waits[c].jobs,
		    "avg", report_secs(f->waits[c].avg), "max",
		    report_secs(f->waits[c].max)));
	return (o);
}

int
report_json(const struct report *r, FILE *fp)
{
	struct report_figures	 f;
	struct fair_figures	 ff;
	struct report_predict	 pf;
	const struct sched_conf	*c;
	json_t			*root, *runs, *run, *th;
	int64_t			*ran;
	size_t			 k, i;
	int			 ret;

	ran = report_ran_ms(r);
	runs = json_array();
	for (k = 0; k < r->nruns; k++) {
		c = &r->runs[k].conf;
		report_figures(r, &r->runs[k], &f);
		th = json_array();
		for (i = 0; i + 1 < c->nqueues; i++)
			json_array_append_new(th, report_secs(
			    (double)c->thresholds[i] / 1000));
		run = json_pack("{s:s, s:s, s:s, s:b, s:o, s:f}",
		    "label", r->runs[k].label,
		    "policy", r->runs[k].elastic ? r->runs[k].label :
		    sched_conf_policy_name(c->policy),
		    "placement", sched_conf_placement_name(c->placement),
		    "strict", c->policy == SCHED_FIFO && c->strict,
		    "thresholds", th, "promote_knob", c->promote_knob);
		json_object_set_new(run, "backfill_depth",
		    json_integer(c->backfill_depth));
		json_object_set_new(run, "fairshare", c->fairshare ?
		    json_integer(c->fairshare_queue_weight) : json_null());
		json_object_set_new(run, "fairshare_preempt", json_boolean(
		    c->fairshare && c->fairshare_preempt));
		json_object_set_new(run, "preempt_in_queue", json_boolean(
		    c->preempt_in_queue && c->policy == SCHED_DLAS));
		json_object_set_new(run, "avoid_interference", json_boolean(
		    c->avoid_interference));
		json_object_set_new(run, "avg_jct", report_secs(f.avg_jct));
		json_object_set_new(run, "median_jct",
		    report_secs(f.median_jct));
		json_object_set_new(run, "p95_jct", report_secs(f.p95_jct));
		json_object_set_new(run, "p99_jct", report_secs(f.p99_jct));
		json_object_set_new(run, "avg_queueing",
		    report_secs(f.avg_wait));
		json_object_set_new(run, "makespan", report_secs(f.makespan));
		json_object_set_new(run, "utilization",
		    json_real(round(f.utilization * 1e6) / 1e6));
		json_object_set_new(run, "preemptions",
		    json_integer((json_int_t)f.preemptions));
		json_object_set_new(run, "promotions",
		    json_integer((json_int_t)f.promotions));
		json_object_set_new(run, "passes",
		    json_integer((json_int_t)r->runs[k].result.passes));
		json_object_set_new(run, "unsettled_instants",
		    json_integer((json_int_t)r->runs[k].result.unsettled));
		json_object_set_new(run, "waits", report_waits_json(&f));
		if (report_slices(r))
			json_object_set_new(run, "time_slicing", json_pack(
			    "{s:I, s:I, s:o, s:o, s:I, s:o}", "time_slice",
			    (json_int_t)c->time_slice, "opted_in",
			    (json_int_t)f.sliced, "first_start_median",
			    report_secs(f.sliced_first_median),
			    "first_start_avg",
			    report_secs(f.sliced_first_avg), "switches",
			    (json_int_t)f.switches, "suspended",
			    report_secs(f.suspended)));
		report_fair_figures(&r->fair, r->trace, &r->cluster,
		    &r->runs[k].result, &ff);
		json_object_set_new(run, "fairness",
		    report_fair_json(&r->fair, &ff));
		fair_figures_free(&ff);
		if (r->runs[k].result.guesses != NULL) {
			report_predict_figures(r->runs[k].result.guesses, ran,
			    r->trace->njobs, &pf);
			json_object_set_new(run, "predictions",
			    report_predict_json(&pf));
		}
		json_array_append_new(runs, run);
	}
	free(ran);
	root = json_pack("{s:s, s:I, s:{s:I, s:I, s:I, s:I}, s:o, s:I, s:o}",
	    "trace", r->trace_path, "jobs", (json_int_t)r->trace->njobs,
	    "cluster", "switches", (json_int_t)r->cluster.switches,
	    "nodes_per_switch", (json_int_t)r->cluster.nodes_per_switch,
	    "gpus_per_node", (json_int_t)r->cluster.gpus_per_node,
	    "gpus", (json_int_t)sim_cluster_gpus(&r->cluster),
	    "overhead", report_secs((double)r->overhead_ms / 1000),
	    "seed", (json_int_t)r->seed, "runs", runs);
	json_object_set_new(root, "shape",
	    json_string(r->even_shapes ? "even" : "any"));
	json_object_set_new(json_object_get(root, "cluster"), "cpus_per_node",
	    json_integer(r->cluster.cpus_per_node));
	json_object_set_new(json_object_get(root, "cluster"), "mem_per_node_gb",
	    json_integer((json_int_t)(r->cluster.mem_per_node / 1024)));
	/* Absent where GPUs go whole, so that a replay without shards
	 * prints what it always did. */
	if (r->cluster.gpu_shards > 1)
		json_object_set_new(json_object_get(root, "cluster"),
		    "gpu_shards", json_integer(r->cluster.gpu_shards));
	ret = json_dumpf(root, fp, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	fputc('\n', fp);
	json_decref(root);
	return (ret);
}

/* Writes s as a CSV field, quoted when it holds a comma, quote or line
 * break. */
static void
report_csv_str(FILE *fp, const char *s)
{
	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* ms as seconds with three decimals, its sign before them (-0.500). */
static void
report_csv_secs(FILE *fp, int64_t ms)
{
	uint64_t	a = ms < 0 ? (uint64_t)0 - (uint64_t)ms : (uint64_t)ms;

	fprintf(fp, ",%s%llu.%03llu", ms < 0 ? "-" : "",
	    (unsigned long long)(a / 1000), (unsigned long long)(a % 1000));
}

int
report_jobs(const struct report *r, FILE *fp)
{
	const struct sim_job_result	*jr;
	const struct sim_job		*j;
	int64_t				 jct, wait;
	size_t				 k, i;

	fputs("policy,job_id,name,user,num_gpus,submit_time,duration,"
	    "start_time,end_time,jct,queueing,preemptions,promotions,nodes\n",
	    fp);
	for (k = 0; k < r->nruns; k++) {
		for (i = 0; i < r->trace->njobs; i++) {
			j = &r->trace->jobs[i];
			jr = &r->runs[k].result.jobs[i];
			report_job_times(r, jr, j, &jct, &wait);
			report_csv_str(fp, r->runs[k].label);
			fprintf(fp, ",%llu,", (unsigned long long)j->id);
			report_csv_str(fp, j->name);
			fputc(',', fp);
			report_csv_str(fp, j->user);
			fprintf(fp, ",%u", j->gpus);
			report_csv_secs(fp, j->submit_ms);
			report_csv_secs(fp, j->duration_ms);
			report_csv_secs(fp, jr->start_ms);
			report_csv_secs(fp, jr->end_ms);
			report_csv_secs(fp, jct);
			report_csv_secs(fp, wait);
			fprintf(fp, ",%u,%u,%u\n", jr->preemptions,
			    jr->promotions, jr->nodes);
		}
	}
	if (fflush(fp) != 0 || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return (-1);
	}
	return (0);
}
