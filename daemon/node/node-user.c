/* node-user.c: who a launch's user is on this node, and becoming it. */
#include <sys/types.h>

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/node/node-user.h"

/* The largest buffer getpwuid_r and getgrgid_r are given before the entry
 * is taken to be unreadable. */
#define NODE_USER_BUF_MAX	(1U << 20)

/* The passwd entry of uid into pw, its strings in *buf (the caller frees).
 * Returns 1 when found, 0 when there is none, -1 with errno on failure. */
static int
node_user_getpw(uid_t uid, struct passwd *pw, char **buf)
{
	struct passwd	*res;
	size_t		 len = 1024;
	int		 rc;

	*buf = NULL;
	for (;;) {
		*buf = xrealloc(*buf, len);
		rc = getpwuid_r(uid, pw, *buf, len, &res);
		if (rc != ERANGE || len >= NODE_USER_BUF_MAX)
			break;
		len *= 2;
	}
	if (rc != 0) {
		errno = rc;
		return (-1);
	}
	return (res != NULL);
}

/* The name of group gid into name, or "" when it has none. */
static void
node_user_group_name(gid_t gid, char *name, size_t len)
{
	struct group	 gr, *res = NULL;
	char		*buf = NULL;
	size_t		 blen = 1024;
	int		 rc;

	for (;;) {
		buf = xrealloc(buf, blen);
		rc = getgrgid_r(gid, &gr, buf, blen, &res);
		if (rc != ERANGE || blen >= NODE_USER_BUF_MAX)
			break;
		blen *= 2;
	}
	snprintf(name, len, "%s", rc == 0 && res != NULL ? gr.gr_name : "");
	free(buf);
}

/* The groups of the user called name whose primary gid is gid, as the
 * group database has them, into u. */
static int
node_user_groups(struct node_user *u, const char *name, gid_t gid)
{
	int	n = 32, want;

	for (;;) {
		u->groups = xreallocarray(u->groups, (size_t)n,
		    sizeof *u->groups);
		want = n;
		if (getgrouplist(name, gid, u->groups, &want) != -1) {
			u->ngroups = want;
			return (0);
		}
		/* glibc says how many there are; others may not. */
		if (want <= n && n >= 65536)
			return (-1);
		n = want > n ? want : n * 2;
	}
}

static bool
node_user_has_group(const struct node_user *u, gid_t gid)
{
	int	i;

	for (i = 0; i < u->ngroups; i++) {
		if (u->groups[i] == gid)
			return (true);
	}
	return (false);
}

static void
node_user_set_account(struct node_user *u, const struct passwd *pw)
{
	u->name = xstrdup(pw->pw_name);
	u->home = xstrdup(pw->pw_dir != NULL ? pw->pw_dir : "/");
	u->shell = xstrdup(pw->pw_shell != NULL && *pw->pw_shell != '\0' ?
	    pw->pw_shell : "/bin/sh");
}

int
node_user_account(struct node_user *u, uid_t uid)
{
	struct passwd	 pw;
	char		*buf;

	memset(u, 0, sizeof *u);
	if (node_user_getpw(uid, &pw, &buf) != 1) {
		free(buf);
		return (-1);
	}
	u->uid = uid;
	node_user_set_account(u, &pw);
	free(buf);
	return (0);
}

int
node_user_resolve(struct node_user *u, uid_t uid, gid_t gid,
    const char *name, const char *node, char *err, size_t errlen)
{
	struct passwd	 pw;
	char		*buf, gname[256];
	int		 rc;

	memset(u, 0, sizeof *u);
	errno = 0;
	if ((rc = node_user_getpw(uid, &pw, &buf)) != 1) {
		if (rc == -1)
			snprintf(err, errlen, "cannot look up uid %lu (%s) on "
			    "node %s: %s", (unsigned long)uid, name, node,
			    strerror(errno));
		else
			snprintf(err, errlen, "uid %lu (%s) is unknown on "
			    "node %s", (unsigned long)uid, name, node);
		goto fail;
	}
	if (strcmp(pw.pw_name, name) != 0) {
		snprintf(err, errlen, "uid %lu is %s on node %s, not %s as on "
		    "the controller", (unsigned long)uid, pw.pw_name, node,
		    name);
		goto fail;
	}
	/* The user's groups from its own primary gid: a job submitted under
	 * another of its groups (sg video gsub ...) keeps all the others,
	 * as the submitting shell did. */
	if (node_user_groups(u, pw.pw_name, pw.pw_gid) == -1) {
		snprintf(err, errlen, "cannot read the groups of %s on node "
		    "%s", name, node);
		goto fail;
	}
	if (gid != pw.pw_gid && !node_user_has_group(u, gid)) {
		node_user_group_name(gid, gname, sizeof gname);
		snprintf(err, errlen, "gid %lu%s%s%s is not a group of %s on "
		    "%s", (unsigned long)gid, *gname != '\0' ? " (" : "",
		    gname, *gname != '\0' ? ")" : "", name, node);
		goto fail;
	}
	u->uid = uid;
	u->gid = gid;
	node_user_set_account(u, &pw);
	free(buf);
	return (0);
fail:
	free(buf);
	node_user_clear(u);
	return (-1);
}

void
node_user_clear(struct node_user *u)
{
	free(u->name);
	free(u->home);
	free(u->shell);
	free(u->groups);
	memset(u, 0, sizeof *u);
}

/* Whether the process's groups are exactly u's (in any order). */
static bool
node_user_groups_are(const struct node_user *u)
{
	gid_t	*now;
	int	 n, i;
	bool	 same;

	if ((n = getgroups(0, NULL)) == -1 || n != u->ngroups)
		return (false);
	now = xcalloc((size_t)n + 1, sizeof *now);
	same = getgroups(n, now) == n;
	for (i = 0; same && i < n; i++)
		same = node_user_has_group(u, now[i]);
	free(now);
	return (same);
}

int
node_user_become(const struct node_user *u, char *err, size_t errlen)
{
	uid_t	ruid, euid, suid;
	gid_t	rgid, egid, sgid;

	/* The list resolved (and checked against the launch's gid) is the
	 * list set: what initgroups would look up again, once. */
	if (setgroups((size_t)u->ngroups, u->groups) == -1) {
		snprintf(err, errlen, "cannot set the groups of %s: %s",
		    u->name, strerror(errno));
		return (-1);
	}
	if (setresgid(u->gid, u->gid, u->gid) == -1) {
		snprintf(err, errlen, "cannot set gid %lu for %s: %s",
		    (unsigned long)u->gid, u->name, strerror(errno));
		return (-1);
	}
	if (setresuid(u->uid, u->uid, u->uid) == -1) {
		snprintf(err, errlen, "cannot set uid %lu for %s: %s",
		    (unsigned long)u->uid, u->name, strerror(errno));
		return (-1);
	}
	/* Checked, not assumed: a job that kept any of root's ids, or
	 * could take them back, would run as more than its user. */
	if (getresuid(&ruid, &euid, &suid) == -1 || ruid != u->uid ||
	    euid != u->uid || suid != u->uid ||
	    getresgid(&rgid, &egid, &sgid) == -1 || rgid != u->gid ||
	    egid != u->gid || sgid != u->gid || !node_user_groups_are(u) ||
	    (u->uid != 0 && setuid(0) != -1)) {
		snprintf(err, errlen, "the ids of %s did not take (uid %lu, "
		    "gid %lu expected)", u->name, (unsigned long)u->uid,
		    (unsigned long)u->gid);
		return (-1);
	}
	return (0);
}

/* Sets the effective ids: to a user's, the uid last (it takes the right to
 * set the others); back to root, the uid first. */
static int
node_user_seteids(uid_t uid, gid_t gid, const gid_t *groups, int ngroups)
{
	if (uid == 0)
		return (seteuid(0) == -1 || setegid(gid) == -1 ||
		    setgroups((size_t)ngroups, groups) == -1 ? -1 : 0);
	if (setgroups((size_t)ngroups, groups) == -1 || setegid(gid) == -1 ||
	    seteuid(uid) == -1)
		return (-1);
	return (0);
}

int
node_user_enter(const struct node_user *u, struct node_user_saved *sv,
    char *err, size_t errlen)
{
	int	saved;

	sv->egid = getegid();
	sv->groups = NULL;
	if ((sv->ngroups = getgroups(0, NULL)) == -1) {
		snprintf(err, errlen, "getgroups: %s", strerror(errno));
		return (-1);
	}
	sv->groups = xcalloc((size_t)sv->ngroups + 1, sizeof *sv->groups);
	if ((sv->ngroups = getgroups(sv->ngroups, sv->groups)) == -1) {
		snprintf(err, errlen, "getgroups: %s", strerror(errno));
		free(sv->groups);
		return (-1);
	}
	if (node_user_seteids(u->uid, u->gid, u->groups, u->ngroups) == -1) {
		saved = errno;
		node_user_leave(sv);
		snprintf(err, errlen, "cannot act as %s: %s", u->name,
		    strerror(saved));
		return (-1);
	}
	return (0);
}

void
node_user_leave(struct node_user_saved *sv)
{
	if (node_user_seteids(0, sv->egid, sv->groups, sv->ngroups) == -1)
		abort();	/* root's ids back, or nothing else is safe */
	free(sv->groups);
	sv->groups = NULL;
}

void
node_user_warm(void)
{
	struct node_user	u;
	struct passwd		pw;
	char			*buf;

	/* Each database's NSS modules are loaded (dlopen) on its first
	 * lookup. Done here, in gnoded, they are loaded once and every
	 * shepherd forked after inherits them, instead of each loading and
	 * relocating them again (libnss_systemd and what it links). */
	memset(&u, 0, sizeof u);
	if (node_user_getpw(0, &pw, &buf) == 1)
		(void)node_user_groups(&u, pw.pw_name, pw.pw_gid);
	free(buf);
	free(u.groups);
}
