/* when-test.c: sacct-style time expressions (client/when.c), in UTC and
 * across Berlin's changes to and from summer time. Expected times are
 * worked out by hand from 2024-01-01T00:00:00Z = 1704067200 and
 * 2023-11-14T22:13:20Z = 1700000000. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/when.h"
#include "tests/unit/tap.h"

#define Y2024	1704067200LL		/* 2024-01-01T00:00:00Z */
#define DAY	86400LL

static const char *forms = "expected YYYY-MM-DD[THH:MM[:SS]], HH:MM[:SS], now[";

static void
t_accept(const char *in, time_t now, long long want)
{
	time_t	t = 12345;
	char	err[512] = "";
	int	r;

	r = when_parse(in, now, &t, err, sizeof err);
	if (!ok(r == 0 && (long long)t == want, "\"%s\" is %lld", in, want))
		printf("#   returned %d, time %lld (%+lld s), err \"%s\"\n", r,
		    (long long)t, (long long)t - want, err);
}

/* when_parse_next: a time of day is the next one. */
static void
t_next(const char *in, time_t now, long long want)
{
	time_t	t = 12345;
	char	err[512] = "";
	int	r;

	r = when_parse_next(in, now, &t, err, sizeof err);
	if (!ok(r == 0 && (long long)t == want, "next \"%s\" is %lld", in,
	    want))
		printf("#   returned %d, time %lld (%+lld s), err \"%s\"\n", r,
		    (long long)t, (long long)t - want, err);
}

static void
t_reject(const char *in, const char *errpart)
{
	time_t	t = 12345;
	char	err[512] = "";
	int	r;

	r = when_parse(in, 1700000000, &t, err, sizeof err);
	if (!ok(r == -1 && t == 12345 && strstr(err, errpart) != NULL,
	    "\"%s\" is refused (%s)", in, errpart))
		printf("#   returned %d, time %lld, err \"%s\"\n", r,
		    (long long)t, err);
}

static void
t_zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void
t_utc(void)
{
	time_t		now = 1700000000;	/* 2023-11-14T22:13:20Z */
	time_t		t;
	long long	midnight = 1700000000LL - 80000;
	char		err[512];
	int		r;

	t_zone("UTC");
	t_accept("now", now, now);
	t_accept("NOW", now, now);
	t_accept("now-7days", now, now - 7 * DAY);
	t_accept("now-1day", now, now - DAY);
	t_accept("now-2d", now, now - 2 * DAY);
	t_accept("now+1d", now, now + DAY);
	t_accept("now-1hour", now, now - 3600);
	t_accept("now-3hours", now, now - 3 * 3600);
	t_accept("now-2h", now, now - 7200);
	t_accept("now-90min", now, now - 5400);
	t_accept("now-1minute", now, now - 60);
	t_accept("now-5minutes", now, now - 300);
	t_accept("now-1second", now, now - 1);
	t_accept("now-30seconds", now, now - 30);
	t_accept("now-30s", now, now - 30);
	t_accept("now+45s", now, now + 45);
	t_accept("now-1week", now, now - 7 * DAY);
	t_accept("now-2weeks", now, now - 14 * DAY);
	t_accept("now-1w", now, now - 7 * DAY);
	t_accept("now+1w", now, now + 7 * DAY);
	t_accept("Now-2Hours", now, now - 7200);
	t_accept("now-0s", now, now);
	t_accept("now-007days", now, now - 7 * DAY);

	t_accept("midnight", now, midnight);
	t_accept("today", now, midnight);
	t_accept("Today", now, midnight);
	t_accept("yesterday", now, midnight - DAY);
	t_accept("tomorrow", now, midnight + DAY);
	/* The first and the last second of a day are both that day. */
	t_accept("today", (time_t)midnight, midnight);
	t_accept("today", (time_t)(midnight + DAY - 1), midnight);
	t_accept("yesterday", (time_t)midnight, midnight - DAY);

	t_accept("2023-11-14", now, midnight);
	t_accept("2023-11-14T22:13", now, 1700000000LL - 20);
	t_accept("2023-11-14T22:13:20", now, 1700000000LL);
	t_accept("2024-01-01", now, Y2024);
	t_accept("2023-12-31T23:59:59", now, Y2024 - 1);
	t_accept("2024-01-01T00:00:00", now, Y2024);
	t_accept("2024-02-29", now, Y2024 + 59 * DAY);
	t_accept("2024-12-31T23:59", now, Y2024 + 366 * DAY - 60);
	t_accept("2000-02-29", now, 951782400LL);
	t_accept("1970-01-01", now, 0);
	t_accept("1969-12-31T23:59:59", now, -1);
	t_accept("9999-12-31T23:59:59", now, 253402300799LL);

	t_accept("@1700000000", now, 1700000000LL);
	t_accept("@0", now, 0);
	t_accept("@253402300799", now, 253402300799LL);

	/* Bad input, with an error naming it and what is accepted. */
	t_reject("", "\"\": expected YYYY-MM-DD");
	t_reject("yesterday ", forms);
	t_reject(" now", forms);
	t_reject("nowish", forms);
	t_reject("now-", forms);
	t_reject("now--7days", forms);
	t_reject("now-+7days", forms);
	t_reject("now7days", forms);
	t_reject("now- 7days", forms);
	/* As Slurm's: a number alone is seconds. */
	t_accept("now-7", now, now - 7);
	t_accept("now+60", now, now + 60);
	t_next("now+60", now, now + 60);
	/* A time of day: the last one, or with when_parse_next the next
	 * one (now is 22:13:20 UTC). */
	t_accept("22:00", now, midnight + 22 * 3600);
	t_accept("22:13:20", now, now);
	t_accept("23:00", now, midnight - DAY + 23 * 3600);
	t_accept("noon", now, midnight + 12 * 3600);
	t_next("23:00", now, midnight + 23 * 3600);
	t_next("22:00", now, midnight + DAY + 22 * 3600);
	t_next("22:13:20", now, now + DAY);
	t_next("22:13:21", now, now + 1);
	t_next("00:00", now, midnight + DAY);
	t_next("noon", now, midnight + DAY + 12 * 3600);
	t_next("Elevenses", now, midnight + DAY + 11 * 3600);
	t_next("fika", now, midnight + DAY + 15 * 3600);
	t_next("teatime", now, midnight + DAY + 16 * 3600);
	t_next("2023-11-15T08:00", now, midnight + DAY + 8 * 3600);
	t_next("tomorrow", now, midnight + DAY);
	t_reject("24:00", "\"24:00\": expected a time of day from 00:00:00 "
	    "to 23:59:59");
	t_reject("12:60", "expected a time of day");
	t_reject("12:00:60", "expected a time of day");
	t_reject("9:00", forms);
	t_reject("12:00:", forms);
	t_reject("12:00pm", forms);
	t_reject("now-7x", "\"now-7x\": expected a unit after the number: "
	    "seconds (the default), minutes, hours, days or weeks");
	t_reject("now-7dayss", "expected a unit");
	t_reject("now-7 days", "expected a unit");
	t_reject("now-7days ", "expected a unit");
	t_reject("now-1.5h", "expected a unit");
	t_reject("now-1y", "expected a unit");
	t_reject("now-99999999999999999999days", "expected at most");
	t_reject("now-3660001days", "expected at most 3660000 days");
	t_reject("now-1000000000000s", "10000 years");
	t_reject("now+522858w", "expected at most 522857 w");
	t_reject("2023-13-01", "\"2023-13-01\": month: expected 01-12, "
	    "got 13");
	t_reject("2023-00-10", "month: expected 01-12, got 00");
	t_reject("2023-01-00", "day: expected 01-31, got 00");
	t_reject("2023-01-32", "day: expected 01-31, got 32");
	t_reject("2023-02-29", "\"2023-02-29\": day: expected 01-28 "
	    "(2023-02 has 28 days), got 29");
	t_reject("2024-02-30", "(2024-02 has 29 days), got 30");
	t_reject("1900-02-29", "(1900-02 has 28 days)");
	t_reject("2023-04-31", "(2023-04 has 30 days), got 31");
	t_reject("2023-01-01T24:00", "hour: expected 00-23, got 24");
	t_reject("2023-01-01T23:60", "minute: expected 00-59, got 60");
	t_reject("2023-01-01T23:59:60", "second: expected 00-59, got 60");
	t_reject("2023-1-1", forms);
	t_reject("23-01-01", forms);
	t_reject("2023/01/01", forms);
	t_reject("2023-01-01T", forms);
	t_reject("2023-01-01T23", forms);
	t_reject("2023-01-01T23:5", forms);
	t_reject("2023-01-01T23:59:", forms);
	t_reject("2023-01-01T23:59:59Z", forms);
	t_reject("2023-01-01 23:59", forms);
	t_reject("2023-01-01x", forms);
	t_reject("2023-01-01t10:00", forms);
	t_reject("@", "expected @ and the seconds since 1970");
	t_reject("@-1", "expected @ and the seconds");
	t_reject("@+1", "expected @ and the seconds");
	t_reject("@1.5", "expected @ and the seconds");
	t_reject("@17e8", "expected @ and the seconds");
	t_reject("@253402300800", "expected @0 to @253402300799");
	t_reject("@99999999999999999999999", "expected @0 to");
	/* What reaches the terminal in an error is escaped (and this
	 * test's own output stays free of the raw ESC too). */
	t = 12345;
	r = when_parse("\x1b[2J", 1700000000, &t, err, sizeof err);
	if (!ok(r == -1 && t == 12345 && strstr(err, "\"\\e[2J\": expected")
	    != NULL, "an ESC in the input is escaped in the error"))
		printf("#   returned %d\n", r);
}

/* Europe/Berlin: CET (UTC+1), CEST (UTC+2) from 2024-03-31 02:00 CET
 * (01:00Z) to 2024-10-27 03:00 CEST (01:00Z). */
static void
t_berlin(void)
{
	long long	mar31 = Y2024 + 90 * DAY;	/* 2024-03-31T00:00Z */
	long long	oct27 = Y2024 + 300 * DAY;	/* 2024-10-27T00:00Z */
	long long	jan15 = Y2024 + 14 * DAY;	/* 2024-01-15T00:00Z */
	time_t		now, t;
	struct tm	tm;
	char		err[512];

	t_zone("Europe/Berlin");
	t = (time_t)jan15;
	if (localtime_r(&t, &tm) == NULL || tm.tm_gmtoff != 3600) {
		/* Without tzdata, glibc quietly runs in UTC. */
		ok(1, "# skip no tzdata for Europe/Berlin");
		return;
	}

	/* Winter: local is UTC+1. */
	t_accept("2024-01-15T08:30:00", 0, jan15 + 7 * 3600 + 1800);
	t_accept("2024-01-15", 0, jan15 - 3600);
	/* 00:30 local is still the previous day in UTC. */
	now = (time_t)(jan15 + 23 * 3600 + 1800);	/* 01-16 00:30 CET */
	t_accept("today", now, jan15 + 23 * 3600);
	t_accept("midnight", now, jan15 + 23 * 3600);
	t_accept("yesterday", now, jan15 - 3600);

	/* The day clocks go forward has 23 hours. */
	now = (time_t)(mar31 + 10 * 3600);		/* 12:00 CEST */
	t_accept("today", now, mar31 - 3600);
	t_accept("yesterday", now, mar31 - 3600 - DAY);
	t_accept("tomorrow", now, mar31 + 22 * 3600);
	t_accept("now-1day", now, mar31 - DAY + 11 * 3600);
	t_accept("now-24hours", now, mar31 + 10 * 3600 - DAY);
	t_accept("now-1week", now, mar31 - 7 * DAY + 11 * 3600);
	t_accept("now-7days", now, mar31 - 7 * DAY + 11 * 3600);
	t_accept("now-168h", now, mar31 + 10 * 3600 - 7 * DAY);
	t_accept("2024-03-31", now, mar31 - 3600);
	t_accept("2024-04-01", now, mar31 + 22 * 3600);
	t_accept("2024-03-31T01:59:59", now, mar31 + 3599);
	t_accept("2024-03-31T03:00", now, mar31 + 3600);
	/* 02:30 that day does not exist: accepted, as mktime() moves it
	 * (glibc one hour on, another libc may go back). */
	t = 12345;
	ok(when_parse("2024-03-31T02:30", now, &t, err, sizeof err) == 0 &&
	    (t == mar31 + 1800 || t == mar31 + 5400),
	    "a wall-clock time skipped by summer time is accepted");

	/* Noon the next day is 23 hours after noon the day before. */
	t_next("12:00", (time_t)(mar31 - 13 * 3600), mar31 + 10 * 3600);
	t_accept("12:00", (time_t)(mar31 + 10 * 3600), mar31 + 10 * 3600);

	/* The day clocks go back has 25 hours. */
	t_accept("2024-10-27", 0, oct27 - 2 * 3600);
	t_accept("2024-10-28", 0, oct27 + 23 * 3600);
	now = (time_t)(oct27 + 11 * 3600);		/* 12:00 CET */
	t_accept("today", now, oct27 - 2 * 3600);
	t_accept("tomorrow", now, oct27 + 23 * 3600);
	t_accept("yesterday", now, oct27 - 2 * 3600 - DAY);
	t_accept("now-1day", now, oct27 + 10 * 3600 - DAY);
	t_accept("now-1d", now, oct27 + 11 * 3600 - DAY - 3600);
	t_accept("now+1d", now, oct27 + 11 * 3600 + DAY);
	t_accept("now-24h", now, oct27 + 11 * 3600 - DAY);
	t_accept("2024-10-27T04:00", now, oct27 + 3 * 3600);

	/* Plain seconds do not depend on the zone. */
	t_accept("@1700000000", now, 1700000000LL);
	t_reject("2024-02-30", "(2024-02 has 29 days)");
}

/* Samoa moved across the date line: Pacific/Apia had no 2011-12-30. A
 * day that mktime() moves elsewhere is refused, not silently shifted. */
static void
t_apia(void)
{
	time_t		t = 1325372400;	/* 2011-12-31T23:00Z: UTC+14 there */
	struct tm	tm;

	t_zone("Pacific/Apia");
	if (localtime_r(&t, &tm) == NULL || tm.tm_gmtoff != 14 * 3600) {
		ok(1, "# skip no tzdata for Pacific/Apia");
		return;
	}
	t_accept("2011-12-29", 0, 1325152800LL);	/* UTC-10 */
	t_accept("2011-12-31", 0, 1325239200LL);	/* UTC+14 */
	t_reject("2011-12-30", "\"2011-12-30\": no such day in the local "
	    "time zone");
}

int
main(void)
{
	t_utc();
	t_berlin();
	t_apia();
	return (tap_done());
}
