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
fair_tree_export(const struct fair_tree *t, struct fairshare_account **acc,
    size_t *nacc, struct fairshare_user **usr, size_t *nusr)
{
	const struct fair_node	*nd, *p;
	size_t			 i;

	*acc = xcalloc(t->n, sizeof **acc);
	*usr = xcalloc(t->n, sizeof **usr);
	*nacc = *nusr = 0;
	for (i = 1; i < t->n; i++) {
		nd = &t->nodes[i];
		p = &t->nodes[nd->parent];
		if (nd->user) {
			(*usr)[*nusr].user = nd->name;
			(*usr)[*nusr].account = p->name;
			(*usr)[(*nusr)++].shares = nd->shares;
		} else {
			(*acc)[*nacc].name = nd->name;
			(*acc)[*nacc].parent = p->name;
			(*acc)[(*nacc)++].shares = nd->shares;
		}
	}
}

/* A child of the node being shared out, and its cap over its shares:
 * the order in which children reach their caps as the level rises. */
struct fair_tree_child {
	size_t	node;
	double	level;
};

static int
fair_tree_child_cmp(const void *a, const void *b)
{
	const struct fair_tree_child	*x = a, *y = b;

	if (x->level != y->level)
		return (x->level < y->level ? -1 : 1);
	return (x->node < y->node ? -1 : x->node > y->node);
}

/* Shares alloc[p] out between p's children (those with a cap), by their
 * shares, none above its cap: the children that reach their cap keep it
 * and the rest is shared again between the others. k is scratch. */
static void
fair_tree_fill_children(const struct fair_tree *t, size_t p,
    const double *cap, double *alloc, struct fair_tree_child *k)
{
	double	left = alloc[p], weight = 0, level = -1;
	size_t	i, n = 0;

	for (i = p + 1; i < t->n; i++) {
		if (t->nodes[i].parent != p || cap[i] <= 0)
			continue;
		k[n].node = i;
		k[n++].level = cap[i] / t->nodes[i].shares;
		weight += t->nodes[i].shares;
	}
	qsort(k, n, sizeof *k, fair_tree_child_cmp);
	for (i = 0; i < n; i++) {
		if (level < 0 && k[i].level * weight > left)
			level = left > 0 ? left / weight : 0;
		if (level >= 0) {
			alloc[k[i].node] = level * t->nodes[k[i].node].shares;
			continue;
		}
		alloc[k[i].node] = cap[k[i].node];
		left -= cap[k[i].node];
		weight -= t->nodes[k[i].node].shares;
	}
}

void
fair_tree_fill(const struct fair_tree *t, const double *want, double total,
    double *alloc)
{
	struct fair_tree_child	*k;
	double			*cap;
	size_t			 i;

	/* Up: a user's cap is what it wants, an account's its children's
	 * sum; children come after their parents, so a walk backwards has
	 * each node summed before its parent reads it. */
	cap = xcalloc(t->n, sizeof *cap);
	for (i = t->n; i-- > 1;) {
		if (t->nodes[i].user)
			cap[i] = want[i] > 0 ? want[i] : 0;
		cap[t->nodes[i].parent] += cap[i];
	}
	/* Down: each account's part shared out between its children. */
	memset(alloc, 0, t->n * sizeof *alloc);
	alloc[FAIR_TREE_ROOT] = total < cap[FAIR_TREE_ROOT] ? total :
	    cap[FAIR_TREE_ROOT];
	k = xcalloc(t->n, sizeof *k);
	for (i = 0; i < t->n; i++) {
		if (!t->nodes[i].user && alloc[i] > 0)
			fair_tree_fill_children(t, i, cap, alloc, k);
	}
	free(k);
	free(cap);
}
