/* gctl-ca: gctl's ca and cert commands (and gctl-cert.c), the only ones
 * that need OpenSSL, as a program of their own that gctl runs: gctl's
 * other commands, run often (gctl ping in a health check), start without
 * loading OpenSSL's libraries. Installed in the package's libexec folder;
 * not meant to be run by hand, though it takes the same words as gctl.
 * gctl ca init is here: it makes the cluster's CA (admin/ca.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "admin/ca.h"
#include "bin/gctl-cert.h"
#include "common/cmd.h"
#include "common/proto.h"

/* The CA lives ten years unless --days says otherwise. */
#define GCTL_CA_DAYS	3650

/* Its usage errors read as gctl's. */
static const struct cmd gctl_ca_cmd = {
	.name = "gctl",
};

/* gctl ca init: argv[0] is "ca". */
static int
gctl_ca_init(int argc, char **argv)
{
	struct gctl_cert_opts	o;
	char			err[1024];

	if (argc < 2 || strcmp(argv[1], "init") != 0)
		return (cmd_usage_error(&gctl_ca_cmd, "ca: expected \"init\", "
		    "got \"%s\"", argc < 2 ? "" : argv[1]));
	if (gctl_cert_opts(argc - 1, argv + 1, "ca init", "dDf", &o) == -1)
		return (EXIT_USAGE);
	if (optind < argc - 1)
		return (cmd_usage_error(&gctl_ca_cmd, "ca init: unexpected "
		    "argument \"%s\"", argv[optind + 1]));
	if (ca_init(o.dir, o.days != 0 ? o.days : GCTL_CA_DAYS, o.force,
	    time(NULL), err, sizeof err) == -1) {
		fprintf(stderr, "gctl: ca init: %s\n", err);
		return (EXIT_REFUSED);
	}
	printf("made the cluster CA in %s (ca.crt, ca.key, crl.pem)\n", o.dir);
	return (EXIT_OK);
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "ca") == 0)
		return (gctl_ca_init(argc - 1, argv + 1));
	if (argc >= 2 && strcmp(argv[1], "cert") == 0)
		return (gctl_cert(argc - 1, argv + 1));
	return (cmd_usage_error(&gctl_ca_cmd, "gctl-ca runs gctl's ca and cert "
	    "commands; use gctl ca ... or gctl cert ..."));
}
