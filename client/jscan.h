/* jscan.h: a JSON scanner that walks a reply in place, without building a
 * tree. gq lists 10,000 jobs in a few milliseconds with it, where a jansson
 * tree takes ten times longer to build and again to free. It checks syntax
 * as it goes, so malformed input is an error, never a crash; string values
 * stay escaped until jscan_string() decodes them. */
#ifndef GB_JSCAN_H
#define GB_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum jscan_type {
	JSCAN_NONE = 0,		/* not present */
	JSCAN_NULL,
	JSCAN_BOOL,
	JSCAN_NUMBER,
	JSCAN_STRING,
	JSCAN_ARRAY,
	JSCAN_OBJECT,
};

/* A value inside the scanned buffer. For a string, p and n cover its
 * content between the quotes, still escaped; for the others, its whole
 * text. Borrowed from the buffer. 16 bytes: a client keeps one per field
 * of every job it lists, so a buffer is at most JSCAN_MAX_LEN bytes. */
struct jscan_val {
	const char	*p;
	uint32_t	 n;
	uint8_t		 type;	/* enum jscan_type */
	bool		 lazy;	/* not measured yet: see jscan_member_lazy */
};
#define JSCAN_MAX_LEN	UINT32_MAX

/* Reads one value starting at *pos (leading whitespace allowed) and moves
 * *pos past it. Returns 0, or -1 when the text is not valid JSON there. */
int	jscan_value(const char *buf, size_t len, size_t *pos,
	    struct jscan_val *);

/* Takes a whole buffer as one object without scanning it ahead, so a
 * large reply is walked once: its members are checked as jscan_member()
 * reaches them. Returns 0, or -1 when buf does not hold an object. */
int	jscan_open(const char *buf, size_t len, struct jscan_val *);

/* Iterates an object's members: *pos starts at 0 for a new iteration over
 * obj. Returns 1 with key and val set, 0 at the end, -1 on bad syntax. */
int	jscan_member(const struct jscan_val *obj, size_t *pos,
	    struct jscan_val *key, struct jscan_val *val);
/* Iterates an array's elements the same way. */
int	jscan_element(const struct jscan_val *arr, size_t *pos,
	    struct jscan_val *val);
/* The same walks, except that a value which is an array or an object is
 * handed over where it starts, without measuring it first: it is lazy, n
 * runs to the end of its parent, and its own walk finds where it ends. A
 * reply's jobs are then read once instead of three times (the array, each
 * job, each job's members). After a lazy value, the parent's walk goes on
 * through jscan_resume(). */
int	jscan_member_lazy(const struct jscan_val *obj, size_t *pos,
	    struct jscan_val *key, struct jscan_val *val);
int	jscan_element_lazy(const struct jscan_val *arr, size_t *pos,
	    struct jscan_val *val);
/* Reads all of an array's elements into vals (room for max) at once, and
 * sets *n to how many: a listing's row of values in one tight walk rather
 * than an iteration per value. A lazy arr is measured (closed, as by
 * jscan_close), so jscan_resume() goes on after it. Returns 0, or -1 on
 * bad syntax or more than max elements. */
int	jscan_elements(struct jscan_val *arr, struct jscan_val *vals,
	    size_t max, size_t *n);
/* After a walk of lazy c returned 0 with pos, gives c its measured
 * extent (c stays lazy when the walk has not ended). */
void	jscan_close(struct jscan_val *c, size_t pos);
/* Moves the parent's walk (*ppos, from the lazy walk that returned child)
 * past child and its separator, measuring child if it is still lazy.
 * Does nothing for a value that was not lazy. Returns 0, or -1 on bad
 * syntax. */
int	jscan_resume(const struct jscan_val *parent, size_t *ppos,
	    const struct jscan_val *child);
/* Finds a member by key (a linear walk). Returns 0 with val, or -1 (val's
 * type set to JSCAN_NONE) when absent or malformed. */
int	jscan_get(const struct jscan_val *obj, const char *key,
	    struct jscan_val *val);

/* Whether a key (a JSCAN_STRING from jscan_member) equals s. Inline: a
 * reply's walk compares every key with a few literals, whose length the
 * compiler then knows. Our keys never need escapes; an escaped key never
 * matches. */
static inline bool
jscan_key_is(const struct jscan_val *key, const char *s)
{
	size_t	n = strlen(s);

	return (key->n == n && memcmp(key->p, s, n) == 0);
}
/* Decodes a string value into out (NUL-terminated, truncated to outlen).
 * Returns the decoded length before truncation. Non-strings decode as their
 * text (numbers, true, false, null). Escapes are read leniently, as a
 * listing is printed whatever it holds (common/jlex.h): a malformed \\u
 * stands for U+FFFD, an unknown escape for its letter. */
size_t	jscan_string(const struct jscan_val *, char *out, size_t outlen);
/* Reads an integer value. Returns 0, or -1 when it is not an integer. */
int	jscan_int(const struct jscan_val *, long long *);
/* true for JSON true, false otherwise. */
bool	jscan_true(const struct jscan_val *);

#endif
