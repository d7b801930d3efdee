/* scontrol.h: what scontrol's commands (scontrol.c) share with its show
 * records (scontrol-show.c). Nothing else includes it. */
#ifndef GB_SCONTROL_H
#define GB_SCONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "client/model.h"

/* show's subjects. id (a job id, "42_7", or NULL for every job gbatch
 * lists), name (a node's, or NULL for all). Each prints its records and
 * returns an exit status, with err set when it is not 0 (what Slurm's
 * scontrol says then). */
int	scontrol_show_job(struct model *, const char *id, bool oneline,
	    char *err, size_t errlen);
int	scontrol_show_node(struct model *, const char *name, bool oneline,
	    char *err, size_t errlen);
int	scontrol_show_partition(struct model *, const char *name,
	    bool oneline, char *err, size_t errlen);
int	scontrol_show_config(struct model *, char *err, size_t errlen);
/* show reservation [NAME]: each (or the one) as Slurm's record, or "No
 * reservations in the system". */
int	scontrol_show_resv(struct model *, const char *name, bool oneline,
	    char *err, size_t errlen);

#endif
