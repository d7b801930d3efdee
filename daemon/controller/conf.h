/* conf.h: gbatchd's settings: the controller group of gbatch.conf
 * (libconfig), with built-in defaults under it and command-line flags over
 * it. A plain value struct: everything reads it, nothing changes it after
 * start-up. */
#ifndef GB_CTL_CONF_H
#define GB_CTL_CONF_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

#include "common/log.h"

struct conf {
	char		*socket;	/* Unix socket for clients */
	char		*listen;	/* "HOST:PORT" for node daemons */
	char		*state_dir;	/* holds gbatch.db and gbatchd.addr */
	int		 node_timeout;	/* seconds */
	char	       **operators;
	size_t		 noperators;
	bool		 allow_root_jobs;
	enum log_level	 log_level;
	bool		 sync_full;	/* fsync every commit */
};

/* Fills c with the built-in defaults (strings are the struct's own). */
void	conf_defaults(struct conf *c);

/* Reads the controller group of path into c over what it holds. A missing
 * file is fine (defaults stand) unless must_exist. Returns 0, or -1 with err
 * naming the file, the line and the key. */
int	conf_load(struct conf *c, const char *path, bool must_exist,
	    char *err, size_t errlen);

/* Replaces a string setting with a copy of value. */
void	conf_set(char **slot, const char *value);

/* Whether user (uid) may act on every job: root and the operators list. */
bool	conf_is_operator(const struct conf *c, uid_t uid, const char *user);

/* Frees what c holds; c itself belongs to the caller. */
void	conf_clear(struct conf *c);

#endif
