/* color.h: what a cell's colour means, not which colour it is (htop's
 * way): panes say "running job", ui.c picks the pair, or on a terminal
 * without colours (or with --no-color, or NO_COLOR set) an attribute
 * that still tells the roles apart. */
#ifndef GB_COLOR_H
#define GB_COLOR_H

enum color_role {
	ROLE_NORMAL = 0,
	ROLE_TITLE,		/* a pane's title line */
	ROLE_HEADING,		/* column headings */
	ROLE_SELECTED,		/* the selected row */
	ROLE_RUNNING,		/* a running job, a busy GPU */
	ROLE_PENDING,		/* a waiting job */
	ROLE_NEXT,		/* the job that starts next */
	ROLE_FREE,		/* a free GPU */
	ROLE_DOWN,		/* a node or GPU that is down */
	ROLE_DRAINED,		/* drained */
	ROLE_ALERT,		/* the controller unreachable, an error */
	ROLE_METER,		/* the filled part of a meter */
	ROLE_DIM,		/* secondary text */
	ROLE_JOB0,		/* ROLE_JOB0 + k: the k-th job colour */
	ROLE_JOB1,
	ROLE_JOB2,
	ROLE_JOB3,
	ROLE_JOB4,
	ROLE_JOB5,
	ROLE_COUNT
};

#define COLOR_NJOBS	6

/* The colour role of job id: the same in every pane. */
static inline enum color_role
color_job(unsigned long long id)
{
	return ((enum color_role)(ROLE_JOB0 + id % COLOR_NJOBS));
}

#endif
