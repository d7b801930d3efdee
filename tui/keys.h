/* keys.h: what a key does in gtop: the global keys (q, Tab, ?, /, u), the
 * actions on the selected job (c, H, R, Q, each asked first), the filter
 * typed after /, then the focused pane's own keys. No curses here: keys
 * arrive as characters (ui.c maps arrows to j and k), so the rules read
 * as a table and act through the model. */
#ifndef GB_KEYS_H
#define GB_KEYS_H

#include "tui/pane.h"

/* Escape, Enter and Backspace as keys_handle takes them. */
#define KEYS_ESC	27
#define KEYS_ENTER	'\r'
#define KEYS_BACKSPACE	127

/* Handles ch. Returns PANE_* flags: PANE_QUIT, PANE_REFRESH (ask the
 * controller now), PANE_REDRAW. */
int		 keys_handle(struct view *, int ch);
/* A mouse button at (y, x) of the last frame: a click selects the pane
 * and the row under it (a click on the selected job's row opens its
 * detail), the wheel moves the selection of the pane under it. */
enum keys_button {
	KEYS_CLICK,
	KEYS_WHEEL_UP,
	KEYS_WHEEL_DOWN,
};
int		 keys_mouse(struct view *, int y, int x, enum keys_button);
/* The bottom line for v: a question, the filter being typed, the last
 * action's outcome, or the keys. */
const char	*keys_footer(const struct view *, char *buf, size_t len);
/* The help text, a line per key (NULL-terminated). */
extern const char *const keys_help[];

#endif
