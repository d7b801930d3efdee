/* fairshare.c: the fair-share tree, its charges and their decay (see
 * fairshare.h); the ranking is fairshare-rank.c's, the report
 * fairshare-report.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/fairshare-int.h"

/* The epoch moves up once now is this many half-lives past it, so that a
 * charge's scale, 2^((now - epoch) / H), stays below 2^64. */
#define FAIRSHARE_RESCALE_HALVES	64

static void *
fairshare_calloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n, size)) == NULL)
		abort();
	return (p);
}

static char *
fairshare_strdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		abort();
	return (p);
}

/* By account, then user with the account's own node (user NULL) first. */
static int
fairshare_key_cmp(const char *user_a, const char *account_a,
    const char *user_b, const char *account_b)
{
	int	c = strcmp(account_a, account_b);

	if (c != 0)
		return (c);
	if (user_a == NULL || user_b == NULL)
		return ((user_a != NULL) - (user_b != NULL));
	return (strcmp(user_a, user_b));
}

static int
fairshare_cmp(const struct otree_node *a, const struct otree_node *b)
{
	const struct fairshare_node	*x, *y;

	x = otree_entry(a, struct fairshare_node, link);
	y = otree_entry(b, struct fairshare_node, link);
	return (fairshare_key_cmp(x->user, x->account, y->user, y->account));
}

struct fairshare_node *
fairshare_find(const struct fairshare_tree *t, const char *user,
    const char *account)
{
	struct otree_node	*o = t->nodes.root;
	struct fairshare_node	*n;
	int			 c;

	while (o != NULL) {
		n = otree_entry(o, struct fairshare_node, link);
		c = fairshare_key_cmp(user, account, n->user, n->account);
		if (c == 0)
			return (n);
		o = c < 0 ? o->left : o->right;
	}
	return (NULL);
}

int
fairshare_sibling_cmp(const struct fairshare_node *x,
    const struct fairshare_node *y)
{
	int	c;

	if ((x->user == NULL) != (y->user == NULL))
		return (x->user != NULL ? -1 : 1);
	if ((c = strcmp(x->account, y->account)) != 0)
		return (c);
	return (x->user != NULL ? strcmp(x->user, y->user) : 0);
}

/* A new node, in t's index but in no parent's children yet. */
static struct fairshare_node *
fairshare_node_new(struct fairshare_tree *t, const char *user,
    const char *account, uint32_t shares, bool listed)
{
	struct fairshare_node	*n = fairshare_calloc(1, sizeof *n);

	n->account = fairshare_strdup(account);
	n->user = user != NULL ? fairshare_strdup(user) : NULL;
	n->shares = shares;
	n->listed = listed;
	n->factor = 1;		/* unranked: the first place, as standing 0 */
	otree_insert(&t->nodes, &n->link);
	t->nnodes++;
	if (user != NULL)
		t->nleaves++;
	return (n);
}

/* Whether a sorts before b among siblings: leaves by user, then accounts
 * by name. */
static bool
fairshare_child_before(const struct fairshare_node *a,
    const struct fairshare_node *b)
{
	if ((a->user == NULL) != (b->user == NULL))
		return (a->user != NULL);
	if (a->user != NULL)
		return (strcmp(a->user, b->user) < 0);
	return (strcmp(a->account, b->account) < 0);
}

/* Makes c a child of p, in order. */
static void
fairshare_node_attach(struct fairshare_node *p, struct fairshare_node *c)
{
	size_t	lo = 0, hi = p->nchild, mid;

	if (p->nchild == p->childcap) {
		p->childcap = p->childcap == 0 ? 4 : p->childcap * 2;
		if ((p->child = realloc(p->child,
		    p->childcap * sizeof *p->child)) == NULL)
			abort();
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fairshare_child_before(p->child[mid], c))
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(p->child + lo + 1, p->child + lo,
	    (p->nchild - lo) * sizeof *p->child);
	p->child[lo] = c;
	p->nchild++;
	p->child_shares += c->shares;
	c->parent = p;
}

static void
fairshare_tree_init(struct fairshare_tree *t)
{
	memset(t, 0, sizeof *t);
	otree_init(&t->nodes, fairshare_cmp);
	t->root = fairshare_node_new(t, NULL, "", 1, true);
}

static void
fairshare_tree_free(struct fairshare_tree *t)
{
	struct otree_node	*o;
	struct fairshare_node	*n;

	while ((o = otree_first(&t->nodes)) != NULL) {
		otree_remove(&t->nodes, o);
		n = otree_entry(o, struct fairshare_node, link);
		free(n->account);
		free(n->user);
		free(n->child);
		free(n);
	}
	memset(t, 0, sizeof *t);
}

/* user's leaf under account, made (with the account, if need be) as
 * fairshare.h says when t has none. */
static struct fairshare_node *
fairshare_leaf(struct fairshare_tree *t, const char *user,
    const char *account)
{
	struct fairshare_node	*n, *p;

	if ((n = fairshare_find(t, user, account)) != NULL)
		return (n);
	if ((p = fairshare_find(t, NULL, account)) == NULL) {
		p = fairshare_node_new(t, NULL, account, 1, false);
		fairshare_node_attach(t->root, p);
	}
	n = fairshare_node_new(t, user, account, 1, false);
	fairshare_node_attach(p, n);
	return (n);
}

struct fairshare *
fairshare_create(uint64_t half_life_ms)
{
	struct fairshare	*fs = fairshare_calloc(1, sizeof *fs);

	fairshare_tree_init(&fs->tree);
	fs->half_life = half_life_ms;
	return (fs);
}

void
fairshare_free(struct fairshare *fs)
{
	if (fs == NULL)
		return;
	fairshare_tree_free(&fs->tree);
	free(fs);
}

/* 2^-(since / H): the usage left after since ms. */
static double
fairshare_halves(const struct fairshare *fs, uint64_t since)
{
	if (fs->half_life == 0)
		return (1);
	return (exp2(-((double)since / (double)fs->half_life)));
}

/* Rescales every node to now, which becomes the epoch. */
static void
fairshare_rescale(struct fairshare *fs, int64_t now)
{
	struct otree_node	*o;
	struct fairshare_node	*n;
	double			 f;

	f = fairshare_halves(fs, (uint64_t)now - (uint64_t)fs->epoch);
	for (o = otree_first(&fs->tree.nodes); o != NULL; o = otree_next(o)) {
		n = otree_entry(o, struct fairshare_node, link);
		n->usage *= f;
	}
	fs->epoch = now;
}

int64_t
fairshare_clock(struct fairshare *fs, int64_t now)
{
	if (!fs->started) {
		fs->started = true;
		fs->epoch = fs->last = now;
	}
	if (now < fs->last)
		now = fs->last;
	fs->last = now;
	if (fs->half_life != 0 && ((uint64_t)now - (uint64_t)fs->epoch) /
	    FAIRSHARE_RESCALE_HALVES >= fs->half_life)
		fairshare_rescale(fs, now);
	return (now);
}

double
fairshare_decay(const struct fairshare *fs, int64_t now)
{
	if (!fs->started)
		return (1);
	if (now < fs->last)
		now = fs->last;
	return (fairshare_halves(fs, (uint64_t)now - (uint64_t)fs->epoch));
}

void
fairshare_set_half_life(struct fairshare *fs, uint64_t half_life_ms,
    int64_t now)
{
	now = fairshare_clock(fs, now);
	fairshare_rescale(fs, now);
	fs->half_life = half_life_ms;
}

void
fairshare_charge(struct fairshare *fs, const char *user,
    const char *account, double gpu_ms, int64_t now)
{
	struct fairshare_node	*n;
	size_t			 had = fs->tree.nleaves;
	double			 add;

	now = fairshare_clock(fs, now);
	if (user == NULL)
		return;		/* a leaf needs a user */
	n = fairshare_leaf(&fs->tree, user, account != NULL ? account : "");
	if (fs->tree.nleaves != had)
		fs->dirty = true;
	if (!(gpu_ms > 0) || !isfinite(gpu_ms))
		return;
	/* Scaled to the epoch: a charge now weighs 2^((now - epoch) / H)
	 * of what the epoch's usage does. */
	add = gpu_ms / fairshare_decay(fs, now);
	for (; n != NULL; n = n->parent)
		n->usage += add;
	fs->dirty = true;
}

/* Puts acc's accounts in t, each under its parent. Returns 0, or -1
 * with err. */
static int
fairshare_tree_accounts(struct fairshare_tree *t,
    const struct fairshare_account *acc, size_t nacc, char *err,
    size_t errlen)
{
	struct fairshare_node	*n, *p;
	const char		*parent;
	size_t			 i, up;

	for (i = 0; i < nacc; i++) {
		if (acc[i].name == NULL || *acc[i].name == '\0') {
			snprintf(err, errlen, "account %zu: no name", i + 1);
			return (-1);
		}
		if (acc[i].shares == 0) {
			snprintf(err, errlen, "account %s: shares: expected "
			    "at least 1, got 0", acc[i].name);
			return (-1);
		}
		if (fairshare_find(t, NULL, acc[i].name) != NULL) {
			snprintf(err, errlen, "account %s: listed twice",
			    acc[i].name);
			return (-1);
		}
		fairshare_node_new(t, NULL, acc[i].name, acc[i].shares, true);
	}
	for (i = 0; i < nacc; i++) {
		n = fairshare_find(t, NULL, acc[i].name);
		parent = acc[i].parent != NULL ? acc[i].parent : "";
		if ((p = fairshare_find(t, NULL, parent)) == NULL) {
			snprintf(err, errlen, "account %s: parent %s is not "
			    "an account", acc[i].name, parent);
			return (-1);
		}
		n->parent = p;
	}
	/* Up from each account, the root within nacc steps, or a circle. */
	for (i = 0; i < nacc; i++) {
		n = fairshare_find(t, NULL, acc[i].name);
		for (up = 0; n != t->root && up <= nacc; up++)
			n = n->parent;
		if (n != t->root) {
			snprintf(err, errlen, "account %s: is below itself",
			    acc[i].name);
			return (-1);
		}
	}
	for (i = 0; i < nacc; i++) {
		n = fairshare_find(t, NULL, acc[i].name);
		fairshare_node_attach(n->parent, n);
	}
	return (0);
}

/* Puts usr's leaves in t. Returns 0, or -1 with err. */
static int
fairshare_tree_users(struct fairshare_tree *t,
    const struct fairshare_user *usr, size_t nusr, char *err, size_t errlen)
{
	struct fairshare_node	*n, *p;
	const char		*account;
	size_t			 i;

	for (i = 0; i < nusr; i++) {
		account = usr[i].account != NULL ? usr[i].account : "";
		if (usr[i].user == NULL || *usr[i].user == '\0') {
			snprintf(err, errlen, "user %zu: no name", i + 1);
			return (-1);
		}
		if ((p = fairshare_find(t, NULL, account)) == NULL) {
			snprintf(err, errlen, "user %s: account %s is not an "
			    "account", usr[i].user, account);
			return (-1);
		}
		if (fairshare_find(t, usr[i].user, account) != NULL) {
			snprintf(err, errlen, "user %s: account %s listed "
			    "twice", usr[i].user, account);
			return (-1);
		}
		n = fairshare_node_new(t, usr[i].user, account,
		    usr[i].shares != 0 ? usr[i].shares : 1, true);
		fairshare_node_attach(p, n);
	}
	return (0);
}

/* Gives t's leaves the usage and standing of old's of the same name,
 * and old's made leaves a place in t. Returns whether a leaf whose
 * standing was not 0 went. */
static bool
fairshare_tree_carry(struct fairshare_tree *t,
    const struct fairshare_tree *old)
{
	struct otree_node	*o;
	struct fairshare_node	*was, *n;
	bool			 moved = false;

	for (o = otree_first(&old->nodes); o != NULL; o = otree_next(o)) {
		was = otree_entry(o, struct fairshare_node, link);
		if (was->user == NULL)
			continue;
		if ((n = fairshare_find(t, was->user, was->account)) == NULL &&
		    !was->listed)
			n = fairshare_leaf(t, was->user, was->account);
		if (n == NULL) {
			moved |= was->standing != 0;
			continue;
		}
		n->usage = was->usage;
		n->standing = was->standing;
		n->factor = was->factor;
	}
	return (moved);
}

/* Each account's usage: its leaves'. */
static void
fairshare_tree_sum(struct fairshare_tree *t)
{
	struct otree_node	*o;
	struct fairshare_node	*n, *p;

	for (o = otree_first(&t->nodes); o != NULL; o = otree_next(o)) {
		n = otree_entry(o, struct fairshare_node, link);
		if (n->user == NULL)
			n->usage = 0;
	}
	for (o = otree_first(&t->nodes); o != NULL; o = otree_next(o)) {
		n = otree_entry(o, struct fairshare_node, link);
		if (n->user == NULL)
			continue;
		for (p = n->parent; p != NULL; p = p->parent)
			p->usage += n->usage;
	}
}

int
fairshare_set_tree(struct fairshare *fs,
    const struct fairshare_account *acc, size_t nacc,
    const struct fairshare_user *usr, size_t nusr, char *err, size_t errlen)
{
	struct fairshare_tree	t;

	fairshare_tree_init(&t);
	if (fairshare_tree_accounts(&t, acc, nacc, err, errlen) == -1 ||
	    fairshare_tree_users(&t, usr, nusr, err, errlen) == -1)
		goto fail;
	if (fairshare_tree_carry(&t, &fs->tree))
		fs->generation++;
	fairshare_tree_sum(&t);
	fairshare_tree_free(&fs->tree);
	fs->tree = t;
	fs->dirty = true;
	return (0);

fail:
	fairshare_tree_free(&t);
	return (-1);
}

uint32_t
fairshare_standing(const struct fairshare *fs, const char *user,
    const char *account)
{
	const struct fairshare_node	*n;

	n = fairshare_find(&fs->tree, user, account != NULL ? account : "");
	return (n != NULL && n->user != NULL ? n->standing : 0);
}

uint64_t
fairshare_generation(const struct fairshare *fs)
{
	return (fs->generation);
}

double
fairshare_usage(const struct fairshare *fs, const char *user,
    const char *account, int64_t now)
{
	const struct fairshare_node	*n;

	n = fairshare_find(&fs->tree, user, account != NULL ? account : "");
	return (n != NULL ? n->usage * fairshare_decay(fs, now) : 0);
}

double
fairshare_level_fs(const struct fairshare_node *n)
{
	const struct fairshare_node	*p = n->parent;
	double				 s, u, lf;

	if (!(n->usage > 0) || !(p->usage > 0))
		return (INFINITY);
	s = (double)n->shares / (double)p->child_shares;
	u = n->usage / p->usage;
	lf = s / u;
	return (isnan(lf) ? 0 : lf);
}
