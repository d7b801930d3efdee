/* job-env-test.c: daemon/controller/job-env.c, which vouches for a
 * JOB_SUBMIT's environment so that gbatchd can skip decoding it. What it
 * vouches for must be exactly what the decoder and the submit handler would
 * accept: checked on chosen frames and on thousands of mutated ones. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/controller/job-env.h"
#include "tests/unit/tap.h"

/* Returns 1 and the env's text when job_env_find vouches for it. */
static int
t_find(const char *frame, char *env, size_t envlen)
{
	size_t	off = 0, len = 0;

	if (job_env_find(frame, strlen(frame), &off, &len) != 1)
		return (0);
	if (len >= envlen)
		abort();
	memcpy(env, frame + off, len);
	env[len] = '\0';
	return (1);
}

static json_t *
t_load(const char *s, size_t n)
{
	return (json_loadb(s, n, JSON_REJECT_DUPLICATES, NULL));
}

/* Whether env (decoded) is what the submit handler accepts. */
static bool
t_env_ok(const json_t *env)
{
	const char	*key;
	json_t		*v;

	if (!json_is_object(env))
		return (false);
	json_object_foreach((json_t *)env, key, v) {
		if (!json_is_string(v) || *key == '\0' ||
		    strchr(key, '=') != NULL)
			return (false);
	}
	return (true);
}

/* The promise, for one frame: when job_env_find answers 1, the frame with
 * "{}" in the env's place decodes exactly when the frame does, and then
 * the env text decodes to the frame's job.env, which the handler accepts.
 * Returns whether the promise held (and sets *found). */
static bool
t_promise(const char *frame, size_t n, bool *found)
{
	json_t	*whole, *cut, *env;
	size_t	 off, len;
	char	*text;
	bool	 good;

	*found = job_env_find(frame, n, &off, &len) == 1;
	if (!*found)
		return (true);
	if (off + len > n)
		return (false);
	text = malloc(n + 3);
	if (text == NULL)
		abort();
	memcpy(text, frame, off);
	memcpy(text + off, "{}", 2);
	memcpy(text + off + 2, frame + off + len, n - off - len);
	whole = t_load(frame, n);
	cut = t_load(text, n - len + 2);
	env = t_load(frame + off, len);
	good = (whole == NULL) == (cut == NULL);
	if (good && whole != NULL)
		good = env != NULL && t_env_ok(env) && json_equal(env,
		    json_object_get(json_object_get(whole, "job"), "env"));
	json_decref(whole);
	json_decref(cut);
	json_decref(env);
	free(text);
	return (good);
}

static void
t_chosen(void)
{
	static const struct {
		const char	*frame;
		int		 found;
		const char	*env;
		const char	*what;
	} cases[] = {
		{ "{\"type\":200,\"job\":{\"env\":{\"A\":\"b\"}}}", 1,
		  "{\"A\":\"b\"}", "a plain environment" },
		{ "{\"job\":{\"name\":\"x\",\"argv\":[\"a\",[{\"env\":1}]],"
		  "\"env\":{\"A\":\"b\",\"B\":\"\"}},\"type\":200}", 1,
		  "{\"A\":\"b\",\"B\":\"\"}", "after nested values" },
		{ " { \"job\" : { \"env\" : { \"A\" : \"x\\n\\\"y\\u00e9\" } } }", 1,
		  "{ \"A\" : \"x\\n\\\"y\\u00e9\" }", "spaces and escapes" },
		{ "{\"job\":{\"env\":{}}}", 1, "{}", "an empty environment" },
		{ "{\"env\":{\"A\":\"b\"}}", 0, NULL, "env outside job" },
		{ "{\"job\":{\"x\":{\"env\":{\"A\":\"b\"}}}}", 0, NULL,
		  "env deeper than job" },
		{ "{\"job\":{\"env\":{\"A\":\"b\",\"A\":\"c\"}}}", 0, NULL,
		  "a duplicate name" },
		{ "{\"job\":{\"env\":{\"A=B\":\"c\"}}}", 0, NULL,
		  "a name with '='" },
		{ "{\"job\":{\"env\":{\"\":\"c\"}}}", 0, NULL, "an empty name" },
		{ "{\"job\":{\"env\":{\"A\":1}}}", 0, NULL, "a number value" },
		{ "{\"job\":{\"env\":{\"A\":null}}}", 0, NULL, "a null value" },
		{ "{\"job\":{\"env\":[\"A\"]}}", 0, NULL, "an array" },
		{ "{\"job\":{\"env\":{\"A\":\"\\u0000\"}}}", 0, NULL,
		  "an escaped NUL" },
		{ "{\"job\":{\"env\":{\"A\":\"\\ud800\"}}}", 0, NULL,
		  "a lone surrogate" },
		{ "{\"job\":{\"env\":{\"A\\u003d\":\"b\"}}}", 0, NULL,
		  "an escape in a name" },
		{ "{\"job\":{\"env\":{\"A\":\"\xc3\xa9\"}}}", 0, NULL,
		  "a byte above 0x7f" },
		{ "{\"job\":{\"env\":{\"A\":\"b\x01\"}}}", 0, NULL,
		  "a raw control character" },
		{ "{\"job\":{\"env\":{\"A\":\"b\"", 0, NULL, "a cut frame" },
		{ "[{\"job\":{\"env\":{}}}]", 0, NULL, "not an object" },
		{ "", 0, NULL, "nothing" },
	};
	char	env[256];
	size_t	i;
	int	r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		r = t_find(cases[i].frame, env, sizeof env);
		is_int(r, cases[i].found, "%s: %s", cases[i].what,
		    cases[i].found ? "found" : "not vouched for");
		if (r == 1 && cases[i].found)
			is_str(env, cases[i].env, "%s: the text", cases[i].what);
	}
}

static void
t_mutations(void)
{
	static const char	base[] = "{\"type\":200,\"seq\":7,\"job\":"
	    "{\"name\":\"t\",\"argv\":[\"-x\",\"y\"],\"env\":{\"PATH\":"
	    "\"/usr/bin:/bin\",\"HOME\":\"/home/a\",\"Q\":\"a\\\"b\\\\c\\t\","
	    "\"U\":\"\\u00e9\\u20ac\",\"E\":\"\"},\"gpus\":1,\"hold\":true}}";
	static const char	bytes[] = "{}[]\":,\\u0=A \x01\xc3\xa9";
	char			 frame[sizeof base];
	size_t			 n = sizeof base - 1, pos;
	json_t			*whole;
	int			 i, k, broken = 0, found = 0, intact = 0;
	bool			 f;

	ok(t_promise(base, n, &f) && f, "the unmutated frame is vouched for");
	for (i = 0; i < 20000; i++) {
		memcpy(frame, base, sizeof base);
		for (k = 0; k < 1 + (int)(tap_rand() % 3); k++) {
			pos = tap_rand() % n;
			frame[pos] = bytes[tap_rand() % (sizeof bytes - 1)];
		}
		if (!t_promise(frame, n, &f)) {
			if (broken++ == 0)
				printf("# promise broken by: %s\n", frame);
		}
		found += f;
		if (f && (whole = t_load(frame, n)) != NULL) {
			intact++;
			json_decref(whole);
		}
	}
	is_int(broken, 0, "20,000 mutated frames: the promise always held");
	ok(found > 1000 && intact > 100, "the mutations exercised both paths "
	    "(%d vouched for, %d of them valid)", found, intact);
}

int
main(void)
{
	t_chosen();
	t_mutations();
	return (tap_done());
}
