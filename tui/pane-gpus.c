/* pane-gpus.c: a row per node and a cell per GPU showing the job that holds
 * it in that job's colour (the queues pane's), free, down or drained. A
 * node whose GPUs do not fit at one cell of PANE_GPUS_CELL columns each
 * gets one character per GPU. When the nodes do not fit the pane's rows
 * (a cluster of 1,000 nodes), a row per switch sums its nodes' GPUs up
 * instead: busy, free, down and drained, counted and as a bar; w shows
 * the nodes again (j/k scroll), and back. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/pane.h"

/* A cell: the job id, right-aligned, and a space; with the GPU's use
 * known, its % busy too ("   42  37% "). */
#define PANE_GPUS_CELL		7
#define PANE_GPUS_CELL_USE	11
/* The most users the title counts GPUs of (the others are left out). */
#define PANE_GPUS_USERS		64

bool
pane_gpus_idle(const struct view *v, const struct model_gpu *gpu)
{
	return (gpu->job != 0 && gpu->low_since > 0 && v->now -
	    gpu->low_since >= (long long)v->idle_after);
}

static int
pane_gpus_name_width(const struct model_nodes *nodes)
{
	size_t	i, len;
	int	w = 4;

	for (i = 0; i < nodes->n; i++) {
		len = strlen(nodes->rows[i].name);
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

/* One GPU's cell of width cw (1, PANE_GPUS_CELL or PANE_GPUS_CELL_USE)
 * into cell, and its role. */
static enum color_role
pane_gpus_cell(const struct view *v, const struct model_gpu *gpu,
    enum color_role idle, int cw, char *cell, size_t len)
{
	char		 id[24], pct[16];
	bool		 lazy = pane_gpus_idle(v, gpu);

	/* A job as users name it ("42_7" for an array's task) where that
	 * fits the cell, else its own id; a free GPU by its state. */
	if (gpu->job == 0)
		snprintf(id, sizeof id, "%s", idle == ROLE_DOWN ? "x" :
		    idle == ROLE_DRAINED ? "d" : ".");
	else if (strlen(model_nodes_job_name(gpu, id, sizeof id)) >
	    PANE_GPUS_CELL - 1)
		snprintf(id, sizeof id, "%llu", (unsigned long long)gpu->job);
	if (cw == 1) {
		snprintf(cell, len, "%s", lazy ? "!" : gpu->job != 0 ? "#" :
		    id);
	} else if (cw == PANE_GPUS_CELL) {
		/* '+': other jobs share it (shards, time-slicing). */
		snprintf(cell, len, "%*s%s", PANE_GPUS_CELL - 1, id,
		    lazy ? "!" : *gpu->also != '\0' ? "+" : " ");
	} else {
		if (gpu->util >= 0)
			snprintf(pct, sizeof pct, "%d%%", gpu->util);
		else
			snprintf(pct, sizeof pct, "-");
		snprintf(cell, len, "%6s %3s%s", id, pct, lazy ? "!" :
		    *gpu->also != '\0' ? "+" : " ");
	}
	if (lazy)
		return (ROLE_ALERT);
	return (gpu->job != 0 ? color_job((unsigned long long)gpu->job) :
	    idle);
}

static void	pane_gpus_res(struct grid *, int, int, int,
		    const struct model_node *, bool);

static void
pane_gpus_node(struct grid *g, int y, int x, int w, const struct view *v,
    const struct model_node *node, int name_w, bool selected)
{
	const char	*name = *node->name != '\0' ? node->name : "?";
	const char	*state = *node->state != '\0' ? node->state : "?";
	enum color_role	 idle, role;
	char		 cell[64];
	size_t		 i, n = node->ngpus;
	int		 cx, cw, used;
	bool		 use = false;

	idle = pane_gpus_idle_role(state);
	if (selected)
		grid_paint(g, y, x, w, ROLE_SELECTED);
	grid_puts(g, y, x + 1, name_w, name, selected ? ROLE_SELECTED :
	    ROLE_NORMAL);
	grid_puts(g, y, x + 2 + name_w, 9, state, idle == ROLE_FREE ?
	    (selected ? ROLE_SELECTED : ROLE_DIM) : idle);
	cx = x + 2 + name_w + 10;
	for (i = 0; i < n; i++)
		use = use || node->gpus[i].util >= 0;
	/* The widest cells that fit: with the use, without, a character. */
	if (use && (int)n * PANE_GPUS_CELL_USE <= x + w - cx)
		cw = PANE_GPUS_CELL_USE;
	else if ((int)n * PANE_GPUS_CELL <= x + w - cx)
		cw = PANE_GPUS_CELL;
	else
		cw = 1;
	for (i = 0; i < n; i++) {
		role = pane_gpus_cell(v, &node->gpus[i], idle, cw, cell,
		    sizeof cell);
		used = grid_puts(g, y, cx, x + w - cx, cell, role);
		if (used == 0)
			break;
		/* The space between cells keeps the row's own colour. */
		if (cw != 1 && cell[strlen(cell) - 1] == ' ')
			grid_paint(g, y, cx + cw - 1, 1, selected ?
			    ROLE_SELECTED : ROLE_NORMAL);
		cx += cw;
	}
	/* Beside the GPUs, what jobs hold of the CPUs and memory the node
	 * said it has, where the row has room: a GPU can be free while the
	 * CPUs beside it are not. */
	if (i == n && node->cpus_total > 0)
		pane_gpus_res(g, y, cx + 1, x + w - cx - 1, node, selected);
}

/* "CPUs 6/16  mem 24/64G  CPU jobs 17,18" of a node at y, x (w columns),
 * as much of it as fits: the CPU jobs go first, then the memory. */
static void
pane_gpus_res(struct grid *g, int y, int x, int w,
    const struct model_node *node, bool selected)
{
	char	text[160];
	int	len, full;

	len = snprintf(text, sizeof text, "CPUs %lld/%lld", node->cpus_alloc,
	    node->cpus_total);
	if (node->mem_total > 0)
		len += snprintf(text + len, sizeof text - (size_t)len,
		    "  mem %lld/%lldG", (node->mem_alloc + 512) / 1024,
		    (node->mem_total + 512) / 1024);
	/* The ids came from gbatchd as numbers: digits and commas. */
	if (*node->cpu_jobs != '\0' && (full = len + snprintf(text + len,
	    sizeof text - (size_t)len, "  CPU jobs %s", node->cpu_jobs)) <= w &&
	    full < (int)sizeof text)
		len = full;
	else
		text[len] = '\0';
	if (len <= w)
		grid_puts(g, y, x, w, text, selected ? ROLE_SELECTED :
		    ROLE_DIM);
}

/* One switch's GPUs, summed up. */
struct pane_gpus_switch {
	const char	*name;		/* "" for nodes that name none */
	long long	 nodes;
	long long	 busy;		/* allocated, on a node up */
	long long	 free;
	long long	 down;
	long long	 drained;	/* not allocated, on a drained node */
};

/* Sums nodes up by switch, in the order they first appear. Returns how
 * many switches (at most max). */
static size_t
pane_gpus_switches(const struct model_nodes *nodes,
    struct pane_gpus_switch *sw, size_t max)
{
	const struct model_node	*n;
	const char		*name, *state;
	long long		 total, alloc;
	size_t			 i, k, count = 0;

	for (i = 0; i < nodes->n; i++) {
		n = &nodes->rows[i];
		name = n->sw;
		state = n->state;
		for (k = 0; k < count && strcmp(sw[k].name, name) != 0; k++)
			continue;
		if (k == count) {
			if (count == max)
				continue;
			memset(&sw[count], 0, sizeof sw[count]);
			sw[count++].name = name;
		}
		total = n->gpus_total;
		alloc = n->gpus_alloc;
		sw[k].nodes++;
		if (strcmp(state, "down") == 0) {
			sw[k].down += total;
			continue;
		}
		sw[k].busy += alloc;
		if (strcmp(state, "drained") == 0)
			sw[k].drained += total - alloc;
		else
			sw[k].free += total - alloc;
	}
	return (count);
}

/* A switch's row: its name, counts and a bar of its GPUs. */
static void
pane_gpus_switch_row(struct grid *g, int y, const struct rect *r,
    const struct pane_gpus_switch *s, bool selected)
{
	static const struct {
		char		ch[2];
		enum color_role	role;
	} parts[] = {
		{ "#", ROLE_RUNNING }, { ".", ROLE_FREE }, { "d", ROLE_DRAINED },
		{ "x", ROLE_DOWN },
	};
	long long	 n[4] = { s->busy, s->free, s->drained, s->down };
	long long	 total = s->busy + s->free + s->drained + s->down;
	char		 text[160];
	long long	 cum;
	int		 x, bw, i, k, cells, done;

	if (selected)
		grid_paint(g, y, r->x, r->w, ROLE_SELECTED);
	snprintf(text, sizeof text, "%-12.12s %5lld nodes %6lld GPUs",
	    *s->name != '\0' ? s->name : "(no switch)", s->nodes, total);
	x = r->x + 1 + grid_puts(g, y, r->x + 1, r->w - 1, text, selected ?
	    ROLE_SELECTED : ROLE_NORMAL) + 2;
	snprintf(text, sizeof text, "  %lld busy, %lld free, %lld drained, "
	    "%lld down", s->busy, s->free, s->drained, s->down);
	bw = r->x + r->w - x - (int)strlen(text) - 2;
	if (bw > 64)
		bw = 64;
	if (bw >= 8 && total > 0) {
		grid_puts(g, y, x++, 1, "[", ROLE_NORMAL);
		/* Each part ends where its share of the GPUs so far ends, so
		 * the parts fill the bar exactly. */
		for (i = 0, cum = 0, done = 0; i < 4; i++) {
			cum += n[i];
			cells = (int)((cum * bw + total / 2) / total) - done;
			if (cells == 0 && n[i] > 0 && done < bw)
				cells = 1;
			for (k = 0; k < cells && done < bw; k++, done++)
				grid_puts(g, y, x++, 1, parts[i].ch,
				    parts[i].role);
		}
		grid_puts(g, y, x++, 1, "]", ROLE_NORMAL);
	}
	grid_puts(g, y, x, r->x + r->w - x, text, selected ? ROLE_SELECTED :
	    ROLE_NORMAL);
}

static void
pane_gpus_draw_switches(struct grid *g, const struct rect *r, struct view *v,
    const struct model_nodes *nodes)
{
	static struct pane_gpus_switch	 sw[1024];
	size_t				 count, i;
	int				 y;

	count = pane_gpus_switches(nodes, sw, sizeof sw / sizeof sw[0]);
	v->items[PANE_GPUS] = (int)count;
	(void)pane_move(v, PANE_GPUS, 0, (int)count);
	for (i = (size_t)v->top[PANE_GPUS]; i < count; i++) {
		y = r->y + 1 + (int)i - v->top[PANE_GPUS];
		if (y >= r->y + r->h)
			break;
		pane_gpus_switch_row(g, y, r, &sw[i], v->focus == PANE_GPUS &&
		    (int)i == v->sel[PANE_GPUS]);
	}
}

/* A user's (key "user") or an account's (key "account", on its own
 * line) normalised share as fair share has it, the user's summed over
 * their associations; -1 when fair share is off or has none. */
static double
pane_gpus_share(const struct view *v, const char *key, const char *name)
{
	const struct assoc_list_fs	*f;
	bool				 user = strcmp(key, "user") == 0;
	double				 sum = -1;
	size_t				 i;

	for (i = 0; i < v->m->assoc.nfs; i++) {
		f = &v->m->assoc.fs[i];
		if (user ? f->user == NULL || strcmp(f->user, name) != 0 :
		    f->user != NULL || strcmp(f->account, name) != 0)
			continue;
		sum = (sum < 0 ? 0 : sum) + f->norm_shares;
	}
	return (sum);
}

/* Who holds the GPUs (key "user", or "account"): the running jobs listed
 * by that field, most GPUs first, into buf (", by user: alice 8, bob 4, 2
 * more"), each with its share where fair share is on ("alice 8 of 50%");
 * "" when none. The jobs listed are those the queues pane shows (its
 * filter too). */
static void
pane_gpus_holders(const struct view *v, const char *key, char *buf,
    size_t len)
{
	struct {
		char		 name[64];
		long long	 gpus;
	}			 u[PANE_GPUS_USERS], t;
	const struct job_row	*row;
	long long		 gpus;
	double			 share;
	size_t			 i, k, n = 0, at;
	char			 name[64];

	buf[0] = '\0';
	for (i = 0; i < v->m->jobs.n; i++) {
		row = &v->m->jobs.rows[i];
		if ((!jscan_key_is(&row->v[JF_STATE], "RUNNING") &&
		    !jscan_key_is(&row->v[JF_STATE], "PREEMPTING") &&
		    !jscan_key_is(&row->v[JF_STATE], "SUSPENDED")) ||
		    (gpus = job_row_gpus_held(row)) <= 0)
			continue;
		jscan_string(&row->v[strcmp(key, "user") == 0 ? JF_USER :
		    JF_ACCOUNT], name, sizeof name);
		if (name[0] == '\0')
			continue;
		for (k = 0; k < n && strcmp(u[k].name, name) != 0; k++)
			continue;
		if (k == n) {
			if (n == PANE_GPUS_USERS)
				continue;
			snprintf(u[n].name, sizeof u[n].name, "%s", name);
			u[n++].gpus = 0;
		}
		u[k].gpus += gpus;
	}
	/* Most first (a few users: an insertion sort). */
	for (i = 1; i < n; i++) {
		t = u[i];
		for (k = i; k > 0 && u[k - 1].gpus < t.gpus; k--)
			u[k] = u[k - 1];
		u[k] = t;
	}
	at = 0;
	for (i = 0; i < n && i < 4 && at < len; i++) {
		at += (size_t)snprintf(buf + at, len - at, "%s%s %lld",
		    i == 0 ? (strcmp(key, "user") == 0 ? ", by user: " :
		    "; by account: ") : ", ", u[i].name, u[i].gpus);
		if (at < len && (share = pane_gpus_share(v, key,
		    u[i].name)) >= 0)
			at += (size_t)snprintf(buf + at, len - at, " of %.0f%%",
			    share * 100);
	}
	if (n > 4 && at < len)
		snprintf(buf + at, len - at, ", %zu more", n - 4);
}

static void
pane_gpus_draw(struct grid *g, const struct rect *r, struct view *v)
{
	const struct model_nodes	*nodes = &v->m->nodes;
	long long			 total = 0, alloc = 0;
	char				 title[1024], users[320], accounts[320];
	size_t				 i, count = nodes->n;
	int				 name_w = pane_gpus_name_width(nodes), y;
	bool				 summary;

	for (i = 0; i < count; i++) {
		total += nodes->rows[i].gpus_total;
		alloc += nodes->rows[i].gpus_alloc;
	}
	v->rows[PANE_GPUS] = r->h > 1 ? r->h - 1 : 0;
	summary = (int)count > v->rows[PANE_GPUS] && !v->by_node;
	pane_gpus_holders(v, "user", users, sizeof users);
	pane_gpus_holders(v, "account", accounts, sizeof accounts);
	snprintf(title, sizeof title, "GPUs: %lld of %lld allocated on %zu "
	    "nodes%s%s%s", alloc, total, count, users, accounts, summary ?
	    ", a row per "
	    "switch (w: per node)" : v->by_node ? " (w: per switch)" : "");
	pane_title(g, r, title, v->focus == PANE_GPUS);
	if (summary) {
		pane_gpus_draw_switches(g, r, v, nodes);
		return;
	}
	v->items[PANE_GPUS] = (int)count;
	(void)pane_move(v, PANE_GPUS, 0, (int)count);
	for (i = (size_t)v->top[PANE_GPUS]; i < count; i++) {
		y = r->y + 1 + (int)i - v->top[PANE_GPUS];
		if (y >= r->y + r->h)
			break;
		pane_gpus_node(g, y, r->x, r->w, v, &nodes->rows[i], name_w, v->focus == PANE_GPUS && (int)i == v->sel[PANE_GPUS]);
	}
	if (count == 0 && r->h > 1)
		grid_puts(g, r->y + 1, r->x + 1, r->w - 1, "no nodes",
		    ROLE_DIM);
}

static int
pane_gpus_key(struct view *v, int ch)
{
	int	n = v->items[PANE_GPUS];

	switch (ch) {
	case 'w':
		v->by_node = !v->by_node;
		v->sel[PANE_GPUS] = v->top[PANE_GPUS] = 0;
		return (PANE_HANDLED | PANE_REDRAW);
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
