/* alloc-text.c: writing and reading "n1:0x3,n2:0xc" (alloc-text.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
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

int
alloc_text_next(const char **pos, struct alloc_part *part)
{
	const char	*item = *pos, *end, *colon, *p;
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
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++) {
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
	part->node = item;
	part->node_len = (size_t)(colon - 1 - item);
	part->mask = mask;
	*pos = end;
	return (1);
}

void
alloc_text_append(char **text, const char *node, uint64_t mask)
{
	char	*t;

	t = xasprintf("%s%s%s:0x%" PRIx64, *text != NULL ? *text : "",
	    *text != NULL ? "," : "", node, mask);
	free(*text);
	*text = t;
}

unsigned
alloc_text_gpus(uint64_t mask)
{
	return ((unsigned)__builtin_popcountll(mask));
}
