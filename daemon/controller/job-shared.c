/* job-shared.c: the blocks jobs share, interned and counted
 * (job-shared.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-shared.h"
#include "daemon/controller/job-strs.h"

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

_Static_assert(sizeof(struct job_ask) == JSH_NUMS * sizeof(uint64_t),
    "struct job_ask has padding");

/* FNV-1a over the numbers' bytes, then each string and the NUL after it. */
static uint32_t
job_shared_hash_of(const char *const *src, const struct job_ask *ask)
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
job_shared_equal(const struct job_shared *s, const char *const *src,
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
job_shared_grow(struct job_shared_tab *t)
{
	struct job_shared	**old = t->hash, *s, *next;
	size_t			  oldsize = t->size, i, b;

	t->size = oldsize == 0 ? 64 : oldsize * 2;
	t->hash = xcalloc(t->size,
	    sizeof *t->hash);
	for (i = 0; i < oldsize; i++) {
		for (s = old[i]; s != NULL; s = next) {
			next = s->next;
			b = s->hash & (t->size - 1);
			s->next = t->hash[b];
			t->hash[b] = s;
		}
	}
	free(old);
}

const struct job_shared *
job_shared_get(struct job_shared_tab *t, const char *const *src,
    const struct job_ask *ask)
{
	struct job_shared	*s;
	struct job_strs_plan	 plan;
	uint32_t		 h = job_shared_hash_of(src, ask);
	size_t			 size, b;

	if (t->size > 0) {
		b = h & (t->size - 1);
		for (s = t->hash[b]; s != NULL; s = s->next) {
			if (s->hash == h && job_shared_equal(s, src, ask)) {
				s->refs++;
				t->refs++;
				return (s);
			}
		}
	}
	if (t->count + 1 > t->size)
		job_shared_grow(t);
	size = job_strs_plan(src, JSH_COUNT, &plan);
	s = xmalloc(offsetof(struct job_shared, block) + size);
	job_strs_fill(s->block, src, JSH_COUNT, &plan);
	s->ask = *ask;
	s->width = plan.width;
	s->hash = h;
	s->refs = 1;
	b = h & (t->size - 1);
	s->next = t->hash[b];
	t->hash[b] = s;
	t->count++;
	t->refs++;
	return (s);
}

void
job_shared_put(struct job_shared_tab *t, const struct job_shared *cs)
{
	struct job_shared	**p, *s;

	if (cs == NULL)
		return;
	/* Found in its chain, not cast: the block is the hash's. */
	p = &t->hash[cs->hash & (t->size - 1)];
	while (*p != cs)
		p = &(*p)->next;
	s = *p;
	t->refs--;
	if (--s->refs > 0)
		return;
	*p = s->next;
	free(s);
	if (--t->count == 0) {
		free(t->hash);
		t->hash = NULL;
		t->size = 0;
	}
}

const char *
job_shared_str(const struct job_shared *s, int k)
{
	return (job_strs_get(s->block, s->width, JSH_COUNT, (size_t)k));
}

const struct job_shared *
job_shared_get_row(struct job_shared_tab *t, const struct store_job *r)
{
	const char	*src[JSH_COUNT];
	struct job_ask	 ask;
	int		 k;

	for (k = 0; k < JSH_COUNT; k++)
		src[k] = job_strs_str_of(r,
		    job_strs_field(JOB_STRS_SHARED_STR, k));
	for (k = 0; k < JSH_NUMS; k++)
		ask.n[k] = job_strs_num_of(r,
		    job_strs_field(JOB_STRS_SHARED_NUM, k));
	return (job_shared_get(t, src, &ask));
}

const char *
job_shared_text(const struct job_shared *s, enum job_field f)
{
	return (job_shared_str(s, job_strs_slot(f)));
}

uint64_t
job_shared_num(const struct job_shared *s, enum job_field f)
{
	return (s->ask.n[job_strs_slot(f)]);
}

void
job_shared_to_row(const struct job_shared *s, struct store_job *r)
{
	int	k;

	for (k = 0; k < JSH_COUNT; k++)
		job_strs_str_to(r, job_strs_field(JOB_STRS_SHARED_STR, k),
		    job_shared_str(s, k));
	for (k = 0; k < JSH_NUMS; k++)
		job_strs_num_to(r, job_strs_field(JOB_STRS_SHARED_NUM, k),
		    s->ask.n[k]);
}

const struct job_ask *
job_shared_ask(const struct job_shared *s)
{
	return (&s->ask);
}

size_t
job_shared_count(const struct job_shared_tab *t, size_t *refs)
{
	if (refs != NULL)
		*refs = t->refs;
	return (t->count);
}
