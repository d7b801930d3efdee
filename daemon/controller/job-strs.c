/* job-strs.c: blocks of strings, where each field a job keeps goes, and
 * a job's own block (job-strs.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-strs.h"
#include "daemon/controller/store-row.h"
#include "daemon/controller/store-sql.h"

_Static_assert(JSH_COUNT <= JOB_STRS_MAX && JOB_OWN_COUNT <= JOB_STRS_MAX,
    "more strings kept in a block than a block holds (JOB_STRS_MAX)");

size_t
job_strs_plan(const char *const *src, size_t n, struct job_strs_plan *p)
{
	size_t	k;

	p->text = 0;
	for (k = 0; k < n; k++) {
		p->len[k] = src[k] != NULL ? strlen(src[k]) : 0;
		p->text += p->len[k] + 1;
	}
	/* Every offset is below the text's size. */
	p->width = p->text <= UINT8_MAX + 1 ? 1 :
	    p->text <= UINT16_MAX + 1 ? 2 : 4;
	return (n * p->width + p->text);
}

void
job_strs_fill(char *block, const char *const *src, size_t n,
    const struct job_strs_plan *p)
{
	char		*text = block + n * p->width;
	size_t		 k, off = 0;
	uint32_t	 o32;
	uint16_t	 o16;

	for (k = 0; k < n; k++) {
		switch (p->width) {
		case 1:
			block[k] = (char)(uint8_t)off;
			break;
		case 2:
			o16 = (uint16_t)off;
			memcpy(block + k * sizeof o16, &o16, sizeof o16);
			break;
		default:
			o32 = (uint32_t)off;
			memcpy(block + k * sizeof o32, &o32, sizeof o32);
			break;
		}
		if (p->len[k] > 0)
			memcpy(text + off, src[k], p->len[k]);
		text[off + p->len[k]] = '\0';
		off += p->len[k] + 1;
	}
}

const char *
job_strs_get(const char *block, uint8_t width, size_t n, size_t k)
{
	const char	*text = block + n * width;
	uint32_t	 o32;
	uint16_t	 o16;

	switch (width) {
	case 1:
		return (text + (uint8_t)block[k]);
	case 2:
		memcpy(&o16, block + k * sizeof o16, sizeof o16);
		return (text + o16);
	default:
		memcpy(&o32, block + k * sizeof o32, sizeof o32);
		return (text + o32);
	}
}

/* Each field's place in the block that keeps it (job_strs_slot), and the
 * fields of each block in order: worked out from job_fields once, then
 * only read. Global: a constant in all but name, a table the compiler
 * cannot count for us. */
static struct {
	bool		 done;
	int8_t		 slot[JF_COUNT];
	uint8_t		 shared_str[JSH_COUNT];
	uint8_t		 shared_num[JSH_NUMS];
	uint8_t		 own[JOB_OWN_COUNT];
} job_strs_map;

static bool
job_strs_is_text(enum job_field_kind k)
{
	return (k == JFK_TEXT || k == JFK_TEXT0 || k == JFK_TEXTREF);
}

static void
job_strs_map_make(void)
{
	int	f, ns = 0, nn = 0, no = 0;

	for (f = 0; f < JF_COUNT; f++) {
		job_strs_map.slot[f] = -1;
		if ((job_fields[f].flags & JFF_SHARED) &&
		    job_strs_is_text(job_fields[f].kind)) {
			job_strs_map.shared_str[ns] = (uint8_t)f;
			job_strs_map.slot[f] = (int8_t)ns++;
		} else if (job_fields[f].flags & JFF_SHARED) {
			job_strs_map.shared_num[nn] = (uint8_t)f;
			job_strs_map.slot[f] = (int8_t)nn++;
		} else if (job_fields[f].flags & JFF_OWN) {
			job_strs_map.own[no] = (uint8_t)f;
			job_strs_map.slot[f] = (int8_t)no++;
		}
	}
	job_strs_map.done = true;
}

int
job_strs_slot(enum job_field f)
{
	if (!job_strs_map.done)
		job_strs_map_make();
	return (job_strs_map.slot[f]);
}

/* Where field f is in row r. */
static char *
job_strs_at(const struct store_job *r, int f)
{
	return ((char *)(uintptr_t)r + store_job_offset[f]);
}

/* Field f of r (a number of its kind), widened. */
uint64_t
job_strs_num_of(const struct store_job *r, int f)
{
	const char	*at = job_strs_at(r, f);
	uint64_t	 u64;
	uint32_t	 u32;
	int32_t		 i32;

	switch (job_fields[f].kind) {
	case JFK_U64:
	case JFK_I64:
		memcpy(&u64, at, sizeof u64);
		return (u64);
	case JFK_U32:
		memcpy(&u32, at, sizeof u32);
		return (u32);
	default:
		memcpy(&i32, at, sizeof i32);
		return ((uint64_t)(int64_t)i32);
	}
}

/* Sets field f of r to n, as its kind holds it. */
void
job_strs_num_to(struct store_job *r, int f, uint64_t n)
{
	char		*at = job_strs_at(r, f);
	uint32_t	 u32 = (uint32_t)n;
	int32_t		 i32 = (int32_t)(int64_t)n;

	switch (job_fields[f].kind) {
	case JFK_U64:
	case JFK_I64:
		memcpy(at, &n, sizeof n);
		break;
	case JFK_U32:
		memcpy(at, &u32, sizeof u32);
		break;
	default:
		memcpy(at, &i32, sizeof i32);
		break;
	}
}

const char *
job_strs_str_of(const struct store_job *r, int f)
{
	const char	*s;

	memcpy(&s, job_strs_at(r, f), sizeof s);
	return (s);
}

void
job_strs_str_to(struct store_job *r, int f, const char *s)
{
	memcpy(job_strs_at(r, f), &s, sizeof s);
}

void
job_strs_own_src(const struct store_job *r, const char **src)
{
	int	k;

	if (!job_strs_map.done)
		job_strs_map_make();
	for (k = 0; k < JOB_OWN_COUNT; k++)
		src[k] = job_strs_str_of(r, job_strs_map.own[k]);
}

void
job_strs_own_to_row(const char *block, uint8_t width, struct store_job *r)
{
	int	k;

	for (k = 0; k < JOB_OWN_COUNT; k++)
		job_strs_str_to(r, job_strs_map.own[k], job_strs_get(block,
		    width, JOB_OWN_COUNT, (size_t)k));
}

const char *
job_strs_own_text(const char *block, uint8_t width, enum job_field f)
{
	return (job_strs_get(block, width, JOB_OWN_COUNT,
	    (size_t)job_strs_map.slot[f]));
}

enum job_field
job_strs_field(enum job_strs_kind kind, int k)
{
	if (!job_strs_map.done)
		job_strs_map_make();
	switch (kind) {
	case JOB_STRS_SHARED_STR:
		return ((enum job_field)job_strs_map.shared_str[k]);
	case JOB_STRS_SHARED_NUM:
		return ((enum job_field)job_strs_map.shared_num[k]);
	default:
		return ((enum job_field)job_strs_map.own[k]);
	}
}
