/* job-field.c: the table job-field.h describes. */
#include <limits.h>
#include <string.h>

#include "common/job-field.h"

#define JOB_FIELD_DESC_COL(e, m, t, c, w, k, f) \
	[JF_##e] = { c, w, k, f },
#define JOB_FIELD_DESC_WIRE(e, w) \
	[JF_##e] = { NULL, w, JFK_DERIVED, 0 },
const struct job_field_desc job_fields[JF_COUNT] = {
	JOB_FIELDS(JOB_FIELD_DESC_COL, JOB_FIELD_DESC_WIRE)
};

/* A set holds every field (JFS_WORDS is worked out from JF_COUNT; this
 * catches a hand-written size). */
_Static_assert(sizeof(((struct job_field_set *)0)->w) * CHAR_BIT >= JF_COUNT,
    "struct job_field_set holds fewer bits than enum job_field has fields");

struct job_field_set
job_field_wire_set(void)
{
	static struct job_field_set	s;
	static bool			done;
	int				f;

	/* Asked once per record sent: worked out once. */
	if (done)
		return (s);
	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].wire != NULL)
			jfs_add(&s, f);
	}
	done = true;
	return (s);
}

struct job_field_set
job_field_private_set(void)
{
	struct job_field_set	s = jfs_none();
	int			f;

	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].flags & JFF_PRIVATE)
			jfs_add(&s, f);
	}
	return (s);
}

int
job_field_by_wire(const char *name, size_t len)
{
	const char	*w;
	int		 f;

	if (len == 0)
		return (-1);
	for (f = 0; f < JF_COUNT; f++) {
		w = job_fields[f].wire;
		if (w != NULL && w[0] == name[0] && strlen(w) == len &&
		    memcmp(w, name, len) == 0)
			return (f);
	}
	return (-1);
}
