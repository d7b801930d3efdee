/* tls.h: the TLS set-up both daemons use on the link between them: TLS 1.3
 * only, both sides presenting a certificate of the cluster's own CA (made by
 * gctl ca init and gctl cert issue), each checking the other's role, the
 * CRL when there is one, and the controller's name. Builds SSL_CTXs and
 * explains failures; the connections themselves belong to the callers. */
#ifndef GB_TLS_H
#define GB_TLS_H

#include <stdbool.h>
#include <stddef.h>

/* The types alone: ssl.h brings in <sched.h>, whose SCHED_FIFO the
 * scheduler's policy names too. */
#include <openssl/types.h>

/* Paths of one daemon's TLS files; crl may be NULL (no revocation list). */
struct tls_conf {
	char	*ca;
	char	*cert;
	char	*key;
	char	*crl;
};

/* Frees tc's paths and empties it. */
void	tls_conf_clear(struct tls_conf *tc);

/* The controller's context: TLS 1.3 only; presents cert/key; requires a
 * client certificate signed by ca, checked against crl when set, made for
 * a node (extendedKeyUsage clientAuth). The files are loaded and checked
 * now: the key's modes (tls_check_key_file), the key matching the
 * certificate, and the certificate itself verifying against ca (and crl)
 * in the controller's role, so an expired or foreign certificate stops the
 * daemon at start rather than at its first peer. Returns a new context the
 * caller frees with tls_ctx_free, or NULL with err naming the file. */
SSL_CTX	*tls_ctx_controller(const struct tls_conf *, char *err,
	    size_t errlen);

/* The node's context: the same checks of its own files, in the node's
 * role; verifies the server against ca (and crl) and requires the
 * controller's role (extendedKeyUsage serverAuth). */
SSL_CTX	*tls_ctx_node(const struct tls_conf *, char *err, size_t errlen);

/* A replica's context, for its links to the other replicas of a
 * replicated controller: it presents the controller's certificate, which
 * must also be made for clients (extendedKeyUsage clientAuth beside
 * serverAuth, as gctl cert issue --controller makes it), and requires the
 * other replica's to be a controller's (serverAuth). */
SSL_CTX	*tls_ctx_replica(const struct tls_conf *, char *err, size_t errlen);

/* Whether the certificate the peer of ssl proved is a controller's
 * (extendedKeyUsage serverAuth): another replica, not a node. */
bool	tls_peer_is_controller(SSL *);

/* Reads crl again into ctx (after gctl cert revoke; SIGHUP): ctx's trust
 * store is replaced by a new one with ca and crl, so handshakes from now
 * on see the new list. Connections already up are judged again by
 * tls_recheck. Returns 0, or -1 with err (ctx unchanged). */
int	tls_ctx_reload(SSL_CTX *, const struct tls_conf *, char *err,
	    size_t errlen);

/* Judges a connection that is up again: whether the certificate its peer
 * proved at the handshake still verifies against the trust store its
 * context holds now (revoked since, by a CRL read again; expired since).
 * Returns 0 (or for a connection without a peer certificate), or -1 with
 * why ("certificate revoked", "certificate has expired"). */
int	tls_recheck(SSL *, char *why, size_t len);

/* Before connecting: the name the controller's certificate must carry, as
 * a DNS name or an IP address in its subjectAltName (an address when name
 * parses as one). Returns 0, or -1 with err. */
int	tls_expect_name(SSL *, const char *name, char *err, size_t errlen);

/* After the handshake: the verified peer certificate's common name, into
 * buf. Returns 0, or -1 (buf "") when there is no verified certificate or
 * its name does not fit. */
int	tls_peer_name(SSL *, char *buf, size_t len);

/* Why a handshake failed, for a log line naming the peer: the verify
 * result ("certificate has expired", "certificate revoked", "unable to get
 * local issuer certificate") when the peer's certificate was refused,
 * else sslerr (an ERR_get_error() value; 0 takes the thread's queue). An
 * SSL_get_error() code in its place, as libevent reports a socket that
 * failed, reads as errno's text ("Connection refused"). */
void	tls_error(SSL *, unsigned long sslerr, char *buf, size_t len);

/* Refuses a key file that is not a regular file, or that group or others
 * may read or write. Returns 0, or -1 with err saying what to do. */
int	tls_check_key_file(const char *path, char *err, size_t errlen);

/* Frees a context (NULL does nothing); SSL objects made from it keep it
 * until they are freed. */
void	tls_ctx_free(SSL_CTX *);

#endif
