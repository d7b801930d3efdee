/* tls.c: SSL_CTXs for the link between gbatchd and gnoded (tls.h). Trust
 * is the cluster's CA alone: no system store, no session resumption (each
 * connection is judged against the CRL in force), TLS 1.3 only. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "daemon/common/tls.h"

/* Which side a context is for: its own purpose, and the peer's. */
struct tls_side {
	const char	*what;		/* for messages */
	int		 own;		/* X509_PURPOSE_SSL_* of its certificate */
	int		 peer;		/* the purpose it requires of the peer */
	const char	*own_eku;	/* the role, for messages */
};

static const struct tls_side tls_controller = {
	"controller", X509_PURPOSE_SSL_SERVER, X509_PURPOSE_SSL_CLIENT,
	"a controller certificate (gctl cert issue NAME --controller)"
};
static const struct tls_side tls_replica = {
	"replica", X509_PURPOSE_SSL_CLIENT, X509_PURPOSE_SSL_SERVER,
	"a controller certificate made for clients too, as replicas "
	"need (issue it again: gctl cert issue NAME --controller)"
};
static const struct tls_side tls_node = {
	"node", X509_PURPOSE_SSL_CLIENT, X509_PURPOSE_SSL_SERVER,
	"a node certificate (gctl cert issue NAME --node)"
};

/* The reason of the last OpenSSL error, emptied from the queue. */
static const char *
tls_reason(void)
{
	unsigned long	 e = ERR_peek_last_error();
	const char	*r;

	ERR_clear_error();
	if (e == 0 || (r = ERR_reason_error_string(e)) == NULL)
		return ("unknown error");
	return (r);
}

/* A file this side must read, with the system's reason when it cannot. */
static int
tls_readable(const char *what, const char *path, char *err, size_t errlen)
{
	FILE	*f;

	if (path == NULL || *path == '\0') {
		snprintf(err, errlen, "no %s file given", what);
		return (-1);
	}
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return (-1);
	}
	fclose(f);
	return (0);
}

void
tls_conf_clear(struct tls_conf *tc)
{
	free(tc->ca);
	free(tc->cert);
	free(tc->key);
	free(tc->crl);
	memset(tc, 0, sizeof *tc);
}

int
tls_check_key_file(const char *path, char *err, size_t errlen)
{
	struct stat	st;

	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "key %s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "key %s: not a regular file", path);
		return (-1);
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, errlen, "key %s: group or others may read or "
		    "write it (mode %04o); a key must be 0600: chmod 600 %s, "
		    "or issue a new one", path, (unsigned)(st.st_mode & 07777),
		    path);
		return (-1);
	}
	return (0);
}

/* A trust store holding ca and, when given, the CRL (checked then). */
static X509_STORE *
tls_store(const struct tls_conf *tc, char *err, size_t errlen)
{
	X509_STORE	*st;

	if (tls_readable("CA certificate", tc->ca, err, errlen) == -1)
		return (NULL);
	if (tc->crl != NULL && tls_readable("CRL", tc->crl, err,
	    errlen) == -1)
		return (NULL);
	if ((st = X509_STORE_new()) == NULL) {
		snprintf(err, errlen, "cannot make a trust store: %s",
		    tls_reason());
		return (NULL);
	}
	if (X509_STORE_load_file(st, tc->ca) != 1) {
		snprintf(err, errlen, "CA certificate %s: %s", tc->ca,
		    tls_reason());
		goto fail;
	}
	if (tc->crl != NULL) {
		if (X509_STORE_load_file(st, tc->crl) != 1) {
			snprintf(err, errlen, "CRL %s: %s", tc->crl,
			    tls_reason());
			goto fail;
		}
		X509_STORE_set_flags(st, X509_V_FLAG_CRL_CHECK);
	}
	return (st);
fail:
	X509_STORE_free(st);
	return (NULL);
}

/* Whether this side's own certificate verifies against store in its own
 * role, so a daemon with a certificate its peers would refuse says so at
 * start. */
static int
tls_check_own(SSL_CTX *ctx, X509_STORE *store, const struct tls_conf *tc,
    const struct tls_side *side, char *err, size_t errlen)
{
	X509_STORE_CTX	*sc;
	X509		*cert = SSL_CTX_get0_certificate(ctx);
	int		 rc = -1, v;

	if ((sc = X509_STORE_CTX_new()) == NULL ||
	    X509_STORE_CTX_init(sc, store, cert, NULL) != 1) {
		snprintf(err, errlen, "certificate %s: %s", tc->cert,
		    tls_reason());
		goto fail;
	}
	X509_STORE_CTX_set_purpose(sc, side->own);
	if (X509_verify_cert(sc) != 1) {
		v = X509_STORE_CTX_get_error(sc);
		if (v == X509_V_ERR_INVALID_PURPOSE)
			snprintf(err, errlen, "certificate %s: not valid for "
			    "a %s; expected %s", tc->cert, side->what,
			    side->own_eku);
		else
			snprintf(err, errlen, "certificate %s: %s (checked "
			    "against %s%s%s)", tc->cert,
			    X509_verify_cert_error_string(v), tc->ca,
			    tc->crl != NULL ? " and " : "",
			    tc->crl != NULL ? tc->crl : "");
		ERR_clear_error();
		goto fail;
	}
	/* A controller's certificate is made for clients too (replicas dial
	 * each other), but a node presenting one is a mistake. */
	if (side == &tls_node && X509_check_purpose(cert,
	    X509_PURPOSE_SSL_SERVER, 0) == 1) {
		snprintf(err, errlen, "certificate %s: not valid for a %s (it "
		    "is a controller's); expected %s", tc->cert, side->what,
		    side->own_eku);
		goto fail;
	}
	rc = 0;
fail:
	X509_STORE_CTX_free(sc);
	return (rc);
}

static SSL_CTX *
tls_ctx_new(const struct tls_conf *tc, const struct tls_side *side,
    char *err, size_t errlen)
{
	SSL_CTX		*ctx;
	X509_STORE	*store;
	int		 server = side == &tls_controller;

	if (tls_readable("certificate", tc->cert, err, errlen) == -1 ||
	    tls_readable("key", tc->key, err, errlen) == -1 ||
	    tls_check_key_file(tc->key, err, errlen) == -1)
		return (NULL);
	if ((store = tls_store(tc, err, errlen)) == NULL)
		return (NULL);
	ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	if (ctx == NULL) {
		snprintf(err, errlen, "cannot make a TLS context: %s",
		    tls_reason());
		X509_STORE_free(store);
		return (NULL);
	}
	/* The context owns the store from here. */
	SSL_CTX_set_cert_store(ctx, store);
	if (SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) != 1 ||
	    SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) != 1) {
		snprintf(err, errlen, "TLS 1.3: %s", tls_reason());
		goto fail;
	}
	if (SSL_CTX_use_certificate_chain_file(ctx, tc->cert) != 1) {
		snprintf(err, errlen, "certificate %s: %s", tc->cert,
		    tls_reason());
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, tc->key, SSL_FILETYPE_PEM) != 1) {
		snprintf(err, errlen, "key %s: %s", tc->key, tls_reason());
		goto fail;
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		snprintf(err, errlen, "key %s does not belong to certificate "
		    "%s", tc->key, tc->cert);
		ERR_clear_error();
		goto fail;
	}
	if (tls_check_own(ctx, store, tc, side, err, errlen) == -1)
		goto fail;
	/* The peer must present a certificate of the CA, for the other
	 * role; a CA signs leaves directly. */
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER |
	    SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	SSL_CTX_set_verify_depth(ctx, 1);
	X509_VERIFY_PARAM_set_purpose(SSL_CTX_get0_param(ctx), side->peer);
	/* No resumption: a revoked certificate must not come back on a
	 * ticket. */
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
	if (server)
		SSL_CTX_set_num_tickets(ctx, 0);
	return (ctx);
fail:
	SSL_CTX_free(ctx);
	return (NULL);
}

SSL_CTX *
tls_ctx_controller(const struct tls_conf *tc, char *err, size_t errlen)
{
	return (tls_ctx_new(tc, &tls_controller, err, errlen));
}

SSL_CTX *
tls_ctx_node(const struct tls_conf *tc, char *err, size_t errlen)
{
	return (tls_ctx_new(tc, &tls_node, err, errlen));
}

SSL_CTX *
tls_ctx_replica(const struct tls_conf *tc, char *err, size_t errlen)
{
	return (tls_ctx_new(tc, &tls_replica, err, errlen));
}

bool
tls_peer_is_controller(SSL *ssl)
{
	X509	*x = SSL_get0_peer_certificate(ssl);

	return (x != NULL && X509_check_purpose(x, X509_PURPOSE_SSL_SERVER,
	    0) == 1);
}

int
tls_ctx_reload(SSL_CTX *ctx, const struct tls_conf *tc, char *err,
    size_t errlen)
{
	X509_STORE	*store;

	if ((store = tls_store(tc, err, errlen)) == NULL)
		return (-1);
	SSL_CTX_set_cert_store(ctx, store);
	return (0);
}

int
tls_recheck(SSL *ssl, char *why, size_t len)
{
	X509		*c = SSL_get0_peer_certificate(ssl);
	X509_STORE_CTX	*sc;
	int		 ok;

	if (c == NULL)
		return (0);
	if ((sc = X509_STORE_CTX_new()) == NULL ||
	    X509_STORE_CTX_init(sc, SSL_CTX_get_cert_store(SSL_get_SSL_CTX(
	    ssl)), c, SSL_get_peer_cert_chain(ssl)) != 1) {
		/* Out of memory: judged at its next handshake instead. */
		X509_STORE_CTX_free(sc);
		ERR_clear_error();
		return (0);
	}
	ok = X509_verify_cert(sc);
	if (ok != 1)
		snprintf(why, len, "%s", X509_verify_cert_error_string(
		    X509_STORE_CTX_get_error(sc)));
	X509_STORE_CTX_free(sc);
	ERR_clear_error();
	return (ok == 1 ? 0 : -1);
}

int
tls_expect_name(SSL *ssl, const char *name, char *err, size_t errlen)
{
	X509_VERIFY_PARAM	*p = SSL_get0_param(ssl);

	/* An address when it parses as one, else a DNS name. */
	if (X509_VERIFY_PARAM_set1_ip_asc(p, name) == 1)
		return (0);
	ERR_clear_error();
	if (X509_VERIFY_PARAM_set1_host(p, name, 0) != 1) {
		snprintf(err, errlen, "controller name \"%s\": %s", name,
		    tls_reason());
		return (-1);
	}
	return (0);
}

int
tls_peer_name(SSL *ssl, char *buf, size_t len)
{
	X509	*c;
	int	 n, i;

	buf[0] = '\0';
	if ((c = SSL_get0_peer_certificate(ssl)) == NULL ||
	    SSL_get_verify_result(ssl) != X509_V_OK)
		return (-1);
	n = X509_NAME_get_text_by_NID(X509_get_subject_name(c),
	    NID_commonName, buf, (int)len);
	if (n <= 0 || (size_t)n >= len - 1) {
		buf[0] = '\0';
		return (-1);
	}
	/* The name goes to logs and terminals. */
	for (i = 0; i < n; i++) {
		if ((unsigned char)buf[i] < 0x20 ||
		    (unsigned char)buf[i] >= 0x7f) {
			buf[0] = '\0';
			return (-1);
		}
	}
	return (0);
}

void
tls_error(SSL *ssl, unsigned long sslerr, char *buf, size_t len)
{
	const char	*r;
	long		 v = ssl != NULL ? SSL_get_verify_result(ssl) : X509_V_OK;
	int		 e = errno;

	if (v != X509_V_OK) {
		snprintf(buf, len, "%s", X509_verify_cert_error_string(v));
		return;
	}
	if (sslerr == 0)
		sslerr = ERR_peek_last_error();
	if (sslerr == 0) {
		snprintf(buf, len, "connection closed during the handshake");
		return;
	}
	/* libevent's TLS bufferevent reports SSL_get_error()'s code, not a
	 * queued error, when the socket itself failed (SSL_ERROR_SYSCALL,
	 * "error:00000005"): say what the socket said, as errno has it. */
	if (ERR_GET_LIB(sslerr) == 0) {
		snprintf(buf, len, "%s", e != 0 ? strerror(e) :
		    "connection closed during the handshake");
		return;
	}
	if ((r = ERR_reason_error_string(sslerr)) != NULL)
		snprintf(buf, len, "%s", r);
	else
		ERR_error_string_n(sslerr, buf, len);
}

void
tls_ctx_free(SSL_CTX *ctx)
{
	SSL_CTX_free(ctx);
}
