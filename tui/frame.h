/* frame.h: one frame of gtop, drawn into a grid by the panes where the
 * layout puts them: the same for the screen and for gtop --once. */
#ifndef GB_FRAME_H
#define GB_FRAME_H

#include "tui/grid.h"
#include "tui/pane.h"

/* Draws v into g (cleared first), with the bottom line keys.h gives for v
 * (none for gtop --once) and the help over the panes when asked. */
void	frame_draw(struct grid *g, struct view *v);
/* The height a frame of width w needs to show every job and node. */
int	frame_full_height(const struct view *v, int w);

#endif
