/* tls-settings.h: the tls group of gbatch.conf, which both daemons read,
 * and the TLS context made from it (tls.h). Each daemon finds its own key
 * and certificate in one directory: a node's by its name, the
 * controller's by its role (controller.crt), so one directory serves a
 * host that runs both. See gbatch.conf(5). */
#ifndef GB_TLS_SETTINGS_H
#define GB_TLS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/common/tls.h"

struct tls_settings {
	/* tls.enabled: false runs the link in plain TCP, where anyone who
	 * reaches the port is taken for a node (benchmarks, a closed
	 * network): never the default. */
	bool	 enabled;
	char	*dir;		/* tls.dir; GB_PATH_TLS_DIR */
	char	*ca;		/* tls.ca; NULL: dir/ca.crt */
	char	*crl;		/* tls.crl; NULL: dir/crl.pem when it exists */
	/* tls.cert, tls.key; NULL: a node's dir/NAME.crt and .key, the
	 * controller's dir/controller.crt and .key (or, where only that is
	 * there, dir/CONTROLLER_NAME.crt, as releases before 0.2 had it). */
	char	*cert;
	char	*key;
	/* tls.controller_name: the name in the controller's certificate.
	 * gbatchd's NAME (default: the host name); what a node expects of the
	 * controller (default: the host of the address it dials). */
	char	*controller_name;
};

enum tls_role {
	TLS_ROLE_CONTROLLER,
	TLS_ROLE_NODE,
};

/* What the controller's files are named by default (admin/ca.h's
 * CA_CONTROLLER: gctl cert issue --controller writes them). */
#define TLS_CONTROLLER_FILE	"controller"

/* Fills s with the defaults. */
void	tls_settings_defaults(struct tls_settings *);
void	tls_settings_clear(struct tls_settings *);

/* Reads the tls group of path into s, as conf_file_read does. */
int	tls_settings_load(struct tls_settings *, const char *path,
	    bool must_exist, char *err, size_t errlen);

/* The files a daemon of role named name (a node's name; NULL for the
 * controller, which takes controller_name or else the host name) uses,
 * into tc (strings the caller frees with tls_conf_clear). Returns 0, or -1
 * with err. */
int	tls_settings_files(const struct tls_settings *, enum tls_role,
	    const char *name, struct tls_conf *tc, char *err, size_t errlen);

/* The name of a daemon of role (a node's name; NULL for the controller)
 * as its certificate carries it: the node's, or tls.controller_name, or
 * the host name, into buf. Returns 0, or -1 with err. */
int	tls_settings_self(const struct tls_settings *, enum tls_role,
	    const char *name, char *buf, size_t len, char *err,
	    size_t errlen);

/* Loads and checks the files of tc for role and makes the context
 * (tls_ctx_controller or tls_ctx_node). The error names the file and says
 * how to make a valid one, for the daemon's name (tls_settings_self).
 * Returns the context, or NULL with err. */
SSL_CTX	*tls_settings_ctx(const struct tls_conf *tc, enum tls_role,
	    const char *name, char *err, size_t errlen);

#endif
