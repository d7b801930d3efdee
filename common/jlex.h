/* jlex.h: the pieces of JSON's strings that every reader of JSON text in
 * the tree needs alike: four hex digits, a backslash escape (a surrogate
 * pair as one character), a UTF-8 character checked and one written. The
 * daemons' decoder (common/jdecode.c) refuses what is malformed; the
 * commands' scanner and printer (client/jscan.c, client/jpretty.c) read
 * past it leniently. Both ask the same questions of the same bytes here.
 *
 * Pure functions, inline: they sit in each reader's innermost loop (an
 * escape or a character of UTF-8 in every string that has one), where a
 * call apiece cost jdecode 7% of its instructions on a submit and jscan's
 * and jpretty's string decoding 9-13% more than inline (callgrind, counts
 * in the commit that made this file). */
#ifndef GB_JLEX_H
#define GB_JLEX_H

#include <stddef.h>
#include <stdint.h>

/* What jlex_escape() found. */
enum jlex_escape {
	JLEX_ESC_OK = 0,
	JLEX_ESC_LETTER,	/* \q: a letter JSON has no escape for */
	JLEX_ESC_HEX,		/* \u without four hex digits after it */
	JLEX_ESC_SURROGATE,	/* half a surrogate pair */
};

/* The character U+FFFD, which a lenient reader puts for a bad \u. */
#define JLEX_REPLACEMENT	0xfffd

/* Reads four hex digits (either case) from p, which has left bytes, into
 * *v. Returns 0, or -1 when there are not four (*v then unchanged). */
static inline int
jlex_hex4(const char *p, size_t left, uint32_t *v)
{
	uint32_t	x = 0;
	size_t		i;
	int		c;

	if (left < 4)
		return (-1);
	for (i = 0; i < 4; i++) {
		c = (unsigned char)p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return (-1);
		x = x << 4 | (uint32_t)c;
	}
	*v = x;
	return (0);
}

/* Decodes the escape whose backslash is at p (left bytes there, the
 * backslash included) into *cp, the character it stands for: a surrogate
 * pair (\ud83d\ude00) is one. Returns how many bytes it takes, or 0 when
 * nothing follows the backslash. *what says whether it is well formed;
 * when it is not, *cp is the letter (JLEX_ESC_LETTER) or U+FFFD, and the
 * bytes taken are those a lenient reader skips: 2 for \q and for \u
 * without its digits, 6 for half a pair. \u0000 is well formed here. */
static inline size_t
jlex_escape(const char *p, size_t left, uint32_t *cp, enum jlex_escape *what)
{
	uint32_t	hi, lo;

	*what = JLEX_ESC_OK;
	if (left < 2)
		return (0);
	switch (p[1]) {
	case 'b':	*cp = '\b';	return (2);
	case 'f':	*cp = '\f';	return (2);
	case 'n':	*cp = '\n';	return (2);
	case 'r':	*cp = '\r';	return (2);
	case 't':	*cp = '\t';	return (2);
	case '"':
	case '\\':
	case '/':
		*cp = (unsigned char)p[1];
		return (2);
	case 'u':
		break;
	default:
		*what = JLEX_ESC_LETTER;
		*cp = (unsigned char)p[1];
		return (2);
	}
	if (jlex_hex4(p + 2, left - 2, &hi) == -1) {
		*what = JLEX_ESC_HEX;
		*cp = JLEX_REPLACEMENT;
		return (2);
	}
	if (hi < 0xd800 || hi > 0xdfff) {
		*cp = hi;
		return (6);
	}
	/* A high half and a low half make one character; anything else
	 * with a half in it is none. */
	if (hi <= 0xdbff && left >= 12 && p[6] == '\\' && p[7] == 'u' &&
	    jlex_hex4(p + 8, left - 8, &lo) == 0 && lo >= 0xdc00 &&
	    lo <= 0xdfff) {
		*cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
		return (12);
	}
	*what = JLEX_ESC_SURROGATE;
	*cp = JLEX_REPLACEMENT;
	return (6);
}

/* The length of the valid UTF-8 character at p (left > 0 bytes): 1 for
 * ASCII, 2 to 4, or 0 when the bytes there are none (a stray continuation
 * byte, an overlong form, a surrogate, past U+10FFFF, or cut short). */
static inline size_t
jlex_utf8_len(const unsigned char *p, size_t left)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (p[0] < 0x80)
		return (1);
	/* The second byte's range rules out the overlong forms (E0, F0),
	 * the surrogates (ED) and what lies past U+10FFFF (F4). */
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return (0);
	if (left < n || p[1] < lo || p[1] > hi)
		return (0);
	for (i = 2; i < n; i++) {
		if (p[i] < 0x80 || p[i] > 0xbf)
			return (0);
	}
	return (n);
}

/* Writes code point cp (at most U+10FFFF, no surrogate) as UTF-8 into u,
 * which has room for 4 bytes. Returns its length, 1 to 4. */
static inline size_t
jlex_utf8_put(uint32_t cp, char *u)
{
	if (cp < 0x80) {
		u[0] = (char)cp;
		return (1);
	}
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		return (2);
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		return (3);
	}
	u[0] = (char)(0xf0 | cp >> 18);
	u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[3] = (char)(0x80 | (cp & 0x3f));
	return (4);
}

#endif
