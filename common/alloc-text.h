/* alloc-text.h: the text of a job's allocation, "n1:0x3,n2:0xc": each part
 * a node name, a colon and the mask of its GPUs in hexadecimal, parts
 * separated by commas. A part of shards of a GPU (gsub --gpu-share) adds
 * how many of the GPU's shards it held: "n1:0x1*2/4" is 2 of GPU 0's 4,
 * and is charged half a GPU. gbatchd writes it (job-alloc.c) into jobs and
 * job_runs; this is its one writer and its one reader (recovery, JOB_LIST
 * records, accounting reports). Reading allocates nothing, so a report can
 * walk a million runs' texts. */
#ifndef GB_ALLOC_TEXT_H
#define GB_ALLOC_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct alloc_part {
	const char	*node;		/* not NUL-terminated: node_len bytes */
	size_t		 node_len;
	uint64_t	 mask;		/* 0: a CPU job's part */
	/* Shards: share of the GPU's shards; 0 and 0 for whole GPUs. */
	uint32_t	 share;
	uint32_t	 shards;
};

/* The most shards a GPU is offered in (common/job-req.h's bound). */
#define ALLOC_TEXT_MAX_SHARDS	64

/* Reads the part at *pos and moves *pos past it. Returns 1 with *part
 * filled, 0 at the end of the text, -1 when the part is malformed (no
 * name, no colon, a mask that is empty, not hexadecimal or wider than 64
 * bits, shards that are not "*N/S" with 1 <= N <= S <= 64 on one GPU).
 * A mask of 0 is a CPU job's part: a node and no GPU. The name borrows
 * from the text. */
int		alloc_text_next(const char **pos, struct alloc_part *part);
/* Appends the part of node whose GPUs are mask to *text, a string the
 * caller frees (NULL: no part yet), after a comma when it has parts. */
void		alloc_text_append(char **text, const char *node, uint64_t mask);
/* The same for share of the GPU's shards shards ("*N/S"); a share of 0,
 * or of every shard, is the whole GPU and written as such. */
void		alloc_text_append_share(char **text, const char *node,
		    uint64_t mask, uint32_t share, uint32_t shards);
/* The number of GPUs in a part's mask. */
unsigned	alloc_text_gpus(uint64_t mask);
/* What a part held for secs seconds is charged, in thousandths of
 * GPU-seconds: its GPUs x secs, or a part of shards share/shards of
 * that, rounded to the nearest; and the same in GPU-seconds. */
uint64_t	alloc_text_part_milli_s(const struct alloc_part *,
		    uint64_t secs);
uint64_t	alloc_text_part_gpu_s(const struct alloc_part *,
		    uint64_t secs);
/* The same for a whole text held secs seconds: the sum of its parts',
 * or gpus x secs when it has none or one is malformed. */
uint64_t	alloc_text_milli_s(const char *text, uint32_t gpus,
		    uint64_t secs);
/* The GPUs a part holds in thousandths (a shard's its fraction, rounded
 * to the nearest, at least 1): the rate it is charged at. */
uint32_t	alloc_text_part_milli(const struct alloc_part *);
/* That of share of a GPU's shards shards (0: the whole GPU), for gpus
 * GPUs. */
uint32_t	alloc_text_share_milli(uint32_t gpus, uint32_t share,
		    uint32_t shards);

#endif
