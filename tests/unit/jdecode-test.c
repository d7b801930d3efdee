/* jdecode-test.c: common/jdecode.c against jansson's decoder: a frame as
 * gsub sends one, texts at every edge of the grammar (each taken or
 * refused as jansson does, and the same value), what a refusal says and
 * where, the NUL byte jansson alone lets through, and random texts built
 * from JSON's own pieces. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/jdecode.h"
#include "tests/unit/tap.h"

#define T_FLAGS	(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)

/* jdecode and jansson on the len bytes of text: both refuse, or both
 * take it as equal values. Returns whether jdecode took it. */
static int
t_same(const char *text, size_t len, const char *what)
{
	json_error_t	 e;
	json_t		*want, *got;
	char		 err[256];
	int		 same;

	want = json_loadb(text, len, T_FLAGS, &e);
	got = jdecode(text, len, err, sizeof err);
	same = (want == NULL && got == NULL) || (want != NULL && got != NULL &&
	    json_equal(want, got));
	if (!ok(same, "%s: as jansson (%s)", what, got != NULL ? "taken" :
	    err))
		printf("#   jansson: %s\n", want != NULL ? "taken" : e.text);
	json_decref(want);
	json_decref(got);
	return (got != NULL);
}

static void
test_frame(void)
{
	json_t	*job, *v;
	char	*text, err[256];

	job = json_pack("{s:i,s:i,s:{s:s,s:s,s:[s,s],s:{s:s,s:s,s:s},s:i,"
	    "s:b,s:f,s:n}}", "type", 10, "seq", 7, "job", "name", "a \"b\"",
	    "script", "#!/bin/sh\necho caf\xc3\xa9\n", "argv", "x\ty",
	    "\xf0\x9f\x98\x80",
	    "env", "PATH", "/usr/bin:/bin", "LANG", "C.UTF-8", "Q", "\\\x01",
	    "gpus", 4, "hold", 1, "mem", 1.5, "dependency");
	text = json_dumps(job, JSON_COMPACT);
	v = jdecode(text, strlen(text), err, sizeof err);
	ok(v != NULL && json_equal(v, job), "a submit as gsub sends it: the "
	    "same object");
	json_decref(v);
	free(text);
	/* Escaped the other way: every character as \u. */
	text = json_dumps(job, JSON_COMPACT | JSON_ENSURE_ASCII);
	v = jdecode(text, strlen(text), err, sizeof err);
	ok(v != NULL && json_equal(v, job), "the same, written in ASCII "
	    "with \\u escapes and surrogate pairs");
	json_decref(v);
	free(text);
	json_decref(job);
}

static void
test_edges(void)
{
	static const char *const texts[] = {
		"-0", "0", "-1", "1e-400", "1e400", "-1e400", "01", "-", "1.",
		".5", "1.5e+", "1.0E+2", "2e3", "0.5e-3x", "1 2",
		"9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809",
		"\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
		"\"\\ud83d\\ude00\"", "\"\\u0000\"", "{\"a\\u0000\":1}",
		"\"\\u00e9\\u20AC\"", "\"\\u12\"", "\"\\x\"", "\"\\/\"",
		"\"\x7f\"", "\"\xed\xa0\x80\"", "\"\xc0\x80\"", "\"\xc3\"",
		"\"\xf4\x90\x80\x80\"", "\"\xf0\x9f\x98\x80\"", "\"\x01\"",
		"\"abc", "[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}",
		"{\"ab\":1,\"a\\u0062\":2}", "{\"a\" 1}", "{1:2}", "{\"a\":}",
		"tru", "nul", "true", "false", "null", "truex", "[1 2]", "[",
		"]", "{", "", " ", " {} ", "[[], {}, [[]]]", "\xef\xbb\xbf{}",
	};
	char	*deep;
	size_t	 i;
	int	 n;

	for (i = 0; i < sizeof texts / sizeof texts[0]; i++)
		t_same(texts[i], strlen(texts[i]), texts[i]);
	for (n = JDECODE_MAX_DEPTH; n <= JDECODE_MAX_DEPTH + 1; n++) {
		deep = malloc(2 * (size_t)n);
		if (deep == NULL)
			abort();
		memset(deep, '[', (size_t)n);
		memset(deep + n, ']', (size_t)n);
		is_int(t_same(deep, 2 * (size_t)n, n == JDECODE_MAX_DEPTH ?
		    "2048 arrays deep" : "2049 arrays deep"),
		    n == JDECODE_MAX_DEPTH, "nesting: %d deep %s", n,
		    n == JDECODE_MAX_DEPTH ? "taken" : "refused");
		free(deep);
	}
}

/* What each malformed escape (common/jlex.h's verdicts) is refused as,
 * named at its backslash. */
static void
test_escape_refusals(void)
{
	static const struct {
		const char	*text;
		const char	*want;
	} cases[] = {
		{ "[\"a\\q\"]", "invalid escape \\q at byte 3" },
		{ "[\"\\\x01\"]", "invalid escape \\? (not shown) at byte 2" },
		{ "[\"\\u12\"]", "\\u without four hex digits at byte 2" },
		{ "[\"\\ud83dx\"]", "a \\u surrogate without its pair at byte 2" },
		{ "[\"\\ud83d\\u0041\"]", "a \\u surrogate without its pair at "
		    "byte 2" },
		{ "[\"\\ude00\\ud83d\"]", "a \\u surrogate without its pair at "
		    "byte 2" },
		{ "[\"x\\u0000\"]", "\\u0000 in a string at byte 3" },
		{ "[\"\\", "unterminated string at byte 2" },
	};
	char	err[256];
	size_t	i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		ok(jdecode(cases[i].text, strlen(cases[i].text), err,
		    sizeof err) == NULL && strcmp(err, cases[i].want) == 0,
		    "%s is refused: %s", cases[i].text, err);
	}
}

static void
test_refusals(void)
{
	char	err[256];

	ok(jdecode("{\"a\":1,\"a\":2}", 13, err, sizeof err) == NULL &&
	    strcmp(err, "duplicate key at byte 7") == 0,
	    "a duplicate key is named with its byte (%s)", err);
	ok(jdecode("[1,\"\x01\"]", 7, err, sizeof err) == NULL &&
	    strcmp(err, "control character 0x01 in a string at byte 4") == 0,
	    "a control character is named with its byte (%s)", err);
	ok(jdecode("{} x", 4, err, sizeof err) == NULL &&
	    strcmp(err, "end of text expected at byte 3") == 0,
	    "trailing bytes are refused where they start (%s)", err);
	ok(jdecode("\"\xff\"", 3, err, sizeof err) == NULL &&
	    strstr(err, "UTF-8") != NULL, "invalid UTF-8 says so (%s)", err);
	/* jansson loses a NUL byte put back after a number; jdecode refuses
	 * every NUL byte (jdecode.h). */
	ok(jdecode("1\0", 2, err, sizeof err) == NULL,
	    "a NUL byte after a number is refused (%s)", err);
	ok(jdecode("[\"a\0\"]", 6, err, sizeof err) == NULL,
	    "a NUL byte in a string is refused (%s)", err);
	ok(jdecode("x", 1, NULL, 0) == NULL, "a refusal with no room for "
	    "its reason");
	test_escape_refusals();
}

/* Random texts of JSON's pieces, good and bad, compared with jansson. */
static void
test_random(void)
{
	static const char *const pieces[] = {
		"{", "}", "[", "]", ",", ":", "\"k\"", "\"k2\"", "\"\\u00e9\"",
		"\"\\ud83d\\ude00\"", "\"\\n\"", "1", "-2", "3.5", "1e5",
		"true", "null", " ", "\"\xc3\xa9\"", "\"", "\\", "0", "x",
	};
	char	text[256];
	size_t	len, k;
	int	i, taken = 0, same = 1;
	json_error_t e;
	json_t	*want, *got;
	char	err[256];

	for (i = 0; i < 20000; i++) {
		len = 0;
		for (k = tap_rand() % 12; k > 0; k--) {
			const char *p = pieces[tap_rand() %
			    (sizeof pieces / sizeof pieces[0])];

			if (len + strlen(p) >= sizeof text)
				break;
			memcpy(text + len, p, strlen(p));
			len += strlen(p);
		}
		want = json_loadb(text, len, T_FLAGS, &e);
		got = jdecode(text, len, err, sizeof err);
		if (!((want == NULL && got == NULL) || (want != NULL &&
		    got != NULL && json_equal(want, got)))) {
			if (same)
				printf("# differs: %.*s\n", (int)len, text);
			same = 0;
		}
		taken += got != NULL;
		json_decref(want);
		json_decref(got);
	}
	ok(same, "20,000 random texts: taken and refused as jansson");
	ok(taken > 100, "of them, %d taken", taken);
}

int
main(void)
{
	test_frame();
	test_edges();
	test_refusals();
	test_random();
	return (tap_done());
}
