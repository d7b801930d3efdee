/* job-strs-test.c: blocks of strings. A block reads back every string it
 * was made of, with offsets of 8 bits up to 256 bytes of text, 16 bits up
 * to 65,536 and 32 bits past that. What goes in a job's blocks (its own,
 * and the shared one: job-shared-test.c) is what common/job-field.h
 * flags, and a row's fields come back from them as they went in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/job-shared.h"
#include "daemon/controller/job-strs.h"
#include "daemon/controller/store-row.h"
#include "tests/unit/tap.h"

/* The blocks these tests make, as the job table holds them. */
static struct job_shared_tab	tab;

/* Makes a block of n strings, checks each reads back, returns its width. */
static int
roundtrip(const char *const *src, size_t n, const char *what)
{
	struct job_strs_plan	 plan;
	size_t			 size = job_strs_plan(src, n, &plan), k;
	char			*block = malloc(size);
	int			 bad = 0;

	memset(block, 0x55, size);
	job_strs_fill(block, src, n, &plan);
	for (k = 0; k < n; k++) {
		if (strcmp(job_strs_get(block, plan.width, n, k),
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
	const char	*src[JOB_STRS_MAX];
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
test_fields(void)
{
	const struct job_shared	*s;
	struct store_job	 r, back;
	struct job_strs_plan	 plan;
	const char		*src[JOB_OWN_COUNT];
	char			*block;
	int			 f, placed = 1;

	for (f = 0; f < JF_COUNT; f++) {
		if ((job_strs_slot(f) >= 0) != ((job_fields[f].flags &
		    (JFF_SHARED | JFF_OWN)) != 0))
			placed = 0;
	}
	ok(placed, "every field job-field.h keeps in memory has a place");
	ok(JSH_COUNT == 13 && JSH_NUMS == 16 && JOB_OWN_COUNT == 6,
	    "13 shared strings, 16 shared numbers, 6 of a job's own");

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
	s = job_shared_get_row(&tab, &r);
	job_strs_own_src(&r, src);
	block = malloc(job_strs_plan(src, JOB_OWN_COUNT, &plan));
	job_strs_fill(block, src, JOB_OWN_COUNT, &plan);
	memset(&back, 0, sizeof back);
	job_shared_to_row(s, &back);
	job_strs_own_to_row(block, plan.width, &back);
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
	is_str(job_strs_own_text(block, plan.width, JF_NAME), "train",
	    "one of them by its field");
	is_int(job_shared_num(s, JF_TIME_LIMIT), 31536000,
	    "a shared number by its field");
	job_shared_put(&tab, s);
	free(block);
	is_int(job_shared_count(&tab, NULL), 0, "freed with its job");
}

int
main(void)
{
	test_fields();
	test_blocks();
	return (tap_done());
}
