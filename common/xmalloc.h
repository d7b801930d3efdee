/* xmalloc.h: allocation that aborts on failure, so callers keep NULL
 * checks for real conditions (as tmux and htop do). */
#ifndef GB_XMALLOC_H
#define GB_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* Returns a new string the caller frees. */
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));

#endif
