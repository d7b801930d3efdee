/* log-limit-test.c: once per cause and interval (common/log-limit.c). */
#include <string.h>

#include "common/log-limit.h"
#include "tests/unit/tap.h"

int
main(void)
{
	struct log_limit	l;
	char			note[LOG_LIMIT_NOTE] = "x";
	unsigned		n = 0;
	int64_t			t;

	memset(&l, 0, sizeof l);
	ok(log_limit_pass(&l, "over the limit", 100, 10, note) && note[0] == '\0',
	    "the first is logged, none held");
	for (t = 100; t < 110; t++)
		n += log_limit_pass(&l, "over the limit", t, 10, note);
	is_int(n, 0, "the same cause within 10 s: held back");
	ok(log_limit_pass(&l, "over the limit", 110, 10, note),
	    "logged again once 10 s have passed");
	is_str(note, " (and 10 more since it was last logged)",
	    "saying 10 were held back");
	ok(log_limit_pass(&l, "bad certificate", 111, 10, note) && note[0] == '\0',
	    "another cause is logged at once");
	ok(log_limit_pass(&l, "over the limit", 112, 10, note),
	    "and the first again, as its cause changed");
	ok(!log_limit_pass(&l, "over the limit", 113, 10, note),
	    "then held back");
	ok(log_limit_pass(&l, "over the limit", 50, 10, note) &&
	    strcmp(note, " (and 1 more since it was last logged)") == 0,
	    "a clock set back logs, not holds forever");
	ok(log_limit_pass(&l, NULL, 50, 10, note), "NULL is a cause of its own");
	ok(!log_limit_pass(&l, NULL, 51, 10, note), "held like any");
	return (tap_done());
}
