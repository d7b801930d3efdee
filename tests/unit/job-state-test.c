/* job-state-test.c: state names and the legal transitions of DESIGN.md's
 * "Job life" (common/job-state.c). */
#include <stdbool.h>
#include <string.h>

#include "common/job-state.h"
#include "tests/unit/tap.h"

/* Written out from DESIGN.md rather than derived from the code: a change to
 * the rules must change this table too. HELD -> CANCELLED is not drawn in
 * DESIGN.md but gcancel must be able to cancel a held job. */
static const struct {
	enum job_state	from, to;
} t_legal[] = {
	{ JOB_PENDING, JOB_RUNNING },
	{ JOB_PENDING, JOB_HELD },
	{ JOB_PENDING, JOB_CANCELLED },
	{ JOB_HELD, JOB_PENDING },
	{ JOB_HELD, JOB_CANCELLED },
	{ JOB_RUNNING, JOB_COMPLETED },
	{ JOB_RUNNING, JOB_FAILED },
	{ JOB_RUNNING, JOB_TIMEOUT },
	{ JOB_RUNNING, JOB_CANCELLED },
	{ JOB_RUNNING, JOB_NODE_FAIL },
	{ JOB_RUNNING, JOB_OUT_OF_MEMORY },
	{ JOB_RUNNING, JOB_PREEMPTING },
	{ JOB_RUNNING, JOB_PENDING },
	{ JOB_PREEMPTING, JOB_PENDING },
	{ JOB_PREEMPTING, JOB_COMPLETED },
	{ JOB_PREEMPTING, JOB_FAILED },
	{ JOB_PREEMPTING, JOB_TIMEOUT },
	{ JOB_PREEMPTING, JOB_CANCELLED },
	{ JOB_PREEMPTING, JOB_NODE_FAIL },
	{ JOB_PREEMPTING, JOB_OUT_OF_MEMORY },
	{ JOB_RUNNING, JOB_SUSPENDED },
	{ JOB_SUSPENDED, JOB_RUNNING },
	{ JOB_SUSPENDED, JOB_PREEMPTING },
	{ JOB_SUSPENDED, JOB_PENDING },
	{ JOB_SUSPENDED, JOB_COMPLETED },
	{ JOB_SUSPENDED, JOB_FAILED },
	{ JOB_SUSPENDED, JOB_TIMEOUT },
	{ JOB_SUSPENDED, JOB_CANCELLED },
	{ JOB_SUSPENDED, JOB_NODE_FAIL },
	{ JOB_SUSPENDED, JOB_OUT_OF_MEMORY },
};

static bool
t_is_legal(enum job_state from, enum job_state to)
{
	size_t	i;

	for (i = 0; i < sizeof t_legal / sizeof *t_legal; i++) {
		if (t_legal[i].from == from && t_legal[i].to == to)
			return (true);
	}
	return (false);
}

int
main(void)
{
	static const char	*names[JOB_STATE_COUNT] = {
		"PENDING", "HELD", "RUNNING", "PREEMPTING", "SUSPENDED",
		"COMPLETED",
		"FAILED", "TIMEOUT", "CANCELLED", "NODE_FAIL", "OUT_OF_MEMORY",
	};
	static const char	*shorts[JOB_STATE_COUNT] = {
		"PD", "H", "R", "PR", "S", "CD", "F", "TO", "CA", "NF", "OOM",
	};
	enum job_state		 s, from, to;
	char			 lower[32];
	size_t			 i;
	int			 bad;

	for (s = JOB_PENDING; s < JOB_STATE_COUNT; s++) {
		is_str(job_state_name(s), names[s], "state %d is named %s",
		    (int)s, names[s]);
		is_str(job_state_short(s), shorts[s], "%s is short %s",
		    names[s], shorts[s]);
	}
	is_str(job_state_name((enum job_state)JOB_STATE_COUNT), "UNKNOWN",
	    "an out-of-range state has a name");
	is_str(job_state_short((enum job_state)-1), "?",
	    "a negative state has a short form");

	/* Names and short forms read back, in any case. */
	bad = 0;
	for (s = JOB_PENDING; s < JOB_STATE_COUNT; s++) {
		if (job_state_parse(job_state_name(s), &to) != 0 || to != s)
			bad++;
		if (job_state_parse(job_state_short(s), &to) != 0 || to != s)
			bad++;
		for (i = 0; names[s][i] != '\0' && i < sizeof lower - 1; i++)
			lower[i] = (char)(names[s][i] | 0x20);
		lower[i] = '\0';
		if (strcmp(names[s], "NODE_FAIL") == 0)
			strcpy(lower, "node_fail");
		if (strcmp(names[s], "OUT_OF_MEMORY") == 0)
			strcpy(lower, "out_of_memory");
		if (job_state_parse(lower, &to) != 0 || to != s)
			bad++;
	}
	is_int(bad, 0, "every name, short form and lower-case name parses back");
	bad = 0;
	for (s = JOB_PENDING; s < JOB_STATE_COUNT; s++)
		bad += job_state_on_node(s) != (s == JOB_RUNNING ||
		    s == JOB_PREEMPTING || s == JOB_SUSPENDED);
	is_int(bad, 0, "RUNNING, PREEMPTING and SUSPENDED alone are on nodes");
	ok(job_state_parse("pd", &to) == 0 && to == JOB_PENDING, "\"pd\" is PENDING");
	ok(job_state_parse("Running", &to) == 0 && to == JOB_RUNNING,
	    "\"Running\" is RUNNING");
	to = JOB_HELD;
	ok(job_state_parse("RUN", &to) == -1 && to == JOB_HELD,
	    "\"RUN\" is refused and leaves the output alone");
	ok(job_state_parse("", &to) == -1, "\"\" is refused");
	ok(job_state_parse("PENDING ", &to) == -1, "trailing space is refused");
	ok(job_state_parse("CANCELED", &to) == -1, "\"CANCELED\" (US spelling) is refused");

	for (s = JOB_PENDING; s < JOB_STATE_COUNT; s++) {
		bool	want = s == JOB_COMPLETED || s == JOB_FAILED ||
		    s == JOB_TIMEOUT || s == JOB_CANCELLED || s == JOB_NODE_FAIL ||
		    s == JOB_OUT_OF_MEMORY;

		ok(job_state_is_terminal(s) == want, "%s is %sterminal",
		    names[s], want ? "" : "not ");
	}

	/* Every pair, against the table. */
	for (from = JOB_PENDING; from < JOB_STATE_COUNT; from++) {
		for (to = JOB_PENDING; to < JOB_STATE_COUNT; to++) {
			bool	want = t_is_legal(from, to);

			ok(job_state_is_legal(from, to) == want, "%s -> %s is %s",
			    names[from], names[to], want ? "legal" : "illegal");
		}
	}
	return (tap_done());
}
