/* screen.h: gtop's whole screen, drawn into a grid by the panes where the
 * layout puts them, with the help box and the bottom line: the same for
 * the terminal and for gtop --once. */
#ifndef GB_SCREEN_H
#define GB_SCREEN_H

#include "tui/grid.h"
#include "tui/pane.h"

/* Draws v into g (cleared first), with the bottom line keys.h gives for v
 * (none for gtop --once) and the help over the panes when asked. */
void	screen_draw(struct grid *g, struct view *v);
/* The height a frame of width w needs to show every job and node. */
int	screen_full_height(const struct view *v, int w);

#endif
