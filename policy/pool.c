/* pool.c: blocks from malloc, kept in an array by address so an object's
 * block is found by a binary search (a queue of 100,000 cjobs is some 135
 * blocks); each block keeps its own free list and count, so an empty block
 * is known at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/pool.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define POOL_UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POOL_POISON(p, n)	((void)(p), (void)(n))
#define POOL_UNPOISON(p, n)	((void)(p), (void)(n))
#endif

struct pool_block {
	struct pool_block	*prev, *next;	/* in partial */
	void			*free;		/* objects put back, linked */
	size_t			 used;		/* handed out */
	size_t			 carved;	/* objects ever handed out */
	int			 listed;	/* in partial */
};

/* Where the objects start: after the header, 8-aligned. */
#define POOL_HEAD	((sizeof(struct pool_block) + 7) & ~(size_t)7)
#define POOL_OBJECTS(b)	((char *)(b) + POOL_HEAD)

void
pool_init(struct pool *p, size_t size)
{
	memset(p, 0, sizeof *p);
	p->size = size < sizeof(void *) ? sizeof(void *) :
	    (size + 7) & ~(size_t)7;
	p->per_block = (POOL_BLOCK - POOL_HEAD) / p->size;
	if (p->per_block == 0)
		abort();
}

static void
pool_list(struct pool *p, struct pool_block *b)
{
	b->prev = NULL;
	b->next = p->partial;
	if (p->partial != NULL)
		p->partial->prev = b;
	p->partial = b;
	b->listed = 1;
}

static void
pool_unlist(struct pool *p, struct pool_block *b)
{
	if (b->prev != NULL)
		b->prev->next = b->next;
	else
		p->partial = b->next;
	if (b->next != NULL)
		b->next->prev = b->prev;
	b->prev = b->next = NULL;
	b->listed = 0;
}

/* The first index of p->blocks whose block is above addr. */
static size_t
pool_above(const struct pool *p, uintptr_t addr)
{
	size_t	lo = 0, hi = p->nblocks, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((uintptr_t)p->blocks[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

static struct pool_block *
pool_block_new(struct pool *p)
{
	struct pool_block	*b;
	size_t			 at;

	if ((b = p->spare) != NULL)
		p->spare = NULL;
	else if ((b = malloc(POOL_BLOCK)) == NULL)
		abort();
	memset(b, 0, sizeof *b);
	POOL_POISON(POOL_OBJECTS(b), POOL_BLOCK - POOL_HEAD);
	if (p->nblocks == p->blocks_size) {
		p->blocks_size = p->blocks_size * 2 + 16;
		if (p->blocks_size > SIZE_MAX / sizeof *p->blocks ||
		    (p->blocks = realloc(p->blocks, p->blocks_size *
		    sizeof *p->blocks)) == NULL)
			abort();
	}
	at = pool_above(p, (uintptr_t)b);
	memmove(&p->blocks[at + 1], &p->blocks[at],
	    (p->nblocks - at) * sizeof *p->blocks);
	p->blocks[at] = b;
	p->nblocks++;
	pool_list(p, b);
	return (b);
}

void *
pool_get(struct pool *p)
{
	struct pool_block	*b = p->partial;
	void			*o;

	if (b == NULL)
		b = pool_block_new(p);
	if (b->free != NULL) {
		o = b->free;
		POOL_UNPOISON(o, p->size);
		memcpy(&b->free, o, sizeof b->free);
	} else {
		o = POOL_OBJECTS(b) + b->carved * p->size;
		POOL_UNPOISON(o, p->size);
		b->carved++;
	}
	b->used++;
	if (b->free == NULL && b->carved == p->per_block)
		pool_unlist(p, b);
	p->nobjects++;
	memset(o, 0, p->size);
	return (o);
}

void
pool_put(struct pool *p, void *o)
{
	struct pool_block	*b;
	size_t			 at;

	if (o == NULL)
		return;
	at = pool_above(p, (uintptr_t)o) - 1;
	b = p->blocks[at];
	memcpy(o, &b->free, sizeof b->free);
	POOL_POISON(o, p->size);
	b->free = o;
	b->used--;
	p->nobjects--;
	if (!b->listed)
		pool_list(p, b);
	if (b->used > 0)
		return;
	/* Empty: out of the array, then kept as the spare or given back. */
	pool_unlist(p, b);
	memmove(&p->blocks[at], &p->blocks[at + 1],
	    (p->nblocks - at - 1) * sizeof *p->blocks);
	p->nblocks--;
	POOL_UNPOISON(POOL_OBJECTS(b), POOL_BLOCK - POOL_HEAD);
	if (p->spare == NULL)
		p->spare = b;
	else
		free(b);
}

void
pool_free(struct pool *p)
{
	size_t	i;

	for (i = 0; i < p->nblocks; i++) {
		POOL_UNPOISON(POOL_OBJECTS(p->blocks[i]),
		    POOL_BLOCK - POOL_HEAD);
		free(p->blocks[i]);
	}
	free(p->blocks);
	free(p->spare);
	memset(p, 0, sizeof *p);
}
