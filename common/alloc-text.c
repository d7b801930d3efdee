/* alloc-text.c: writing and reading "n1:0x3,n2:0xc" (alloc-text.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc-text.h"
#include "common/xmalloc.h"

static int
alloc_text_hex(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Reads the decimal number at *p, before end, into *v (at most
 * ALLOC_TEXT_MAX_SHARDS), moving *p past it. Returns 0, or -1. */
static int
alloc_text_count(const char **p, const char *end, uint32_t *v)
{
	uint32_t	n = 0;
	const char	*q = *p;

	if (q == end || *q < '1' || *q > '9')
		return (-1);
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		n = n * 10 + (uint32_t)(*q - '0');
		if (n > ALLOC_TEXT_MAX_SHARDS)
			return (-1);
	}
	*p = q;
	*v = n;
	return (0);
}

/* The shards after a mask, "*N/S" from star to end: 1 <= N <= S, on a
 * mask of one GPU. Returns 0, or -1. */
static int
alloc_text_share(const char *star, const char *end, uint64_t mask,
    struct alloc_part *part)
{
	const char	*p = star + 1;

	if (alloc_text_gpus(mask) != 1 ||
	    alloc_text_count(&p, end, &part->share) == -1 || p == end ||
	    *p++ != '/' || alloc_text_count(&p, end, &part->shards) == -1 ||
	    p != end || part->share > part->shards)
		return (-1);
	return (0);
}

int
alloc_text_next(const char **pos, struct alloc_part *part)
{
	const char	*item = *pos, *end, *colon, *p, *star;
	uint64_t	 mask = 0;
	int		 digit, ndigits = 0, any = 0;

	/* *pos stays on the comma after a part, so a comma with no part
	 * after it is seen as the malformed empty part it is. */
	if (*item == ',' && (*++item == '\0' || *item == ','))
		return (-1);
	if (*item == '\0')
		return (0);
	if ((end = strchr(item, ',')) == NULL)
		end = item + strlen(item);
	/* The last colon: a name has none, but be as lenient as the
	 * writers' past readers were. */
	for (colon = end; colon > item && colon[-1] != ':'; colon--)
		;
	if (colon <= item + 1)
		return (-1);
	p = colon;
	if ((star = memchr(p, '*', (size_t)(end - p))) == NULL)
		star = end;
	if (star - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < star; p++) {
		if ((digit = alloc_text_hex((unsigned char)*p)) == -1)
			return (-1);
		any = 1;
		if (ndigits > 0 || digit != 0)
			ndigits++;
		if (ndigits > 16)
			return (-1);
		mask = (mask << 4) | (uint64_t)digit;
	}
	if (!any)
		return (-1);
	part->share = part->shards = 0;
	if (star != end && alloc_text_share(star, end, mask, part) == -1)
		return (-1);
	part->node = item;
	part->node_len = (size_t)(colon - 1 - item);
	part->mask = mask;
	*pos = end;
	return (1);
}

void
alloc_text_append(char **text, const char *node, uint64_t mask)
{
	alloc_text_append_share(text, node, mask, 0, 0);
}

void
alloc_text_append_share(char **text, const char *node, uint64_t mask,
    uint32_t share, uint32_t shards)
{
	char	*t, tail[32] = "";

	if (share > 0 && share < shards && alloc_text_gpus(mask) == 1)
		snprintf(tail, sizeof tail, "*%" PRIu32 "/%" PRIu32, share,
		    shards);
	t = xasprintf("%s%s%s:0x%" PRIx64 "%s", *text != NULL ? *text : "",
	    *text != NULL ? "," : "", node, mask, tail);
	free(*text);
	*text = t;
}

unsigned
alloc_text_gpus(uint64_t mask)
{
	return ((unsigned)__builtin_popcountll(mask));
}

uint64_t
alloc_text_part_milli_s(const struct alloc_part *part, uint64_t secs)
{
	if (part->share > 0 && part->share < part->shards)
		return ((secs * 1000 * part->share + part->shards / 2) /
		    part->shards);
	return ((uint64_t)alloc_text_gpus(part->mask) * secs * 1000);
}

uint64_t
alloc_text_part_gpu_s(const struct alloc_part *part, uint64_t secs)
{
	return ((alloc_text_part_milli_s(part, secs) + 500) / 1000);
}

uint64_t
alloc_text_milli_s(const char *text, uint32_t gpus, uint64_t secs)
{
	struct alloc_part	part;
	uint64_t		sum = 0;
	int			r, any = 0;

	while ((r = alloc_text_next(&text, &part)) == 1) {
		sum += alloc_text_part_milli_s(&part, secs);
		any = 1;
	}
	if (r == -1 || !any)
		return ((uint64_t)gpus * secs * 1000);
	return (sum);
}

uint32_t
alloc_text_share_milli(uint32_t gpus, uint32_t share, uint32_t shards)
{
	uint32_t	m;

	if (share == 0 || share >= shards)
		return (gpus * 1000);
	m = (1000 * share + shards / 2) / shards;
	return (m > 0 ? m : 1);
}

uint32_t
alloc_text_part_milli(const struct alloc_part *part)
{
	return (alloc_text_share_milli(alloc_text_gpus(part->mask), part->share,
	    part->shards));
}
