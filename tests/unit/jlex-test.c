/* jlex-test.c: the pieces of JSON strings (common/jlex.c) that jdecode,
 * jscan and jpretty share: four hex digits, every escape (surrogate pairs
 * whole, halved, or with bad digits, at the end of the text or not),
 * UTF-8 checked at each edge of its ranges, and UTF-8 written. */
#include <stdint.h>
#include <string.h>

#include "common/jlex.h"
#include "tests/unit/tap.h"

static void
test_hex4(void)
{
	uint32_t	v = 7;

	ok(jlex_hex4("00e9", 4, &v) == 0 && v == 0xe9, "00e9 is 0xe9");
	ok(jlex_hex4("FfA0x", 5, &v) == 0 && v == 0xffa0, "either case, "
	    "the fifth byte left alone");
	ok(jlex_hex4("0000", 4, &v) == 0 && v == 0, "0000 is 0");
	v = 7;
	ok(jlex_hex4("12g4", 4, &v) == -1 && v == 7, "g is no hex digit, "
	    "and *v is left as it was");
	ok(jlex_hex4("12:4", 4, &v) == -1, "':' (after '9') is none");
	ok(jlex_hex4("12/4", 4, &v) == -1, "'/' (before '0') is none");
	ok(jlex_hex4("12@4", 4, &v) == -1, "'@' (before 'A') is none");
	ok(jlex_hex4("12`4", 4, &v) == -1, "'`' (before 'a') is none");
	ok(jlex_hex4("12G4", 4, &v) == -1, "'G' (after 'F') is none");
	ok(jlex_hex4("123", 3, &v) == -1, "three digits are not four");
	ok(jlex_hex4("1234", 3, &v) == -1, "nor are four past the end");
	ok(jlex_hex4("12\xc3\xa9", 4, &v) == -1, "nor a UTF-8 letter");
}

/* The escape in text: its length, character and verdict. */
static void
t_esc(const char *text, size_t left, size_t want_len, uint32_t want_cp,
    enum jlex_escape want_what, const char *what)
{
	uint32_t		cp = 0x12345;
	enum jlex_escape	w = 99;
	size_t			k;

	k = jlex_escape(text, left, &cp, &w);
	if (!ok(k == want_len && (want_len == 0 || cp == want_cp) &&
	    w == want_what, "%s", what))
		printf("#   took %zu, U+%04X, verdict %d; want %zu, U+%04X, "
		    "%d\n", k, (unsigned)cp, (int)w, want_len,
		    (unsigned)want_cp, (int)want_what);
}

static void
test_escape(void)
{
	static const char	letters[] = "bfnrt\"\\/";
	static const uint32_t	chars[] = { '\b', '\f', '\n', '\r', '\t',
				    '"', '\\', '/' };
	char			text[3] = "\\?";
	size_t			i;

	for (i = 0; i < sizeof chars / sizeof chars[0]; i++) {
		text[1] = letters[i];
		t_esc(text, 2, 2, chars[i], JLEX_ESC_OK, text);
	}
	t_esc("\\q", 2, 2, 'q', JLEX_ESC_LETTER, "\\q: an unknown letter, "
	    "itself");
	t_esc("\\U00e9", 6, 2, 'U', JLEX_ESC_LETTER, "\\U is no \\u");
	t_esc("\\\x01", 2, 2, 1, JLEX_ESC_LETTER, "a control byte after the "
	    "backslash");
	t_esc("\\", 1, 0, 0, JLEX_ESC_OK, "a backslash at the end takes "
	    "nothing");
	t_esc("\\n", 1, 0, 0, JLEX_ESC_OK, "nor one whose letter is past "
	    "the end");

	/* \u: the BMP, its ends and the edges of the surrogates. */
	t_esc("\\u00e9x", 7, 6, 0xe9, JLEX_ESC_OK, "\\u00e9");
	t_esc("\\u00E9", 6, 6, 0xe9, JLEX_ESC_OK, "\\u00E9, upper case");
	t_esc("\\u0000", 6, 6, 0, JLEX_ESC_OK, "\\u0000 is well formed "
	    "(jdecode refuses it for jansson's sake)");
	t_esc("\\uffff", 6, 6, 0xffff, JLEX_ESC_OK, "\\uffff");
	t_esc("\\ud7ff", 6, 6, 0xd7ff, JLEX_ESC_OK, "\\ud7ff, before the "
	    "surrogates");
	t_esc("\\ue000", 6, 6, 0xe000, JLEX_ESC_OK, "\\ue000, after them");

	/* Pairs: the first and the last, and one in the middle. */
	t_esc("\\ud800\\udc00", 12, 12, 0x10000, JLEX_ESC_OK, "\\ud800\\udc00 "
	    "is U+10000");
	t_esc("\\udbff\\udfff", 12, 12, 0x10ffff, JLEX_ESC_OK, "\\udbff\\udfff "
	    "is U+10FFFF");
	t_esc("\\ud83d\\ude00!", 13, 12, 0x1f600, JLEX_ESC_OK, "\\ud83d\\ude00 "
	    "is U+1F600");
	t_esc("\\uD83D\\uDE00", 12, 12, 0x1f600, JLEX_ESC_OK, "in upper case "
	    "too");

	/* Half a pair: a high one alone, before anything but its low one;
	 * a low one alone, or first. */
	t_esc("\\ud83dx", 7, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before a letter");
	t_esc("\\ud83d", 6, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half at the end");
	t_esc("\\ud83d\\ude0", 11, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before a low one cut short");
	t_esc("\\ud83d\\ude00", 11, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half whose low one runs past the end");
	t_esc("\\ud83d\\n", 8, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before another escape");
	t_esc("\\ud83d\\ud83d", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before another high one");
	t_esc("\\ud83d\\u0041", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before a \\u that is no surrogate");
	t_esc("\\udbff\\ue000", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before U+E000, just past the low ones");
	t_esc("\\ud83d\\uzzzz", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before a \\u without digits");
	t_esc("\\ud83du\\ude00", 13, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a high half before a low one not right after it");
	t_esc("\\udc00", 6, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a low half alone (the first)");
	t_esc("\\udfff", 6, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a low half alone (the last)");
	t_esc("\\ude00\\ud83d", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a low half before a high one");
	t_esc("\\udc00\\udc00", 12, 6, JLEX_REPLACEMENT, JLEX_ESC_SURROGATE,
	    "a low half before a low one: no pair the wrong way round");

	/* Digits that are not four. */
	t_esc("\\u12", 4, 2, JLEX_REPLACEMENT, JLEX_ESC_HEX, "\\u12: two "
	    "digits");
	t_esc("\\u123", 5, 2, JLEX_REPLACEMENT, JLEX_ESC_HEX, "\\u123 at the "
	    "end: three");
	t_esc("\\u12g4", 6, 2, JLEX_REPLACEMENT, JLEX_ESC_HEX, "\\u12g4: g");
	t_esc("\\u", 2, 2, JLEX_REPLACEMENT, JLEX_ESC_HEX, "\\u and nothing");
	t_esc("\\u00e9", 5, 2, JLEX_REPLACEMENT, JLEX_ESC_HEX, "\\u00e9 cut "
	    "by its length");
}

/* Whether the len bytes of s make one UTF-8 character of len bytes
 * (want 1) or none at all (want 0). */
static void
t_utf8(const char *s, size_t len, int want, const char *what)
{
	size_t	n = jlex_utf8_len((const unsigned char *)s, len);

	if (!ok(want ? n == len : n == 0, "%s: %s", what, want ? "a character" :
	    "none"))
		printf("#   got %zu\n", n);
}

static void
test_utf8_len(void)
{
	is_int(jlex_utf8_len((const unsigned char *)"A", 1), 1, "ASCII: 1");
	is_int(jlex_utf8_len((const unsigned char *)"\x7f", 1), 1, "DEL: 1");
	is_int(jlex_utf8_len((const unsigned char *)"\xc3\xa9x", 3), 2,
	    "é before x: 2");
	t_utf8("\xc2\x80", 2, 1, "U+0080, the first of 2 bytes");
	t_utf8("\xdf\xbf", 2, 1, "U+07FF, the last of 2 bytes");
	t_utf8("\xe0\xa0\x80", 3, 1, "U+0800, the first of 3");
	t_utf8("\xed\x9f\xbf", 3, 1, "U+D7FF, before the surrogates");
	t_utf8("\xee\x80\x80", 3, 1, "U+E000, after them");
	t_utf8("\xef\xbf\xbf", 3, 1, "U+FFFF, the last of 3");
	t_utf8("\xf0\x90\x80\x80", 4, 1, "U+10000, the first of 4");
	t_utf8("\xf4\x8f\xbf\xbf", 4, 1, "U+10FFFF, the last");

	t_utf8("\x80", 1, 0, "a continuation byte alone");
	t_utf8("\xbf", 1, 0, "another");
	t_utf8("\xc0\x80", 2, 0, "C0 80: NUL overlong");
	t_utf8("\xc1\xbf", 2, 0, "C1 BF: U+007F overlong");
	t_utf8("\xe0\x9f\xbf", 3, 0, "E0 9F BF: U+07FF overlong");
	t_utf8("\xe0\x80\x80", 3, 0, "E0 80 80: NUL overlong");
	t_utf8("\xf0\x8f\xbf\xbf", 4, 0, "F0 8F BF BF: U+FFFF overlong");
	t_utf8("\xed\xa0\x80", 3, 0, "ED A0 80: U+D800, a surrogate");
	t_utf8("\xed\xbf\xbf", 3, 0, "ED BF BF: U+DFFF, a surrogate");
	t_utf8("\xf4\x90\x80\x80", 4, 0, "F4 90 80 80: U+110000");
	t_utf8("\xf5\x80\x80\x80", 4, 0, "F5: past U+10FFFF");
	t_utf8("\xff", 1, 0, "FF");
	t_utf8("\xc3", 1, 0, "a lead byte cut short");
	t_utf8("\xe2\x82", 2, 0, "two of three bytes");
	t_utf8("\xf0\x9f\x98", 3, 0, "three of four bytes");
	t_utf8("\xe2\x28\xa1", 3, 0, "a second byte that is ASCII");
	t_utf8("\xe2\x82\x28", 3, 0, "a third byte that is ASCII");
	t_utf8("\xf0\x9f\x98\xc0", 4, 0, "a fourth byte that leads");
	t_utf8("\xc3\xc3", 2, 0, "a lead byte after a lead byte");
}

static void
test_utf8_put(void)
{
	static const struct {
		uint32_t	 cp;
		const char	*want;
	} cases[] = {
		{ 0x41, "A" }, { 0x7f, "\x7f" }, { 0x80, "\xc2\x80" },
		{ 0xe9, "\xc3\xa9" }, { 0x7ff, "\xdf\xbf" },
		{ 0x800, "\xe0\xa0\x80" }, { 0xfffd, "\xef\xbf\xbd" },
		{ 0xffff, "\xef\xbf\xbf" }, { 0x10000, "\xf0\x90\x80\x80" },
		{ 0x1f600, "\xf0\x9f\x98\x80" },
		{ 0x10ffff, "\xf4\x8f\xbf\xbf" },
	};
	char		u[4];
	uint32_t	cp;
	size_t		i, n, bad = 0;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		n = jlex_utf8_put(cases[i].cp, u);
		ok(n == strlen(cases[i].want) && memcmp(u, cases[i].want, n) ==
		    0, "U+%04X is %zu bytes", (unsigned)cases[i].cp, n);
	}
	/* Every character written is one jlex_utf8_len() reads back whole,
	 * and the escape of a BMP one is that character. */
	for (cp = 0; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		n = jlex_utf8_put(cp, u);
		if (jlex_utf8_len((const unsigned char *)u, n) != n)
			bad++;
	}
	is_int(bad, 0, "each of the 1,112,064 characters reads back whole");
}

int
main(void)
{
	test_hex4();
	test_escape();
	test_utf8_len();
	test_utf8_put();
	return (tap_done());
}
