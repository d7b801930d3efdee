/* hostport.h: "HOST:PORT" as the daemons write addresses (controller.listen,
 * node.controller, gnoded -c): a host name or address, "[v6]" in brackets,
 * and a numeric port. */
#ifndef GB_HOSTPORT_H
#define GB_HOSTPORT_H

#include <stddef.h>

/* Splits addr into new strings the caller frees (host without brackets).
 * min_port is 0 where port 0 means "any free port" (a listener), else 1.
 * Returns 0, or -1 with err saying what is accepted; host and port are
 * untouched then. Never blocks: nothing is resolved. */
int	hostport_split(const char *addr, unsigned min_port, char **host,
	    char **port, char *err, size_t errlen);

/* Whether addr splits, as hostport_split; -1 with err when it does not. */
int	hostport_check(const char *addr, unsigned min_port, char *err,
	    size_t errlen);

#endif
