/* frame.h: one frame of gtop, drawn into a grid by the panes where the
 * layout puts them: the same for the screen and for gtop --once. */
#ifndef GB_FRAME_H
#define GB_FRAME_H

#include "tui/grid.h"
#include "tui/pane.h"

/* Draws v into g (cleared first); footer is the bottom line's text. */
void	frame_draw(struct grid *g, struct view *v, const char *footer);
/* The height a frame of width w needs to show every job and node. */
int	frame_full_height(const struct view *v, int w);

#endif
