/* node-user.h: the job's user on this node. A launch names a uid, a gid and
 * a user name; none of them is taken on the controller's word alone. The uid
 * must be in this node's own passwd database under the same name, and the
 * gid must be one of that user's groups here: a controller (or whatever
 * poses as one) that names an ordinary user with gid 42 (shadow), or gid 0,
 * must not get a job that reads /etc/shadow. The shepherd resolves the user
 * once, before it forks the job, and the job takes on exactly that
 * identity, checked after it is set. */
#ifndef GB_NODE_USER_H
#define GB_NODE_USER_H

#include <sys/types.h>

#include <stddef.h>

struct node_user {
	uid_t	 uid;
	gid_t	 gid;		/* the primary gid the job runs with */
	char	*name;
	char	*home;		/* the account's, for HOME */
	char	*shell;		/* and SHELL ("/bin/sh" when blank) */
	gid_t	*groups;	/* the user's groups on this node */
	int	 ngroups;
};

/* The effective ids a process had before node_user_enter. */
struct node_user_saved {
	gid_t	 egid;
	gid_t	*groups;
	int	 ngroups;
};

/* Looks up uid in the node's passwd database, checks that it is the user
 * called name there and that gid is its primary gid or one of its groups,
 * and fills u (freed with node_user_clear). node is this node's name, for
 * the messages. Blocks (NSS). Returns 0, or -1 with err saying what did not
 * match, as "gid 42 (shadow) is not a group of alice on n1". */
int	node_user_resolve(struct node_user *u, uid_t uid, gid_t gid,
	    const char *name, const char *node, char *err, size_t errlen);
void	node_user_clear(struct node_user *);
/* Looks up a user and its groups once, in gnoded before it forks any
 * shepherd, so the account database's modules are loaded once for all. */
void	node_user_warm(void);
/* The account of uid alone (name, home and shell; no groups, nothing
 * checked): what a gnoded that is not root, and runs its own jobs, puts in
 * their environment. Returns 0, or -1 when uid has no entry. */
int	node_user_account(struct node_user *u, uid_t uid);

/* In the child about to run the job, as root: sets the supplementary
 * groups, the real, effective and saved gid, then the uid, and checks that
 * each took and that root cannot be had back. Returns 0, or -1 with err
 * naming the step that failed. */
int	node_user_become(const struct node_user *, char *err, size_t errlen);

/* Switches only the effective ids (groups, gid, uid) to u's, for a moment's
 * file work as the user; the real and saved uid stay root's, so the user
 * can neither signal nor trace the process meanwhile. node_user_leave goes
 * back. Returns 0, or -1 with err set and the ids unchanged. */
int	node_user_enter(const struct node_user *u, struct node_user_saved *,
	    char *err, size_t errlen);
/* Back to the ids saved; aborts when it cannot: a root process half
 * switched must not go on. */
void	node_user_leave(struct node_user_saved *);

#endif
