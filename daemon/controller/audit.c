/* audit.c: the audit log. See audit.h. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/peer.h"

/* The audit log's file: one for the controller. Global: every request
 * handler that changes something writes to it, and a reload reopens it. */
static struct {
	int	 fd;
	char	*path;
} audit = {
	.fd = -1,
};

int
audit_open(const struct conf *c, char *err, size_t errlen)
{
	char	*path = conf_audit_path(c);
	int	 fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	/* A file made before, or by hand, is made private too: it names
	 * users and what they tried. */
	if (fd == -1 || fchmod(fd, 0600) == -1) {
		snprintf(err, errlen, "audit log %s: %s (controller.audit_log)",
		    path, strerror(errno));
		if (fd != -1)
			close(fd);
		free(path);
		return (-1);
	}
	audit_close();
	audit.fd = fd;
	audit.path = path;
	return (0);
}

void
audit_close(void)
{
	if (audit.fd != -1)
		close(audit.fd);
	audit.fd = -1;
	free(audit.path);
	audit.path = NULL;
}

/* Where p's request came from. The hook for relayed requests: once peer.c
 * carries the node that relayed a user's request, this says "unix:alice
 * relayed by node n1", and every line with it. */
static void
audit_where(const struct peer *p, char *buf, size_t len)
{
	const char	*via;
	char		 name[128];

	/* A relayed client's address is "USER via NODE". */
	if (peer_is_relayed(p) && (via = strstr(peer_addr(p), " via ")) != NULL)
		snprintf(buf, len, "relayed by node %s",
		    safe_text_str(via + 5, name, sizeof name));
	else
		safe_text_str(peer_addr(p), buf, len);
}

void
audit_who(const struct peer *p, char *buf, size_t len)
{
	char	where[256], name[128];
	int	n;

	if (peer_role(p) == PEER_NODE && peer_node_name(p) != NULL)
		n = snprintf(buf, len, "node %s", safe_text_str(
		    peer_node_name(p), name, sizeof name));
	else if (peer_is_local(p) || peer_is_relayed(p))
		n = snprintf(buf, len, "%s (uid %lu)", safe_text_str(
		    peer_user(p), name, sizeof name), (unsigned long)peer_uid(p));
	else
		n = snprintf(buf, len, "an unauthenticated peer");
	if (n < 0 || (size_t)n >= len)
		return;
	audit_where(p, where, sizeof where);
	snprintf(buf + n, len - (size_t)n, " from %s", where);
}

static void
audit_write(const char *verdict, const struct peer *p, const char *action,
    const char *target, const char *fmt, va_list ap)
{
	char		who[512], detail[1024], line[2048], when[32];
	char		*safe, *s;
	struct tm	tm;
	time_t		now = time(NULL);
	size_t		len;
	ssize_t		w;
	int		n;

	audit_who(p, who, sizeof who);
	detail[0] = '\0';
	if (fmt != NULL)
		vsnprintf(detail, sizeof detail, fmt, ap);
	n = snprintf(line, sizeof line, "%s %s: %s%s%s%s%s", verdict, who,
	    action, target != NULL ? " " : "", target != NULL ? target : "",
	    *detail != '\0' ? ": " : "", detail);
	if (n < 0)
		return;
	/* The detail quotes names and reasons from peers. */
	safe = safe_text_dup(line, strlen(line));
	log_info("audit: %s", safe);
	if (audit.fd == -1) {
		free(safe);
		return;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	s = xasprintf("%s %s\n", when, safe);
	free(safe);
	/* One write per line: O_APPEND keeps lines whole. */
	len = strlen(s);
	while ((w = write(audit.fd, s, len)) == -1 && errno == EINTR)
		/* again */;
	if (w == -1 || (size_t)w != len)
		log_error("audit log %s: %s", audit.path, w == -1 ?
		    strerror(errno) : "short write");
	free(s);
}

void
audit_refused(const struct peer *p, const char *action, const char *target,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	audit_write("refused", p, action, target, fmt, ap);
	va_end(ap);
}

void
audit_done(const struct peer *p, const char *action, const char *target,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	audit_write("done", p, action, target, fmt, ap);
	va_end(ap);
}
