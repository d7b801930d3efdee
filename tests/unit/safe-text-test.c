/* safe-text-test.c: what peer and user text looks like on a terminal
 * (common/safe-text.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/safe-text.h"
#include "tests/unit/tap.h"

/* Escapes in (len bytes) every way the module offers and checks each. */
static void
t_esc(const char *in, size_t len, const char *want, const char *what)
{
	char	 buf[256], *dup, *mem = NULL;
	size_t	 memlen = 0;
	FILE	*f;

	is_str(safe_text(in, len, buf, sizeof buf), want, "%s", what);
	dup = safe_text_dup(in, len);
	is_str(dup, want, "%s (dup)", what);
	free(dup);
	is_int(safe_text_len(in, len), strlen(want), "%s (len)", what);
	f = open_memstream(&mem, &memlen);
	safe_text_fwrite(in, len, f);
	fclose(f);
	is_str(mem, want, "%s (fwrite)", what);
	free(mem);
}

#define T(in, want, what)	t_esc(in, sizeof in - 1, want, what)

static void
t_json(const char *in, const char *want, const char *what)
{
	char	*mem = NULL;
	size_t	 memlen = 0;
	FILE	*f;

	f = open_memstream(&mem, &memlen);
	safe_text_json_fwrite(in, strlen(in), f);
	fclose(f);
	is_str(mem, want, "json: %s", what);
	free(mem);
}

int
main(void)
{
	char	buf[8];

	T("resnet-50", "resnet-50", "plain ASCII is kept");
	T("a\\b", "a\\b", "a backslash stays one");
	T("r\xc3\xa9sum\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80",
	    "r\xc3\xa9sum\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80",
	    "printable UTF-8 of 2, 3 and 4 bytes is kept");
	T("\xc2\xa0\xc2\xbf", "\xc2\xa0\xc2\xbf",
	    "U+00A0 and U+00BF, just past C1, are kept");
	T("\x1b[2J\x1b]0;pwned\x07", "\\e[2J\\e]0;pwned\\x07",
	    "ESC and BEL of a clear-screen and a title sequence");
	T("line\nforged\r\tx", "line\\nforged\\r\\tx",
	    "newline, return and tab are named");
	T("\x01\x1f\x7f", "\\x01\\x1f\\x7f", "other C0 bytes and DEL");
	t_esc("a\0b", 3, "a\\x00b", "a NUL inside the text");
	T("\xc2\x9b" "31m\xc2\x80\xc2\x9f", "\\u009b31m\\u0080\\u009f",
	    "C1 controls as UTF-8 (CSI U+009B)");
	T("\x9b" "31m", "\\x9b31m", "a raw C1 byte is invalid UTF-8");
	T("\xff\xfe", "\\xff\\xfe", "bytes never in UTF-8");
	T("\xc0\xaf", "\\xc0\\xaf", "an overlong '/'");
	T("\xe0\x80\xaf", "\\xe0\\x80\\xaf", "an overlong 3-byte form");
	T("\xed\xa0\x80", "\\xed\\xa0\\x80", "a UTF-16 surrogate");
	T("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "past U+10FFFF");
	T("ab\xe6\x97", "ab\\xe6\\x97", "a sequence cut short at the end");
	T("\xe6\x97x", "\\xe6\\x97x", "a sequence broken by ASCII");
	T("", "", "empty text");

	is_str(safe_text("abc\x1b" "def", 7, buf, sizeof buf), "abc\\ede",
	    "a short buffer keeps what fits");
	is_str(safe_text("abcd\x1b", 5, buf, 6), "abcd",
	    "an escape that does not fit is left out, not cut");
	is_str(safe_text("a\xe6\x97\xa5", 4, buf, 4), "a",
	    "a character that does not fit is left out, not cut");
	is_str(safe_text_str(NULL, buf, sizeof buf), "", "NULL is empty");

	ok(safe_text_is_line("r\xc3\xa9sum\xc3\xa9 \xc2\xa0", 11),
	    "a line: printable UTF-8");
	ok(safe_text_is_line("", 0), "a line: empty");
	ok(!safe_text_is_line("a\tb", 3), "not a line: a tab (C0)");
	ok(!safe_text_is_line("a\x7f", 2), "not a line: DEL");
	ok(!safe_text_is_line("a\xc2\x9b" "1m", 5), "not a line: CSI (C1)");
	ok(!safe_text_is_line("a\xc2\x80", 3), "not a line: U+0080 (C1)");
	ok(!safe_text_is_line("a\xff", 2), "not a line: not UTF-8");
	ok(!safe_text_is_line("a\0b", 3), "not a line: a NUL");

	t_json("{\"name\": \"a\\u001b[2Jb\"}", "{\"name\": \"a\\u001b[2Jb\"}",
	    "jansson's escapes pass as they are");
	t_json("{\"n\": \"x\xc2\x9b" "1m\x7fy\"}",
	    "{\"n\": \"x\\u009b1m\\u007fy\"}", "C1 and DEL become \\u escapes");
	t_json("{\"n\": \"\xc2\xa0\xc3\xa9\"}", "{\"n\": \"\xc2\xa0\xc3\xa9\"}",
	    "other UTF-8 is kept");
	return (tap_done());
}
