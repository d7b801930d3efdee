/* gctl-cert.c: gctl cert issue, revoke and list, and the options they and
 * gctl ca init take (gctl-ca.c). They act on the CA's files in the TLS
 * directory (admin/ca.c), not on gbatchd: the CA key lives with the admin,
 * and gbatchd need not run. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin/ca-name.h"
#include "admin/ca.h"
#include "bin/gctl-cert.h"
#include "common/cmd.h"
#include "common/paths.h"
#include "common/proto.h"

/* Certificates live two years unless --days says otherwise. */
#define GCTL_CERT_DAYS	730
#define GCTL_CERT_MAX_DAYS	36500

enum {
	GCTL_CERT_OPT_DIR = 1000, GCTL_CERT_OPT_DAYS, GCTL_CERT_OPT_FORCE,
	GCTL_CERT_OPT_CTL, GCTL_CERT_OPT_NODE, GCTL_CERT_OPT_ALT,
};

/* gctl's usage errors, for those that name their verb themselves. */
static const struct cmd gctl_cert_cmd = {
	.name = "gctl",
};

int
gctl_cert_opts(int argc, char **argv, const char *what, const char *allow,
    struct gctl_cert_opts *o)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, GCTL_CERT_OPT_DIR },
		{ "days", required_argument, NULL, GCTL_CERT_OPT_DAYS },
		{ "force", no_argument, NULL, GCTL_CERT_OPT_FORCE },
		{ "controller", no_argument, NULL, GCTL_CERT_OPT_CTL },
		{ "node", no_argument, NULL, GCTL_CERT_OPT_NODE },
		{ "alt-name", required_argument, NULL, GCTL_CERT_OPT_ALT },
		{ NULL, 0, NULL, 0 }
	};
	/* Which of the options above each letter of allow names. */
	static const char letters[] = "dDfcna";
	const struct cmd	 verb = {
		.name = "gctl",
		.verb = what,
		.shortopts = ":",
		.longopts = longopts,
	};
	char			 err[512];
	unsigned long		 v;
	char			*end;
	int			 ch, status;

	memset(o, 0, sizeof *o);
	o->dir = GB_PATH_TLS_DIR;
	o->role = -1;
	optind = 0;
	while ((ch = cmd_getopt(&verb, argc, argv, &status)) != -1) {
		if (ch == CMD_OPT_EXIT)
			return (-1);
		if (ch >= GCTL_CERT_OPT_DIR && ch <= GCTL_CERT_OPT_ALT &&
		    strchr(allow, letters[ch - GCTL_CERT_OPT_DIR]) == NULL) {
			cmd_usage_error(&verb, "--%s is not an option of %s",
			    longopts[ch - GCTL_CERT_OPT_DIR].name, what);
			return (-1);
		}
		switch (ch) {
		case GCTL_CERT_OPT_DIR:
			if (*optarg == '\0') {
				cmd_usage_error(&verb, "--dir: expected a "
				    "directory, got \"%s\"", optarg);
				return (-1);
			}
			o->dir = optarg;
			break;
		case GCTL_CERT_OPT_DAYS:
			v = strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end != '\0' ||
			    v < 1 || v > GCTL_CERT_MAX_DAYS) {
				cmd_usage_error(&verb, "--days: expected "
				    "1-36500, got \"%s\"", optarg);
				return (-1);
			}
			o->days = (unsigned)v;
			break;
		case GCTL_CERT_OPT_FORCE:
			o->force = true;
			break;
		case GCTL_CERT_OPT_CTL:
		case GCTL_CERT_OPT_NODE:
			if (o->role != -1 && o->role != (ch ==
			    GCTL_CERT_OPT_CTL ? CA_ROLE_CONTROLLER :
			    CA_ROLE_NODE)) {
				cmd_usage_error(&verb, "--controller and "
				    "--node: expected one of them, got both");
				return (-1);
			}
			o->role = ch == GCTL_CERT_OPT_CTL ? CA_ROLE_CONTROLLER :
			    CA_ROLE_NODE;
			break;
		case GCTL_CERT_OPT_ALT:
			if (ca_name_alt_check(optarg, err, sizeof err) == -1) {
				cmd_usage_error(&verb, "--alt-name: %s", err);
				return (-1);
			}
			if (o->nalt == GCTL_CERT_MAX_ALT) {
				cmd_usage_error(&verb, "--alt-name: expected "
				    "at most 32, got more (\"%s\")", optarg);
				return (-1);
			}
			o->alt[o->nalt++] = optarg;
			break;
		}
	}
	return (0);
}

/* The one NAME of "cert issue" and "cert revoke", checked. */
static const char *
gctl_cert_name(int argc, char **argv, const char *what)
{
	const struct cmd	 verb = { .name = "gctl", .verb = what };
	char			 err[512];

	if (optind == argc) {
		cmd_usage_error(&verb, "expected a name");
		return (NULL);
	}
	if (argc - optind > 1) {
		cmd_usage_error(&verb, "unexpected argument \"%s\"; one name "
		    "at a time", argv[optind + 1]);
		return (NULL);
	}
	if (ca_name_check(argv[optind], err, sizeof err) == -1) {
		cmd_usage_error(&verb, "%s", err);
		return (NULL);
	}
	return (argv[optind]);
}

static int
gctl_cert_issue(int argc, char **argv)
{
	struct gctl_cert_opts	o;
	struct ca_cert_req	req;
	const char		*name;
	uint64_t		 serial;
	char			 err[1024];

	if (gctl_cert_opts(argc, argv, "cert issue", "dDfcna", &o) == -1 ||
	    (name = gctl_cert_name(argc, argv, "cert issue")) == NULL)
		return (EXIT_USAGE);
	memset(&req, 0, sizeof req);
	req.name = name;
	/* Most certificates are for nodes. */
	req.role = o.role == -1 ? CA_ROLE_NODE : (enum ca_role)o.role;
	req.alt = o.alt;
	req.nalt = o.nalt;
	req.days = o.days != 0 ? o.days : GCTL_CERT_DAYS;
	req.force = o.force;
	if (ca_issue(o.dir, &req, time(NULL), &serial, err,
	    sizeof err) == -1) {
		fprintf(stderr, "gctl: cert issue: %s\n", err);
		return (EXIT_REFUSED);
	}
	printf("issued %s/%s.crt and %s.key (%s %s, serial %llu, %u days)\n",
	    o.dir, ca_file_base(&req), ca_file_base(&req),
	    ca_entry_role_name(req.role), name, (unsigned long long)serial,
	    req.days);
	return (EXIT_OK);
}

static int
gctl_cert_revoke(int argc, char **argv)
{
	struct gctl_cert_opts	o;
	const char		*name;
	size_t			 n;
	char			 err[1024];

	if (gctl_cert_opts(argc, argv, "cert revoke", "d", &o) == -1 ||
	    (name = gctl_cert_name(argc, argv, "cert revoke")) == NULL)
		return (EXIT_USAGE);
	if (ca_revoke(o.dir, name, time(NULL), &n, err, sizeof err) == -1) {
		fprintf(stderr, "gctl: cert revoke: %s\n", err);
		return (EXIT_REFUSED);
	}
	if (n == 0)
		printf("%s was revoked already; %s/crl.pem written again\n",
		    name, o.dir);
	else
		printf("revoked %zu certificate%s of %s; copy %s/crl.pem to "
		    "every host and reload the daemons (SIGHUP)\n", n,
		    n == 1 ? "" : "s", name, o.dir);
	return (EXIT_OK);
}

static int
gctl_cert_list(int argc, char **argv)
{
	struct gctl_cert_opts	 o;
	struct ca_entry		*v;
	struct tm		 tm;
	size_t			 n, i;
	char			 when[32], err[1024];
	time_t			 now = time(NULL);

	if (gctl_cert_opts(argc, argv, "cert list", "d", &o) == -1)
		return (EXIT_USAGE);
	if (optind < argc)
		return (cmd_usage_error(&gctl_cert_cmd, "cert list: unexpected "
		    "argument \"%s\"", argv[optind]));
	if (ca_list(o.dir, &v, &n, err, sizeof err) == -1) {
		fprintf(stderr, "gctl: cert list: %s\n", err);
		return (EXIT_REFUSED);
	}
	printf("%-20s %-10s %6s  %-10s %s\n", "NAME", "ROLE", "SERIAL",
	    "EXPIRES", "STATUS");
	for (i = 0; i < n; i++) {
		gmtime_r(&v[i].not_after, &tm);
		strftime(when, sizeof when, "%Y-%m-%d", &tm);
		printf("%-20s %-10s %6llu  %-10s %s\n", v[i].name,
		    ca_entry_role_name(v[i].role), (unsigned long long)v[i].serial,
		    when, v[i].revoked != 0 ? "revoked" :
		    v[i].not_after <= now ? "expired" : "valid");
	}
	free(v);
	return (EXIT_OK);
}

int
gctl_cert(int argc, char **argv)
{
	const char	*sub = argc < 2 ? "" : argv[1];

	if (strcmp(sub, "issue") == 0)
		return (gctl_cert_issue(argc - 1, argv + 1));
	if (strcmp(sub, "revoke") == 0)
		return (gctl_cert_revoke(argc - 1, argv + 1));
	if (strcmp(sub, "list") == 0)
		return (gctl_cert_list(argc - 1, argv + 1));
	return (cmd_usage_error(&gctl_cert_cmd, "cert: expected issue, revoke "
	    "or list, got \"%s\"", sub));
}
