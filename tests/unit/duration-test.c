/* duration-test.c: time limits as users write them (common/duration.c). */
#include <stdint.h>
#include <string.h>

#include "common/duration.h"
#include "tests/unit/tap.h"

/* A time limit's most (common/job-req.h's): 365 days. */
#define T_MAX	(365ULL * 86400)

static void
t_accept(const char *in, uint64_t want)
{
	uint64_t	secs = 12345;
	char		err[256] = "";
	int		r;

	r = duration_parse(in, T_MAX, &secs, err, sizeof err);
	if (!ok(r == 0 && secs == want, "\"%s\" is %llu s", in,
	    (unsigned long long)want))
		printf("#   returned %d, secs %llu, err \"%s\"\n", r,
		    (unsigned long long)secs, err);
}

static void
t_reject(const char *in, const char *errpart)
{
	uint64_t	secs = 12345;
	char		err[256] = "";
	int		r;

	r = duration_parse(in, T_MAX, &secs, err, sizeof err);
	if (!ok(r == -1 && secs == 12345 && strstr(err, errpart) != NULL,
	    "\"%s\" is refused", in))
		printf("#   returned %d, secs %llu, err \"%s\"\n", r,
		    (unsigned long long)secs, err);
}

static void
t_format(uint64_t secs, const char *want)
{
	char	buf[64];

	is_str(duration_format(secs, buf, sizeof buf), want, "%llu s prints as %s",
	    (unsigned long long)secs, want);
}

/* Another most: a day (gsub --ckpt-grace's). */
static void
t_most(void)
{
	uint64_t	secs = 0;
	char		err[256];

	ok(duration_parse("1-0", 86400, &secs, err, sizeof err) == 0 &&
	    secs == 86400, "a day is taken when a day is the most");
	ok(duration_parse("1-0:0:1", 86400, &secs, err, sizeof err) == -1 &&
	    strstr(err, "longer than 1 day, the most accepted") != NULL,
	    "a second more is refused, saying the most");
	ok(duration_parse("2-0", 86400, &secs, err, sizeof err) == -1 &&
	    strstr(err, "days: expected 0-1, got 2") != NULL,
	    "and days beyond it are out of their range");
}

int
main(void)
{
	char		 buf[4], big[64];
	uint64_t	 secs;
	const char	*forms = "expected minutes, minutes:seconds";

	/* Every form Slurm users write. */
	t_accept("1", 60);
	t_accept("90", 5400);
	t_accept("007", 420);
	t_accept("1:30", 90);
	t_accept("0:59", 59);
	t_accept("2:03:04", 2 * 3600 + 3 * 60 + 4);
	t_accept("25:00:00", 25 * 3600);
	t_accept("1-0", 86400);
	t_accept("1-2", 86400 + 2 * 3600);
	t_accept("1-2:30", 86400 + 2 * 3600 + 30 * 60);
	t_accept("2-03:04:05", 2 * 86400 + 3 * 3600 + 4 * 60 + 5);
	t_accept("365-0", 365ULL * 86400);
	t_accept("525600", 365ULL * 86400);

	/* No limit. */
	t_accept("0", 0);
	t_accept("0:0", 0);
	t_accept("UNLIMITED", 0);
	t_accept("unlimited", 0);
	t_accept("INFINITE", 0);
	t_accept("Infinite", 0);

	/* Everything else, with an error naming the input and the forms. */
	t_reject("", forms);
	t_reject("abc", "got \"abc\"");
	t_reject("1:60", "seconds: expected 0-59, got 60 in \"1:60\"");
	t_reject("1:2:60", "seconds: expected 0-59, got 60");
	t_reject("1:60:00", "minutes: expected 0-59, got 60");
	t_reject("25:61:00", "minutes: expected 0-59, got 61 in \"25:61:00\"");
	t_reject("1-2:60", "minutes: expected 0-59, got 60");
	t_reject("1-2:3:60", "seconds: expected 0-59, got 60");
	t_reject("1-24", "hours: expected 0-23, got 24 in \"1-24\"");
	t_reject("1-", forms);
	t_reject("-1", forms);
	t_reject("1:2:3:4", forms);
	t_reject("1-2:3:4:5", forms);
	t_reject("1-2-3", forms);
	t_reject("1:", forms);
	t_reject(":1", forms);
	t_reject("1::2", forms);
	t_reject(" 1", forms);
	t_reject("1 ", forms);
	t_reject("+1", forms);
	t_reject("1.5", forms);
	t_reject("1h", forms);
	t_reject("0x10", forms);
	t_reject("a-1", forms);
	t_reject("99999999999999999999", forms);
	t_reject("18446744073709551615", forms);
	t_reject("18446744073709551616:00", forms);
	t_reject("366-0", "days: expected 0-365, got 366");
	t_reject("400-00:00:00", "days: expected 0-365, got 400 in "
	    "\"400-00:00:00\"");
	t_reject("99999999999999999999-0", forms);
	t_reject("525601", "longer than 365 days");
	t_reject("365-1", "longer than 365 days");
	t_reject("8761:00:00", "longer than 365 days");

	/* The error is complete and truncates safely in a short buffer. */
	secs = 0;
	memset(buf, 'x', sizeof buf);
	ok(duration_parse("bogus", T_MAX, &secs, buf, sizeof buf) == -1 &&
	    buf[sizeof buf - 1] == '\0', "short error buffer stays terminated");

	t_format(0, "0:00");
	t_format(59, "0:59");
	t_format(60, "1:00");
	t_format(3599, "59:59");
	t_format(3600, "1:00:00");
	t_format(86399, "23:59:59");
	t_format(86400, "1-00:00:00");
	t_format(2 * 86400 + 3 * 3600 + 4 * 60 + 5, "2-03:04:05");
	t_format(365ULL * 86400, "365-00:00:00");
	t_format(10 * 3600 + 5, "10:00:05");
	t_format(UINT64_MAX, "213503982334601-07:00:15");
	/* Cut like snprintf: what fits, then a NUL. */
	memset(buf, 'x', sizeof buf);
	is_str(duration_format(3600, buf, sizeof buf), "1:0",
	    "a short buffer holds the start of the text");

	/* What format prints, parse reads back. */
	{
		static const uint64_t	 v[] = { 0, 1, 59, 61, 3601, 86399,
		    86400, 90061, 31535999, 31536000 };
		size_t			 i;
		int			 bad = 0;

		for (i = 0; i < sizeof v / sizeof *v; i++) {
			duration_format(v[i], big, sizeof big);
			if (duration_parse(big, T_MAX, &secs, buf,
			    sizeof buf) != 0 ||
			    secs != v[i]) {
				bad++;
				printf("#   %llu -> \"%s\" -> %llu\n",
				    (unsigned long long)v[i], big,
				    (unsigned long long)secs);
			}
		}
		is_int(bad, 0, "format then parse gives the same seconds");
	}
	t_most();
	return (tap_done());
}
