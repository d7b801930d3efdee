/* jpretty.h: JSON text printed as `gq --json` always printed it, without
 * building a tree. gq --json streams a listing frame by frame, so a queue
 * of 100,000 jobs (60 MB of output) is read, re-indented and written a job
 * at a time, in flat memory, where jansson would first decode the whole
 * reply and then encode it again.
 *
 * The text comes out as jansson's json_dumps(JSON_INDENT(n)) writes it
 * (each member or element on its own line, "key": value, empty containers
 * as [] and {}), its strings decoded and encoded again as jansson encodes
 * them (\" \\ \b \f \n \r \t, other controls as \u00XX in upper case, the
 * rest as UTF-8), then made safe for a terminal as cmd_json_print() makes
 * its text (DEL and the C1 controls as \u007f and \u0080 to \u009f): the
 * streamed listing prints the same bytes as the whole one did. Numbers and
 * literals are copied as they are, once checked against JSON's grammar.
 * Bytes that are not UTF-8 go out as they came (jansson refused them),
 * but never as a control. */
#ifndef GB_JPRETTY_H
#define GB_JPRETTY_H

#include <stddef.h>
#include <stdio.h>

struct jpretty {
	char	*s;		/* what is waiting to be written */
	size_t	 len;
	size_t	 size;
	FILE	*f;
};

void	jpretty_init(struct jpretty *, FILE *);
/* Writes what is pending, then frees the buffer. */
void	jpretty_end(struct jpretty *);

/* Appends the len bytes of JSON value text, re-indented by indent spaces a
 * level and starting at depth levels in (its first line is not indented:
 * it follows a key or the caller's own indent). Returns 0, or -1 when text
 * is not one JSON value (what was appended of it stays). */
int	jpretty_value(struct jpretty *, const char *text, size_t len,
	    int indent, int depth);
/* Appends len bytes as they are, or a newline and depth * indent
 * spaces. */
void	jpretty_raw(struct jpretty *, const char *s, size_t len);
void	jpretty_newline(struct jpretty *, int indent, int depth);
/* Writes what is pending once it passes 64 KiB (the caller calls it
 * between values). */
void	jpretty_flush(struct jpretty *, int force);

#endif
