/* job-strs-test.c: blocks of strings and the blocks jobs share. A block
 * reads back every string it was made of, with offsets of 8 bits up to
 * 256 bytes of text, 16 bits up to 65,536 and 32 bits past that; jobs
 * whose shared strings are all the same hold one block, counted, and a
 * job differing in any one string (or in where a string ends) or in any
 * one number of its request holds its own; the last job counted out frees
 * it. What goes in the blocks is what common/job-field.h flags, and a
 * row's fields come back from them as they went in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/job-strs.h"
#include "daemon/controller/store-row.h"
#include "tests/unit/tap.h"

/* Makes a block of n strings, checks each reads back, returns its width. */
static int
roundtrip(const char *const *src, size_t n, const char *what)
{
	struct strs_plan	 plan;
	size_t			 size = strs_plan(src, n, &plan), k;
	char			*block = malloc(size);
	int			 bad = 0;

	memset(block, 0x55, size);
	strs_fill(block, src, n, &plan);
	for (k = 0; k < n; k++) {
		if (strcmp(strs_get(block, plan.width, n, k),
		    src[k] != NULL ? src[k] : "") != 0)
			bad++;
	}
	ok(bad == 0, "%s: every string reads back", what);
	free(block);
	return (plan.width);
}

/* n strings, the last of len bytes, the others one byte: text of
 * 2 * (n - 1) + len + 1 bytes. */
static int
sized(size_t n, size_t len, const char *what)
{
	const char	*src[STRS_MAX];
	char		*big = malloc(len + 1);
	size_t		 k;
	int		 w;

	memset(big, 'x', len);
	big[len] = '\0';
	for (k = 0; k + 1 < n; k++)
		src[k] = k % 2 == 0 ? "a" : "b";
	src[n - 1] = big;
	big[0] = 'y';
	w = roundtrip(src, n, what);
	free(big);
	return (w);
}

static void
test_blocks(void)
{
	const char	*src[] = { "bench", NULL, "", "[\"a\",\"b\"]", "x" };

	is_int(roundtrip(src, 5, "short"), 1, "short strings: 8-bit offsets");
	/* 6 strings: 5 of 2 bytes, the last of len + 1. */
	is_int(sized(6, 245, "256 bytes"), 1, "256 bytes of text: 8 bits");
	is_int(sized(6, 246, "257 bytes"), 2, "257 bytes of text: 16 bits");
	is_int(sized(6, 65525, "65,536 bytes"), 2,
	    "65,536 bytes of text: 16 bits");
	is_int(sized(6, 65526, "65,537 bytes"), 4,
	    "65,537 bytes of text: 32 bits");
	is_int(sized(16, 200000, "200,000 bytes"), 4,
	    "16 strings, the last past 65,536: 32 bits");
}

/* A set of shared strings, string k being "v<k>" but for k == which. */
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
	a = job_shared_get(src, &ask);
	v = vary(-1);
	b = job_shared_get(src, &v);
	ok(a == b, "the same strings and numbers: one block");
	ok(memcmp(job_shared_ask(a), &ask, sizeof ask) == 0,
	    "the numbers read back");
	for (k = 0; k < JSH_NUMS; k++) {
		v = vary(k);
		c = job_shared_get(src, &v);
		if (c == a || memcmp(job_shared_ask(c), &v, sizeof v) != 0)
			bad++;
		job_shared_put(c);
	}
	is_int(bad, 0, "a job differing in any one number has its own");
	job_shared_put(a);
	job_shared_put(b);
	is_int(job_shared_count(NULL), 0, "each freed with its jobs");
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
	a = job_shared_get(src, &ask);
	b = job_shared_get(src, &ask);
	ok(a == b, "the same strings: one block");
	is_int(job_shared_count(&refs), 1, "one block in use");
	is_int(refs, 2, "counted for two jobs");
	for (k = 0; k < JSH_COUNT; k++) {
		if (strcmp(job_shared_str(a, k), buf[k]) != 0)
			bad++;
	}
	is_int(bad, 0, "each shared string reads back");

	/* One string other: another block, for every string. */
	for (k = 0; k < JSH_COUNT; k++) {
		set(src, buf, k, "other");
		c = job_shared_get(src, &ask);
		if (c == a || strcmp(job_shared_str(c, k), "other") != 0)
			bad++;
		job_shared_put(c);
	}
	is_int(bad, 0, "a job differing in any one string has its own");
	is_int(job_shared_count(NULL), 1, "each freed with its only job");

	/* Where strings end counts: "ab","c" is not "a","bc". */
	set(src, buf, -1, NULL);
	src[user] = "ab";
	src[command] = "c";
	c = job_shared_get(src, &ask);
	src[user] = "a";
	src[command] = "bc";
	d = job_shared_get(src, &ask);
	ok(c != d, "the same text split otherwise: two blocks");
	is_str(job_shared_text(d, JF_USER), "a", "the second's user");
	is_str(job_shared_text(c, JF_USER), "ab", "the first's user");

	/* NULL reads as "", and is the same as "". */
	set(src, buf, account, NULL);
	e = job_shared_get(src, &ask);
	set(src, buf, account, "");
	ok(job_shared_get(src, &ask) == e, "NULL and \"\" are the same string");
	is_str(job_shared_text(e, JF_ACCOUNT), "", "NULL reads as \"\"");
	job_shared_put(e);
	job_shared_put(e);
	job_shared_put(c);
	job_shared_put(d);

	/* Many blocks (the hash grows), each with its own strings: 200,000
	 * make a few pairs whose 32-bit hashes are the same, which must
	 * still be told apart by their strings. */
	many = calloc(MANY, sizeof *many);
	seed = tap_seed;
	for (i = 0; i < MANY; i++) {
		snprintf(name, sizeof name, "/home/u%zu/%08x", i,
		    (unsigned)tap_rand());
		set(src, buf, workdir, name);
		many[i] = job_shared_get(src, &ask);
	}
	is_int(job_shared_count(NULL), MANY + 1,
	    "200,000 directories: 200,000 more blocks");
	tap_seed = seed;
	for (i = 0; i < MANY; i++) {
		snprintf(name, sizeof name, "/home/u%zu/%08x", i,
		    (unsigned)tap_rand());
		set(src, buf, workdir, name);
		if (job_shared_get(src, &ask) != many[i] ||
		    strcmp(job_shared_str(many[i], workdir), name) != 0)
			bad++;
	}
	is_int(bad, 0, "each found again, with its own directory");
	for (i = 0; i < MANY; i++) {
		job_shared_put(many[i]);
		job_shared_put(many[i]);
	}
	free(many);
	is_int(job_shared_count(&refs), 1, "all freed with their jobs");
	is_int(refs, 2, "the first block still counted twice");
	job_shared_put(a);
	job_shared_put(b);
	is_int(job_shared_count(&refs), 0, "the last job out frees it");
	is_int(refs, 0, "no job counted");
}

/* What a job keeps in memory is what common/job-field.h flags: each field
 * with JFF_SHARED or JFF_OWN has a place, no other does, and a row's
 * fields come back from the blocks as they went in. */
static void
test_fields(void)
{
	const struct job_shared	*s;
	struct store_job	 r, back;
	struct strs_plan	 plan;
	const char		*src[JOB_OWN_COUNT];
	char			*block;
	int			 f, placed = 1;

	for (f = 0; f < JF_COUNT; f++) {
		if ((job_strs_slot(f) >= 0) != ((job_fields[f].flags &
		    (JFF_SHARED | JFF_OWN)) != 0))
			placed = 0;
	}
	ok(placed, "every field job-field.h keeps in memory has a place");
	ok(JSH_COUNT == 10 && JSH_NUMS == 10 && JOB_OWN_COUNT == 6,
	    "10 shared strings, 10 shared numbers, 6 of a job's own");

	memset(&r, 0, sizeof r);
	r.user = "alice";
	r.command = "/home/alice/train.sh";
	r.workdir = "/home/alice";
	r.gpu_type = "a100";
	r.tasks_per_node = "gpu";
	r.uid = 1000;
	r.gid = 100;
	r.gpus = 8;
	r.time_limit = 31536000;
	r.mem = (uint64_t)1 << 40;
	r.flags = 0x401;
	r.ckpt_signal = 12;
	r.ckpt_grace = 86400;
	r.name = "train";
	r.argv = "[\"--lr\"]";
	r.dependency = "afterok:7";
	s = job_shared_get_row(&r);
	job_own_src(&r, src);
	block = malloc(strs_plan(src, JOB_OWN_COUNT, &plan));
	strs_fill(block, src, JOB_OWN_COUNT, &plan);
	memset(&back, 0, sizeof back);
	job_shared_to_row(s, &back);
	job_own_to_row(block, plan.width, &back);
	ok(strcmp(back.user, "alice") == 0 && strcmp(back.workdir,
	    "/home/alice") == 0 && strcmp(back.gpu_type, "a100") == 0 &&
	    strcmp(back.tasks_per_node, "gpu") == 0 &&
	    strcmp(back.account, "") == 0, "the shared strings come back");
	ok(back.uid == 1000 && back.gid == 100 && back.gpus == 8 &&
	    back.time_limit == 31536000 && back.mem == (uint64_t)1 << 40 &&
	    back.flags == 0x401 && back.ckpt_signal == 12 &&
	    back.ckpt_grace == 86400, "the shared numbers come back");
	ok(strcmp(back.name, "train") == 0 && strcmp(back.argv,
	    "[\"--lr\"]") == 0 && strcmp(back.dependency, "afterok:7") == 0 &&
	    strcmp(back.message, "") == 0, "a job's own strings come back");
	is_str(job_own_text(block, plan.width, JF_NAME), "train",
	    "one of them by its field");
	is_int(job_shared_num(s, JF_TIME_LIMIT), 31536000,
	    "a shared number by its field");
	job_shared_put(s);
	free(block);
	is_int(job_shared_count(NULL), 0, "freed with its job");
}

int
main(void)
{
	ask_make();
	test_fields();
	test_blocks();
	test_shared();
	test_ask();
	return (tap_done());
}
