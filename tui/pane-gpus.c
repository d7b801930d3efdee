/* pane-gpus.c: a row per node and a cell per GPU showing the job that holds
 * it in that job's colour (the queues pane's), free, down or drained. A
 * node whose GPUs do not fit at one cell of PANE_GPUS_CELL columns each
 * gets one character per GPU. */
#include <stdio.h>
#include <string.h>

#include "tui/pane.h"

/* A cell: the job id, right-aligned, and a space. */
#define PANE_GPUS_CELL	7

static int
pane_gpus_name_width(const json_t *nodes)
{
	const json_t	*n;
	size_t		 i, len;
	int		 w = 4;

	json_array_foreach(nodes, i, n) {
		len = strlen(json_string_value(json_object_get(n, "name")) !=
		    NULL ? json_string_value(json_object_get(n, "name")) : "");
		if ((int)len > w)
			w = (int)len;
	}
	return (w > 24 ? 24 : w);
}

/* The role of a node's GPUs that no job holds. */
static enum color_role
pane_gpus_idle_role(const char *state)
{
	if (strcmp(state, "down") == 0)
		return (ROLE_DOWN);
	if (strcmp(state, "drained") == 0)
		return (ROLE_DRAINED);
	return (ROLE_FREE);
}

static void
pane_gpus_node(struct grid *g, int y, int x, int w, const json_t *node,
    int name_w, bool selected)
{
	const char	*name = json_string_value(json_object_get(node, "name"));
	const char	*state = json_string_value(json_object_get(node,
			    "state"));
	const json_t	*gpus = json_object_get(node, "gpus"), *gpu, *job;
	enum color_role	 idle, role;
	char		 cell[32];
	size_t		 i, n = json_array_size(gpus);
	int		 cx, cw, used;

	if (name == NULL)
		name = "?";
	if (state == NULL)
		state = "?";
	idle = pane_gpus_idle_role(state);
	if (selected)
		grid_paint(g, y, x, w, ROLE_SELECTED);
	grid_puts(g, y, x + 1, name_w, name, selected ? ROLE_SELECTED :
	    ROLE_NORMAL);
	grid_puts(g, y, x + 2 + name_w, 9, state, idle == ROLE_FREE ?
	    (selected ? ROLE_SELECTED : ROLE_DIM) : idle);
	cx = x + 2 + name_w + 10;
	cw = (int)n * PANE_GPUS_CELL <= x + w - cx ? PANE_GPUS_CELL : 1;
	json_array_foreach(gpus, i, gpu) {
		job = json_object_get(gpu, "job");
		if (json_is_integer(job)) {
			role = color_job((unsigned long long)
			    json_integer_value(job));
			if (cw == 1)
				snprintf(cell, sizeof cell, "#");
			else
				snprintf(cell, sizeof cell, "%*lld ",
				    PANE_GPUS_CELL - 1,
				    (long long)json_integer_value(job));
		} else {
			role = idle;
			snprintf(cell, sizeof cell, "%*s", cw == 1 ? 1 :
			    PANE_GPUS_CELL - 1, idle == ROLE_DOWN ? "x" :
			    idle == ROLE_DRAINED ? "d" : ".");
			if (cw != 1)
				strcat(cell, " ");
		}
		used = grid_puts(g, y, cx, x + w - cx, cell, role);
		if (used == 0)
			break;
		/* The space between cells keeps the row's own colour. */
		if (cw != 1)
			grid_paint(g, y, cx + cw - 1, 1, selected ?
			    ROLE_SELECTED : ROLE_NORMAL);
		cx += cw;
	}
}

static void
pane_gpus_draw(struct grid *g, const struct rect *r, struct view *v)
{
	const json_t	*nodes = v->m->nodes, *n;
	long long	 total = 0, alloc = 0;
	char		 title[128];
	size_t		 i, count = json_array_size(nodes);
	int		 name_w = pane_gpus_name_width(nodes), y;

	json_array_foreach(nodes, i, n) {
		total += json_integer_value(json_object_get(n, "gpus_total"));
		alloc += json_integer_value(json_object_get(n, "gpus_alloc"));
	}
	snprintf(title, sizeof title, "GPUs: %lld of %lld allocated on %zu "
	    "nodes", alloc, total, count);
	pane_title(g, r, title, v->focus == PANE_GPUS);
	v->rows[PANE_GPUS] = r->h > 1 ? r->h - 1 : 0;
	(void)pane_move(v, PANE_GPUS, 0, (int)count);
	for (i = (size_t)v->top[PANE_GPUS]; i < count; i++) {
		y = r->y + 1 + (int)i - v->top[PANE_GPUS];
		if (y >= r->y + r->h)
			break;
		pane_gpus_node(g, y, r->x, r->w, json_array_get(nodes, i),
		    name_w, v->focus == PANE_GPUS && (int)i == v->sel[PANE_GPUS]);
	}
	if (count == 0 && r->h > 1)
		grid_puts(g, r->y + 1, r->x + 1, r->w - 1, "no nodes",
		    ROLE_DIM);
}

static int
pane_gpus_key(struct view *v, int ch)
{
	int	n = (int)json_array_size(v->m->nodes);

	switch (ch) {
	case 'j':
		return (pane_move(v, PANE_GPUS, 1, n));
	case 'k':
		return (pane_move(v, PANE_GPUS, -1, n));
	default:
		return (0);
	}
}

const struct pane_ops pane_gpus = {
	"gpus", pane_gpus_draw, pane_gpus_key
};
