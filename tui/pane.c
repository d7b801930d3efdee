/* pane.c: what the panes share (pane.h). */
#include "tui/pane.h"

int
pane_move(struct view *v, enum pane_id p, int delta, int n)
{
	int	s = v->sel[p] + delta, h = v->rows[p];

	if (s >= n)
		s = n - 1;
	if (s < 0)
		s = 0;
	v->sel[p] = s;
	if (s < v->top[p])
		v->top[p] = s;
	if (h > 0 && s >= v->top[p] + h)
		v->top[p] = s - h + 1;
	return (PANE_HANDLED | PANE_REDRAW);
}

void
pane_title(struct grid *g, const struct rect *r, const char *text,
    bool focused)
{
	grid_paint(g, r->y, r->x, r->w, focused ? ROLE_TITLE : ROLE_HEADING);
	grid_puts(g, r->y, r->x + 1, r->w - 1, text, focused ? ROLE_TITLE :
	    ROLE_HEADING);
}
