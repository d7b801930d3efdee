/* gctl.h: what gctl.c shares with the files of its other verbs. */
#ifndef GB_GCTL_H
#define GB_GCTL_H

/* Prints "gctl: " fmt (with arg) and the pointer to help; returns
 * EXIT_USAGE (gctl-bad.c). */
int	gctl_bad(const char *fmt, const char *arg);

/* --timeout, for every call of the verb (0: none). */
extern unsigned	gctl_timeout;

/* gctl purge --before DATE (gctl-purge.c). */
int	gctl_purge(int argc, char **argv);

/* gctl ca ... and gctl cert ...: the cluster CA's files (gctl-cert.c), in
 * the program gctl-ca (gctl-ca.c) that gctl runs for them. */
int	gctl_ca(int argc, char **argv);
int	gctl_cert(int argc, char **argv);

#endif
