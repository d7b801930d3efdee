/* hostport.c: splitting "HOST:PORT", for the daemons and the commands alike. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/hostport.h"

/* A port in [min, 65535], digits only: the resolvers are asked for numeric
 * services, so a name such as "http" would fail later, far from the key. */
static int
hostport_port(const char *s, unsigned min)
{
	unsigned long	 v;
	char		*end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > 65535)
		return (-1);
	return (0);
}

int
hostport_split(const char *addr, unsigned min_port, char **host, char **port,
    char *err, size_t errlen)
{
	const char	*colon, *h, *he;

	if (addr[0] == '[') {
		h = addr + 1;
		if ((he = strchr(h, ']')) == NULL || he[1] != ':')
			goto fail;
		colon = he + 1;
	} else {
		/* An IPv6 address needs its brackets, or where its port
		 * starts is a guess. */
		h = addr;
		if ((colon = strchr(addr, ':')) == NULL ||
		    strchr(colon + 1, ':') != NULL)
			goto fail;
		he = colon;
	}
	if (he == h || hostport_port(colon + 1, min_port) == -1)
		goto fail;
	*host = xstrndup(h, (size_t)(he - h));
	*port = xstrdup(colon + 1);
	return (0);
fail:
	snprintf(err, errlen, "expected HOST:PORT with a port of %u-65535, "
	    "got \"%s\"", min_port, addr);
	return (-1);
}

int
hostport_check(const char *addr, unsigned min_port, char *err, size_t errlen)
{
	char	*host, *port;

	if (hostport_split(addr, min_port, &host, &port, err, errlen) == -1)
		return (-1);
	free(host);
	free(port);
	return (0);
}
