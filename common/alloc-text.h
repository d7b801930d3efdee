/* alloc-text.h: the text of a job's allocation, "n1:0x3,n2:0xc": each part
 * a node name, a colon and the mask of its GPUs in hexadecimal, parts
 * separated by commas. gbatchd writes it (job-alloc.c) into jobs and
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
};

/* Reads the part at *pos and moves *pos past it. Returns 1 with *part
 * filled, 0 at the end of the text, -1 when the part is malformed (no
 * name, no colon, a mask that is empty, not hexadecimal or wider than 64
 * bits). A mask of 0 is a CPU job's part: a node and no GPU. The name
 * borrows from the text. */
int		alloc_text_next(const char **pos, struct alloc_part *part);
/* Appends the part of node whose GPUs are mask to *text, a string the
 * caller frees (NULL: no part yet), after a comma when it has parts. */
void		alloc_text_append(char **text, const char *node, uint64_t mask);
/* The number of GPUs in a part's mask. */
unsigned	alloc_text_gpus(uint64_t mask);

#endif
