/* gctl-cert.h: gctl cert, and the options it shares with gctl ca init
 * (gctl-ca.c); both are in the program gctl-ca, which gctl runs. */
#ifndef GB_GCTL_CERT_H
#define GB_GCTL_CERT_H

#include <stdbool.h>
#include <stddef.h>

#define GCTL_CERT_MAX_ALT	32

/* The options every ca and cert command takes. */
struct gctl_cert_opts {
	const char	*dir;
	unsigned	 days;		/* 0 until --days */
	bool		 force;
	int		 role;		/* -1 until --controller or --node */
	const char	*alt[GCTL_CERT_MAX_ALT];
	size_t		 nalt;
};

/* Reads into o the options of the verb what (as "cert issue"), allowing
 * those whose letters are in allow (d --dir, D --days, f --force,
 * c --controller, n --node, a --alt-name), and leaves optind at the first
 * argument. Returns 0, or -1 after printing the usage error. */
int	gctl_cert_opts(int argc, char **argv, const char *what,
	    const char *allow, struct gctl_cert_opts *o);

/* gctl cert issue, revoke or list: argv[0] is "cert". Returns the exit
 * status. */
int	gctl_cert(int argc, char **argv);

#endif
