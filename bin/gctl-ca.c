/* gctl-ca: gctl's ca and cert commands (gctl-cert.c), the only ones that
 * need OpenSSL, as a program of their own that gctl runs: gctl's other
 * commands, run often (gctl ping in a health check), start without
 * loading OpenSSL's libraries. Installed in the package's libexec folder;
 * not meant to be run by hand, though it takes the same words as gctl. */
#include <stdio.h>
#include <string.h>

#include "bin/gctl.h"

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "ca") == 0)
		return (gctl_ca(argc - 1, argv + 1));
	if (argc >= 2 && strcmp(argv[1], "cert") == 0)
		return (gctl_cert(argc - 1, argv + 1));
	return (gctl_bad("%s", "gctl-ca runs gctl's ca and cert commands; "
	    "use gctl ca ... or gctl cert ..."));
}
