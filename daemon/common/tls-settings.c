/* tls-settings.c: the tls group of gbatch.conf (tls-settings.h). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/tls-settings.h"

static const struct conf_file_key tls_settings_keys[] = {
	{ .name = "enabled", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct tls_settings, enabled) },
	{ .name = "dir", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, dir), .what = "a directory" },
	{ .name = "ca", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, ca), .what = "a file" },
	{ .name = "crl", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, crl), .what = "a file" },
	{ .name = "cert", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, cert), .what = "a file" },
	{ .name = "key", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, key), .what = "a file" },
	{ .name = "controller_name", .type = CONF_FILE_STRING,
	  .off = offsetof(struct tls_settings, controller_name),
	  .what = "a host name or address" },
};

static const struct conf_file_group tls_settings_group = {
	"tls", tls_settings_keys,
	sizeof tls_settings_keys / sizeof tls_settings_keys[0], NULL, NULL,
};

void
tls_settings_defaults(struct tls_settings *s)
{
	memset(s, 0, sizeof *s);
	s->enabled = true;
	s->dir = xstrdup(GB_PATH_TLS_DIR);
}

void
tls_settings_clear(struct tls_settings *s)
{
	free(s->dir);
	free(s->ca);
	free(s->crl);
	free(s->cert);
	free(s->key);
	free(s->controller_name);
	memset(s, 0, sizeof *s);
}

int
tls_settings_load(struct tls_settings *s, const char *path, bool must_exist,
    char *err, size_t errlen)
{
	return (conf_file_read(path, must_exist, &tls_settings_group, 1, s,
	    err, errlen));
}

int
tls_settings_self(const struct tls_settings *s, enum tls_role role,
    const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	if (role == TLS_ROLE_NODE)
		snprintf(buf, len, "%s", name);
	else if (s->controller_name != NULL)
		snprintf(buf, len, "%s", s->controller_name);
	else if (gethostname(buf, len) != 0) {
		snprintf(err, errlen, "tls: cannot read the host name (%s); "
		    "set tls.controller_name", strerror(errno));
		return (-1);
	} else
		buf[len - 1] = '\0';
	return (0);
}

/* A daemon's default certificate or key (ext "crt" or "key") in dir: a
 * node's carries its name; the controller's its role, controller.crt
 * (gctl cert issue --controller makes it so, and a host running both
 * daemons keeps two pairs), or, where only that is there, the file of the
 * controller's name that releases before 0.2 made. */
static char *
tls_settings_default(const char *dir, enum tls_role role, const char *self,
    const char *ext)
{
	char	*path, *old;

	if (role == TLS_ROLE_NODE)
		return (xasprintf("%s/%s.%s", dir, self, ext));
	path = xasprintf("%s/%s.%s", dir, TLS_CONTROLLER_FILE, ext);
	old = xasprintf("%s/%s.%s", dir, self, ext);
	if (access(path, F_OK) != 0 && access(old, F_OK) == 0) {
		free(path);
		return (old);
	}
	free(old);
	return (path);
}

int
tls_settings_files(const struct tls_settings *s, enum tls_role role,
    const char *name, struct tls_conf *tc, char *err, size_t errlen)
{
	char	self[HOST_NAME_MAX + 1];

	memset(tc, 0, sizeof *tc);
	if (tls_settings_self(s, role, name, self, sizeof self, err,
	    errlen) == -1)
		return (-1);
	tc->ca = s->ca != NULL ? xstrdup(s->ca) :
	    xasprintf("%s/ca.crt", s->dir);
	tc->cert = s->cert != NULL ? xstrdup(s->cert) :
	    tls_settings_default(s->dir, role, self, "crt");
	tc->key = s->key != NULL ? xstrdup(s->key) :
	    tls_settings_default(s->dir, role, self, "key");
	/* A CRL named in the file must be there; the default one is used
	 * when gctl ca init made it. */
	if (s->crl != NULL)
		tc->crl = xstrdup(s->crl);
	else {
		tc->crl = xasprintf("%s/crl.pem", s->dir);
		if (access(tc->crl, F_OK) != 0) {
			free(tc->crl);
			tc->crl = NULL;
		}
	}
	return (0);
}

SSL_CTX *
tls_settings_ctx(const struct tls_conf *tc, enum tls_role role,
    const char *name, char *err, size_t errlen)
{
	SSL_CTX		*ctx;
	char		 why[1024], self[HOST_NAME_MAX + 1];
	const char	*base, *dot;
	size_t		 n;

	if (role == TLS_ROLE_CONTROLLER)
		ctx = tls_ctx_controller(tc, why, sizeof why);
	else
		ctx = tls_ctx_node(tc, why, sizeof why);
	if (ctx != NULL)
		return (ctx);
	/* The name to issue for: a node's own; the controller's, the one
	 * nodes dial it by (name: tls.controller_name or the host name). */
	base = strrchr(tc->cert, '/') != NULL ? strrchr(tc->cert, '/') + 1 :
	    tc->cert;
	n = (dot = strrchr(base, '.')) != NULL ? (size_t)(dot - base) :
	    strlen(base);
	snprintf(self, sizeof self, "%.*s", (int)n, base);
	if (name != NULL)
		snprintf(self, sizeof self, "%s", name);
	snprintf(err, errlen, "tls: %s; to make this %s's key and certificate, "
	    "run \"gctl cert issue %s --%s\" where the CA key is and copy "
	    "%s.crt, %s.key (0600) and ca.crt into the TLS directory",
	    why, role == TLS_ROLE_CONTROLLER ? "controller" : "node", self,
	    role == TLS_ROLE_CONTROLLER ? "controller" : "node",
	    role == TLS_ROLE_CONTROLLER ? TLS_CONTROLLER_FILE : self,
	    role == TLS_ROLE_CONTROLLER ? TLS_CONTROLLER_FILE : self);
	return (NULL);
}
