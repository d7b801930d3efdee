/* job-env.c: the environment of a JOB_SUBMIT, found in the frame's text.
 * A gsub frame is mostly its environment (about 40 variables, 1.5 KB), and
 * building a jansson tree of it (a hash table and two allocations per
 * variable) only to serialise it again for the store cost about two thirds
 * of gbatchd's time per submitted job. So peer.c asks job_env_find where
 * job.env lies; when this file vouches for it, the frame is parsed with
 * "{}" in its place and the handler stores the original text.
 *
 * Vouching means checking everything jansson and req-job-submit.c would:
 * an object of strings, names not empty and without '=', no duplicate
 * names (frames are decoded with JSON_REJECT_DUPLICATES), no \u0000, no
 * lone surrogates. Anything this scanner does not fully understand (a
 * byte above 0x7f, an escape in a name, more than JOB_ENV_MAX_VARS
 * variables) makes it answer "not found", and the frame takes the slow,
 * general path: the answer is the same either way, only slower. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "daemon/controller/job-env.h"

/* Variables the duplicate check can hold; larger environments take the
 * general path. */
#define JOB_ENV_MAX_VARS	256
#define JOB_ENV_SLOTS		512	/* a power of two, > 1.5 x the above */
/* Nesting the skipper follows before it gives up. */
#define JOB_ENV_MAX_DEPTH	32

struct job_env_scan {
	const char	*s;
	size_t		 i;
	size_t		 n;
};

static void
job_env_ws(struct job_env_scan *sc)
{
	while (sc->i < sc->n && (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' ||
	    sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r'))
		sc->i++;
}

static int
job_env_hex(char c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Whether c stands for itself inside a string, in either mode. */
static inline int
job_env_plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x80 && c != '"' && c != '\\');
}

/* Reads a string at sc->i (its opening quote) up to and past the closing
 * one. strict: only what job_env_find may vouch for (ASCII, no \u0000, no
 * surrogates); plain: any string, for skipping (jansson checks those).
 * Sets *escaped when the string holds an escape. Returns 0 or -1. */
static int
job_env_string(struct job_env_scan *sc, bool strict, bool *escaped)
{
	unsigned char	c;
	int		k, h, cp;

	*escaped = false;
	if (sc->i >= sc->n || sc->s[sc->i] != '"')
		return (-1);
	for (sc->i++; sc->i < sc->n; sc->i++) {
		/* Most bytes are plain ASCII: pass them in a tight loop. */
		while (sc->i < sc->n && job_env_plain((unsigned char)
		    sc->s[sc->i]))
			sc->i++;
		if (sc->i >= sc->n)
			break;
		c = (unsigned char)sc->s[sc->i];
		if (c == '"') {
			sc->i++;
			return (0);
		}
		if (c < 0x20 || (strict && c >= 0x80))
			return (-1);
		if (c != '\\')
			continue;
		*escaped = true;
		if (++sc->i >= sc->n)
			return (-1);
		switch (sc->s[sc->i]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			break;
		case 'u':
			if (sc->i + 4 >= sc->n)
				return (-1);
			for (cp = 0, k = 1; k <= 4; k++) {
				if ((h = job_env_hex(sc->s[sc->i + k])) == -1)
					return (-1);
				cp = cp * 16 + h;
			}
			if (strict && (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff)))
				return (-1);
			sc->i += 4;
			break;
		default:
			return (-1);
		}
	}
	return (-1);
}

/* Skips any JSON value at sc->i. Only finds where it ends: what is
 * skipped stays in the text jansson parses, which checks it. */
static int
job_env_skip(struct job_env_scan *sc, int depth)
{
	bool	escaped;
	char	c, close;

	job_env_ws(sc);
	if (sc->i >= sc->n || depth > JOB_ENV_MAX_DEPTH)
		return (-1);
	c = sc->s[sc->i];
	if (c == '"')
		return (job_env_string(sc, false, &escaped));
	if (c != '{' && c != '[') {
		/* A number or a literal: up to the next delimiter. */
		while (sc->i < sc->n && strchr(",]} \t\r\n", sc->s[sc->i]) ==
		    NULL)
			sc->i++;
		return (0);
	}
	close = c == '{' ? '}' : ']';
	sc->i++;
	job_env_ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == close) {
		sc->i++;
		return (0);
	}
	for (;;) {
		if (c == '{') {
			job_env_ws(sc);
			if (job_env_string(sc, false, &escaped) != 0)
				return (-1);
			job_env_ws(sc);
			if (sc->i >= sc->n || sc->s[sc->i++] != ':')
				return (-1);
		}
		if (job_env_skip(sc, depth + 1) != 0)
			return (-1);
		job_env_ws(sc);
		if (sc->i >= sc->n)
			return (-1);
		if (sc->s[sc->i] == close) {
			sc->i++;
			return (0);
		}
		if (sc->s[sc->i++] != ',')
			return (-1);
	}
}

static uint32_t
job_env_hash(const char *s, size_t len)
{
	uint32_t	h = 2166136261U;
	size_t		i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619U;
	return (h);
}

/* Checks the env object at sc->i and moves past it. */
static int
job_env_check(struct job_env_scan *sc)
{
	uint32_t	 slots[JOB_ENV_SLOTS];	/* key offset + 1, 0: free */
	uint16_t	 lens[JOB_ENV_SLOTS];
	const char	*key;
	size_t		 klen, nvars = 0, b, start;
	bool		 escaped;

	if (sc->n > UINT32_MAX - 1)
		return (-1);
	memset(slots, 0, sizeof slots);
	sc->i++;	/* the '{' */
	job_env_ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == '}') {
		sc->i++;
		return (0);
	}
	for (;;) {
		job_env_ws(sc);
		start = sc->i;
		if (job_env_string(sc, true, &escaped) != 0 || escaped)
			return (-1);
		key = sc->s + start + 1;
		klen = sc->i - start - 2;
		if (klen == 0 || klen > UINT16_MAX ||
		    memchr(key, '=', klen) != NULL ||
		    ++nvars > JOB_ENV_MAX_VARS)
			return (-1);
		for (b = job_env_hash(key, klen) & (JOB_ENV_SLOTS - 1);
		    slots[b] != 0; b = (b + 1) & (JOB_ENV_SLOTS - 1)) {
			if (lens[b] == klen && memcmp(sc->s + slots[b] - 1, key,
			    klen) == 0)
				return (-1);	/* a duplicate name */
		}
		slots[b] = (uint32_t)(key - sc->s) + 1;
		lens[b] = (uint16_t)klen;
		job_env_ws(sc);
		if (sc->i >= sc->n || sc->s[sc->i++] != ':')
			return (-1);
		job_env_ws(sc);
		if (job_env_string(sc, true, &escaped) != 0)
			return (-1);
		job_env_ws(sc);
		if (sc->i >= sc->n)
			return (-1);
		if (sc->s[sc->i] == '}') {
			sc->i++;
			return (0);
		}
		if (sc->s[sc->i++] != ',')
			return (-1);
	}
}

/* Walks the members of the object at sc->i. For each it calls found with
 * the member's name when the name is want; found returns 1 to stop the
 * walk there (with sc->i at the value), 0 to have the value skipped. */
static int
job_env_members(struct job_env_scan *sc, const char *want,
    int (*found)(struct job_env_scan *, void *), void *arg)
{
	size_t	start, klen, wlen = strlen(want);
	bool	escaped;
	int	rc;

	job_env_ws(sc);
	if (sc->i >= sc->n || sc->s[sc->i] != '{')
		return (-1);
	sc->i++;
	job_env_ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == '}')
		return (0);
	for (;;) {
		job_env_ws(sc);
		start = sc->i;
		if (job_env_string(sc, false, &escaped) != 0)
			return (-1);
		klen = sc->i - start - 2;
		job_env_ws(sc);
		if (sc->i >= sc->n || sc->s[sc->i++] != ':')
			return (-1);
		job_env_ws(sc);
		if (!escaped && klen == wlen &&
		    memcmp(sc->s + start + 1, want, wlen) == 0) {
			if ((rc = found(sc, arg)) != 0)
				return (rc);
		} else if (job_env_skip(sc, 1) != 0)
			return (-1);
		job_env_ws(sc);
		if (sc->i >= sc->n)
			return (-1);
		if (sc->s[sc->i] == '}')
			return (0);
		if (sc->s[sc->i++] != ',')
			return (-1);
	}
}

struct job_env_where {
	size_t	off;
	size_t	len;
	bool	found;
};

static int
job_env_found_env(struct job_env_scan *sc, void *arg)
{
	struct job_env_where	*w = arg;

	if (sc->s[sc->i] != '{')
		return (-1);	/* not an object: the handler says so */
	w->off = sc->i;
	if (job_env_check(sc) != 0)
		return (-1);
	w->len = sc->i - w->off;
	w->found = true;
	return (1);
}

static int
job_env_found_job(struct job_env_scan *sc, void *arg)
{
	int	rc;

	if (sc->s[sc->i] != '{')
		return (-1);
	rc = job_env_members(sc, "env", job_env_found_env, arg);
	return (rc == 0 ? 1 : rc);	/* no env: stop all the same */
}

int
job_env_find(const char *body, size_t n, size_t *off, size_t *len)
{
	struct job_env_scan	sc = { body, 0, n };
	struct job_env_where	w = { 0, 0, false };

	if (job_env_members(&sc, "job", job_env_found_job, &w) < 0 ||
	    !w.found)
		return (0);
	*off = w.off;
	*len = w.len;
	return (1);
}
