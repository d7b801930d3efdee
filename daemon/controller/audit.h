/* audit.h: gbatchd's audit log. One line for every action refused (a user
 * acting on another's job, a non-operator asking for an operator's
 * request, a node or client turned away, a root job, a peer closed for a
 * bad request) and every operator action (on another user's job, drain,
 * resume, shutdown, reconfigure, config show): who, what, on what, from
 * where. Lines go to controller.audit_log (appended, mode 0600, reopened
 * on reload) and to the daemon's log with an "audit:" prefix.
 *
 *	2026-05-01T10:00:00 refused alice (uid 1001) from unix:alice:
 *	    cancel job 42: it belongs to bob
 *
 * (one line). Texts from peers are escaped (safe-text.h). */
#ifndef GB_CTL_AUDIT_H
#define GB_CTL_AUDIT_H

#include <stddef.h>

struct conf;
struct peer;

/* Opens the audit log at conf_audit_path(c), or reopens it there after a
 * reload or a rotation. Returns 0, or -1 with err naming the file (the old
 * file, if any, stays in use). */
int	audit_open(const struct conf *c, char *err, size_t errlen);
void	audit_close(void);

/* Records that p was refused action (a verb: "cancel", "drain", "HELLO")
 * on target ("job 42", "node n1", NULL for none), and why (printf). */
void	audit_refused(const struct peer *p, const char *action,
	    const char *target, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* Records that p did action on target; fmt (may be NULL) adds detail.
 * Callers record what operators do to the cluster and to other users'
 * jobs (and who reads the settings), not a user acting on their own
 * jobs. */
void	audit_done(const struct peer *p, const char *action,
	    const char *target, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* Writes who p is ("alice (uid 1001)", "node n1", "an unauthenticated
 * peer") and from where ("unix:alice", "10.0.0.7:51234") into buf: what
 * every line says, for messages elsewhere that must say the same. */
void	audit_who(const struct peer *p, char *buf, size_t len);

#endif
