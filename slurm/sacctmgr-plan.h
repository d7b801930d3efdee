/* sacctmgr-plan.h: what sacctmgr's add, modify and delete do to
 * gbatchd's accounts and users (sacctmgr-plan.c): the ASSOC requests, one
 * a change, each with the requests that would put things back as the
 * listing found them, and the report Slurm's sacctmgr prints before it
 * asks to commit. gbatchd takes one change a request; so that a command
 * of several changes (a list of names, a user in several accounts) does
 * all or none, a change refused undoes those before it. */
#ifndef GB_SACCTMGR_PLAN_H
#define GB_SACCTMGR_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "client/assoc-list.h"
#include "client/model.h"
#include "client/sacctmgr-words.h"

struct sacctmgr_step {
	json_t	*req;		/* an ASSOC request */
	json_t	*undo;		/* the ASSOC requests that undo it */
};

struct sacctmgr_plan {
	struct sacctmgr_step	*v;
	size_t			 n;
	char			*report;	/* Slurm's words for it */
};

/* Lays out w's changes (add, modify or delete) against l, the accounts
 * and users as they stand, into p. Returns 0, or -1 with err when w asks
 * what l says cannot be (no such account or association to change, a
 * default account the user is not in); p is then empty. What gbatchd
 * alone judges (names, a parent below the account, ...) it says when the
 * plan runs. */
int	sacctmgr_plan_make(const struct sacctmgr_words *w,
	    const struct assoc_list *l, struct sacctmgr_plan *p, char *err,
	    size_t errlen);
/* Sends p's requests on m's connection in order. At the first refused,
 * sends the undo requests of those before it, last first. Returns 0, or
 * the exit status of the refusal with err holding gbatchd's message and
 * whether what came before was undone. Blocks up to m's timeout a
 * request. */
int	sacctmgr_plan_run(const struct sacctmgr_plan *p, struct model *m,
	    char *err, size_t errlen);
void	sacctmgr_plan_free(struct sacctmgr_plan *p);

#endif
