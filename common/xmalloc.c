/* xmalloc.c: allocation that aborts on out-of-memory. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

static void
xmalloc_die(size_t size)
{
	fprintf(stderr, "out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		xmalloc_die(size);
	return (p);
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		xmalloc_die(n * size);
	return (p);
}

void *
xrealloc(void *p, size_t size)
{
	if ((p = realloc(p, size == 0 ? 1 : size)) == NULL)
		xmalloc_die(size);
	return (p);
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		xmalloc_die(SIZE_MAX);
	return (xrealloc(p, n * size));
}

char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		xmalloc_die(strlen(s) + 1);
	return (p);
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	if ((p = strndup(s, n)) == NULL)
		xmalloc_die(n + 1);
	return (p);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		xmalloc_die(strlen(fmt));
	va_end(ap);
	return (s);
}
