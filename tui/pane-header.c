/* pane-header.c: the cluster at a glance: nodes up, down and drained, a GPU
 * meter, jobs running, waiting and being preempted, and when the figures
 * were fetched; when the controller does not answer, that, in the alert
 * colour, and the age of what is shown. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/duration.h"
#include "tui/pane.h"

/* " JCT avg NAME D" from a cluster report's first row (all jobs), "-"
 * when no job ended in its window or it has not come yet. */
static void
pane_header_jct(const json_t *report, const char *name, char *out,
    size_t len)
{
	const json_t	*all = json_array_get(json_object_get(report, "rows"),
			    0);
	const json_t	*avg = json_object_get(all, "jct_avg");
	char		 d[32];

	if (!json_is_number(avg))
		snprintf(out, len, "%s -", name);
	else
		snprintf(out, len, "%s %s", name, duration_format((uint64_t)
		    (json_number_value(avg) + 0.5), d, sizeof d));
}

/* Counts nodes in state (NULL: all but down and drained) and GPUs. */
static void
pane_header_nodes(const struct model_nodes *nodes, int *up, int *down,
    int *drained, long long *total, long long *alloc)
{
	const struct model_node	*n;
	size_t			 i;

	*up = *down = *drained = 0;
	*total = *alloc = 0;
	for (i = 0; i < nodes->n; i++) {
		n = &nodes->rows[i];
		if (strcmp(n->state, "down") == 0)
			(*down)++;
		else if (strcmp(n->state, "drained") == 0)
			(*drained)++;
		else
			(*up)++;
		*total += n->gpus_total;
		*alloc += n->gpus_alloc;
	}
}

/* The header's GPU meter keeps at least this many cells of bar. */
#define PANE_HEADER_MIN_BAR	8

/* Appends to line (of size len) what fmt says. */
static void __attribute__((format(printf, 3, 4)))
pane_header_add(char *line, size_t len, const char *fmt, ...)
{
	size_t	n = strlen(line);
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(line + n, len - n, fmt, ap);
	va_end(ap);
}

/* "[|||||     ] 5/10": the filled part in the meter colour. */
static int
pane_header_meter(struct grid *g, int y, int x, int w, long long part,
    long long whole)
{
	char	label[48];
	int	filled, n = 0, i;

	snprintf(label, sizeof label, " %lld/%lld", part, whole);
	w -= (int)strlen(label) + 2;
	if (w < 4)
		return (grid_puts(g, y, x, (int)strlen(label), label,
		    ROLE_NORMAL));
	filled = whole > 0 ? (int)(part * w / whole) : 0;
	n += grid_puts(g, y, x, 1, "[", ROLE_NORMAL);
	for (i = 0; i < w; i++)
		n += grid_puts(g, y, x + n, 1, i < filled ? "|" : " ",
		    i < filled ? ROLE_METER : ROLE_NORMAL);
	n += grid_puts(g, y, x + n, 1, "]", ROLE_NORMAL);
	n += grid_puts(g, y, x + n, (int)strlen(label), label, ROLE_NORMAL);
	return (n);
}

/* How many allocated GPUs are idle (pane_gpus_idle). */
static int
pane_header_idle(const struct view *v)
{
	const struct model_nodes	*nodes = &v->m->nodes;
	size_t				 i;
	int				 count = 0;

	for (i = 0; i < nodes->ngpus; i++)
		count += pane_gpus_idle(v, &nodes->gpus[i]);
	return (count);
}

static void
pane_header_draw(struct grid *g, const struct rect *r, struct view *v)
{
	const struct model	*m = v->m;
	const json_t		*hello = m->c != NULL ? client_hello(m->c) :
				    NULL;
	const char		*server = json_string_value(json_object_get(
				    hello, "server")), *policy, *cluster;
	struct tm		 tm;
	long long		 total, alloc;
	char			 line[1280], when[16] = "never";
	char			 hour[64], today[64];
	size_t			 i;
	int			 up, down, drained, x, running = 0, waiting = 0;
	int			 idle, mw;
	int			 preempting = 0, suspended = 0, form;
	char			 susp[32] = "";

	pane_header_nodes(&m->nodes, &up, &down, &drained, &total, &alloc);
	for (i = 0; i < m->jobs.n; i++) {
		if (jscan_key_is(&m->jobs.rows[i].v[JF_STATE], "RUNNING"))
			running++;
		else if (jscan_key_is(&m->jobs.rows[i].v[JF_STATE],
		    "PREEMPTING"))
			preempting++;
		else if (jscan_key_is(&m->jobs.rows[i].v[JF_STATE],
		    "SUSPENDED"))
			suspended++;
		else
			waiting++;
	}
	if (m->refreshed != 0 && localtime_r(&m->refreshed, &tm) != NULL)
		strftime(when, sizeof when, "%H:%M:%S", &tm);

	policy = json_string_value(json_object_get(json_object_get(m->ping,
	    "scheduler"), "policy"));
	cluster = json_string_value(json_object_get(m->ping, "cluster"));
	/* The GPU meter matters more than the version: on a narrow
	 * terminal the version goes, then the words around the name. */
	for (form = 0; form < 3; form++) {
		line[0] = '\0';
		if (form < 2)
			pane_header_add(line, sizeof line, "gtop  ");
		if (cluster != NULL)
			pane_header_add(line, sizeof line, "%s%s  ", form < 2 ?
			    "cluster " : "", cluster);
		if (form == 0)
			pane_header_add(line, sizeof line, "%s  ", server !=
			    NULL ? server : "gbatchd");
		if (policy != NULL)
			pane_header_add(line, sizeof line, "policy %s  ",
			    policy);
		pane_header_add(line, sizeof line, "nodes: %d up, %d down, %d "
		    "drained  GPUs ", up, down, drained);
		if (r->w - (int)strlen(line) >= PANE_HEADER_MIN_BAR + 2 +
		    snprintf(NULL, 0, " %lld/%lld", alloc, total))
			break;
	}
	x = grid_puts(g, r->y, r->x, r->w, line, ROLE_NORMAL);
	/* What admins most want to find: GPUs held and not used. The meter
	 * gives up room for it. */
	line[0] = '\0';
	if ((idle = pane_header_idle(v)) > 0)
		snprintf(line, sizeof line, "  %d allocated GPU%s idle for %u s",
		    idle, idle == 1 ? "" : "s", v->idle_after);
	mw = r->w - x - (int)strlen(line);
	x += pane_header_meter(g, r->y, r->x + x, mw < 40 ? mw : 40, alloc,
	    total);
	if (idle > 0)
		grid_puts(g, r->y, r->x + x, r->w - x, line, ROLE_ALERT);

	if (m->status != 0) {
		snprintf(line, sizeof line, "controller unreachable (data of "
		    "%s, retrying every %u s): %s", when, v->interval, m->err);
		grid_paint(g, r->y + 1, r->x, r->w, ROLE_ALERT);
		grid_puts(g, r->y + 1, r->x, r->w, line, ROLE_ALERT);
		return;
	}
	pane_header_jct(m->acct[MODEL_ACCT_HOUR], "last hour", hour,
	    sizeof hour);
	pane_header_jct(m->acct[MODEL_ACCT_TODAY], "today", today,
	    sizeof today);
	/* Suspended jobs (gctl suspend), where there are any. */
	if (suspended > 0)
		snprintf(susp, sizeof susp, ", %d suspended", suspended);
	snprintf(line, sizeof line, "jobs: %d running, %d waiting, %d "
	    "preempting%s  JCT avg: %s, %s  refreshed %s", running, waiting,
	    preempting, susp, hour, today, when);
	if (v->interval != 0)
		snprintf(line + strlen(line), sizeof line - strlen(line),
		    ", every %u s", v->interval);
	grid_puts(g, r->y + 1, r->x, r->w, line, ROLE_NORMAL);
}

static int
pane_header_key(struct view *v, int ch)
{
	(void)v;
	(void)ch;
	return (0);
}

const struct pane_ops pane_header = {
	"header", pane_header_draw, pane_header_key
};
