/* otree.c: AVL tree with parent links, so a walk needs no stack and a
 * removal needs no search. */
#include "policy/otree.h"

static int
otree_h(const struct otree_node *n)
{
	return (n != NULL ? n->height : 0);
}

static void
otree_fix_height(struct otree_node *n)
{
	int	l = otree_h(n->left), r = otree_h(n->right);

	n->height = (l > r ? l : r) + 1;
}

/* Puts c where n was under n's parent (or as the root). */
static void
otree_replace(struct otree *t, struct otree_node *n, struct otree_node *c)
{
	struct otree_node	*p = n->parent;

	if (c != NULL)
		c->parent = p;
	if (p == NULL)
		t->root = c;
	else if (p->left == n)
		p->left = c;
	else
		p->right = c;
}

static struct otree_node *
otree_rotate_left(struct otree *t, struct otree_node *n)
{
	struct otree_node	*r = n->right;

	otree_replace(t, n, r);
	n->right = r->left;
	if (r->left != NULL)
		r->left->parent = n;
	r->left = n;
	n->parent = r;
	otree_fix_height(n);
	otree_fix_height(r);
	return (r);
}

static struct otree_node *
otree_rotate_right(struct otree *t, struct otree_node *n)
{
	struct otree_node	*l = n->left;

	otree_replace(t, n, l);
	n->left = l->right;
	if (l->right != NULL)
		l->right->parent = n;
	l->right = n;
	n->parent = l;
	otree_fix_height(n);
	otree_fix_height(l);
	return (l);
}

/* Walks from n to the root restoring heights and balance. */
static void
otree_rebalance(struct otree *t, struct otree_node *n)
{
	int	bal;

	for (; n != NULL; n = n->parent) {
		otree_fix_height(n);
		bal = otree_h(n->left) - otree_h(n->right);
		if (bal > 1) {
			if (otree_h(n->left->left) < otree_h(n->left->right))
				otree_rotate_left(t, n->left);
			n = otree_rotate_right(t, n);
		} else if (bal < -1) {
			if (otree_h(n->right->right) < otree_h(n->right->left))
				otree_rotate_right(t, n->right);
			n = otree_rotate_left(t, n);
		}
	}
}

void
otree_init(struct otree *t, otree_cmp cmp)
{
	t->root = NULL;
	t->cmp = cmp;
	t->count = 0;
}

void
otree_insert(struct otree *t, struct otree_node *n)
{
	struct otree_node	*p = NULL, **link = &t->root;

	while (*link != NULL) {
		p = *link;
		link = t->cmp(n, p) < 0 ? &p->left : &p->right;
	}
	n->left = n->right = NULL;
	n->parent = p;
	n->height = 1;
	*link = n;
	t->count++;
	otree_rebalance(t, p);
}

void
otree_remove(struct otree *t, struct otree_node *n)
{
	struct otree_node	*s, *from;

	if (n->left == NULL || n->right == NULL) {
		from = n->parent;
		otree_replace(t, n, n->left != NULL ? n->left : n->right);
	} else {
		/* Swap in the successor: the leftmost of the right side. */
		for (s = n->right; s->left != NULL; s = s->left)
			;
		if (s->parent == n)
			from = s;
		else {
			from = s->parent;
			otree_replace(t, s, s->right);
			s->right = n->right;
			s->right->parent = s;
		}
		otree_replace(t, n, s);
		s->left = n->left;
		s->left->parent = s;
	}
	n->left = n->right = n->parent = NULL;
	t->count--;
	otree_rebalance(t, from);
}

struct otree_node *
otree_first(const struct otree *t)
{
	struct otree_node	*n = t->root;

	while (n != NULL && n->left != NULL)
		n = n->left;
	return (n);
}

struct otree_node *
otree_last(const struct otree *t)
{
	struct otree_node	*n = t->root;

	while (n != NULL && n->right != NULL)
		n = n->right;
	return (n);
}

struct otree_node *
otree_next(const struct otree_node *n)
{
	const struct otree_node	*p;

	if (n->right != NULL) {
		for (n = n->right; n->left != NULL; n = n->left)
			;
		return ((struct otree_node *)n);
	}
	for (p = n->parent; p != NULL && n == p->right; p = p->parent)
		n = p;
	return ((struct otree_node *)p);
}

struct otree_node *
otree_prev(const struct otree_node *n)
{
	const struct otree_node	*p;

	if (n->left != NULL) {
		for (n = n->left; n->right != NULL; n = n->right)
			;
		return ((struct otree_node *)n);
	}
	for (p = n->parent; p != NULL && n == p->left; p = p->parent)
		n = p;
	return ((struct otree_node *)p);
}
