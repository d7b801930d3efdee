/* fair-tree.c: the tree of accounts and users and their shares; see
 * fair-tree.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/fair-tree.h"

struct fair_node {
	char		*name;
	size_t		 parent;	/* the root's is itself */
	uint32_t	 shares;
	bool		 user;
};

struct fair_tree {
	struct fair_node	*nodes;
	size_t			 n, size;
};

static size_t
fair_tree_push(struct fair_tree *t, const char *name, size_t parent,
    uint32_t shares, bool user)
{
	struct fair_node	*nd;

	if (t->n == t->size) {
		t->size = t->size != 0 ? t->size * 2 : 16;
		t->nodes = xreallocarray(t->nodes, t->size, sizeof *t->nodes);
	}
	nd = &t->nodes[t->n];
	nd->name = xstrdup(name);
	nd->parent = parent;
	nd->shares = shares;
	nd->user = user;
	return (t->n++);
}

struct fair_tree *
fair_tree_create(void)
{
	struct fair_tree	*t = xcalloc(1, sizeof *t);

	fair_tree_push(t, "", FAIR_TREE_ROOT, 1, false);
	return (t);
}

void
fair_tree_free(struct fair_tree *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->nodes[i].name);
	free(t->nodes);
	free(t);
}

/* The account named name ("": the root), or -1. Account names are one
 * namespace, as Slurm's, wherever they sit in the tree. */
static int
fair_tree_account(const struct fair_tree *t, const char *name)
{
	size_t	i;

	if (*name == '\0')
		return (FAIR_TREE_ROOT);
	for (i = 1; i < t->n; i++) {
		if (!t->nodes[i].user && strcmp(t->nodes[i].name, name) == 0)
			return ((int)i);
	}
	return (-1);
}

/* The user named user directly below account node a, or -1. */
static int
fair_tree_user(const struct fair_tree *t, size_t a, const char *user)
{
	size_t	i;

	for (i = a + 1; i < t->n; i++) {
		if (t->nodes[i].user && t->nodes[i].parent == a &&
		    strcmp(t->nodes[i].name, user) == 0)
			return ((int)i);
	}
	return (-1);
}

int
fair_tree_add_account(struct fair_tree *t, const char *name,
    const char *parent, uint32_t shares, char *err, size_t errlen)
{
	int	p = FAIR_TREE_ROOT;

	if (*name == '\0') {
		snprintf(err, errlen, "an account needs a name");
		return (-1);
	}
	if (fair_tree_account(t, name) >= 0) {
		snprintf(err, errlen, "account \"%s\" is given twice", name);
		return (-1);
	}
	if (parent != NULL && (p = fair_tree_account(t, parent)) < 0) {
		snprintf(err, errlen, "account \"%s\": parent \"%s\" is no "
		    "account", name, parent);
		return (-1);
	}
	return ((int)fair_tree_push(t, name, (size_t)p, shares, false));
}

int
fair_tree_add_user(struct fair_tree *t, const char *user,
    const char *account, uint32_t shares, char *err, size_t errlen)
{
	int	a;

	if ((a = fair_tree_account(t, account != NULL ? account : "")) < 0) {
		snprintf(err, errlen, "user \"%s\": account \"%s\" is no "
		    "account", user, account);
		return (-1);
	}
	if (fair_tree_user(t, (size_t)a, user) >= 0) {
		snprintf(err, errlen, "user \"%s\" is given twice in account "
		    "\"%s\"", user, account);
		return (-1);
	}
	return ((int)fair_tree_push(t, user, (size_t)a, shares, true));
}

size_t
fair_tree_leaf(struct fair_tree *t, const char *account, const char *user)
{
	int	a, u;

	if ((a = fair_tree_account(t, account)) < 0)
		a = (int)fair_tree_push(t, account, FAIR_TREE_ROOT, 1, false);
	if ((u = fair_tree_user(t, (size_t)a, user)) < 0)
		u = (int)fair_tree_push(t, user, (size_t)a, 1, true);
	return ((size_t)u);
}

size_t
fair_tree_size(const struct fair_tree *t)
{
	return (t->n);
}

size_t
fair_tree_parent(const struct fair_tree *t, size_t i)
{
	return (t->nodes[i].parent);
}

bool
fair_tree_is_user(const struct fair_tree *t, size_t i)
{
	return (t->nodes[i].user);
}

const char *
fair_tree_name(const struct fair_tree *t, size_t i)
{
	return (t->nodes[i].name);
}

uint32_t
fair_tree_shares(const struct fair_tree *t, size_t i)
{
	return (t->nodes[i].shares);
}

void
fair_tree_norm(const struct fair_tree *t, const bool *active, double *share)
{
	double	*below;
	size_t	 i, p;

	/* Up: each node's sum of the shares of its children that have an
	 * active user at or below them (a user counts its own when active).
	 * Children come after their parents, so a walk backwards sums each
	 * node before its parent reads it. */
	below = xcalloc(t->n, sizeof *below);
	for (i = t->n; i-- > 1;) {
		p = t->nodes[i].parent;
		if (t->nodes[i].user ? active[i] : below[i] > 0)
			below[p] += t->nodes[i].shares;
	}
	/* Down: a node's fraction of its parent's, among the active. */
	share[FAIR_TREE_ROOT] = below[FAIR_TREE_ROOT] > 0 ? 1 : 0;
	for (i = 1; i < t->n; i++) {
		p = t->nodes[i].parent;
		share[i] = 0;
		if ((t->nodes[i].user ? active[i] : below[i] > 0) &&
		    below[p] > 0)
			share[i] = share[p] * t->nodes[i].shares / below[p];
	}
	free(below);
}
