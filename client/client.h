/* client.h: one connection from a command to gbatchd's Unix socket. The
 * commands must start fast, so this is plain blocking I/O: no libevent, no
 * TLS. HELLO and the first request leave in one write (docs/protocol.md
 * allows it), so a simple command costs one round trip. */
#ifndef GB_CLIENT_H
#define GB_CLIENT_H

#include <stddef.h>

#include <jansson.h>

struct client;

/* Returns the socket path the commands use: $GBATCH_SOCKET, or the
 * built-in default. Borrowed; valid until the environment changes. */
const char	*client_socket_path(void);

/* Connects to gbatchd. Sends nothing yet. timeout_s (--timeout; 0: no
 * limit) bounds the connect, and then each call, by itself. Returns 0 with
 * *cp (a new client), or the commands' exit status (EXIT_UNREACHABLE;
 * EXIT_PERMISSION when the socket or its directory shuts this user out)
 * with err saying where it looked and what to do. Blocks for the connect
 * only, up to timeout_s (a stopped gbatchd's listen queue may be full). */
int		 client_open(unsigned timeout_s, struct client **cp,
		     char *err, size_t errlen);
void		 client_free(struct client *);
/* Changes the timeout of the calls that follow (0: no limit). */
void		 client_set_timeout(struct client *, unsigned timeout_s);

/* Sends req (HELLO first, on the first call) and waits for its reply.
 * Returns 0 with *reply (a new reference, "ok" true), or the exit status of
 * the commands (proto.h: EXIT_REFUSED, EXIT_PERMISSION, EXIT_UNREACHABLE,
 * EXIT_USAGE when req is too large to send) with err set to the
 * controller's message or what went wrong. Blocks up to the timeout given
 * to client_open(), counted afresh for each call. */
int		 client_call(struct client *, json_t *req, json_t **reply,
		     char *err, size_t errlen);

/* As client_call, but hands back the reply's raw JSON text (a buffer the
 * caller frees, NUL-terminated, *len bytes) for callers that decode large
 * replies themselves (gq). The reply's "ok" is checked here. */
int		 client_call_raw(struct client *, json_t *req, char **body,
		     size_t *len, char *err, size_t errlen);

/* Reads the next frame of a reply that comes in several (JOB_ACCT: each
 * but the last says "more"), as client_call_raw. The timeout counts afresh
 * for each frame. */
int		 client_next_raw(struct client *, char **body, size_t *len,
		     char *err, size_t errlen);
/* Who the controller says this user is (its HELLO reply's "user", the
 * name it gives this uid and the name on this user's jobs): says HELLO
 * first if no call has. The commands read no account database; --me and
 * "my own jobs" come from here. *user is borrowed, valid while c is.
 * Returns 0, or an exit status with err set. */
int		 client_whoami(struct client *, const char **user, char *err,
		     size_t errlen);
/* The controller's HELLO reply once a call has been made, else NULL.
 * Borrowed; holds "user", "uid", "operator", "server". */
const json_t	*client_hello(struct client *);

/* For a command that relays a session (grun): the connection's socket,
 * to poll and read frames from once its first call is answered, and a
 * send of one message that waits for no reply (bounded by the timeout,
 * as a call). client_post returns 0 or an exit status with err set. */
int		 client_fd(const struct client *);
int		 client_post(struct client *, json_t *msg, char *err,
		     size_t errlen);

#endif
