/* ui.h: the terminal, through ncurses: colour roles to attributes, and a
 * grid written to the screen with one doupdate(), so ncurses sends only
 * the cells that changed and the screen never flickers. */
#ifndef GB_UI_H
#define GB_UI_H

#include <stdbool.h>

#include "tui/grid.h"

/* Starts curses; colour unless mono (or the terminal has none). */
void	ui_start(bool mono);
void	ui_stop(void);
/* The screen's size. */
void	ui_size(int *h, int *w);
/* Writes g to the screen and updates it. */
void	ui_show(const struct grid *g);
/* Waits up to ms for a key: the key, or -1 on none. Arrow keys come back
 * as j and k, the resize event as UI_RESIZE. */
#define UI_RESIZE	0x10000
#define UI_MOUSE	0x10001	/* ui_mouse() says what and where */
int	ui_key(int ms);
/* The last UI_MOUSE: its cell and 0 for a click, 1 wheel up, 2 down. */
void	ui_mouse(int *y, int *x, int *button);

#endif
