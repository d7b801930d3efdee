/* job-shared-test.c: the blocks jobs share. Jobs whose shared strings are
 * all the same hold one block, counted, and a job differing in any one
 * string (or in where a string ends) or in any one number of its request
 * holds its own; the last job counted out frees it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/job-shared.h"
#include "daemon/controller/job-strs.h"
#include "tests/unit/tap.h"

/* The blocks these tests make, as the job table holds them. */
static struct job_shared_tab	tab;

static void
set(const char **src, char (*buf)[32], int which, const char *value)
{
	int	k;

	for (k = 0; k < JSH_COUNT; k++) {
		snprintf(buf[k], sizeof buf[k], "v%d", k);
		src[k] = k == which ? value : buf[k];
	}
}

#define MANY	200000

/* The numbers most tests share (1000 + k for number k), and those of
 * test_ask. */
static struct job_ask	ask;

static void
ask_make(void)
{
	int	k;

	for (k = 0; k < JSH_NUMS; k++)
		ask.n[k] = 1000 + (uint64_t)k;
}

/* ask with number which one more; -1: ask itself. */
static struct job_ask
vary(int which)
{
	struct job_ask	a = ask;

	if (which >= 0)
		a.n[which]++;
	return (a);
}

/* The numbers are shared with the strings: the same with the same, a
 * block of its own for a job differing in any one of them. */
static void
test_ask(void)
{
	const struct job_shared	*a, *b, *c;
	const char		*src[JSH_COUNT];
	char			 buf[JSH_COUNT][32];
	struct job_ask		 v;
	int			 k, bad = 0;

	set(src, buf, -1, NULL);
	a = job_shared_get(&tab, src, &ask);
	v = vary(-1);
	b = job_shared_get(&tab, src, &v);
	ok(a == b, "the same strings and numbers: one block");
	ok(memcmp(job_shared_ask(a), &ask, sizeof ask) == 0,
	    "the numbers read back");
	for (k = 0; k < JSH_NUMS; k++) {
		v = vary(k);
		c = job_shared_get(&tab, src, &v);
		if (c == a || memcmp(job_shared_ask(c), &v, sizeof v) != 0)
			bad++;
		job_shared_put(&tab, c);
	}
	is_int(bad, 0, "a job differing in any one number has its own");
	job_shared_put(&tab, a);
	job_shared_put(&tab, b);
	is_int(job_shared_count(&tab, NULL), 0, "each freed with its jobs");
}

static void
test_shared(void)
{
	const struct job_shared	*a, *b, *c, *d, *e, **many;
	const char		*src[JSH_COUNT];
	char			 buf[JSH_COUNT][32], name[32];
	size_t			 refs, i;
	uint32_t		 seed;
	int			 k, bad = 0;
	int			 user = job_strs_slot(JF_USER);
	int			 command = job_strs_slot(JF_COMMAND);
	int			 account = job_strs_slot(JF_ACCOUNT);
	int			 workdir = job_strs_slot(JF_WORKDIR);

	set(src, buf, -1, NULL);
	a = job_shared_get(&tab, src, &ask);
	b = job_shared_get(&tab, src, &ask);
	ok(a == b, "the same strings: one block");
	is_int(job_shared_count(&tab, &refs), 1, "one block in use");
	is_int(refs, 2, "counted for two jobs");
	for (k = 0; k < JSH_COUNT; k++) {
		if (strcmp(job_shared_str(a, k), buf[k]) != 0)
			bad++;
	}
	is_int(bad, 0, "each shared string reads back");

	/* One string other: another block, for every string. */
	for (k = 0; k < JSH_COUNT; k++) {
		set(src, buf, k, "other");
		c = job_shared_get(&tab, src, &ask);
		if (c == a || strcmp(job_shared_str(c, k), "other") != 0)
			bad++;
		job_shared_put(&tab, c);
	}
	is_int(bad, 0, "a job differing in any one string has its own");
	is_int(job_shared_count(&tab, NULL), 1, "each freed with its only job");

	/* Where strings end counts: "ab","c" is not "a","bc". */
	set(src, buf, -1, NULL);
	src[user] = "ab";
	src[command] = "c";
	c = job_shared_get(&tab, src, &ask);
	src[user] = "a";
	src[command] = "bc";
	d = job_shared_get(&tab, src, &ask);
	ok(c != d, "the same text split otherwise: two blocks");
	is_str(job_shared_text(d, JF_USER), "a", "the second's user");
	is_str(job_shared_text(c, JF_USER), "ab", "the first's user");

	/* NULL reads as "", and is the same as "". */
	set(src, buf, account, NULL);
	e = job_shared_get(&tab, src, &ask);
	set(src, buf, account, "");
	ok(job_shared_get(&tab, src, &ask) == e,
	    "NULL and \"\" are the same string");
	is_str(job_shared_text(e, JF_ACCOUNT), "", "NULL reads as \"\"");
	job_shared_put(&tab, e);
	job_shared_put(&tab, e);
	job_shared_put(&tab, c);
	job_shared_put(&tab, d);

	/* Many blocks (the hash grows), each with its own strings: 200,000
	 * make a few pairs whose 32-bit hashes are the same, which must
	 * still be told apart by their strings. */
	many = calloc(MANY, sizeof *many);
	seed = tap_seed;
	for (i = 0; i < MANY; i++) {
		snprintf(name, sizeof name, "/home/u%zu/%08x", i,
		    (unsigned)tap_rand());
		set(src, buf, workdir, name);
		many[i] = job_shared_get(&tab, src, &ask);
	}
	is_int(job_shared_count(&tab, NULL), MANY + 1,
	    "200,000 directories: 200,000 more blocks");
	tap_seed = seed;
	for (i = 0; i < MANY; i++) {
		snprintf(name, sizeof name, "/home/u%zu/%08x", i,
		    (unsigned)tap_rand());
		set(src, buf, workdir, name);
		if (job_shared_get(&tab, src, &ask) != many[i] ||
		    strcmp(job_shared_str(many[i], workdir), name) != 0)
			bad++;
	}
	is_int(bad, 0, "each found again, with its own directory");
	for (i = 0; i < MANY; i++) {
		job_shared_put(&tab, many[i]);
		job_shared_put(&tab, many[i]);
	}
	free(many);
	is_int(job_shared_count(&tab, &refs), 1, "all freed with their jobs");
	is_int(refs, 2, "the first block still counted twice");
	job_shared_put(&tab, a);
	job_shared_put(&tab, b);
	is_int(job_shared_count(&tab, &refs), 0, "the last job out frees it");
	is_int(refs, 0, "no job counted");
}

/* What a job keeps in memory is what common/job-field.h flags: each field
 * with JFF_SHARED or JFF_OWN has a place, no other does, and a row's
 * fields come back from the blocks as they went in. */
int
main(void)
{
	ask_make();
	test_shared();
	test_ask();
	return (tap_done());
}
