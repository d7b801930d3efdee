/* tls-test.c: the cluster CA (admin/ca.c) and the daemons' TLS contexts
 * (daemon/common/tls.c): real keys and certificates in a temporary
 * directory, real handshakes over a socketpair. A good pair connects;
 * another CA, an expired or revoked certificate, the wrong role and the
 * wrong name each fail with the reason a log line would give. */
#include <sys/socket.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "admin/ca-name.h"
#include "admin/ca.h"
#include "common/xmalloc.h"
#include "daemon/common/tls.h"
#include "tap.h"

static char	 tdir[] = "/tmp/gbtls.XXXXXX";
static char	*ca_dir, *other_dir;
static time_t	 now;

/* The files of name, as a daemon's configuration names them. */
static struct tls_conf
conf_of(const char *dir, const char *name, int crl)
{
	struct tls_conf	tc;

	tc.ca = xasprintf("%s/ca.crt", dir);
	tc.cert = xasprintf("%s/%s.crt", dir, name);
	tc.key = xasprintf("%s/%s.key", dir, name);
	tc.crl = crl ? xasprintf("%s/crl.pem", dir) : NULL;
	return (tc);
}

static void
conf_free(struct tls_conf *tc)
{
	free(tc->ca);
	free(tc->cert);
	free(tc->key);
	free(tc->crl);
}

static int
issue(const char *dir, const char *name, enum ca_role role, const char *alt,
    unsigned days, time_t when)
{
	struct ca_cert_req	req = { name, role, NULL, 0, days, false };
	const char		*alts[1] = { alt };
	uint64_t		serial;
	char			err[512];

	if (alt != NULL) {
		req.alt = alts;
		req.nalt = 1;
	}
	if (ca_issue(dir, &req, when, &serial, err, sizeof err) == -1) {
		printf("# issue %s: %s\n", name, err);
		return (-1);
	}
	return (0);
}

/* A context made with plain OpenSSL, verifying nothing and presenting
 * name's certificate (which tls.c would refuse to load): a rogue peer. */
static SSL_CTX *
rogue(const char *dir, const char *name, int server)
{
	struct tls_conf	 tc = conf_of(dir, name, 0);
	SSL_CTX		*ctx;

	ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	SSL_CTX_use_certificate_file(ctx, tc.cert, SSL_FILETYPE_PEM);
	SSL_CTX_use_PrivateKey_file(ctx, tc.key, SSL_FILETYPE_PEM);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	conf_free(&tc);
	return (ctx);
}

struct result {
	int	ok;		/* both sides done, a byte went across */
	char	server[256];	/* tls_error of the side that failed, */
	char	client[256];	/* or the peer's name on success */
};

/* One handshake between sctx and cctx over a socketpair, both sides
 * non-blocking, stepped in turn until both are done or one fails. */
static void
handshake(SSL_CTX *sctx, SSL_CTX *cctx, const char *expect, struct result *r)
{
	SSL		*s, *c;
	int		 fds[2], sd = 0, cd = 0, i, rc, e;
	char		 b = 'x', err[256];

	memset(r, 0, sizeof *r);
	socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	s = SSL_new(sctx);
	c = SSL_new(cctx);
	SSL_set_fd(s, fds[0]);
	SSL_set_fd(c, fds[1]);
	SSL_set_accept_state(s);
	SSL_set_connect_state(c);
	if (expect != NULL && tls_expect_name(c, expect, err,
	    sizeof err) == -1)
		printf("# expect %s: %s\n", expect, err);
	for (i = 0; i < 1000 && (sd == 0 || cd == 0); i++) {
		if (sd == 0 && (rc = SSL_do_handshake(s)) != 1) {
			e = SSL_get_error(s, rc);
			if (e != SSL_ERROR_WANT_READ &&
			    e != SSL_ERROR_WANT_WRITE) {
				tls_error(s, ERR_get_error(), r->server,
				    sizeof r->server);
				sd = -1;
			}
		} else if (sd == 0)
			sd = 1;
		if (cd == 0 && (rc = SSL_do_handshake(c)) != 1) {
			e = SSL_get_error(c, rc);
			if (e != SSL_ERROR_WANT_READ &&
			    e != SSL_ERROR_WANT_WRITE) {
				tls_error(c, ERR_get_error(), r->client,
				    sizeof r->client);
				cd = -1;
			}
		} else if (cd == 0)
			cd = 1;
		if (sd == -1 || cd == -1)
			break;
	}
	ERR_clear_error();
	/* In TLS 1.3 the client is done before the server judged its
	 * certificate: only a byte that arrives shows both accepted. */
	if (sd == 1 && cd == 1 && SSL_write(c, &b, 1) == 1 &&
	    SSL_read(s, &b, 1) == 1) {
		r->ok = 1;
		tls_peer_name(s, r->server, sizeof r->server);
		tls_peer_name(c, r->client, sizeof r->client);
	}
	ERR_clear_error();
	SSL_free(s);
	SSL_free(c);
	close(fds[0]);
	close(fds[1]);
}

static mode_t
mode_of(const char *dir, const char *name)
{
	struct stat	 st;
	char		*p = xasprintf("%s/%s", dir, name);

	if (stat(p, &st) != 0)
		st.st_mode = 0;
	free(p);
	return (st.st_mode & 07777);
}

static void
test_ca(void)
{
	struct ca_cert_req	 req = { "n1", CA_ROLE_NODE, NULL, 0, 30, false };
	struct ca_entry		*v;
	uint64_t		 serial;
	size_t			 n, count;
	char			 err[512];

	ok(ca_init(ca_dir, 365, false, now, err, sizeof err) == 0,
	    "ca_init makes a CA");
	is_int(mode_of(ca_dir, ""), 0700, "the CA directory is 0700");
	is_int(mode_of(ca_dir, "ca.key"), 0600, "ca.key is 0600");
	is_int(mode_of(ca_dir, "ca.crt"), 0644, "ca.crt is 0644");
	is_int(mode_of(ca_dir, "crl.pem"), 0644, "an empty crl.pem is there");
	ok(ca_init(ca_dir, 365, false, now, err, sizeof err) == -1 &&
	    strstr(err, "--force") != NULL,
	    "a second ca_init is refused, naming --force: %s", err);
	ok(ca_issue(ca_dir, &req, now, &serial, err, sizeof err) == 0,
	    "ca_issue makes n1");
	is_int(mode_of(ca_dir, "n1.key"), 0600, "n1.key is 0600");
	is_int(mode_of(ca_dir, "n1.crt"), 0644, "n1.crt is 0644");
	ok(ca_issue(ca_dir, &req, now, &serial, err, sizeof err) == -1 &&
	    strstr(err, "already exists") != NULL,
	    "issuing n1 again is refused: %s", err);
	req.force = true;
	ok(ca_issue(ca_dir, &req, now, &serial, err, sizeof err) == 0,
	    "with force n1 is issued again");
	is_int(serial, 3, "serials follow each other");
	ok(ca_list(ca_dir, &v, &n, err, sizeof err) == 0 && n == 2 &&
	    strcmp(v[1].name, "n1") == 0 && v[1].role == CA_ROLE_NODE &&
	    v[1].serial == 3 && v[1].revoked == 0 &&
	    v[1].not_after == now + 30 * 86400, "the index lists both");
	free(v);
	ok(ca_revoke(ca_dir, "n1", now, &count, err, sizeof err) == 0 &&
	    count == 2, "revoking n1 revokes both of its certificates");
	ok(ca_list(ca_dir, &v, &n, err, sizeof err) == 0 && n == 2 &&
	    v[0].revoked == now && v[1].revoked == now,
	    "the index says they are revoked");
	free(v);
	ok(ca_revoke(ca_dir, "n7", now, &count, err, sizeof err) == -1 &&
	    strstr(err, "n7") != NULL, "revoking a name never issued is "
	    "refused: %s", err);
	ok(ca_name_check("ca", err, sizeof err) == -1, "\"ca\" is no name");
	ok(ca_name_check("a b", err, sizeof err) == -1 &&
	    strstr(err, "letters") != NULL, "a space is refused: %s", err);
	ok(ca_name_check(".x", err, sizeof err) == -1, "a leading dot is "
	    "refused");
	ok(ca_name_check("gpu-07.rack_a", err, sizeof err) == 0,
	    "a node name is accepted");
	ok(ca_name_alt_check("10.0.0.1", err, sizeof err) == 0 &&
	    ca_name_alt_check("::1", err, sizeof err) == 0 &&
	    ca_name_alt_check("a,IP:1.2.3.4", err, sizeof err) == -1,
	    "alt names are host names or addresses, nothing else");
}

static void
test_key_file(void)
{
	char	*p = xasprintf("%s/k", tdir), err[512];
	FILE	*f = fopen(p, "w");

	fclose(f);
	chmod(p, 0644);
	ok(tls_check_key_file(p, err, sizeof err) == -1 &&
	    strstr(err, "0644") != NULL && strstr(err, "chmod 600") != NULL,
	    "a 0644 key is refused: %s", err);
	chmod(p, 0600);
	ok(tls_check_key_file(p, err, sizeof err) == 0, "a 0600 key passes");
	ok(tls_check_key_file(tdir, err, sizeof err) == -1 &&
	    strstr(err, "not a regular file") != NULL,
	    "a directory is refused: %s", err);
	free(p);
}

static void
test_load(void)
{
	struct tls_conf	 tc;
	SSL_CTX		*ctx;
	char		 err[512];

	tc = conf_of(ca_dir, "controller", 1);
	chmod(tc.key, 0640);
	ok((ctx = tls_ctx_controller(&tc, err, sizeof err)) == NULL &&
	    strstr(err, tc.key) != NULL, "a controller with a 0640 key does "
	    "not start: %s", err);
	chmod(tc.key, 0600);
	ok((ctx = tls_ctx_node(&tc, err, sizeof err)) == NULL &&
	    strstr(err, "not valid for a node") != NULL,
	    "a controller certificate does not make a node: %s", err);
	conf_free(&tc);

	tc = conf_of(ca_dir, "nope", 1);
	ok(tls_ctx_node(&tc, err, sizeof err) == NULL &&
	    strstr(err, tc.cert) != NULL &&
	    strstr(err, "No such file") != NULL,
	    "a missing certificate is named: %s", err);
	conf_free(&tc);

	tc = conf_of(ca_dir, "old", 1);
	ok(tls_ctx_node(&tc, err, sizeof err) == NULL &&
	    strstr(err, "certificate has expired") != NULL &&
	    strstr(err, tc.cert) != NULL,
	    "an expired certificate does not load: %s", err);
	conf_free(&tc);

	/* n9 of the other CA, checked against ours. */
	tc = conf_of(other_dir, "n9", 0);
	free(tc.ca);
	tc.ca = xasprintf("%s/ca.crt", ca_dir);
	ok(tls_ctx_node(&tc, err, sizeof err) == NULL &&
	    strstr(err, "unable to get local issuer certificate") != NULL,
	    "a certificate of another CA does not load: %s", err);
	conf_free(&tc);
}

static void
test_handshakes(void)
{
	struct tls_conf	 ctl = conf_of(ca_dir, "controller", 1);
	struct tls_conf	 n2 = conf_of(ca_dir, "n2", 1);
	struct tls_conf	 n3 = conf_of(ca_dir, "n3", 1);
	struct tls_conf	 n9 = conf_of(other_dir, "n9", 0);
	SSL_CTX		*sctx, *c2, *c3, *c9, *bad;
	struct result	 r;
	size_t		 count;
	char		 err[512];

	sctx = tls_ctx_controller(&ctl, err, sizeof err);
	ok(sctx != NULL, "the controller's context loads%s%s",
	    sctx == NULL ? ": " : "", sctx == NULL ? err : "");
	c2 = tls_ctx_node(&n2, err, sizeof err);
	ok(c2 != NULL, "n2's context loads%s%s", c2 == NULL ? ": " : "",
	    c2 == NULL ? err : "");
	c3 = tls_ctx_node(&n3, err, sizeof err);
	c9 = tls_ctx_node(&n9, err, sizeof err);
	ok(c3 != NULL && c9 != NULL, "n3's and the other CA's n9's load");
	if (sctx == NULL || c2 == NULL || c3 == NULL || c9 == NULL)
		return;

	handshake(sctx, c2, "ctl", &r);
	ok(r.ok, "n2 and the controller connect");
	is_str(r.server, "n2", "the controller sees n2's name");
	is_str(r.client, "ctl", "n2 sees the controller's name");
	handshake(sctx, c2, "127.0.0.1", &r);
	ok(r.ok, "the controller's address in its certificate passes");
	handshake(sctx, c2, "ctl2", &r);
	ok(!r.ok, "a controller of another name is refused");
	is_str(r.client, "hostname mismatch", "n2 says why");
	handshake(sctx, c2, "10.1.1.1", &r);
	ok(!r.ok, "a controller at another address is refused");
	is_str(r.client, "IP address mismatch", "n2 says why");

	handshake(sctx, c9, NULL, &r);
	ok(!r.ok, "a node of another CA refuses our controller");
	/* Our controller sends its CA along, which the node does not
	 * know. */
	is_str(r.client, "self-signed certificate in certificate chain",
	    "the node says why");
	bad = rogue(other_dir, "n9", 0);
	handshake(sctx, bad, NULL, &r);
	ok(!r.ok, "a node of another CA is refused");
	is_str(r.server, "unable to get local issuer certificate",
	    "the controller says why");
	SSL_CTX_free(bad);

	bad = rogue(ca_dir, "old", 0);
	handshake(sctx, bad, NULL, &r);
	ok(!r.ok, "a node with an expired certificate is refused");
	is_str(r.server, "certificate has expired", "the controller says why");
	SSL_CTX_free(bad);

	/* A controller's certificate is made for clients too: another
	 * replica dials the controller with one (replica.c). What it may say
	 * then is HELLO's to judge: role "replica", never "node"
	 * (req-hello.c). */
	bad = rogue(ca_dir, "controller", 0);
	handshake(sctx, bad, NULL, &r);
	ok(r.ok, "a controller certificate is taken from a client (a replica)");
	SSL_CTX_free(bad);

	bad = rogue(ca_dir, "n3", 1);
	handshake(bad, c2, "n3", &r);
	ok(!r.ok, "a node certificate acting as the controller is refused");
	is_str(r.client, "unsuitable certificate purpose", "n2 says why");
	SSL_CTX_free(bad);

	bad = SSL_CTX_new(TLS_client_method());
	handshake(sctx, bad, NULL, &r);
	ok(!r.ok && r.server[0] != '\0', "a client without a certificate is "
	    "refused: %s", r.server);
	SSL_CTX_free(bad);

	bad = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_max_proto_version(bad, TLS1_2_VERSION);
	handshake(sctx, bad, NULL, &r);
	ok(!r.ok && r.server[0] != '\0', "TLS 1.2 is refused: %s", r.server);
	SSL_CTX_free(bad);

	/* Revoked after the controller loaded the CRL: refused once the
	 * CRL is read again. */
	ok(ca_revoke(ca_dir, "n3", now, &count, err, sizeof err) == 0,
	    "n3 is revoked");
	handshake(sctx, c3, "ctl", &r);
	ok(r.ok, "until the controller reads the CRL again, n3 connects");
	ok(tls_ctx_reload(sctx, &ctl, err, sizeof err) == 0,
	    "the controller reads the CRL again");
	handshake(sctx, c3, "ctl", &r);
	ok(!r.ok, "then n3 is refused");
	is_str(r.server, "certificate revoked", "the controller says why");
	handshake(sctx, c2, "ctl", &r);
	ok(r.ok, "and n2 still connects");

	tls_ctx_free(c9);
	tls_ctx_free(c3);
	tls_ctx_free(c2);
	tls_ctx_free(sctx);
	conf_free(&n9);
	conf_free(&n3);
	conf_free(&n2);
	conf_free(&ctl);
}

int
main(void)
{
	char	err[512], *cmd;

	if (mkdtemp(tdir) == NULL)
		return (1);
	ca_dir = xasprintf("%s/ca", tdir);
	other_dir = xasprintf("%s/other", tdir);
	now = time(NULL);

	test_ca();
	test_key_file();
	if (issue(ca_dir, "ctl", CA_ROLE_CONTROLLER, "127.0.0.1", 30,
	    now) == -1 ||
	    issue(ca_dir, "n2", CA_ROLE_NODE, NULL, 30, now) == -1 ||
	    issue(ca_dir, "n3", CA_ROLE_NODE, NULL, 30, now) == -1 ||
	    issue(ca_dir, "old", CA_ROLE_NODE, NULL, 1,
	    now - 10 * 86400) == -1 ||
	    ca_init(other_dir, 30, false, now, err, sizeof err) == -1 ||
	    issue(other_dir, "n9", CA_ROLE_NODE, NULL, 30, now) == -1)
		ok(0, "the certificates for the handshakes are made");
	else {
		test_load();
		test_handshakes();
	}

	cmd = xasprintf("rm -rf '%s'", tdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tdir);
	free(cmd);
	free(ca_dir);
	free(other_dir);
	return (tap_done());
}
