/* grid.h: a frame of gtop as characters and colour roles, h rows of w
 * columns. Panes draw into a grid, never into curses: a pane is then a
 * function of the model and its rectangle that a C test reads back
 * (grid_row), gtop --once prints the grid as text, and the screen is
 * written from it in one pass (ui.c), so only the cells that changed
 * reach the terminal. Text put here is made safe first (safe-text.h): a
 * job name cannot move the cursor. */
#ifndef GB_GRID_H
#define GB_GRID_H

#include <stddef.h>

#include "tui/color.h"

struct grid_cell {
	char		ch[5];		/* one UTF-8 character, NUL-ended */
	unsigned char	role;		/* enum color_role */
};

struct grid {
	int			 h;
	int			 w;
	struct grid_cell	*cells;	/* h x w */
};

/* A grid of h x w blanks (h, w >= 1). */
struct grid	*grid_new(int h, int w);
void		 grid_free(struct grid *);
/* Blanks every cell. */
void		 grid_clear(struct grid *);

/* Writes len bytes of text at (y, x), escaped as safe-text.h does, one
 * cell per character, cut at column x + max (and at the grid's edge).
 * Returns the columns written. */
int		 grid_put(struct grid *, int y, int x, int max, const char *text,
		     size_t len, enum color_role);
/* The same for a NUL-terminated string. */
int		 grid_puts(struct grid *, int y, int x, int max,
		     const char *text, enum color_role);
/* Blanks h rows of w cells from (y, x). */
void		 grid_erase(struct grid *, int y, int x, int h, int w);
/* Gives n cells from (y, x) the role, keeping their characters. */
void		 grid_paint(struct grid *, int y, int x, int n,
		     enum color_role);
/* Row y as text without trailing blanks, into buf (NUL-terminated, cut to
 * len). Returns buf. */
char		*grid_row(const struct grid *, int y, char *buf, size_t len);

#endif
