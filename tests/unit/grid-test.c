/* grid-test.c: gtop's frame without a terminal: the grid keeps text safe
 * and cut to its cells, and a frame drawn from a model made here shows the
 * header's counts, the jobs by queue level with running and waiting ones in
 * their colours, and each GPU's job in that job's colour, at 80x24 and at
 * 200x60; too small says so. */
#include <stdio.h>
#include <string.h>

#include "tui/chart.h"
#include "tui/keys.h"
#include "tui/screen.h"
#include "tests/unit/tap.h"

static const char *jobs_text =
    "{\"jobs\":["
    "{\"id\":7,\"user\":\"bob\",\"name\":\"bert\",\"state\":\"PENDING\","
    "\"gpus\":4,\"queue\":1,\"rank\":2,\"reason\":\"Resources\"},"
    "{\"id\":42,\"user\":\"alice\",\"name\":\"resnet\",\"state\":\"RUNNING\","
    "\"gpus\":2,\"queue\":0,\"nodes\":\"n1\",\"reason\":\"None\"},"
    "{\"id\":9,\"user\":\"eve\",\"name\":\"x\\u001b[2Jy\",\"state\":"
    "\"PENDING\",\"gpus\":1,\"queue\":0,\"rank\":1,\"reason\":"
    "\"Priority\"}]}";

static const char *nodes_text =
    "[{\"name\":\"n1\",\"state\":\"mixed\",\"gpus_total\":4,\"gpus_alloc\":2,"
    "\"gpus\":[{\"index\":0,\"job\":42},{\"index\":1,\"job\":42},"
    "{\"index\":2,\"job\":null},{\"index\":3,\"job\":null}]},"
    "{\"name\":\"n2\",\"state\":\"down\",\"gpus_total\":2,\"gpus_alloc\":0,"
    "\"gpus\":[{\"index\":0,\"job\":null},{\"index\":1,\"job\":null}]}]";

/* m's nodes: a NODE_LIST reply whose nodes are the array text. */
static void
t_nodes(struct model *m, const char *text)
{
	size_t	len = strlen(text) + 16;
	char	*body = malloc(len);

	snprintf(body, len, "{\"nodes\":%s}", text);
	model_nodes_free(&m->nodes);
	if (model_nodes_scan(body, strlen(body), &m->nodes) == -1)
		abort();
}

/* The model: jobs_text's rows and nodes_text's nodes. */
static void
t_model(struct model *m, struct job_row *rows)
{
	struct jscan_val	top, jobs, job;
	size_t			pos = 0;

	model_init(m, 1);
	jscan_open(jobs_text, strlen(jobs_text), &top);
	jscan_get(&top, "jobs", &jobs);
	while (jscan_element(&jobs, &pos, &job) == 1)
		job_row_scan(&job, &rows[m->jobs.n++]);
	m->jobs.rows = rows;
	t_nodes(m, nodes_text);
	m->refreshed = 1;
}

/* The row of g holding s, or -1. */
static int
t_find(const struct grid *g, const char *s)
{
	char	buf[2048];
	int	y;

	for (y = 0; y < g->h; y++) {
		if (strstr(grid_row(g, y, buf, sizeof buf), s) != NULL)
			return (y);
	}
	return (-1);
}

/* The role of the cell where s starts on its row, or -1. */
static int
t_role_at(const struct grid *g, const char *s)
{
	char	buf[2048], *p;
	int	y = t_find(g, s);

	if (y == -1)
		return (-1);
	p = strstr(grid_row(g, y, buf, sizeof buf), s);
	/* ASCII rows: a byte per cell. */
	return (g->cells[(size_t)y * (size_t)g->w + (size_t)(p - buf)].role);
}

static void
t_grid(void)
{
	struct grid	*g = grid_new(2, 10);
	char		 buf[64];

	is_int(grid_puts(g, 0, 0, 10, "abc\x1b[2J", ROLE_NORMAL), 8,
	    "escape sequences are escaped, a cell a character");
	is_str(grid_row(g, 0, buf, sizeof buf), "abc\\e[2J",
	    "as safe-text writes them");
	is_int(grid_puts(g, 1, 7, 10, "\xc3\xa9t\xc3\xa9s", ROLE_NORMAL), 3,
	    "cut at the edge, a UTF-8 character a cell");
	is_str(grid_row(g, 1, buf, sizeof buf), "       \xc3\xa9t\xc3\xa9",
	    "whole characters");
	is_int(grid_puts(g, 2, 0, 10, "x", ROLE_NORMAL), 0, "off the grid");
	grid_free(g);
}

/* Sparklines and bars: levels, averaging to fit, unknown values. */
static void
t_chart(void)
{
	struct grid	*g = grid_new(3, 12);
	double		 v[8] = { 0, 100, 50, -1, -1, -1, 25, 75 };
	char		 buf[128];

	is_str(chart_level(0, 100, false), "_", "0: the lowest level");
	is_str(chart_level(100, 100, false), "@", "max: the highest");
	is_str(chart_level(50, 100, false), "+", "half: level round(3.5) = 4");
	is_str(chart_level(7, 0, false), "_", "a scale of 0: the lowest");
	is_str(chart_level(-1, 100, false), " ", "not known: blank");
	is_str(chart_level(100, 100, true), "\xe2\x96\x88", "UTF-8: a full "
	    "block");
	is_int(chart_spark(g, 0, 0, 12, v, 8, 100, false, ROLE_METER), 8, "8 values "
	    "fit 12 cells: a cell each");
	is_str(grid_row(g, 0, buf, sizeof buf), "_@+   -*", "in order, "
	    "unknown ones blank: %s", buf);
	/* 4 cells of 2: (0, 100), (50, -), (-, -), (25, 75). */
	is_int(chart_spark(g, 1, 0, 4, v, 8, 100, false, ROLE_METER), 4, "8 values in 4 "
	    "cells");
	is_str(grid_row(g, 1, buf, sizeof buf), "++ +", "averages of the "
	    "known ones; none known: blank (%s)", buf);
	chart_bar(g, 2, 0, 10, 1, 1000, false, ROLE_METER);
	is_str(grid_row(g, 2, buf, sizeof buf), "#", "a bar above 0 shows");
	chart_bar(g, 2, 0, 10, 5, 10, true, ROLE_METER);
	is_str(grid_row(g, 2, buf, sizeof buf), "\xe2\x96\x88\xe2\x96\x88"
	    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88", "half of 10 cells");
	chart_bar(g, 2, 0, 10, 0, 10, true, ROLE_METER);
	is_str(grid_row(g, 2, buf, sizeof buf), "", "0: none");
	grid_free(g);
}

int
main(void)
{
	struct model	 m;
	struct job_row	 rows[8];
	struct view	 v;
	struct grid	*g, *g2;
	const char	*want;
	json_t		*arr;
	char		 buf[2048], *text;
	int		 y42, y7, y9, y;

	t_grid();
	t_chart();
	t_model(&m, rows);
	memset(&v, 0, sizeof v);
	v.m = &m;
	v.interval = 2;

	g = grid_new(24, 80);
	screen_draw(g, &v);
	ok(strstr(grid_row(g, 0, buf, sizeof buf), "nodes: 1 up, 1 down, 0 "
	    "drained") != NULL, "80x24: the header counts the nodes: %s", buf);
	ok(strstr(buf, " 2/6") != NULL, "and the GPUs allocated of all");
	ok(strstr(grid_row(g, 1, buf, sizeof buf), "jobs: 1 running, 2 "
	    "waiting, 0 preempting") != NULL, "and the jobs: %s", buf);
	ok(t_find(g, "Queues: 3 jobs, 1 running, 2 waiting") == 2,
	    "the queues pane under the header");
	y42 = t_find(g, "   42  alice");
	y9 = t_find(g, "    9  eve");
	y7 = t_find(g, "    7  bob");
	ok(y42 > 2 && y9 == y42 + 1 && y7 == y9 + 1, "Q0's jobs, in the "
	    "reply's order, then Q1's (rows %d %d %d)", y42, y9, y7);
	is_int(t_role_at(g, "   42  alice"), ROLE_SELECTED,
	    "the first row is selected");
	is_int(t_role_at(g, "    9  eve"), ROLE_NEXT, "the job that starts "
	    "next: its colour");
	ok(strncmp(grid_row(g, y9, buf, sizeof buf), ">", 1) == 0, "and a "
	    "mark: %s", buf);
	is_int(t_role_at(g, "    7  bob"), ROLE_PENDING, "waiting: its colour");
	ok(t_find(g, "x\\e[2Jy") == y9, "a job name cannot steer the terminal");
	ok(t_find(g, "GPUs: 2 of 6 allocated on 2 nodes") > y7,
	    "the GPU pane under the queues");
	ok(strstr(grid_row(g, t_find(g, "n1   mixed"), buf, sizeof buf),
	    "    42     42      .      .") != NULL, "n1: job 42 on GPUs 0 and "
	    "1, 2 and 3 free: %s", buf);
	is_int(t_role_at(g, "42     42"), color_job(42),
	    "a GPU cell in its job's colour");
	is_int(t_role_at(g, ".      ."), ROLE_FREE, "a free GPU in its own");
	ok(t_find(g, "n2   down") > t_find(g, "n1   mixed"), "n2 is down");
	is_int(t_role_at(g, "x      x"), ROLE_DOWN, "its GPUs too");
	ok(strncmp(grid_row(g, 23, buf, sizeof buf), "q quit  ? help", 14) ==
	    0, "the footer: the keys: %s", buf);

	/* The JCT pane, from a cluster report as gbatchd sends it. */
	m.acct[MODEL_ACCT_WINDOW] = json_loads("{\"rows\":[{\"group\":"
	    "\"all\",\"key\":\"\",\"jobs\":3,\"jct_avg\":100.0,"
	    "\"jct_median\":90,\"jct_p95\":150,\"wait_avg\":2.5,"
	    "\"wait_median\":2.0,\"wait_p95\":4.0,\"gpu_seconds\":7200,"
	    "\"utilization\":12.5},{\"group\":\"queue\",\"key\":\"Q0\","
	    "\"jobs\":3,\"jct_avg\":100.0,\"jct_median\":90,\"jct_p95\":150,"
	    "\"wait_avg\":2.5,\"wait_median\":2.0,\"wait_p95\":4.0}]}", 0,
	    NULL);
	m.acct[MODEL_ACCT_HOUR] = json_incref(m.acct[MODEL_ACCT_WINDOW]);
	screen_draw(g, &v);
	ok(t_find(g, "JCT, waits (s): jobs that ended in the last 1 h  "
	    "[1 2 3: hour, day, week]") > y7, "the JCT pane under the "
	    "queues");
	ok(t_find(g, " all    -       3    100.0       90      150       2.5 "
	    "      4.0") > 0, "its rows in gacct --report cluster's columns, "
	    "those that fit 80");
	g2 = grid_new(30, 130);
	screen_draw(g2, &v);
	ok(t_find(g2, " all    -       3    100.0       90      150       2.5 "
	    "      2.0       4.0       2.00   12.5") > 0, "all of them in 130");
	grid_free(g2);
	ok(t_find(g, "JCT avg: last hour 1:40, today -") == 1,
	    "the header: the last hour's average JCT");
	json_decref(m.acct[MODEL_ACCT_WINDOW]);
	json_decref(m.acct[MODEL_ACCT_HOUR]);
	m.acct[MODEL_ACCT_WINDOW] = m.acct[MODEL_ACCT_HOUR] = NULL;

	/* The policy and the queue levels, as PING gives them. */
	m.ping = json_loads("{\"scheduler\":{\"policy\":\"dlas\","
	    "\"queues\":3,\"thresholds\":[3600,36000]}}", 0, NULL);
	screen_draw(g, &v);
	ok(t_find(g, "gtop  gbatchd  policy dlas  nodes: 1 up") == 0,
	    "the header names the policy");
	ok(t_find(g, "Queues (Q0 < 1:00:00, Q1 < 10:00:00, Q2): 3 jobs") == 2,
	    "the queues' title their thresholds");
	json_decref(m.ping);
	/* The cluster's name; on 80 columns the GPU meter keeps its room
	 * and the version, then the words, give it up. */
	m.ping = json_loads("{\"cluster\":\"lab-a\",\"scheduler\":"
	    "{\"policy\":\"gittins\",\"queues\":2,\"thresholds\":[60]}}", 0,
	    NULL);
	screen_draw(g, &v);
	want = "lab-a  policy gittins  nodes: 1 up, 1 down, 0 drained  GPUs [";
	ok(strncmp(grid_row(g, 0, buf, sizeof buf), want, strlen(want)) == 0 &&
	    strstr(buf, "] 2/6") != NULL, "80 columns: the name, the policy, "
	    "the meter (%s)", buf);
	g2 = grid_new(24, 130);
	screen_draw(g2, &v);
	want = "gtop  cluster lab-a  gbatchd  policy gittins  nodes: 1 up";
	ok(strncmp(grid_row(g2, 0, buf, sizeof buf), want, strlen(want)) == 0 &&
	    strstr(buf, "] 2/6") != NULL, "130 columns: all of it (%s)", buf);
	grid_free(g2);
	json_decref(m.ping);
	m.ping = NULL;

	/* The mouse: a click selects the row under it, in its pane. */
	screen_draw(g, &v);
	is_int(keys_mouse(&v, y9, 10, KEYS_CLICK) & PANE_REDRAW, PANE_REDRAW,
	    "a click on a job's row");
	ok(v.focus == PANE_QUEUES && v.sel[PANE_QUEUES] == 1,
	    "selects it (row %d)", v.sel[PANE_QUEUES]);
	(void)keys_mouse(&v, t_find(g, "n2   down"), 10, KEYS_CLICK);
	ok(v.focus == PANE_GPUS && v.sel[PANE_GPUS] == 1, "a click on a node's "
	    "row: the GPU pane, that node");
	(void)keys_mouse(&v, y42, 10, KEYS_WHEEL_DOWN);
	ok(v.focus == PANE_QUEUES && v.sel[PANE_QUEUES] == 2, "the wheel "
	    "moves the selection of the pane under it");
	is_int(keys_mouse(&v, 0, 10, KEYS_CLICK), 0, "the header: nothing");
	v.focus = PANE_QUEUES;
	v.sel[PANE_QUEUES] = 0;

	/* ?: the keys in a box that hides what is under it. */
	v.mode = VIEW_HELP;
	screen_draw(g, &v);
	ok(t_find(g, "gtop keys (any key closes this)") == 3, "the help box");
	is_int(t_find(g, "Priority"), -1, "the jobs under it are hidden");
	v.mode = VIEW_NORMAL;

	/* Tab: the GPU pane's first node selected instead. */
	v.focus = PANE_GPUS;
	screen_draw(g, &v);
	is_int(t_role_at(g, "   42  alice"), ROLE_RUNNING,
	    "unfocused, a running job shows its colour");
	grid_free(g);

	g = grid_new(60, 200);
	screen_draw(g, &v);
	y42 = t_find(g, "   42  alice");
	is_int(y42, 4, "200x60: the queues' first row under its title and "
	    "heading");
	is_int(t_find(g, "n1   mixed"), 3, "200x60: n1 on the GPU pane's first row,"
	    " beside them");
	ok(t_find(g, "GPUs: 2 of 6") == 2, "200x60: the GPU pane beside "
	    "the queues, on the same rows");
	grid_free(g);

	g = grid_new(10, 50);
	screen_draw(g, &v);
	is_str(grid_row(g, 0, buf, sizeof buf), "terminal too small: 50x10, "
	    "gtop needs 60x12", "too small says so");
	grid_free(g);
	model_nodes_free(&m.nodes);

	/* GPUs' use: each cell its % busy; one its job has held idle for
	 * longer than idle_after is flagged, and counted in the header. */
	model_init(&m, 1);
	memset(&v, 0, sizeof v);
	v.m = &m;
	v.now = 10000;
	v.idle_after = 60;
	t_nodes(&m, "[{\"name\":\"n1\",\"state\":"
	    "\"mixed\",\"gpus_total\":3,\"gpus_alloc\":2,\"gpus\":["
	    "{\"index\":0,\"job\":42,\"util\":37,\"low_since\":0},"
	    "{\"index\":1,\"job\":42,\"util\":0,\"low_since\":9000},"
	    "{\"index\":2,\"job\":null,\"util\":0,\"low_since\":0}]}]");
	g = grid_new(24, 100);
	screen_draw(g, &v);
	ok(strstr(grid_row(g, t_find(g, "n1   mixed"), buf, sizeof buf),
	    "    42 37%     42  0%!     .  0%") != NULL, "cells with their use, "
	    "the idle one flagged: %s", buf);
	is_int(t_role_at(g, "42  0%!"), ROLE_ALERT, "in the alert colour");
	is_int(t_role_at(g, "42 37%"), color_job(42), "a busy one its job's");
	ok(t_find(g, "1 allocated GPU idle for 60 s") == 0, "the header counts "
	    "it");
	v.idle_after = 1001;
	screen_draw(g, &v);
	ok(t_find(g, "42  0% ") > 0 && t_find(g, "idle for") == -1,
	    "not idle long enough: not flagged");
	grid_free(g);
	model_free(&m);

	/* A thousand nodes of 8 GPUs on 25 switches: a row per switch. */
	model_init(&m, 1);
	memset(&v, 0, sizeof v);
	v.m = &m;
	arr = json_array();
	for (int i = 0; i < 1000; i++) {
		char	name[16], sw[16];

		snprintf(name, sizeof name, "n%04d", i);
		snprintf(sw, sizeof sw, "sw%02d", i / 40);
		/* In each switch: 30 nodes half busy, 5 down, 5 drained
		 * with 2 busy. */
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:i,"
		    "s:i,s:[]}", "name", name, "switch", sw, "state",
		    i % 40 < 30 ? "mixed" : i % 40 < 35 ? "down" : "drained",
		    "gpus_total", 8, "gpus_alloc", i % 40 < 30 ? 4 :
		    i % 40 < 35 ? 0 : 2, "gpus"));
	}
	text = json_dumps(arr, JSON_COMPACT);
	t_nodes(&m, text);
	free(text);
	json_decref(arr);
	g = grid_new(24, 120);
	screen_draw(g, &v);
	ok(t_find(g, "GPUs: 3250 of 8000 allocated on 1000 nodes, a row per "
	    "switch (w: per node)") > 0, "1000 nodes: summed up per switch");
	y = t_find(g, "sw00 ");
	ok(y > 0 && strstr(grid_row(g, y, buf, sizeof buf), "40 nodes    320 "
	    "GPUs") != NULL && strstr(buf, "  130 busy, 120 free, 30 drained,"
	    " 40 down") != NULL, "a switch's row: %s", buf);
	ok(t_find(g, "sw01 ") == y + 1, "the next switch under it");
	is_int(t_role_at(g, "[#"), ROLE_NORMAL, "a bar");
	ok(strstr(buf, "[####") != NULL && strstr(buf, "xxx]") != NULL,
	    "busy first, down last");
	(void)pane_gpus.key(&v, 'w');
	screen_draw(g, &v);
	ok(t_find(g, "allocated on 1000 nodes (w: per switch)") > 0 &&
	    t_find(g, "n0000") > 0, "w: a row per node again");
	grid_free(g);
	model_free(&m);

	/* An empty cluster: no job, no node, nothing to sort. */
	model_init(&m, 1);
	memset(&v, 0, sizeof v);
	v.m = &m;
	g = grid_new(24, 80);
	screen_draw(g, &v);
	ok(t_find(g, "no pending or running jobs") == 4, "no jobs says so");
	ok(t_find(g, "no nodes") > 4, "no nodes says so");
	ok(t_find(g, "nodes: 0 up, 0 down, 0 drained") == 0, "the header "
	    "counts nothing");
	grid_free(g);
	model_free(&m);
	return (tap_done());
}
