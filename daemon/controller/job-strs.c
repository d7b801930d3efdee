/* job-strs.c: blocks of strings, and the blocks jobs share (job-strs.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-strs.h"
#include "daemon/controller/store-row.h"
#include "daemon/controller/store-sql.h"

_Static_assert(JSH_COUNT <= STRS_MAX && JOB_OWN_COUNT <= STRS_MAX,
    "more strings kept in a block than a block holds (STRS_MAX)");

size_t
strs_plan(const char *const *src, size_t n, struct strs_plan *p)
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
strs_fill(char *block, const char *const *src, size_t n,
    const struct strs_plan *p)
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
strs_get(const char *block, uint8_t width, size_t n, size_t k)
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

/* A shared block: in a hash of them by its strings and numbers, chained;
 * freed when no job counts in it. */
struct job_shared {
	struct job_shared	*next;
	uint32_t		 hash;
	uint32_t		 refs;
	struct job_ask		 ask;
	uint8_t			 width;
	char			 block[];
};

static struct job_shared	**shared_hash;
static size_t			  shared_size;	/* buckets, a power of two */
static size_t			  shared_count, shared_refs;

_Static_assert(sizeof(struct job_ask) == JSH_NUMS * sizeof(uint64_t),
    "struct job_ask has padding");

/* Each field's place in the block that keeps it (job_strs_slot), and the
 * fields of each block in order: worked out from job_fields once, then
 * only read (a table the compiler cannot count for us). */
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
static uint64_t
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
static void
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

static const char *
job_strs_str_of(const struct store_job *r, int f)
{
	const char	*s;

	memcpy(&s, job_strs_at(r, f), sizeof s);
	return (s);
}

static void
job_strs_str_to(struct store_job *r, int f, const char *s)
{
	memcpy(job_strs_at(r, f), &s, sizeof s);
}

/* FNV-1a over the numbers' bytes, then each string and the NUL after it. */
static uint32_t
shared_hash_of(const char *const *src, const struct job_ask *ask)
{
	uint32_t	 h = 2166136261u;
	const uint8_t	*b = (const uint8_t *)ask;
	const char	*s;
	size_t		 k;

	for (k = 0; k < sizeof *ask; k++)
		h = (h ^ b[k]) * 16777619u;
	for (k = 0; k < JSH_COUNT; k++) {
		for (s = src[k] != NULL ? src[k] : ""; *s != '\0'; s++)
			h = (h ^ (uint8_t)*s) * 16777619u;
		h *= 16777619u;
	}
	return (h);
}

static bool
shared_equal(const struct job_shared *s, const char *const *src,
    const struct job_ask *ask)
{
	size_t	k;

	if (memcmp(&s->ask, ask, sizeof *ask) != 0)
		return (false);
	for (k = 0; k < JSH_COUNT; k++) {
		if (strcmp(job_shared_str(s, k), src[k] != NULL ? src[k] : "")
		    != 0)
			return (false);
	}
	return (true);
}

static void
shared_grow(void)
{
	struct job_shared	**old = shared_hash, *s, *next;
	size_t			  oldsize = shared_size, i, b;

	shared_size = oldsize == 0 ? 64 : oldsize * 2;
	shared_hash = xcalloc(shared_size, sizeof *shared_hash);
	for (i = 0; i < oldsize; i++) {
		for (s = old[i]; s != NULL; s = next) {
			next = s->next;
			b = s->hash & (shared_size - 1);
			s->next = shared_hash[b];
			shared_hash[b] = s;
		}
	}
	free(old);
}

const struct job_shared *
job_shared_get(const char *const *src, const struct job_ask *ask)
{
	struct job_shared	*s;
	struct strs_plan	 plan;
	uint32_t		 h = shared_hash_of(src, ask);
	size_t			 size, b;

	if (shared_size > 0) {
		for (s = shared_hash[h & (shared_size - 1)]; s != NULL;
		    s = s->next) {
			if (s->hash == h && shared_equal(s, src, ask)) {
				s->refs++;
				shared_refs++;
				return (s);
			}
		}
	}
	if (shared_count + 1 > shared_size)
		shared_grow();
	size = strs_plan(src, JSH_COUNT, &plan);
	s = xmalloc(offsetof(struct job_shared, block) + size);
	strs_fill(s->block, src, JSH_COUNT, &plan);
	s->ask = *ask;
	s->width = plan.width;
	s->hash = h;
	s->refs = 1;
	b = h & (shared_size - 1);
	s->next = shared_hash[b];
	shared_hash[b] = s;
	shared_count++;
	shared_refs++;
	return (s);
}

void
job_shared_put(const struct job_shared *cs)
{
	struct job_shared	**p, *s;

	if (cs == NULL)
		return;
	/* Found in its chain, not cast: the block is the hash's. */
	for (p = &shared_hash[cs->hash & (shared_size - 1)]; *p != cs;
	    p = &(*p)->next)
		;
	s = *p;
	shared_refs--;
	if (--s->refs > 0)
		return;
	*p = s->next;
	free(s);
	if (--shared_count == 0) {
		free(shared_hash);
		shared_hash = NULL;
		shared_size = 0;
	}
}

const char *
job_shared_str(const struct job_shared *s, int k)
{
	return (strs_get(s->block, s->width, JSH_COUNT, (size_t)k));
}

const struct job_shared *
job_shared_get_row(const struct store_job *r)
{
	const char	*src[JSH_COUNT];
	struct job_ask	 ask;
	int		 k;

	if (!job_strs_map.done)
		job_strs_map_make();
	for (k = 0; k < JSH_COUNT; k++)
		src[k] = job_strs_str_of(r, job_strs_map.shared_str[k]);
	for (k = 0; k < JSH_NUMS; k++)
		ask.n[k] = job_strs_num_of(r, job_strs_map.shared_num[k]);
	return (job_shared_get(src, &ask));
}

const char *
job_shared_text(const struct job_shared *s, enum job_field f)
{
	return (job_shared_str(s, job_strs_map.slot[f]));
}

uint64_t
job_shared_num(const struct job_shared *s, enum job_field f)
{
	return (s->ask.n[job_strs_map.slot[f]]);
}

void
job_shared_to_row(const struct job_shared *s, struct store_job *r)
{
	int	k;

	for (k = 0; k < JSH_COUNT; k++)
		job_strs_str_to(r, job_strs_map.shared_str[k],
		    job_shared_str(s, k));
	for (k = 0; k < JSH_NUMS; k++)
		job_strs_num_to(r, job_strs_map.shared_num[k], s->ask.n[k]);
}

void
job_own_src(const struct store_job *r, const char **src)
{
	int	k;

	if (!job_strs_map.done)
		job_strs_map_make();
	for (k = 0; k < JOB_OWN_COUNT; k++)
		src[k] = job_strs_str_of(r, job_strs_map.own[k]);
}

void
job_own_to_row(const char *block, uint8_t width, struct store_job *r)
{
	int	k;

	for (k = 0; k < JOB_OWN_COUNT; k++)
		job_strs_str_to(r, job_strs_map.own[k], strs_get(block, width,
		    JOB_OWN_COUNT, (size_t)k));
}

const char *
job_own_text(const char *block, uint8_t width, enum job_field f)
{
	return (strs_get(block, width, JOB_OWN_COUNT,
	    (size_t)job_strs_map.slot[f]));
}

const struct job_ask *
job_shared_ask(const struct job_shared *s)
{
	return (&s->ask);
}

size_t
job_shared_count(size_t *refs)
{
	if (refs != NULL)
		*refs = shared_refs;
	return (shared_count);
}
