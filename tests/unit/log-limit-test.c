/* log-limit-test.c: once per cause and interval (common/log-limit.c). */
#include <string.h>

#include "common/log-limit.h"
#include "tests/unit/tap.h"

int
main(void)
{
	struct log_limit	l;
	unsigned		held = 99, n = 0;
	int64_t			t;

	memset(&l, 0, sizeof l);
	ok(log_limit_pass(&l, "over the limit", 100, 10, &held) && held == 0,
	    "the first is logged, none held");
	for (t = 100; t < 110; t++)
		n += log_limit_pass(&l, "over the limit", t, 10, &held);
	is_int(n, 0, "the same cause within 10 s: held back");
	ok(log_limit_pass(&l, "over the limit", 110, 10, &held),
	    "logged again once 10 s have passed");
	is_int(held, 10, "saying 10 were held back");
	ok(log_limit_pass(&l, "bad certificate", 111, 10, &held) && held == 0,
	    "another cause is logged at once");
	ok(log_limit_pass(&l, "over the limit", 112, 10, &held),
	    "and the first again, as its cause changed");
	ok(!log_limit_pass(&l, "over the limit", 113, 10, &held),
	    "then held back");
	ok(log_limit_pass(&l, "over the limit", 50, 10, &held) && held == 1,
	    "a clock set back logs, not holds forever");
	ok(log_limit_pass(&l, NULL, 50, 10, &held), "NULL is a cause of its own");
	ok(!log_limit_pass(&l, NULL, 51, 10, &held), "held like any");
	return (tap_done());
}
