/* hostport-test.c: "HOST:PORT" as the listener and the nodes read it
 * (common/hostport.c). */
#include <stdlib.h>
#include <string.h>

#include "common/hostport.h"
#include "tests/unit/tap.h"

static void
t_split(const char *addr, unsigned min, const char *host, const char *port)
{
	char	*h = NULL, *p = NULL, err[256] = "";

	if (!ok(hostport_split(addr, min, &h, &p, err, sizeof err) == 0 &&
	    strcmp(h, host) == 0 && strcmp(p, port) == 0,
	    "\"%s\" is host \"%s\", port %s", addr, host, port))
		printf("#   got \"%s\" \"%s\", err \"%s\"\n", h ? h : "(null)",
		    p ? p : "(null)", err);
	free(h);
	free(p);
}

static void
t_refuse(const char *addr, unsigned min)
{
	char	*h = NULL, *p = NULL, err[256] = "", want[256];

	snprintf(want, sizeof want, "expected HOST:PORT with a port of "
	    "%u-65535, got \"%s\"", min, addr);
	if (!ok(hostport_split(addr, min, &h, &p, err, sizeof err) == -1 &&
	    h == NULL && p == NULL && strcmp(err, want) == 0,
	    "\"%s\" is refused (ports from %u)", addr, min))
		printf("#   err \"%s\"\n", err);
	ok(hostport_check(addr, min, err, sizeof err) == -1,
	    "hostport_check agrees on \"%s\"", addr);
}

int
main(void)
{
	char	err[256];

	t_split("ctl.example:6820", 1, "ctl.example", "6820");
	t_split("10.0.0.1:1", 1, "10.0.0.1", "1");
	t_split("[::1]:7", 1, "::1", "7");
	t_split("[fe80::1%eth0]:65535", 1, "fe80::1%eth0", "65535");
	t_split("0.0.0.0:0", 0, "0.0.0.0", "0");
	t_split("[::]:0", 0, "::", "0");
	ok(hostport_check("h:6820", 1, err, sizeof err) == 0,
	    "hostport_check takes what splits");

	t_refuse("ctl", 1);
	t_refuse("ctl:", 1);
	t_refuse(":6820", 1);
	t_refuse("ctl:0", 1);
	t_refuse("ctl:70000", 1);
	t_refuse("ctl:65536", 0);
	t_refuse("ctl:http", 1);
	t_refuse("ctl:+80", 1);
	t_refuse("ctl:80x", 1);
	t_refuse("::1:80", 1);
	t_refuse("[::1]80", 1);
	t_refuse("[::1", 1);
	t_refuse("[]:80", 1);
	t_refuse("", 0);
	return (tap_done());
}
