/* job-field-test.c: common/job-field.h's set of fields. Each field is its
 * own member (none shares a bit, whichever word it lands in), jfs_all
 * holds exactly JF_COUNT of them, and union, intersection and difference
 * agree with the fields one by one. */
#include <stdbool.h>
#include <string.h>

#include "common/job-field.h"
#include "tests/unit/tap.h"

/* How many fields s holds, asked one by one. */
static int
t_count(struct job_field_set s)
{
	int	f, n = 0;

	for (f = 0; f < JF_COUNT; f++)
		n += jfs_has(s, f);
	return (n);
}

static void
t_one(void)
{
	struct job_field_set	s;
	int			f, alone = 1, added = 1;

	ok(jfs_empty(jfs_none()) && t_count(jfs_none()) == 0,
	    "none is empty");
	for (f = 0; f < JF_COUNT; f++) {
		s = jfs_one(f);
		if (!jfs_has(s, f) || t_count(s) != 1 || jfs_empty(s))
			alone = 0;
		s = jfs_none();
		jfs_add(&s, f);
		if (!jfs_eq(s, jfs_one(f)))
			added = 0;
	}
	ok(alone, "each field's set holds it and no other");
	ok(added, "adding a field to none makes its set");
	is_int(t_count(jfs_all()), JF_COUNT, "all holds every field");
	ok(!jfs_eq(jfs_all(), jfs_none()), "all is not none");
}

static void
t_ops(void)
{
	struct job_field_set	a = jfs_none(), b = jfs_none(), s;
	int			f, right = 1;

	/* Fields at both ends, so a second word would be covered too. */
	for (f = 0; f < JF_COUNT; f += 3)
		jfs_add(&a, f);
	for (f = 0; f < JF_COUNT; f += 2)
		jfs_add(&b, f);
	jfs_add(&b, JF_COUNT - 1);
	for (f = 0; f < JF_COUNT; f++) {
		if (jfs_has(jfs_or(a, b), f) != (jfs_has(a, f) ||
		    jfs_has(b, f)) ||
		    jfs_has(jfs_and(a, b), f) != (jfs_has(a, f) &&
		    jfs_has(b, f)) ||
		    jfs_has(jfs_minus(a, b), f) != (jfs_has(a, f) &&
		    !jfs_has(b, f)))
			right = 0;
	}
	ok(right, "or, and and minus agree with the fields one by one");
	s = a;
	ok(jfs_eq(s, a) && !jfs_eq(a, b), "equal sets are equal, others not");
	ok(jfs_empty(jfs_minus(a, a)), "a set minus itself is empty");
	ok(jfs_eq(jfs_and(a, jfs_all()), a) && jfs_eq(jfs_or(a, jfs_none()),
	    a), "all and none leave a set as it is");
	ok(jfs_eq(jfs_or(jfs_minus(jfs_all(), a), a), jfs_all()),
	    "a set and the rest make all");
}

static void
t_tables(void)
{
	struct job_field_set	wire = job_field_wire_set();
	int			f, right = 1;

	for (f = 0; f < JF_COUNT; f++) {
		if (jfs_has(wire, f) != (job_fields[f].wire != NULL))
			right = 0;
		if (jfs_has(job_field_private_set(), f) !=
		    ((job_fields[f].flags & JFF_PRIVATE) != 0))
			right = 0;
	}
	ok(right, "the wire and private sets are the fields the table marks");
	ok(jfs_eq(job_field_wire_set(), wire), "the wire set is the same "
	    "when asked again");
	ok(jfs_empty(jfs_minus(job_field_private_set(), wire)),
	    "every private field is one that is sent");
}

int
main(void)
{
	t_one();
	t_ops();
	t_tables();
	return (tap_done());
}
