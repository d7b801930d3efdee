/* ca.h: the cluster's own certificate authority, as files in one directory
 * the admin keeps (gctl ca, gctl cert): ca.key and ca.crt, one NAME.key and
 * NAME.crt per daemon, crl.pem, and an index of what was issued so revoke
 * and list know each serial. Made with OpenSSL's API: EC P-256 keys, keys
 * 0600 created exclusively, certificates and the CRL 0644, the directory
 * 0700. Time comes from the caller, so tests can make expired certificates.
 * See gctl(1). */
#ifndef GB_CA_H
#define GB_CA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "admin/ca-entry.h"

/* What gctl cert issue asks for. */
struct ca_cert_req {
	const char		*name;	/* CN, a DNS name in the SAN, the files */
	enum ca_role		 role;
	const char *const	*alt;	/* more DNS names or IP addresses */
	size_t			 nalt;
	unsigned		 days;	/* valid from now - 1 minute */
	bool			 force;	/* replace the files */
};

/* What a controller's certificate and key are named in its TLS directory
 * (controller.crt, controller.key), whatever the name they carry. */
#define CA_CONTROLLER	"controller"

/* The name of req's files, without .crt or .key: a node's own name, or
 * CA_CONTROLLER for a controller. */
const char	*ca_file_base(const struct ca_cert_req *);

/* Makes the CA in dir (created 0700 when missing): a key, a self-signed
 * certificate valid days from now, an empty CRL and an empty index. An
 * existing CA is refused unless force, which starts a new one (certificates
 * of the old one stop being trusted). Returns 0, or -1 with err. */
int	ca_init(const char *dir, unsigned days, bool force, time_t now,
	    char *err, size_t errlen);

/* Issues a key and certificate for req in dir, signed by the CA there, and
 * records it in the index. *serial gets its serial. Returns 0, or -1 with
 * err (nothing written then, unless the failure came after the files). */
int	ca_issue(const char *dir, const struct ca_cert_req *req, time_t now,
	    uint64_t *serial, char *err, size_t errlen);

/* Revokes every certificate issued to name that is not revoked yet and
 * writes a new crl.pem; *count gets how many. Returns 0, or -1 with err
 * (a name never issued is an error). */
int	ca_revoke(const char *dir, const char *name, time_t now,
	    size_t *count, char *err, size_t errlen);

/* The index, in issue order: a new array the caller frees. Returns 0, or
 * -1 with err. */
int	ca_list(const char *dir, struct ca_entry **entries, size_t *n,
	    char *err, size_t errlen);

#endif
