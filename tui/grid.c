/* grid.c: a frame as characters and colour roles (grid.h). */
#include <stdlib.h>
#include <string.h>

#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "tui/grid.h"

struct grid *
grid_new(int h, int w)
{
	struct grid	*g = xcalloc(1, sizeof *g);

	g->h = h < 1 ? 1 : h;
	g->w = w < 1 ? 1 : w;
	g->cells = xcalloc((size_t)g->h * (size_t)g->w, sizeof *g->cells);
	grid_clear(g);
	return (g);
}

void
grid_free(struct grid *g)
{
	if (g == NULL)
		return;
	free(g->cells);
	free(g);
}

void
grid_clear(struct grid *g)
{
	size_t	i, n = (size_t)g->h * (size_t)g->w;

	for (i = 0; i < n; i++) {
		g->cells[i].ch[0] = ' ';
		g->cells[i].ch[1] = '\0';
		g->cells[i].role = ROLE_NORMAL;
	}
}

/* The length of the UTF-8 character starting with byte c (1 for a byte
 * that starts none: safe text never holds one). */
static size_t
grid_char_len(unsigned char c)
{
	if (c >= 0xf0)
		return (4);
	if (c >= 0xe0)
		return (3);
	if (c >= 0xc0)
		return (2);
	return (1);
}

int
grid_put(struct grid *g, int y, int x, int max, const char *text,
    size_t len, enum color_role role)
{
	struct grid_cell	*c;
	char			 stack[512], *safe = stack;
	size_t			 slen = safe_text_len(text, len), i, k;
	int			 n = 0;

	if (y < 0 || y >= g->h || x < 0 || x >= g->w || max <= 0)
		return (0);
	if (x + max > g->w)
		max = g->w - x;
	if (slen + 1 > sizeof stack)
		safe = xmalloc(slen + 1);
	safe_text(text, len, safe, slen + 1);
	for (i = 0; i < slen && n < max; i += k) {
		k = grid_char_len((unsigned char)safe[i]);
		if (i + k > slen)
			break;
		c = &g->cells[(size_t)y * (size_t)g->w + (size_t)(x + n)];
		memcpy(c->ch, safe + i, k);
		c->ch[k] = '\0';
		c->role = (unsigned char)role;
		n++;
	}
	if (safe != stack)
		free(safe);
	return (n);
}

int
grid_puts(struct grid *g, int y, int x, int max, const char *text,
    enum color_role role)
{
	return (grid_put(g, y, x, max, text, strlen(text), role));
}

void
grid_erase(struct grid *g, int y, int x, int h, int w)
{
	struct grid_cell	*c;
	int			 i, j;

	for (i = y < 0 ? 0 : y; i < y + h && i < g->h; i++) {
		for (j = x < 0 ? 0 : x; j < x + w && j < g->w; j++) {
			c = &g->cells[(size_t)i * (size_t)g->w + (size_t)j];
			c->ch[0] = ' ';
			c->ch[1] = '\0';
			c->role = ROLE_NORMAL;
		}
	}
}

void
grid_paint(struct grid *g, int y, int x, int n, enum color_role role)
{
	int	i;

	if (y < 0 || y >= g->h)
		return;
	for (i = x < 0 ? 0 : x; i < x + n && i < g->w; i++)
		g->cells[(size_t)y * (size_t)g->w + (size_t)i].role =
		    (unsigned char)role;
}

char *
grid_row(const struct grid *g, int y, char *buf, size_t len)
{
	const struct grid_cell	*c;
	size_t			 n = 0, end = 0, k;
	int			 x;

	if (len == 0)
		return (buf);
	buf[0] = '\0';
	if (y < 0 || y >= g->h)
		return (buf);
	for (x = 0; x < g->w; x++) {
		c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
		k = strlen(c->ch);
		if (n + k + 1 > len)
			break;
		memcpy(buf + n, c->ch, k);
		n += k;
		if (strcmp(c->ch, " ") != 0)
			end = n;
	}
	buf[end] = '\0';
	return (buf);
}
