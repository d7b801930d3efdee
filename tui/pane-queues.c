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
/* For a pane too narrow for those: users, names and nodes cut to a
 * width, no GPU time, and reasons abbreviated ("Res", never "Resour"), so
 * that each row ends with why it waits at 80 columns. */
#define PANE_QUEUES_NARROW \
	"id,user:8,name:12,state,gpus,nodes:8,time,queue,reason"
static struct table		*pane_queues_short;
static struct table_col		*pane_queues_short_cols;
static const struct table_col	*pane_queues_reason_col;

/* A row with what the scheduler's order compares, read once per refresh
 * rather than at each of the sort's comparisons. */
struct pane_queues_item {
	long long		 level;
	long long		 rank;
	bool			 running;
	const struct job_row	*row;
};

/* The rows in the order drawn, and what they were sorted from: a frame
 * drawn for a key sorts nothing. */
static struct pane_queues_item	*pane_queues_order;
static size_t			 pane_queues_size;
static uint64_t			 pane_queues_gen;
static int			 pane_queues_sorted = -2;
static size_t			 pane_queues_running;
/* The sort in force while qsort runs: it takes no argument. */
static int			 pane_queues_sort_key = -1;

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
	/* What the / filter's partition= reads. */
	json_array_append_new(fields, json_string("partition"));
	/* What the GPUs pane counts by account. */
	json_array_append_new(fields, json_string("account"));
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
	const struct pane_queues_item	*a = pa, *b = pb;
	int				 c;

	if (pane_queues_sort_key != -1 && (c = job_row_compare(a->row,
	    b->row, pane_queues_sort_key)) != 0)
		return (c);
	if (pane_queues_sort_key == -1) {
		if (a->level != b->level)
			return (a->level < b->level ? -1 : 1);
		if (a->running != b->running)
			return (a->running ? -1 : 1);
		if (a->rank != b->rank)
			return (a->rank < b->rank ? -1 : 1);
	}
	/* Rows lie in the reply's order: keep it among equals. */
	return ((a->row > b->row) - (a->row < b->row));
}

/* Puts the model's jobs in the order drawn, when they or the sort changed
 * since the last frame. */
static void
pane_queues_sort(const struct view *v)
{
	const struct model_jobs	*jobs = &v->m->jobs;
	struct pane_queues_item	*it;
	size_t			 i;

	if (pane_queues_gen == v->m->jobs_gen && pane_queues_sorted ==
	    v->sort && pane_queues_order != NULL)
		return;
	pane_queues_gen = v->m->jobs_gen;
	pane_queues_sorted = v->sort;
	if (jobs->n > pane_queues_size || pane_queues_order == NULL) {
		pane_queues_size = jobs->n > 64 ? jobs->n : 64;
		pane_queues_order = reallocarray(pane_queues_order,
		    pane_queues_size, sizeof *pane_queues_order);
		if (pane_queues_order == NULL)
			abort();
	}
	pane_queues_running = 0;
	for (i = 0; i < jobs->n; i++) {
		it = &pane_queues_order[i];
		it->row = &jobs->rows[i];
		it->level = pane_queues_level(it->row);
		it->rank = pane_queues_rank(it->row);
		it->running = pane_queues_role(it->row) == ROLE_RUNNING;
		pane_queues_running += it->running;
	}
	pane_queues_sort_key = v->sort == 0 ? -1 :
	    job_row_sort_key(pane_queues_sorts[v->sort]);
	if (jobs->n > 0)
		qsort(pane_queues_order, jobs->n, sizeof *pane_queues_order,
		    pane_queues_cmp);
}

static enum color_role
pane_queues_role(const struct job_row *r)
{
	if (jscan_key_is(&r->v[JF_STATE], "RUNNING") ||
	    jscan_key_is(&r->v[JF_STATE], "PREEMPTING") ||
	    jscan_key_is(&r->v[JF_STATE], "SUSPENDED"))
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
	/* The table holds the rows shown, from the first one. */
	y = r->y + 2 + (int)row;
	row += v->top[PANE_QUEUES];
	role = pane_queues_order[row].running ? ROLE_RUNNING : ROLE_PENDING;
	/* The job that starts next when GPUs allow. */
	if (pane_queues_order[row].rank == 1) {
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

static const char *
pane_queues_get_reason(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_reason_short(pane_queues_reason_col->get(row, ctx,
	    buf, len)));
}

/* The short table: job_row_cols with the reason abbreviated. */
static struct table *
pane_queues_short_table(void)
{
	size_t	i;

	pane_queues_short_cols = calloc(job_row_ncols,
	    sizeof *pane_queues_short_cols);
	if (pane_queues_short_cols == NULL)
		abort();
	for (i = 0; i < job_row_ncols; i++) {
		pane_queues_short_cols[i] = job_row_cols[i];
		if (strcmp(job_row_cols[i].name, "reason") == 0) {
			pane_queues_reason_col = &job_row_cols[i];
			pane_queues_short_cols[i].get = pane_queues_get_reason;
		}
	}
	return (table_create(pane_queues_short_cols, job_row_ncols,
	    PANE_QUEUES_NARROW));
}

/* What a rendering is as wide as: its header line's width. */
static void
pane_queues_measure(void *arg, long row, const char *s, size_t len)
{
	(void)s;
	if (row < 0)
		*(size_t *)arg = len;
}

static void
pane_queues_draw(struct grid *g, const struct rect *r, struct view *v)
{
	struct pane_queues_draw	 d = { g, r, v };
	const struct model_jobs	*jobs = &v->m->jobs;
	struct table		*t;
	char			 title[768], levels[256];
	size_t			 i, running, width = 0;
	int			 end;

	if (pane_queues_table == NULL) {
		pane_queues_table = table_create(job_row_cols, job_row_ncols,
		    PANE_QUEUES_COLS);
		pane_queues_short = pane_queues_short_table();
	}
	pane_queues_sort(v);
	running = pane_queues_running;
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
	/* Only the rows shown are formatted: the columns fit them, and
	 * 10,000 jobs cost no more than a screenful. */
	table_clear(pane_queues_table);
	end = v->top[PANE_QUEUES] + v->rows[PANE_QUEUES];
	for (i = (size_t)v->top[PANE_QUEUES]; i < jobs->n && i < (size_t)end;
	    i++)
		table_add(pane_queues_table, pane_queues_order[i].row, NULL);
	/* Too wide for the pane: the reasons abbreviated, rather than
	 * cut at the edge. */
	t = pane_queues_table;
	table_render(t, true, pane_queues_measure, &width);
	if (width > (size_t)(r->w > 1 ? r->w - 1 : 0)) {
		table_clear(pane_queues_short);
		for (i = (size_t)v->top[PANE_QUEUES]; i < jobs->n &&
		    i < (size_t)end; i++)
			table_add(pane_queues_short, pane_queues_order[i].row,
			    NULL);
		t = pane_queues_short;
	}
	table_render(t, true, pane_queues_line, &d);
	if (jobs->n == 0)
		grid_puts(g, r->y + 2, r->x + 1, r->w - 1, "no pending or "
		    "running jobs", ROLE_DIM);
}

const struct job_row *
pane_queues_selected(const struct view *v)
{
	int	s = v->sel[PANE_QUEUES];

	if (s < 0 || (size_t)s >= v->m->jobs.n || pane_queues_order == NULL ||
	    pane_queues_gen != v->m->jobs_gen)
		return (NULL);
	return (pane_queues_order[s].row);
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
