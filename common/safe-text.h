/* safe-text.h: text from a peer or a user, made safe for a terminal or a
 * log line. Job names, messages, reasons, node and GPU names, paths and
 * user names come from whoever submitted or registered them; printed as
 * they are, an escape sequence in one could move the cursor, rewrite the
 * screen or set the window title, and a newline could forge a log line.
 *
 * Every command (gq, gnodes, gctl, gsub, gcancel, and gacct and gtop when
 * they come) and both daemons' logs pass such text through here. The rule:
 * valid printable UTF-8 is kept as it is; control characters (C0 and DEL),
 * C1 controls (U+0080 to U+009F) and bytes that are not valid UTF-8 are
 * written as escapes: \n \r \t \e for newline, return, tab and ESC,
 * \u0080 to \u009f for C1 controls, \xHH for any other control byte or
 * invalid byte. A backslash stays a backslash: the point is a terminal
 * that cannot be steered, not a reversible encoding. The escaped form is
 * ASCII plus the printable UTF-8 it kept, so its width is what a table
 * counts. */
#ifndef GB_SAFE_TEXT_H
#define GB_SAFE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* The most bytes one input character becomes ("\u009f"). */
#define SAFE_TEXT_MAX_ESC	6

/* Escapes len bytes of s into buf (size bytes, size > 0), always
 * NUL-terminated; when buf is too small the text is cut before an escape
 * or a character, never inside one. Returns buf. */
char	*safe_text(const char *s, size_t len, char *buf, size_t size);

/* As safe_text() for a NUL-terminated s (NULL gives ""). Returns buf. */
char	*safe_text_str(const char *s, char *buf, size_t size);

/* Returns the escaped form of len bytes of s as a new string the caller
 * frees (never NULL: allocation failure aborts). */
char	*safe_text_dup(const char *s, size_t len);

/* Whether len bytes of s are a line safe_text() keeps as it is: valid
 * UTF-8 without a control character (C0, DEL or C1). What a job's name,
 * comment and the like must be, at submit (gsub and gbatchd alike). */
bool	 safe_text_is_line(const char *s, size_t len);

/* How many bytes the escaped form of len bytes of s takes. */
size_t	 safe_text_len(const char *s, size_t len);

/* Writes the escaped form of len bytes of s to f. */
void	 safe_text_fwrite(const char *s, size_t len, FILE *f);

/* Writes JSON text (as jansson writes it: control characters inside
 * strings already \u-escaped) to f, with DEL and the C1 controls that
 * jansson leaves raw written as \u007f and \u0080..\u009f. Outside strings
 * JSON text holds only ASCII structure, so the output is the same JSON
 * value, byte for byte where nothing needed escaping. */
void	 safe_text_json_fwrite(const char *json, size_t len, FILE *f);

#endif
