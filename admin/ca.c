/* ca.c: the cluster's certificate authority (ca.h): keys, certificates and
 * the revocation list, with OpenSSL's API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "admin/ca-file.h"
#include "admin/ca-name.h"
#include "admin/ca.h"
#include "common/xmalloc.h"

#define CA_KEY		"ca.key"
#define CA_CERT		"ca.crt"
#define CA_CRL		"crl.pem"
/* Clocks of the hosts of a cluster differ a little. */
#define CA_SKEW		60

static int	ca_crl_update(const char *, const char *, time_t, size_t *,
		    char *, size_t);

static const char *
ca_reason(void)
{
	unsigned long	 e = ERR_peek_last_error();
	const char	*r;

	ERR_clear_error();
	if (e == 0 || (r = ERR_reason_error_string(e)) == NULL)
		return ("unknown error");
	return (r);
}

/* Adds extension nid with value (OpenSSL's configuration syntax). */
static int
ca_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX	 v3;
	X509_EXTENSION	*e;
	int		 ok;

	X509V3_set_ctx(&v3, issuer, x, NULL, NULL, 0);
	if ((e = X509V3_EXT_conf_nid(NULL, &v3, nid, value)) == NULL)
		return (-1);
	ok = X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	return (ok == 1 ? 0 : -1);
}

/* A certificate for key, named cn, valid from now - CA_SKEW for days. The
 * issuer's name comes later (itself for the CA). */
static X509 *
ca_cert_new(EVP_PKEY *key, const char *cn, uint64_t serial, unsigned days,
    time_t now)
{
	X509		*x;
	X509_NAME	*nm;

	if ((x = X509_new()) == NULL)
		return (NULL);
	nm = X509_get_subject_name(x);
	if (X509_set_version(x, X509_VERSION_3) != 1 ||
	    ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), serial) != 1 ||
	    X509_time_adj_ex(X509_getm_notBefore(x), 0, -CA_SKEW,
	    &now) == NULL ||
	    X509_time_adj_ex(X509_getm_notAfter(x), (int)days, 0,
	    &now) == NULL ||
	    X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC,
	    (const unsigned char *)cn, -1, -1, 0) != 1 ||
	    X509_set_pubkey(x, key) != 1) {
		X509_free(x);
		return (NULL);
	}
	return (x);
}

int
ca_init(const char *dir, unsigned days, bool force, time_t now, char *err,
    size_t errlen)
{
	EVP_PKEY	*key = NULL;
	X509		*x = NULL;
	uint64_t	 serial;
	bool		 have_key, have_cert;
	int		 lock = -1, rc = -1;

	if (ca_file_dir(dir, err, errlen) == -1 ||
	    (lock = ca_file_lock(dir, err, errlen)) == -1)
		return (-1);
	if (ca_file_exists(dir, CA_KEY, &have_key, err, errlen) == -1 ||
	    ca_file_exists(dir, CA_CERT, &have_cert, err, errlen) == -1)
		goto fail;
	if ((have_key || have_cert) && !force) {
		snprintf(err, errlen, "%s already holds a CA (%s); --force "
		    "makes a new one, and the certificates of the old one "
		    "stop being trusted", dir, have_key ? CA_KEY : CA_CERT);
		goto fail;
	}
	if (RAND_bytes((unsigned char *)&serial, sizeof serial) != 1 ||
	    (key = EVP_EC_gen("P-256")) == NULL ||
	    (x = ca_cert_new(key, "gbatch cluster CA", serial >> 1, days,
	    now)) == NULL ||
	    X509_set_issuer_name(x, X509_get_subject_name(x)) != 1 ||
	    ca_ext(x, x, NID_basic_constraints, "critical,CA:TRUE,"
	    "pathlen:0") == -1 ||
	    ca_ext(x, x, NID_key_usage, "critical,keyCertSign,cRLSign") == -1 ||
	    ca_ext(x, x, NID_subject_key_identifier, "hash") == -1 ||
	    X509_sign(x, key, EVP_sha256()) == 0) {
		snprintf(err, errlen, "making the CA: %s", ca_reason());
		goto fail;
	}
	/* The old CA's index means nothing to the new one. */
	if (ca_file_write_key(dir, CA_KEY, key, err, errlen) == -1 ||
	    ca_file_write_cert(dir, CA_CERT, x, err, errlen) == -1 ||
	    ca_file_index_write(dir, NULL, 0, err, errlen) == -1)
		goto fail;
	rc = 0;
fail:
	X509_free(x);
	EVP_PKEY_free(key);
	ca_file_unlock(lock);
	/* An empty CRL from the start: the daemons check against it. */
	if (rc == 0)
		rc = ca_crl_update(dir, NULL, now, NULL, err, errlen);
	return (rc);
}

/* Whether dir holds a CA; -1 with what to do when not. */
static int
ca_present(const char *dir, char *err, size_t errlen)
{
	bool	have;

	if (ca_file_exists(dir, CA_CERT, &have, err, errlen) == -1)
		return (-1);
	if (!have) {
		snprintf(err, errlen, "no CA in %s (no %s); run gctl ca init "
		    "there first, or give --dir", dir, CA_CERT);
		return (-1);
	}
	return (0);
}

/* The CA's key and certificate, for signing. */
static int
ca_load(const char *dir, EVP_PKEY **key, X509 **cert, char *err,
    size_t errlen)
{
	char	why[512];

	if ((*key = ca_file_read_key(dir, CA_KEY, why, sizeof why)) == NULL ||
	    (*cert = ca_file_read_cert(dir, CA_CERT, why, sizeof why)) ==
	    NULL) {
		EVP_PKEY_free(*key);
		*key = NULL;
		snprintf(err, errlen, "%s; the CA key lives with the admin: "
		    "run gctl ca init there first, or give --dir", why);
		return (-1);
	}
	if (X509_check_private_key(*cert, *key) != 1) {
		snprintf(err, errlen, "%s/%s does not belong to %s/%s", dir,
		    CA_KEY, dir, CA_CERT);
		ERR_clear_error();
		EVP_PKEY_free(*key);
		X509_free(*cert);
		return (-1);
	}
	return (0);
}

/* The subjectAltName of req: its name as DNS, then each alt, an address
 * as IP. */
static char *
ca_san(const struct ca_cert_req *req)
{
	ASN1_OCTET_STRING	*ip;
	char			*san = xasprintf("DNS:%s", req->name), *more;
	size_t			 i;

	for (i = 0; i < req->nalt; i++) {
		ip = a2i_IPADDRESS(req->alt[i]);
		more = xasprintf("%s,%s:%s", san, ip != NULL ? "IP" : "DNS",
		    req->alt[i]);
		ASN1_OCTET_STRING_free(ip);
		free(san);
		san = more;
	}
	ERR_clear_error();
	return (san);
}

/* The next serial: one above any issued (the CA's is random). */
static uint64_t
ca_next_serial(const struct ca_entry *v, size_t n)
{
	uint64_t	s = 1;
	size_t		i;

	for (i = 0; i < n; i++) {
		if (v[i].serial > s)
			s = v[i].serial;
	}
	return (s + 1);
}

const char *
ca_file_base(const struct ca_cert_req *req)
{
	return (req->role == CA_ROLE_CONTROLLER ? CA_CONTROLLER : req->name);
}

int
ca_issue(const char *dir, const struct ca_cert_req *req, time_t now,
    uint64_t *serial, char *err, size_t errlen)
{
	EVP_PKEY	*cakey = NULL, *key = NULL;
	X509		*ca = NULL, *x = NULL;
	struct ca_entry	*v = NULL;
	char		*crt, *keyname, *san = NULL;
	size_t		 n = 0;
	bool		 have_crt, have_key;
	int		 lock, rc = -1;

	/* A controller's files carry its role, a node's its name: a host
	 * that runs both keeps two pairs, whatever its name. */
	if (req->role == CA_ROLE_NODE && strcmp(req->name, CA_CONTROLLER) ==
	    0) {
		snprintf(err, errlen, "\"%s\" names the controller's files "
		    "(%s.crt): give the node another name", CA_CONTROLLER,
		    CA_CONTROLLER);
		return (-1);
	}
	crt = xasprintf("%s.crt", ca_file_base(req));
	keyname = xasprintf("%s.key", ca_file_base(req));
	if (ca_present(dir, err, errlen) == -1 ||
	    (lock = ca_file_lock(dir, err, errlen)) == -1)
		goto out;
	if (ca_load(dir, &cakey, &ca, err, errlen) == -1 ||
	    ca_file_exists(dir, crt, &have_crt, err, errlen) == -1 ||
	    ca_file_exists(dir, keyname, &have_key, err, errlen) == -1)
		goto fail;
	if ((have_crt || have_key) && !req->force) {
		snprintf(err, errlen, "%s/%s already exists; --force issues a "
		    "new key and certificate (gctl cert revoke %s first to "
		    "stop trusting the old one)", dir,
		    have_crt ? crt : keyname, req->name);
		goto fail;
	}
	if (ca_file_index_read(dir, &v, &n, err, errlen) == -1)
		goto fail;
	*serial = ca_next_serial(v, n);
	san = ca_san(req);
	if ((key = EVP_EC_gen("P-256")) == NULL ||
	    (x = ca_cert_new(key, req->name, *serial, req->days,
	    now)) == NULL ||
	    X509_set_issuer_name(x, X509_get_subject_name(ca)) != 1 ||
	    ca_ext(x, ca, NID_basic_constraints, "critical,CA:FALSE") == -1 ||
	    ca_ext(x, ca, NID_key_usage, "critical,digitalSignature") == -1 ||
	    ca_ext(x, ca, NID_ext_key_usage, req->role == CA_ROLE_CONTROLLER ?
	    "serverAuth,clientAuth" : "clientAuth") == -1 ||
	    ca_ext(x, ca, NID_subject_alt_name, san) == -1 ||
	    ca_ext(x, ca, NID_subject_key_identifier, "hash") == -1 ||
	    ca_ext(x, ca, NID_authority_key_identifier, "keyid:always") == -1 ||
	    X509_sign(x, cakey, EVP_sha256()) == 0) {
		snprintf(err, errlen, "making the certificate of %s: %s",
		    req->name, ca_reason());
		goto fail;
	}
	/* The key first: a certificate is never left without its key. */
	if (ca_file_write_key(dir, keyname, key, err, errlen) == -1 ||
	    ca_file_write_cert(dir, crt, x, err, errlen) == -1)
		goto fail;
	v = xreallocarray(v, n + 1, sizeof *v);
	memset(&v[n], 0, sizeof v[n]);
	v[n].serial = *serial;
	v[n].role = req->role;
	snprintf(v[n].name, sizeof v[n].name, "%s", req->name);
	v[n].not_after = now + (time_t)req->days * 86400;
	if (ca_file_index_write(dir, v, n + 1, err, errlen) == -1)
		goto fail;
	rc = 0;
fail:
	ca_file_unlock(lock);
out:
	free(v);
	free(san);
	X509_free(x);
	X509_free(ca);
	EVP_PKEY_free(key);
	EVP_PKEY_free(cakey);
	free(keyname);
	free(crt);
	return (rc);
}

/* A CRL of every revoked entry of v, signed by the CA, valid as long as
 * the CA: the daemons refuse to verify against an outdated CRL, and a new
 * one is written at each revocation. */
static X509_CRL *
ca_crl(const struct ca_entry *v, size_t n, EVP_PKEY *key, X509 *ca,
    time_t now)
{
	X509_CRL	*crl;
	X509_REVOKED	*r;
	ASN1_TIME	*t = NULL;
	ASN1_INTEGER	*s = NULL;
	size_t		 i;

	if ((crl = X509_CRL_new()) == NULL ||
	    X509_CRL_set_version(crl, X509_CRL_VERSION_2) != 1 ||
	    X509_CRL_set_issuer_name(crl, X509_get_subject_name(ca)) != 1 ||
	    (t = ASN1_TIME_set(NULL, now - CA_SKEW)) == NULL ||
	    X509_CRL_set1_lastUpdate(crl, t) != 1 ||
	    X509_CRL_set1_nextUpdate(crl, X509_get0_notAfter(ca)) != 1)
		goto fail;
	for (i = 0; i < n; i++) {
		if (v[i].revoked == 0)
			continue;
		if ((r = X509_REVOKED_new()) == NULL)
			goto fail;
		if ((s = ASN1_INTEGER_new()) == NULL ||
		    ASN1_INTEGER_set_uint64(s, v[i].serial) != 1 ||
		    X509_REVOKED_set_serialNumber(r, s) != 1 ||
		    ASN1_TIME_set(t, v[i].revoked) == NULL ||
		    X509_REVOKED_set_revocationDate(r, t) != 1 ||
		    X509_CRL_add0_revoked(crl, r) != 1) {
			X509_REVOKED_free(r);
			goto fail;
		}
		ASN1_INTEGER_free(s);
		s = NULL;
	}
	if (X509_CRL_sort(crl) != 1 || X509_CRL_sign(crl, key,
	    EVP_sha256()) == 0)
		goto fail;
	ASN1_TIME_free(t);
	return (crl);
fail:
	ASN1_INTEGER_free(s);
	ASN1_TIME_free(t);
	X509_CRL_free(crl);
	return (NULL);
}

/* Marks name's certificates revoked (none when name is NULL) and writes
 * the CRL again. */
static int
ca_crl_update(const char *dir, const char *name, time_t now, size_t *count,
    char *err, size_t errlen)
{
	EVP_PKEY	*key = NULL;
	X509		*ca = NULL;
	X509_CRL	*crl = NULL;
	struct ca_entry	*v = NULL;
	size_t		 n = 0, i, done = 0, issued = 0;
	int		 lock, rc = -1;

	if (ca_present(dir, err, errlen) == -1 ||
	    (lock = ca_file_lock(dir, err, errlen)) == -1)
		return (-1);
	if (ca_load(dir, &key, &ca, err, errlen) == -1 ||
	    ca_file_index_read(dir, &v, &n, err, errlen) == -1)
		goto fail;
	for (i = 0; name != NULL && i < n; i++) {
		if (strcmp(v[i].name, name) != 0)
			continue;
		issued++;
		if (v[i].revoked == 0) {
			v[i].revoked = now;
			done++;
		}
	}
	if (name != NULL && issued == 0) {
		snprintf(err, errlen, "no certificate was issued to \"%s\" by "
		    "the CA in %s (see gctl cert list)", name, dir);
		goto fail;
	}
	if ((crl = ca_crl(v, n, key, ca, now)) == NULL) {
		snprintf(err, errlen, "making the CRL: %s", ca_reason());
		goto fail;
	}
	if ((done > 0 && ca_file_index_write(dir, v, n, err, errlen) == -1) ||
	    ca_file_write_crl(dir, CA_CRL, crl, err, errlen) == -1)
		goto fail;
	if (count != NULL)
		*count = done;
	rc = 0;
fail:
	ca_file_unlock(lock);
	X509_CRL_free(crl);
	free(v);
	X509_free(ca);
	EVP_PKEY_free(key);
	return (rc);
}

int
ca_revoke(const char *dir, const char *name, time_t now, size_t *count,
    char *err, size_t errlen)
{
	return (ca_crl_update(dir, name, now, count, err, errlen));
}

int
ca_list(const char *dir, struct ca_entry **entries, size_t *n, char *err,
    size_t errlen)
{
	if (ca_present(dir, err, errlen) == -1)
		return (-1);
	return (ca_file_index_read(dir, entries, n, err, errlen));
}
