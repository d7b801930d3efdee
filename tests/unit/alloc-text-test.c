/* alloc-text-test.c: common/alloc-text.c reads "n1:0x3,n2:0xc" part by
 * part, refuses malformed parts, and counts a mask's GPUs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc-text.h"
#include "tests/unit/tap.h"

static int
t_bad(const char *text)
{
	struct alloc_part	 a;
	const char		*pos = text;
	int			 r;

	while ((r = alloc_text_next(&pos, &a)) == 1)
		;
	return (r == -1);
}

int
main(void)
{
	struct alloc_part	 a;
	const char		*pos = "n1:0x3,rack-2.n10:0xf0,n3:1";
	char			*text;

	is_int(alloc_text_next(&pos, &a), 1, "first part");
	ok(a.node_len == 2 && memcmp(a.node, "n1", 2) == 0, "its node");
	is_int(a.mask, 0x3, "its mask");
	is_int(alloc_text_next(&pos, &a), 1, "second part");
	ok(a.node_len == 10 && memcmp(a.node, "rack-2.n10", 10) == 0,
	    "a dotted name, cut at the colon");
	is_int(a.mask, 0xf0, "mask 0xf0");
	is_int(alloc_text_next(&pos, &a), 1, "a mask without 0x");
	is_int(a.mask, 1, "mask 1");
	is_int(alloc_text_next(&pos, &a), 0, "then the end");
	is_int(alloc_text_next(&pos, &a), 0, "and it stays at the end");

	pos = "n1:0xffffffffffffffff";
	is_int(alloc_text_next(&pos, &a), 1, "64 GPUs");
	is_int(alloc_text_gpus(a.mask), 64, "counted");
	is_int(alloc_text_gpus(0x30c), 4, "popcount of 0x30c");
	pos = "";
	is_int(alloc_text_next(&pos, &a), 0, "empty text: no part");

	ok(t_bad("n1"), "no colon");
	ok(t_bad(":0x3"), "no name");
	ok(t_bad("n1:"), "no mask");
	ok(t_bad("n1:0x"), "0x alone");
	ok(!t_bad("n1:0x0"), "mask 0: a CPU job's part");
	ok(t_bad("n1:0xg"), "not hexadecimal");
	ok(t_bad("n1:0x3,"), "a trailing comma is an empty part");
	ok(t_bad("n1:0x3,,n2:0x1"), "an empty part");
	ok(t_bad("n1:0x1ffffffffffffffff"), "wider than 64 bits");
	ok(!t_bad("n1:0x0000000000000000001"), "leading zeros are fine");

	/* The writer: each part appended reads back as it was written. */
	text = NULL;
	alloc_text_append(&text, "n1", 0x3);
	is_str(text, "n1:0x3", "one part");
	alloc_text_append(&text, "rack-2.n10", UINT64_C(0xffffffffffffffff));
	is_str(text, "n1:0x3,rack-2.n10:0xffffffffffffffff",
	    "a second part after a comma, the mask in lower case");
	pos = text;
	is_int(alloc_text_next(&pos, &a), 1, "the text written reads back");
	ok(a.node_len == 2 && memcmp(a.node, "n1", 2) == 0 && a.mask == 3,
	    "its first part");
	is_int(alloc_text_next(&pos, &a), 1, "and its second");
	ok(a.node_len == 10 && a.mask == UINT64_C(0xffffffffffffffff),
	    "as written");
	is_int(alloc_text_next(&pos, &a), 0, "then the end");
	free(text);

	/* Shards of a GPU: "*N/S" after its mask. */
	pos = "n1:0x4*2/4,n2:0x1";
	is_int(alloc_text_next(&pos, &a), 1, "a part of shards");
	ok(a.node_len == 2 && a.mask == 4 && a.share == 2 && a.shards == 4,
	    "its node, GPU and 2 of 4 shards");
	is_int(alloc_text_part_milli(&a), 500, "half a GPU: 500 thousandths");
	is_int(alloc_text_part_gpu_s(&a, 101), 51, "101 s of it: 50.5 GPU-s, "
	    "rounded");
	is_int(alloc_text_part_milli_s(&a, 101), 50500, "50,500 thousandths");
	is_int(alloc_text_next(&pos, &a), 1, "then a whole GPU");
	ok(a.share == 0 && a.shards == 0, "with no shards");
	is_int(alloc_text_part_milli(&a), 1000, "a whole GPU: 1000");
	is_int(alloc_text_share_milli(1, 1, 3), 333, "a third: 333");
	is_int(alloc_text_share_milli(1, 2, 3), 667, "two thirds: 667");
	is_int(alloc_text_share_milli(1, 1, 64), 16, "a 64th: 16");
	is_int(alloc_text_share_milli(2, 0, 4), 2000, "no share: the GPUs");
	is_int(alloc_text_share_milli(1, 4, 4), 1000, "every shard: the GPU");
	is_int(alloc_text_milli_s("n1:0x1*1/3,n2:0x3", 9, 30), 10000 + 60000,
	    "a text: a third of a GPU and two GPUs for 30 s");
	is_int(alloc_text_milli_s("", 3, 30), 90000, "none: the GPUs given");
	is_int(alloc_text_milli_s("n1:0x1*5/4", 3, 30), 90000,
	    "malformed: the GPUs given");
	ok(t_bad("n1:0x3*1/2"), "shards of two GPUs");
	ok(t_bad("n1:0x1*0/2"), "no shard");
	ok(t_bad("n1:0x1*3/2"), "more than the GPU's");
	ok(t_bad("n1:0x1*1/65"), "past 64 shards");
	ok(t_bad("n1:0x1*1"), "no count of shards");
	ok(t_bad("n1:0x1*1/2x"), "trailing junk");
	ok(t_bad("n1:0x1*/2"), "no share");
	ok(t_bad("n1:0x1*01/2"), "a leading zero");
	ok(!t_bad("n1:0x1*2/2"), "all of them: read as the whole GPU");
	text = NULL;
	alloc_text_append_share(&text, "n1", 0x2, 1, 4);
	alloc_text_append_share(&text, "n2", 0x1, 4, 4);
	alloc_text_append_share(&text, "n3", 0x1, 0, 4);
	is_str(text, "n1:0x2*1/4,n2:0x1,n3:0x1", "written: a share, and a "
	    "whole GPU twice (every shard, no share) as such");
	free(text);
	return (tap_done());
}
