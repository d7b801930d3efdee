/* pane.h: gtop's panes, as modules with an ops table (STYLE.md 9). A pane
 * draws a function of the view into its rectangle of a grid (grid.h); its
 * key handler returns what the loop must do, as htop's handlers do. */
#ifndef GB_PANE_H
#define GB_PANE_H

#include <stdbool.h>
#include <time.h>

#include "client/model.h"
#include "tui/grid.h"
#include "tui/layout.h"

enum pane_id {
	PANE_QUEUES,
	PANE_GPUS,
	PANE_COUNT
};

/* What the keys go to: the panes, or a question on the bottom line. */
enum view_mode {
	VIEW_NORMAL,
	VIEW_CONFIRM,		/* "cancel job 42? y/n" */
	VIEW_FILTER,		/* typing the filter after / */
	VIEW_HELP,		/* the keys, over the panes */
	VIEW_DETAIL,		/* one job, over the panes (Enter) */
};

/* What gtop shows and where the user is in it. */
struct view {
	struct model	*m;
	time_t		 now;
	unsigned	 interval;		/* seconds between refreshes */
	unsigned	 idle_after;		/* an allocated GPU this long
						 * under 5% busy is idle */
	bool		 once;			/* gtop --once: no footer */
	bool		 utf8;			/* the charset is UTF-8 */
	enum pane_id	 focus;
	int		 sel[PANE_COUNT];	/* the selected row of each */
	int		 top[PANE_COUNT];	/* the first row shown */
	int		 rows[PANE_COUNT];	/* rows each had last drawn */
	int		 items[PANE_COUNT];	/* what j/k move over */
	bool		 by_node;		/* w: a row per node always */
	enum view_mode	 mode;
	enum model_action action;		/* VIEW_CONFIRM: what y does */
	uint64_t	 action_id;		/* and to which job */
	char		 action_name[48];	/* it as users name it */
	bool		 action_node;		/* to a node, action_name */
	char		 input[128];		/* VIEW_FILTER: typed so far */
	char		 filter[128];		/* the filter in force */
	bool		 mine;			/* u: my jobs only */
	int		 window;		/* the JCT pane's: 0, 1, 2 */
	int		 sort;			/* the queues': pane_queues_sorts */
	bool		 acct_stale;		/* ask for the reports now */
	uint64_t	 detail_id;		/* VIEW_DETAIL: the job */
	int		 detail_top;		/* its first line shown */
	char		 status[1280];		/* the last action's outcome */
	struct layout	 layout;		/* where the last frame put the
						 * panes, for the mouse */
};

/* What a key handler asks of the loop. */
#define PANE_HANDLED	0x1	/* the key meant something here */
#define PANE_REDRAW	0x2	/* draw the frame again */
#define PANE_REFRESH	0x4	/* ask the controller now */
#define PANE_QUIT	0x8

struct pane_ops {
	const char	*name;
	void		(*draw)(struct grid *, const struct rect *,
			    struct view *);
	/* Returns PANE_* flags; 0 when the key is not the pane's. */
	int		(*key)(struct view *, int ch);
};

extern const struct pane_ops	pane_header;
extern const struct pane_ops	pane_queues;
extern const struct pane_ops	pane_gpus;
extern const struct pane_ops	pane_detail;
extern const struct pane_ops	pane_jct;

/* The JCT pane's windows, in seconds (view.window picks one), and the
 * bins its sparklines cut the window into. */
#define PANE_JCT_WINDOWS	3
#define PANE_JCT_BINS		60
extern const int64_t	pane_jct_windows[PANE_JCT_WINDOWS];
/* Whether gpu (a NODE_LIST GPU) is allocated but idle: its job has held
 * it under 5% busy for v->idle_after seconds. */
bool		 pane_gpus_idle(const struct view *, const struct model_gpu *);

/* The rows the JCT pane would fill. */
int		 pane_jct_rows(const struct view *);

/* The JOB_LIST members the panes draw (a JSON array, made once). */
const json_t	*pane_queues_fields(void);
/* The queues pane's orders (view.sort picks one): the scheduler's first,
 * then by a column of gq's. */
#define PANE_QUEUES_NSORTS	7
extern const char *const pane_queues_sorts[PANE_QUEUES_NSORTS];
/* The job selected in the queues pane as last drawn, or NULL. */
const struct job_row *pane_queues_selected(const struct view *);

/* Moves v's selection in pane p by delta rows within n rows, keeping it on
 * the screen of h rows. Returns PANE_HANDLED | PANE_REDRAW. */
int		 pane_move(struct view *, enum pane_id p, int delta, int n);
/* Draws a pane's title line: text on a full-width bar. */
void		 pane_title(struct grid *, const struct rect *, const char *,
		     bool focused);

#endif
