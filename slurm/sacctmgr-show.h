/* sacctmgr-show.h: sacctmgr show account, user and association
 * (sacctmgr-show.c): their lines from ASSOC_LIST's reply (assoc-list.h)
 * in Slurm's columns and order. */
#ifndef GB_SACCTMGR_SHOW_H
#define GB_SACCTMGR_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "client/assoc-list.h"
#include "client/sacctmgr-words.h"

/* The columns sacctmgr can print, Slurm's (its Format= names). */
enum sacctmgr_show_field {
	SACCTMGR_SHOW_ACCOUNT,
	SACCTMGR_SHOW_ADMIN,
	SACCTMGR_SHOW_CLUSTER,
	SACCTMGR_SHOW_DEFACCT,
	SACCTMGR_SHOW_DESCR,
	SACCTMGR_SHOW_GRPJOBS,
	SACCTMGR_SHOW_GRPSUBMIT,
	SACCTMGR_SHOW_GRPTRES,
	SACCTMGR_SHOW_GRPTRESMINS,
	SACCTMGR_SHOW_MAXJOBS,
	SACCTMGR_SHOW_MAXSUBMIT,
	SACCTMGR_SHOW_MAXWALL,
	SACCTMGR_SHOW_ORG,
	SACCTMGR_SHOW_PARENT,
	SACCTMGR_SHOW_SHARE,
	SACCTMGR_SHOW_USER,
	SACCTMGR_SHOW_NFIELDS
};

struct sacctmgr_show_col {
	enum sacctmgr_show_field field;
	int			 width;		/* negative: left-justified */
	bool			 given;		/* width from Format='s %W */
};

#define SACCTMGR_SHOW_MAX_COLS	32

/* What the lines need beyond the listing: the cluster's name (PING's,
 * for Cluster) and who is an operator (CONFIG_SHOW's, for Admin). */
struct sacctmgr_show_ctx {
	const char	*cluster;	/* NULL: "" */
	const json_t	*operators;	/* names; root always is one */
};

/* The columns of w's show: its Format= (FIELD[%WIDTH][,...], Slurm's
 * names and abbreviations) or the command's default, into cols (at most
 * SACCTMGR_SHOW_MAX_COLS). Returns how many, or -1 with err naming the
 * field and those there are. */
int	sacctmgr_show_columns(const struct sacctmgr_words *w,
	    struct sacctmgr_show_col *cols, char *err, size_t errlen);
/* The fields' names, as Format= takes them, joined by ',' into buf.
 * Returns buf. */
char	*sacctmgr_show_names(char *buf, size_t len);
/* Whether the n columns hold field. */
bool	sacctmgr_show_has(const struct sacctmgr_show_col *cols, int n,
	    enum sacctmgr_show_field field);

/* Prints w's lines of l in the n columns to f: a header (unless
 * !header), then a line per account, user or association w selects, in
 * Slurm's order; parsable as slurm_fmt_field takes it. */
void	sacctmgr_show_print(FILE *f, const struct sacctmgr_words *w,
	    const struct assoc_list *l, const struct sacctmgr_show_col *cols,
	    int n, const struct sacctmgr_show_ctx *ctx, int parsable,
	    bool header);

#endif
