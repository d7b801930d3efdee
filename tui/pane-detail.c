/* pane-detail.c: one job, over the panes (Enter on a job): what gq -l
 * prints (client/job-detail.h: every field, its output files, its history
 * of starts, preemptions and requeues with their nodes), then the last
 * lines of its output file when gtop runs where that file is readable. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/job-detail.h"
#include "tui/pane.h"

/* The tail read of an output file. */
#define PANE_DETAIL_TAIL	16384

struct pane_detail_lines {
	char	**v;
	int	  n;
};

static void
pane_detail_add(void *arg, const char *line)
{
	struct pane_detail_lines	*l = arg;

	l->v = reallocarray(l->v, (size_t)l->n + 1, sizeof *l->v);
	if (l->v == NULL || (l->v[l->n] = strdup(line)) == NULL)
		abort();
	l->n++;
}

/* The last lines of path that fit rows rows, drawn from row y. */
static void
pane_detail_tail(struct grid *g, const struct rect *r, int y,
    const char *path)
{
	char	 buf[PANE_DETAIL_TAIL + 1], msg[8400], *p, *line[256];
	ssize_t	 n;
	off_t	 size;
	int	 fd, k = 0, i, rows = r->y + r->h - y - 1;

	if (rows < 1)
		return;
	/* O_NONBLOCK: a FIFO in place of the file cannot hang gtop. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		snprintf(msg, sizeof msg, "output %s: not readable here (%s)",
		    path, strerror(errno));
		grid_puts(g, y, r->x + 1, r->w - 1, msg, ROLE_DIM);
		return;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size > PANE_DETAIL_TAIL)
		(void)lseek(fd, size - PANE_DETAIL_TAIL, SEEK_SET);
	else
		(void)lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, PANE_DETAIL_TAIL);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	snprintf(msg, sizeof msg, "output %s, its last lines:", path);
	grid_puts(g, y, r->x + 1, r->w - 1, msg, ROLE_HEADING);
	/* Split into lines; a cut first line is dropped. */
	for (p = buf; *p != '\0' && k < 256;) {
		line[k++] = p;
		if ((p = strchr(p, '\n')) == NULL)
			break;
		*p++ = '\0';
	}
	if (size > PANE_DETAIL_TAIL && k > 1)
		memmove(line, line + 1, (size_t)--k * sizeof *line);
	if (k > 0 && *line[k - 1] == '\0')
		k--;
	for (i = k > rows ? k - rows : 0; i < k; i++)
		grid_puts(g, ++y, r->x + 2, r->w - 2, line[i], ROLE_NORMAL);
}

/* How the detail is laid out at width w: its fields (the lines before
 * "history:") stand in two columns on a wide pane, row i holding fields i
 * and i + half; the history and what follows it take a row each. */
struct pane_detail_shape {
	int	fields;		/* lines before the history */
	int	half;		/* rows of the two columns; 0: one column */
	int	rows;		/* display rows in all */
};

static void
pane_detail_shape(const struct pane_detail_lines *l, int w,
    struct pane_detail_shape *s)
{
	for (s->fields = 0; s->fields < l->n; s->fields++) {
		if (strcmp(l->v[s->fields], "history:") == 0)
			break;
	}
	s->half = w >= 100 ? (s->fields + 1) / 2 : 0;
	s->rows = s->half != 0 ? s->half + (l->n - s->fields) : l->n;
}

/* Draws display row i of the detail at y. */
static void
pane_detail_row(struct grid *g, const struct rect *r, int y,
    const struct pane_detail_lines *l, const struct pane_detail_shape *s,
    int i)
{
	int	cw = (r->w - 2) / 2;

	if (s->half == 0) {
		grid_puts(g, y, r->x + 1, r->w - 1, l->v[i], ROLE_NORMAL);
		return;
	}
	if (i < s->half) {
		grid_puts(g, y, r->x + 1, cw - 1, l->v[i], ROLE_NORMAL);
		if (i + s->half < s->fields)
			grid_puts(g, y, r->x + 1 + cw, cw, l->v[i + s->half],
			    ROLE_NORMAL);
		return;
	}
	grid_puts(g, y, r->x + 1, r->w - 1, l->v[s->fields + i - s->half],
	    ROLE_NORMAL);
}

static void
pane_detail_draw(struct grid *g, const struct rect *r, struct view *v)
{
	struct pane_detail_lines	 l = { NULL, 0 };
	struct pane_detail_shape	 sh;
	const struct model_jobs		*job = &v->m->job;
	char				 title[128], path[8192];
	int				 i, y, shown;
	bool				 file;

	grid_erase(g, r->y, r->x, r->h, r->w);
	snprintf(title, sizeof title, "Job %llu (j/k scroll, Esc closes)",
	    (unsigned long long)v->detail_id);
	pane_title(g, r, title, true);
	y = r->y + 1;
	if (job->n == 0) {
		grid_puts(g, y, r->x + 1, r->w - 1, job->missing.type ==
		    JSCAN_ARRAY ? "gbatchd does not know this job any more" :
		    "asking gbatchd...", ROLE_DIM);
		return;
	}
	job_detail(&job->rows[0], pane_detail_add, &l);
	pane_detail_shape(&l, r->w, &sh);
	file = job_detail_file(&job->rows[0], JF_STDOUT, path,
	    sizeof path) == 0;
	/* The detail first; the output's end below it when rows are left,
	 * at least a few. */
	shown = r->h - 1;
	if (file && shown - sh.rows < 6 && shown > 12)
		shown -= 6;
	if (v->detail_top > sh.rows - 1)
		v->detail_top = sh.rows > 0 ? sh.rows - 1 : 0;
	for (i = v->detail_top; i < sh.rows && y < r->y + 1 + shown; i++)
		pane_detail_row(g, r, y++, &l, &sh, i);
	if (file && y < r->y + r->h - 1)
		pane_detail_tail(g, r, y + 1, path);
	for (i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
}

static int
pane_detail_key(struct view *v, int ch)
{
	switch (ch) {
	case 'j':
		v->detail_top++;
		return (PANE_HANDLED | PANE_REDRAW);
	case 'k':
		if (v->detail_top > 0)
			v->detail_top--;
		return (PANE_HANDLED | PANE_REDRAW);
	default:
		return (0);
	}
}

const struct pane_ops pane_detail = {
	"detail", pane_detail_draw, pane_detail_key
};
