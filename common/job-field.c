/* job-field.c: the table job-field.h describes. */
#include <string.h>

#include "common/job-field.h"

#define JOB_FIELD_DESC_COL(e, m, t, c, w, k, f) \
	[JF_##e] = { c, w, k, f },
#define JOB_FIELD_DESC_WIRE(e, w) \
	[JF_##e] = { NULL, w, JFK_DERIVED, 0 },
const struct job_field_desc job_fields[JF_COUNT] = {
	JOB_FIELDS(JOB_FIELD_DESC_COL, JOB_FIELD_DESC_WIRE)
};

/* A mask holds every field. */
_Static_assert(JF_COUNT <= 64, "enum job_field outgrew a uint64_t mask");

uint64_t
job_field_wire_mask(void)
{
	static uint64_t	m;
	int		f;

	/* Asked once per record sent: worked out once. */
	if (m != 0)
		return (m);
	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].wire != NULL)
			m |= JOB_FIELD_BIT(f);
	}
	return (m);
}

uint64_t
job_field_private_mask(void)
{
	uint64_t	m = 0;
	int		f;

	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].flags & JFF_PRIVATE)
			m |= JOB_FIELD_BIT(f);
	}
	return (m);
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
