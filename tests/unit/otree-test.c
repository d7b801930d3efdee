/* otree-test.c: the red-black tree of policy/otree.c. Covers the empty
 * tree, ascending inserts (which must stay within the red-black height
 * bound, where an unbalanced tree would be a list), and 2,000 random
 * inserts and removes from a fixed seed; after every operation the tree
 * must be in order, hold exactly the keys put in, keep its count, answer
 * first/last/next/prev consistently, have a black root, no red node with a
 * red child, as many black nodes on every path down, and parent links
 * that match the child links. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "policy/otree.h"
#include "tests/unit/tap.h"

#define NITEMS	1031	/* prime, so the key permutation below is one */
#define NOPS	2000

struct t_item {
	int			 key;
	bool			 in;
	struct otree_node	 node;
};

static struct t_item	t_items[NITEMS];
static uint64_t		t_lcg;

static uint32_t
t_rand(void)
{
	t_lcg = t_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((uint32_t)(t_lcg >> 33));
}

static int
t_cmp(const struct otree_node *a, const struct otree_node *b)
{
	const struct t_item	*x = otree_entry(a, struct t_item, node);
	const struct t_item	*y = otree_entry(b, struct t_item, node);

	return (x->key < y->key ? -1 : x->key > y->key);
}

static int
t_key(const struct otree_node *n)
{
	return (otree_entry(n, struct t_item, node)->key);
}

/* Returns the black nodes on every path down from n (missing children
 * count none), or -1 when the paths differ, a red node has a red child or
 * a parent link is wrong anywhere below n. */
static int
t_check_node(const struct otree_node *n, const struct otree_node *parent)
{
	int	l, r;

	if (n == NULL)
		return (0);
	if (otree_parent(n) != parent)
		return (-1);
	if (otree_red(n) && (otree_red(n->left) || otree_red(n->right)))
		return (-1);
	if ((l = t_check_node(n->left, n)) < 0 ||
	    (r = t_check_node(n->right, n)) < 0 || l != r)
		return (-1);
	return (l + (otree_red(n) ? 0 : 1));
}

/* The longest path down from n, in nodes. */
static int
t_height(const struct otree_node *n)
{
	int	l, r;

	if (n == NULL)
		return (0);
	l = t_height(n->left);
	r = t_height(n->right);
	return ((l > r ? l : r) + 1);
}

/* Compares the tree with the items marked in. Returns a short word naming
 * the first property that fails, or NULL. */
static const char *
t_check(const struct otree *t)
{
	const struct otree_node	*n, *last = NULL;
	size_t			 seen = 0, want = 0;
	int			 i, lo = -1, hi = -1;

	for (i = 0; i < NITEMS; i++) {
		if (!t_items[i].in)
			continue;
		want++;
		if (lo == -1 || t_items[i].key < lo)
			lo = t_items[i].key;
		if (hi == -1 || t_items[i].key > hi)
			hi = t_items[i].key;
	}
	if (t->count != want)
		return ("count");
	if (otree_red(t->root))
		return ("red root");
	if (t_check_node(t->root, NULL) < 0)
		return ("colours, black counts or parent link");
	if (want == 0)
		return (otree_first(t) == NULL && otree_last(t) == NULL &&
		    t->root == NULL ? NULL : "empty tree");
	if (t_key(otree_first(t)) != lo || t_key(otree_last(t)) != hi)
		return ("first or last");
	for (n = otree_first(t); n != NULL; n = otree_next(n)) {
		if (!otree_entry(n, struct t_item, node)->in)
			return ("a removed item is still linked");
		if (last != NULL && t_key(last) >= t_key(n))
			return ("order");
		if (otree_prev(n) != last)
			return ("prev");
		last = n;
		seen++;
	}
	if (seen != want)
		return ("walk length");
	return (NULL);
}

static void
test_empty(void)
{
	struct otree	t;

	otree_init(&t, t_cmp);
	ok(otree_first(&t) == NULL, "empty: no first");
	ok(otree_last(&t) == NULL, "empty: no last");
	is_int(t.count, 0, "empty: count 0");

	memset(t_items, 0, sizeof t_items);
	t_items[0].key = 7;
	otree_insert(&t, &t_items[0].node);
	ok(otree_first(&t) == &t_items[0].node &&
	    otree_last(&t) == &t_items[0].node, "one item: first and last");
	ok(otree_next(&t_items[0].node) == NULL &&
	    otree_prev(&t_items[0].node) == NULL, "one item: no neighbours");
	otree_remove(&t, &t_items[0].node);
	ok(t.root == NULL && t.count == 0, "one item removed: empty again");
}

static void
test_ascending(void)
{
	struct otree	t;
	int		i, bad = 0;

	/* Inserting 1..2^10-1 in order must keep the height within
	 * 2 log2(n + 1) = 20; an unbalanced tree would have height 1023. */
	memset(t_items, 0, sizeof t_items);
	otree_init(&t, t_cmp);
	for (i = 0; i < 1023; i++) {
		t_items[i].key = i;
		t_items[i].in = true;
		otree_insert(&t, &t_items[i].node);
	}
	ok(t_height(t.root) >= 10 && t_height(t.root) <= 20,
	    "ascending: 1023 keys make height %d, within 10 to 20",
	    t_height(t.root));
	ok(t_check(&t) == NULL, "ascending: tree consistent");
	for (i = 0; i < 1023; i++) {
		otree_remove(&t, &t_items[i].node);
		t_items[i].in = false;
		if (t_check(&t) != NULL)
			bad++;
	}
	is_int(bad, 0, "ascending: consistent after each removal of the first");
	ok(t.root == NULL && t.count == 0, "ascending: empty at the end");
}

static void
test_random(void)
{
	struct otree	 t;
	const char	*why, *first_why = NULL;
	int		 op, i, bad = 0, inserts = 0, removes = 0;
	int		 maxh = 0, first_bad = -1;

	/* Keys are a permutation of 0..NITEMS-1, so item order and key
	 * order differ. */
	memset(t_items, 0, sizeof t_items);
	for (i = 0; i < NITEMS; i++)
		t_items[i].key = (int)(((long)i * 7919) % NITEMS);
	t_lcg = 20240601;
	otree_init(&t, t_cmp);
	for (op = 0; op < NOPS; op++) {
		/* Bias towards inserts early so the tree grows large. */
		i = (int)(t_rand() % (op < NOPS / 2 ? NITEMS : NITEMS / 2));
		if (t_items[i].in) {
			otree_remove(&t, &t_items[i].node);
			t_items[i].in = false;
			removes++;
		} else {
			otree_insert(&t, &t_items[i].node);
			t_items[i].in = true;
			inserts++;
		}
		if (t_height(t.root) > maxh)
			maxh = t_height(t.root);
		if ((why = t_check(&t)) != NULL) {
			if (bad++ == 0) {
				first_bad = op;
				first_why = why;
			}
		}
	}
	if (!ok(bad == 0, "random: consistent after each of %d operations",
	    NOPS))
		printf("#   %d bad, first at op %d: %s\n", bad, first_bad,
		    first_why);
	ok(inserts > 1000 && removes > 300,
	    "random: the run mixes inserts (%d) and removes (%d)", inserts,
	    removes);
	/* A red-black tree of n nodes is at most 2 log2(n + 1) high: 20
	 * for n <= 1031. */
	ok(maxh >= 10 && maxh <= 20,
	    "random: height %d within red-black bounds", maxh);

	/* Empty it in key order from the last, checking prev walks. */
	while (t.root != NULL) {
		struct otree_node	*n = otree_last(&t);

		otree_remove(&t, n);
		otree_entry(n, struct t_item, node)->in = false;
		if (t_check(&t) != NULL)
			bad++;
	}
	is_int(bad, 0, "random: consistent while removing the last each time");
	is_int(t.count, 0, "random: count 0 at the end");
}

int
main(void)
{
	test_empty();
	test_ascending();
	test_random();
	return (tap_done());
}
