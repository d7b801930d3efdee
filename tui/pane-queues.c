/* pane-queues.c: the jobs by scheduler queue level (Q0 first), each level's
 * jobs in the controller's order, running and waiting ones in their own
 * colours. The columns are gq's (job_row_cols), drawn through the table
 * module, so a field looks the same in gq and here. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/job-row.h"
#include "common/duration.h"
#include "client/table.h"
#include "tui/pane.h"

#define PANE_QUEUES_COLS \
	"id,user,name,state,gpus,nodes,time,queue,attained,reason"

const char *const pane_queues_sorts[PANE_QUEUES_NSORTS] = {
	"scheduler", "id", "user", "name", "gpus", "time", "attained"
};

static struct table		*pane_queues_table;
/* The sort in force while qsort runs: it takes no argument. */
static int			 pane_queues_sort_key = -1;
static const struct job_row	**pane_queues_order;
static size_t			  pane_queues_size;

const json_t *
pane_queues_fields(void)
{
	static json_t	*fields;
	struct table	*t;
	size_t		 i;

	if (fields != NULL)
		return (fields);
	fields = json_array();
	json_array_append_new(fields, json_string("state"));
	json_array_append_new(fields, json_string("user"));
	json_array_append_new(fields, json_string("queue"));
	json_array_append_new(fields, json_string("rank"));
	t = table_create(job_row_cols, job_row_ncols, PANE_QUEUES_COLS);
	for (i = 0; i < table_nselected(t); i++)
		job_row_wire_fields(table_selected(t, i)->name, fields);
	table_free(t);
	return (fields);
}

static enum color_role pane_queues_role(const struct job_row *);

/* The queue level of a row; jobs the scheduler does not hold last. */
static long long
pane_queues_level(const struct job_row *r)
{
	long long	q;

	if (jscan_int(&r->v[JF_QUEUE], &q) == -1 || q < 0)
		return (1LL << 40);
	return (q);
}

/* A pending job's place in the scheduler's order (1 first), or a number
 * after every place for the others. */
static long long
pane_queues_rank(const struct job_row *r)
{
	long long	k;

	if (jscan_int(&r->v[JF_RANK], &k) == -1 || k < 1)
		return (1LL << 40);
	return (k);
}

/* Each level's running jobs, then its pending ones in the scheduler's
 * order, then held ones; or by a column (s), the reply's order among
 * equals. */
static int
pane_queues_cmp(const void *pa, const void *pb)
{
	const struct job_row	*a = *(const struct job_row *const *)pa;
	const struct job_row	*b = *(const struct job_row *const *)pb;
	long long		 qa = pane_queues_level(a), qb = pane_queues_level(b);
	long long		 ra = pane_queues_rank(a), rb = pane_queues_rank(b);
	bool			 xa = pane_queues_role(a) == ROLE_RUNNING;
	bool			 xb = pane_queues_role(b) == ROLE_RUNNING;
	int			 c;

	if (pane_queues_sort_key != -1 && (c = job_row_compare(a, b,
	    pane_queues_sort_key)) != 0)
		return (c);
	if (pane_queues_sort_key != -1)
		return ((a > b) - (a < b));
	if (qa != qb)
		return (qa < qb ? -1 : 1);
	if (xa != xb)
		return (xa ? -1 : 1);
	if (ra != rb)
		return (ra < rb ? -1 : 1);
	/* Rows lie in the reply's order: keep it among equals. */
	return ((a > b) - (a < b));
}

static enum color_role
pane_queues_role(const struct job_row *r)
{
	if (jscan_key_is(&r->v[JF_STATE], "RUNNING") ||
	    jscan_key_is(&r->v[JF_STATE], "PREEMPTING"))
		return (ROLE_RUNNING);
	return (ROLE_PENDING);
}

struct pane_queues_draw {
	struct grid		*g;
	const struct rect	*r;
	struct view		*v;
};

static void
pane_queues_line(void *arg, long row, const char *s, size_t len)
{
	struct pane_queues_draw	*d = arg;
	const struct rect	*r = d->r;
	struct view		*v = d->v;
	enum color_role		 role;
	int			 y;

	if (row < 0) {
		grid_put(d->g, r->y + 1, r->x + 1, r->w - 1, s, len,
		    ROLE_HEADING);
		return;
	}
	if (row < v->top[PANE_QUEUES] ||
	    row >= v->top[PANE_QUEUES] + v->rows[PANE_QUEUES])
		return;
	y = r->y + 2 + (int)(row - v->top[PANE_QUEUES]);
	role = pane_queues_role(pane_queues_order[row]);
	/* The job that starts next when GPUs allow. */
	if (pane_queues_rank(pane_queues_order[row]) == 1) {
		role = ROLE_NEXT;
		grid_puts(d->g, y, r->x, 1, ">", ROLE_NEXT);
	}
	if (v->focus == PANE_QUEUES && row == v->sel[PANE_QUEUES]) {
		grid_paint(d->g, y, r->x, r->w, ROLE_SELECTED);
		role = ROLE_SELECTED;
	}
	grid_put(d->g, y, r->x + 1, r->w - 1, s, len, role);
}

/* " (Q0 < 1:00:00, Q1 < 10:00:00, Q2)": each level's threshold of
 * attained GPU-time, as PING gives them; "" before PING has answered or
 * with one level. */
static const char *
pane_queues_levels(const struct view *v, char *buf, size_t len)
{
	const json_t	*t = json_object_get(json_object_get(v->m->ping,
			    "scheduler"), "thresholds");
	char		 d[32];
	size_t		 i, n = 0;

	buf[0] = '\0';
	if (json_array_size(t) == 0)
		return (buf);
	for (i = 0; i < json_array_size(t) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sQ%zu < %s", i == 0 ?
		    " (" : ", ", i, duration_format((uint64_t)
		    json_integer_value(json_array_get(t, i)), d, sizeof d));
	if (n < len)
		snprintf(buf + n, len - n, ", Q%zu)", i);
	return (buf);
}

static void
pane_queues_draw(struct grid *g, const struct rect *r, struct view *v)
{
	struct pane_queues_draw	 d = { g, r, v };
	const struct model_jobs	*jobs = &v->m->jobs;
	char			 title[768], levels[256];
	size_t			 i, running = 0;

	if (pane_queues_table == NULL)
		pane_queues_table = table_create(job_row_cols, job_row_ncols,
		    PANE_QUEUES_COLS);
	if (jobs->n > pane_queues_size) {
		pane_queues_size = jobs->n;
		pane_queues_order = reallocarray(pane_queues_order,
		    pane_queues_size, sizeof *pane_queues_order);
		if (pane_queues_order == NULL)
			abort();
	}
	for (i = 0; i < jobs->n; i++) {
		pane_queues_order[i] = &jobs->rows[i];
		running += pane_queues_role(&jobs->rows[i]) == ROLE_RUNNING;
	}
	pane_queues_sort_key = v->sort == 0 ? -1 :
	    job_row_sort_key(pane_queues_sorts[v->sort]);
	if (jobs->n > 0)
		qsort(pane_queues_order, jobs->n, sizeof *pane_queues_order,
		    pane_queues_cmp);
	snprintf(title, sizeof title, "Queues%s: %zu jobs, %zu running, %zu "
	    "waiting%s%s%s%s%s%s", pane_queues_levels(v, levels,
	    sizeof levels), jobs->n, running, jobs->n - running, v->sort != 0 ?
	    ", by " : "", v->sort != 0 ? pane_queues_sorts[v->sort] : "",
	    v->mine ? ", mine" : "", v->filter[0] != '\0' ? ", filter \"" :
	    "", v->filter, v->filter[0] != '\0' ? "\"" : "");
	pane_title(g, r, title, v->focus == PANE_QUEUES);
	v->rows[PANE_QUEUES] = r->h > 2 ? r->h - 2 : 0;
	v->items[PANE_QUEUES] = (int)jobs->n;
	if (v->sel[PANE_QUEUES] >= (int)jobs->n)
		v->sel[PANE_QUEUES] = jobs->n > 0 ? (int)jobs->n - 1 : 0;
	(void)pane_move(v, PANE_QUEUES, 0, (int)jobs->n);
	table_clear(pane_queues_table);
	for (i = 0; i < jobs->n; i++)
		table_add(pane_queues_table, pane_queues_order[i], NULL);
	table_render(pane_queues_table, true, pane_queues_line, &d);
	if (jobs->n == 0)
		grid_puts(g, r->y + 2, r->x + 1, r->w - 1, "no pending or "
		    "running jobs", ROLE_DIM);
}

const struct job_row *
pane_queues_selected(const struct view *v)
{
	int	s = v->sel[PANE_QUEUES];

	if (s < 0 || (size_t)s >= v->m->jobs.n || pane_queues_order == NULL)
		return (NULL);
	return (pane_queues_order[s]);
}

static int
pane_queues_key(struct view *v, int ch)
{
	int	n = (int)v->m->jobs.n;

	switch (ch) {
	case 'j':
		return (pane_move(v, PANE_QUEUES, 1, n));
	case 'k':
		return (pane_move(v, PANE_QUEUES, -1, n));
	default:
		return (0);
	}
}

const struct pane_ops pane_queues = {
	"queues", pane_queues_draw, pane_queues_key
};
