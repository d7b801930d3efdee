/* pool-test.c: policy/pool.c. Objects come zeroed, 8-aligned and apart
 * (100,000 of them, each keeping what was written into it while the others
 * come and go); a put object is handed out again before a new block is
 * taken; blocks are as few as the objects need; a block emptied is kept
 * as the one spare or given back, so a pool emptied holds one block; and
 * 200,000 random gets and puts keep every live object's contents. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/pool.h"
#include "tests/unit/tap.h"

#define N	100000

struct t_obj {
	uint64_t	 tag;
	char		 fill[80];	/* 88 bytes, a cjob's size */
};

static void
t_mark(struct t_obj *o, uint64_t tag)
{
	o->tag = tag;
	memset(o->fill, (int)(tag & 0xff), sizeof o->fill);
}

static int
t_intact(const struct t_obj *o, uint64_t tag)
{
	size_t	i;

	if (o->tag != tag)
		return (0);
	for (i = 0; i < sizeof o->fill; i++) {
		if ((unsigned char)o->fill[i] != (tag & 0xff))
			return (0);
	}
	return (1);
}

static int
t_zero(const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (c[i] != 0)
			return (0);
	}
	return (1);
}

int
main(void)
{
	struct pool	  pool, small;
	struct t_obj	**o;
	size_t		  i, bad = 0, blocks, need;
	uint64_t	 *tags;
	void		 *x;

	pool_init(&small, 13);
	ok(small.size == 16, "13 bytes are rounded to 16");
	pool_free(&small);
	pool_init(&small, 1);
	ok(small.size == sizeof(void *), "1 byte is given a pointer's room");
	pool_free(&small);

	pool_init(&pool, sizeof(struct t_obj));
	ok(pool.size == 88 && pool.per_block > 700,
	    "88-byte objects, %zu to a block", pool.per_block);
	o = calloc(N, sizeof *o);
	tags = calloc(N, sizeof *tags);
	for (i = 0; i < N; i++) {
		o[i] = pool_get(&pool);
		if (!t_zero(o[i], sizeof *o[i]) || ((uintptr_t)o[i] & 7) != 0)
			bad++;
		tags[i] = i * 2654435761u + 1;
		t_mark(o[i], tags[i]);
	}
	is_int(bad, 0, "100,000 objects, each zeroed and 8-aligned");
	for (i = 0; i < N; i++) {
		if (!t_intact(o[i], tags[i]))
			bad++;
	}
	is_int(bad, 0, "each keeps what was written into it");
	need = (N + pool.per_block - 1) / pool.per_block;
	is_int(pool.nblocks, need, "as many blocks as 100,000 need");
	is_int(pool.nobjects, N, "100,000 out");

	/* Every other one back, and as many again: no block more. */
	blocks = pool.nblocks;
	for (i = 0; i < N; i += 2)
		pool_put(&pool, o[i]);
	for (i = 0; i < N; i += 2) {
		o[i] = pool_get(&pool);
		if (!t_zero(o[i], sizeof *o[i]))
			bad++;
		t_mark(o[i], tags[i]);
	}
	is_int(bad, 0, "objects handed out again come zeroed");
	is_int(pool.nblocks, blocks, "put objects are used before new blocks");
	for (i = 0; i < N; i++) {
		if (!t_intact(o[i], tags[i]))
			bad++;
	}
	is_int(bad, 0, "the others kept their contents");

	/* Random churn: 200,000 gets and puts over the 100,000 slots. */
	for (i = 0; i < 2 * N; i++) {
		size_t	k = tap_rand() % N;

		if (o[k] != NULL) {
			if (!t_intact(o[k], tags[k]))
				bad++;
			pool_put(&pool, o[k]);
			o[k] = NULL;
		} else {
			o[k] = pool_get(&pool);
			tags[k] = tap_rand();
			t_mark(o[k], tags[k]);
		}
	}
	for (i = 0; i < N; i++) {
		if (o[i] != NULL && !t_intact(o[i], tags[i]))
			bad++;
	}
	is_int(bad, 0, "random gets and puts: every live object intact");

	/* Everything back: one block kept, the rest given back. */
	for (i = 0; i < N; i++) {
		pool_put(&pool, o[i]);
		o[i] = NULL;
	}
	is_int(pool.nobjects, 0, "all put back");
	ok(pool.nblocks == 0 && pool.spare != NULL,
	    "one empty block kept, the others freed");
	x = pool_get(&pool);
	ok(x != NULL && pool.nblocks == 1 && pool.spare == NULL,
	    "the kept block serves the next");
	pool_put(&pool, x);
	pool_free(&pool);
	free(o);
	free(tags);
	return (tap_done());
}
