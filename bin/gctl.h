/* gctl.h: what gctl.c shares with the files of its other verbs. */
#ifndef GB_GCTL_H
#define GB_GCTL_H

/* --timeout, for every call of the verb (0: none). */
extern unsigned	gctl_timeout;

/* gctl purge --before DATE (gctl-purge.c). */
int	gctl_purge(int argc, char **argv);

#endif
