/* pool.h: objects of one size carved from blocks of POOL_BLOCK bytes, with
 * no header and no rounding past 8 bytes for each: the core's cjobs, of
 * which a queue of 100,000 holds 100,000 (88 bytes each, which malloc
 * would give 96). A block whose objects are all free goes back to the
 * system, but for one kept for the next. Under AddressSanitizer a free
 * object is poisoned, so a use after its put is still caught. Pure: no
 * I/O, no clock. */
#ifndef GB_POOL_H
#define GB_POOL_H

#include <stddef.h>

#define POOL_BLOCK	65536

struct pool_block;

struct pool {
	size_t			 size;		/* of an object, a multiple of 8 */
	size_t			 per_block;
	struct pool_block	*partial;	/* blocks with room, listed */
	struct pool_block	*spare;		/* an empty block kept, or NULL */
	/* Every block but the spare, by address: an object's block is the
	 * last one at or below it. */
	struct pool_block	**blocks;
	size_t			 nblocks, blocks_size;
	size_t			 nobjects;	/* handed out */
};

/* A pool of objects of size bytes (at most a few KiB). */
void	 pool_init(struct pool *, size_t size);
/* An object, zeroed. Aborts when memory is out, as the core does. */
void	*pool_get(struct pool *);
/* Gives back an object pool_get handed out; NULL is ignored. */
void	 pool_put(struct pool *, void *);
/* Frees the pool's blocks, and with them any object still out. */
void	 pool_free(struct pool *);

#endif
