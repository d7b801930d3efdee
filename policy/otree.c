/* otree.c: a red-black tree with parent links, so a walk needs no stack
 * and a removal needs no search. The rules (after Cormen et al.): every
 * red node's children are black, and every path from a node down to a
 * missing child passes the same number of black nodes; so no path is more
 * than twice another, and the height is at most 2 log2(n + 1). */
#include "policy/otree.h"

static void
otree_set_parent(struct otree_node *n, struct otree_node *p)
{
	n->parent_red = (uintptr_t)p | (n->parent_red & 1);
}

static void
otree_set_red(struct otree_node *n, int red)
{
	n->parent_red = (n->parent_red & ~(uintptr_t)1) | (red ? 1 : 0);
}

/* Puts c where n was under n's parent (or as the root). */
static void
otree_replace(struct otree *t, struct otree_node *n, struct otree_node *c)
{
	struct otree_node	*p = otree_parent(n);

	if (c != NULL)
		otree_set_parent(c, p);
	if (p == NULL)
		t->root = c;
	else if (p->left == n)
		p->left = c;
	else
		p->right = c;
}

static void
otree_rotate_left(struct otree *t, struct otree_node *n)
{
	struct otree_node	*r = n->right;

	otree_replace(t, n, r);
	n->right = r->left;
	if (r->left != NULL)
		otree_set_parent(r->left, n);
	r->left = n;
	otree_set_parent(n, r);
}

static void
otree_rotate_right(struct otree *t, struct otree_node *n)
{
	struct otree_node	*l = n->left;

	otree_replace(t, n, l);
	n->left = l->right;
	if (l->right != NULL)
		otree_set_parent(l->right, n);
	l->right = n;
	otree_set_parent(n, l);
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
	struct otree_node	*p = NULL, *g, *u, **link = &t->root;

	while (*link != NULL) {
		p = *link;
		link = t->cmp(n, p) < 0 ? &p->left : &p->right;
	}
	n->left = n->right = NULL;
	n->parent_red = (uintptr_t)p | 1;
	*link = n;
	t->count++;
	/* A red n under a red parent: recolour up while the uncle is red,
	 * then one or two rotations. */
	while ((p = otree_parent(n)) != NULL && otree_red(p)) {
		g = otree_parent(p);	/* p is red, so not the root */
		if (p == g->left) {
			u = g->right;
			if (otree_red(u)) {
				otree_set_red(p, 0);
				otree_set_red(u, 0);
				otree_set_red(g, 1);
				n = g;
				continue;
			}
			if (n == p->right) {
				otree_rotate_left(t, p);
				n = p;
				p = otree_parent(n);
			}
			otree_set_red(p, 0);
			otree_set_red(g, 1);
			otree_rotate_right(t, g);
		} else {
			u = g->left;
			if (otree_red(u)) {
				otree_set_red(p, 0);
				otree_set_red(u, 0);
				otree_set_red(g, 1);
				n = g;
				continue;
			}
			if (n == p->left) {
				otree_rotate_right(t, p);
				n = p;
				p = otree_parent(n);
			}
			otree_set_red(p, 0);
			otree_set_red(g, 1);
			otree_rotate_left(t, g);
		}
	}
	otree_set_red(t->root, 0);
}

/* x (NULL for a missing child) under p has one black fewer on its paths
 * than its sibling's: restores the count. */
static void
otree_remove_fix(struct otree *t, struct otree_node *x, struct otree_node *p)
{
	struct otree_node	*w;

	while (x != t->root && !otree_red(x)) {
		if (x == p->left) {
			w = p->right;	/* not NULL: it has a black more */
			if (otree_red(w)) {
				otree_set_red(w, 0);
				otree_set_red(p, 1);
				otree_rotate_left(t, p);
				w = p->right;
			}
			if (!otree_red(w->left) && !otree_red(w->right)) {
				otree_set_red(w, 1);
				x = p;
				p = otree_parent(x);
				continue;
			}
			if (!otree_red(w->right)) {
				otree_set_red(w->left, 0);
				otree_set_red(w, 1);
				otree_rotate_right(t, w);
				w = p->right;
			}
			otree_set_red(w, otree_red(p));
			otree_set_red(p, 0);
			otree_set_red(w->right, 0);
			otree_rotate_left(t, p);
		} else {
			w = p->left;
			if (otree_red(w)) {
				otree_set_red(w, 0);
				otree_set_red(p, 1);
				otree_rotate_right(t, p);
				w = p->left;
			}
			if (!otree_red(w->left) && !otree_red(w->right)) {
				otree_set_red(w, 1);
				x = p;
				p = otree_parent(x);
				continue;
			}
			if (!otree_red(w->left)) {
				otree_set_red(w->right, 0);
				otree_set_red(w, 1);
				otree_rotate_left(t, w);
				w = p->left;
			}
			otree_set_red(w, otree_red(p));
			otree_set_red(p, 0);
			otree_set_red(w->left, 0);
			otree_rotate_right(t, p);
		}
		x = t->root;
	}
	if (x != NULL)
		otree_set_red(x, 0);
}

void
otree_remove(struct otree *t, struct otree_node *n)
{
	struct otree_node	*s, *x, *p;
	int			 red;

	if (n->left == NULL || n->right == NULL) {
		/* n goes, its one child (or none) takes its place. */
		x = n->left != NULL ? n->left : n->right;
		p = otree_parent(n);
		red = otree_red(n);
		otree_replace(t, n, x);
	} else {
		/* Its successor, the leftmost of the right side, takes n's
		 * place and colour; the successor's place loses a colour. */
		for (s = n->right; s->left != NULL; s = s->left)
			;
		red = otree_red(s);
		x = s->right;
		if (otree_parent(s) == n)
			p = s;
		else {
			p = otree_parent(s);
			otree_replace(t, s, x);
			s->right = n->right;
			otree_set_parent(s->right, s);
		}
		otree_replace(t, n, s);
		s->left = n->left;
		otree_set_parent(s->left, s);
		otree_set_red(s, otree_red(n));
	}
	n->left = n->right = NULL;
	n->parent_red = 0;
	t->count--;
	if (!red)
		otree_remove_fix(t, x, p);
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
	for (p = otree_parent(n); p != NULL && n == p->right;
	    p = otree_parent(p))
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
	for (p = otree_parent(n); p != NULL && n == p->left;
	    p = otree_parent(p))
		n = p;
	return ((struct otree_node *)p);
}
