/* gctl.h: what gctl.c shares with the files of its other verbs. */
#ifndef GB_GCTL_H
#define GB_GCTL_H

#include <jansson.h>

/* --timeout, for every call of the verb (0: none). */
extern unsigned	gctl_timeout;

/* Sends req (consumed) and returns the exit status; *reply when wanted.
 * what (the verb, or NULL) prefixes gbatchd's refusals, which do not say
 * what was refused. */
int	gctl_call(json_t *req, json_t **reply, const char *what);

/* gctl account ..., gctl user ... (gctl-assoc.c). */
int	gctl_assoc_account(int argc, char **argv);
int	gctl_assoc_user(int argc, char **argv);

/* gctl reservation ... (gctl-resv.c). */
int	gctl_resv(int argc, char **argv);

/* gctl replica list, add, remove (gctl-replica.c). */
int	gctl_replica(int argc, char **argv);

/* gctl purge --before DATE (gctl-purge.c). */
int	gctl_purge(int argc, char **argv);

#endif
