/* ui.c: the terminal through ncurses (ui.h). */
#include <curses.h>
#include <string.h>

#include "tui/ui.h"

static attr_t	ui_attr[ROLE_COUNT];
static int	ui_mouse_y, ui_mouse_x, ui_mouse_button;

/* A role's colours, foreground and background (-1: the terminal's). */
static const struct {
	short	fg, bg;
	attr_t	extra;
	attr_t	mono;		/* without colours */
} ui_roles[ROLE_COUNT] = {
	[ROLE_NORMAL] = { -1, -1, 0, A_NORMAL },
	[ROLE_TITLE] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[ROLE_HEADING] = { -1, -1, A_BOLD, A_BOLD },
	[ROLE_SELECTED] = { COLOR_BLACK, COLOR_WHITE, 0, A_REVERSE },
	[ROLE_RUNNING] = { COLOR_GREEN, -1, 0, A_BOLD },
	[ROLE_PENDING] = { COLOR_YELLOW, -1, 0, A_NORMAL },
	[ROLE_NEXT] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_FREE] = { -1, -1, A_DIM, A_DIM },
	[ROLE_DOWN] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_DRAINED] = { COLOR_MAGENTA, -1, 0, A_UNDERLINE },
	[ROLE_ALERT] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[ROLE_METER] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[ROLE_DIM] = { -1, -1, A_DIM, A_DIM },
	[ROLE_JOB0] = { COLOR_BLACK, COLOR_GREEN, 0, A_REVERSE },
	[ROLE_JOB1] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[ROLE_JOB2] = { COLOR_BLACK, COLOR_YELLOW, 0, A_REVERSE },
	[ROLE_JOB3] = { COLOR_BLACK, COLOR_MAGENTA, 0, A_REVERSE },
	[ROLE_JOB4] = { COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	[ROLE_JOB5] = { COLOR_BLACK, COLOR_WHITE, 0, A_REVERSE },
};

void
ui_start(bool mono)
{
	int	i;

	initscr();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* Clicks select panes and rows, the wheel scrolls; a click is taken
	 * at the press, so a slow one still counts. */
	mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	if (!mono && has_colors() && start_color() == OK) {
		use_default_colors();
		for (i = 1; i < ROLE_COUNT && i < COLOR_PAIRS; i++) {
			init_pair((short)i, ui_roles[i].fg, ui_roles[i].bg);
			ui_attr[i] = COLOR_PAIR(i) | ui_roles[i].extra;
		}
		ui_attr[ROLE_NORMAL] = A_NORMAL;
		return;
	}
	for (i = 0; i < ROLE_COUNT; i++)
		ui_attr[i] = ui_roles[i].mono;
}

void
ui_stop(void)
{
	endwin();
}

void
ui_size(int *h, int *w)
{
	getmaxyx(stdscr, *h, *w);
}

void
ui_show(const struct grid *g)
{
	const struct grid_cell	*c;
	char			 run[4096];
	size_t			 n;
	int			 y, x, start, h, w;

	getmaxyx(stdscr, h, w);
	for (y = 0; y < g->h && y < h; y++) {
		for (x = 0; x < g->w && x < w; x = start) {
			c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			start = x;
			n = 0;
			/* A run of cells of one role, written at once. */
			while (start < g->w && start < w && c->role ==
			    g->cells[(size_t)y * (size_t)g->w +
			    (size_t)start].role && n + 5 < sizeof run) {
				const char *ch = g->cells[(size_t)y *
				    (size_t)g->w + (size_t)start].ch;
				size_t k = strlen(ch);

				memcpy(run + n, ch, k);
				n += k;
				start++;
			}
			run[n] = '\0';
			attrset(ui_attr[c->role]);
			/* The bottom-right cell cannot be written without
			 * scrolling: leave it. */
			if (y == h - 1 && start == w)
				run[n - strlen(g->cells[(size_t)y * (size_t)g->w
				    + (size_t)start - 1].ch)] = '\0';
			mvaddstr(y, x, run);
		}
	}
	attrset(A_NORMAL);
	wnoutrefresh(stdscr);
	doupdate();
}

int
ui_key(int ms)
{
	MEVENT	ev;
	int	ch;

	timeout(ms < 0 ? 0 : ms);
	ch = getch();
	switch (ch) {
	case ERR:
		return (-1);
	case KEY_RESIZE:
		return (UI_RESIZE);
	case KEY_MOUSE:
		if (getmouse(&ev) != OK)
			return (-1);
		ui_mouse_y = ev.y;
		ui_mouse_x = ev.x;
		if (ev.bstate & BUTTON4_PRESSED)
			ui_mouse_button = 1;
		else if (ev.bstate & BUTTON5_PRESSED)
			ui_mouse_button = 2;
		else if (ev.bstate & BUTTON1_PRESSED)
			ui_mouse_button = 0;
		else
			return (-1);
		return (UI_MOUSE);
	case KEY_DOWN:
		return ('j');
	case KEY_UP:
		return ('k');
	case KEY_ENTER:
		return ('\r');
	case KEY_BACKSPACE:
		return (127);
	default:
		return (ch);
	}
}

void
ui_mouse(int *y, int *x, int *button)
{
	*y = ui_mouse_y;
	*x = ui_mouse_x;
	*button = ui_mouse_button;
}
