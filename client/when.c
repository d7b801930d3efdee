/* when.c: parsing sacct-style time expressions (see when.h). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/when.h"
#include "common/safe-text.h"

static const char when_forms[] =
    "expected YYYY-MM-DD[THH:MM[:SS]], HH:MM[:SS], "
    "now[{-,+}N[seconds,minutes,hours,days,weeks]], "
    "midnight, today, yesterday, tomorrow, noon, elevenses, fika, teatime "
    "or @EPOCH";

/* Which way a time of day leans: to its last time (gacct's ranges) or to
 * its next (a job's start). */
enum when_lean {
	WHEN_PAST,
	WHEN_NEXT,
};

/* An offset past this is a typo, and the cap keeps N times its unit, and
 * a day count in struct tm's int, far from overflow. */
#define WHEN_MAX_YEARS	10000
#define WHEN_MAX_SECS	((int64_t)WHEN_MAX_YEARS * 366 * 86400)

/* 9999-12-31T23:59:59Z: the last second a YYYY date can name. */
#define WHEN_MAX_EPOCH	253402300799LL

struct when_unit {
	const char	*name;
	int64_t		 secs;		/* its length, for the cap */
	int		 days;		/* 0: exact seconds; else calendar days */
};

static const struct when_unit when_units[] = {
	{ "s", 1, 0 }, { "second", 1, 0 }, { "seconds", 1, 0 },
	{ "min", 60, 0 }, { "minute", 60, 0 }, { "minutes", 60, 0 },
	{ "h", 3600, 0 }, { "hour", 3600, 0 }, { "hours", 3600, 0 },
	{ "d", 86400, 1 }, { "day", 86400, 1 }, { "days", 86400, 1 },
	{ "w", 604800, 7 }, { "week", 604800, 7 }, { "weeks", 604800, 7 },
};

/* The input as an error quotes it: escaped, so a control character cannot
 * reach the terminal, and cut, so a pasted paragraph stays one line. */
static const char *
when_quote(const char *s, char *buf, size_t size)
{
	size_t	len = strlen(s);

	return (safe_text(s, len < 64 ? len : 64, buf, size));
}

/* mktime() with its failure told apart from 1969-12-31T23:59:59Z, which it
 * also returns as -1: a failed call leaves tm_wday alone. */
static int
when_mktime(struct tm *tm, time_t *out)
{
	time_t	t;

	tm->tm_isdst = -1;
	tm->tm_wday = -1;
	t = mktime(tm);
	if (tm->tm_wday == -1)
		return (-1);
	*out = t;
	return (0);
}

/* The local time days calendar days from now, at now's wall-clock time or
 * at that day's midnight. */
static int
when_days(time_t now, int days, bool midnight, time_t *out)
{
	struct tm	tm;

	if (localtime_r(&now, &tm) == NULL)
		return (-1);
	tm.tm_mday += days;
	if (midnight)
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	return (when_mktime(&tm, out));
}

/* Reads exactly n digits at s into *v. */
static bool
when_digits(const char *s, int n, int *v)
{
	int	i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return (false);
		*v = *v * 10 + (s[i] - '0');
	}
	return (true);
}

/* The days in month mon (1-12) of year, in the Gregorian calendar. */
static int
when_mdays(int year, int mon)
{
	static const int	mdays[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	bool			leap;

	leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	return (mdays[mon - 1] + (mon == 2 && leap));
}

/* now, now-N<unit> or now+N<unit>; s is what follows "now". Returns 0, 1
 * when s is not of this form, or -1 with err set. */
static int
when_relative(const char *in, const char *s, time_t now, time_t *out,
    char *err, size_t errlen)
{
	const struct when_unit	*u = NULL;
	char			 q[SAFE_TEXT_MAX_ESC * 64 + 1], *end;
	unsigned long long	 n;
	int64_t			 off;
	size_t			 i;
	int			 sign;

	if (*s == '\0') {
		*out = now;
		return (0);
	}
	if ((*s != '-' && *s != '+') || !isdigit((unsigned char)s[1]))
		return (1);
	sign = *s == '-' ? -1 : 1;
	errno = 0;
	n = strtoull(s + 1, &end, 10);
	/* As Slurm's: a number alone is seconds. */
	if (*end == '\0')
		u = &when_units[0];
	for (i = 0; u == NULL && i < sizeof when_units / sizeof when_units[0];
	    i++) {
		if (strcasecmp(end, when_units[i].name) == 0) {
			u = &when_units[i];
			break;
		}
	}
	if (u == NULL) {
		snprintf(err, errlen, "\"%s\": expected a unit after the number: "
		    "seconds (the default), minutes, hours, days or weeks (or "
		    "s, min, h, d, w)", when_quote(in, q, sizeof q));
		return (-1);
	}
	if (errno == ERANGE || n > (unsigned long long)(WHEN_MAX_SECS /
	    u->secs)) {
		snprintf(err, errlen, "\"%s\": expected at most %lld %s (%d "
		    "years)", when_quote(in, q, sizeof q),
		    (long long)(WHEN_MAX_SECS / u->secs), u->name,
		    WHEN_MAX_YEARS);
		return (-1);
	}
	if (u->days != 0) {
		if (when_days(now, sign * (int)n * u->days, false, out) == -1)
			goto range;
		return (0);
	}
	off = (int64_t)n * u->secs;
	if (sign < 0 ? __builtin_sub_overflow(now, off, out) :
	    __builtin_add_overflow(now, off, out))
		goto range;
	return (0);
range:
	snprintf(err, errlen, "\"%s\": the time is out of range",
	    when_quote(in, q, sizeof q));
	return (-1);
}

/* YYYY-MM-DD[THH:MM[:SS]]. Returns 0, 1 when s is not of this form, or -1
 * with err set. */
static int
when_date(const char *s, time_t *out, char *err, size_t errlen)
{
	static const struct {
		const char	*name;
		int		 lo, hi;
	} field[] = {
		{ "month", 1, 12 }, { "day", 1, 31 }, { "hour", 0, 23 },
		{ "minute", 0, 59 }, { "second", 0, 59 },
	};
	char		 q[SAFE_TEXT_MAX_ESC * 64 + 1];
	struct tm	 tm;
	time_t		 t;
	int		 v[6] = { 0 }, i, n, mdays;

	if (!when_digits(s, 4, &v[0]) || s[4] != '-' ||
	    !when_digits(s + 5, 2, &v[1]) || s[7] != '-' ||
	    !when_digits(s + 8, 2, &v[2]))
		return (1);
	n = 3;
	if (s[10] == 'T') {
		if (!when_digits(s + 11, 2, &v[3]) || s[13] != ':' ||
		    !when_digits(s + 14, 2, &v[4]))
			return (1);
		n = 5;
		if (s[16] == ':') {
			if (!when_digits(s + 17, 2, &v[5]) || s[19] != '\0')
				return (1);
			n = 6;
		} else if (s[16] != '\0')
			return (1);
	} else if (s[10] != '\0')
		return (1);

	for (i = 1; i < n; i++) {
		if (v[i] < field[i - 1].lo || v[i] > field[i - 1].hi) {
			snprintf(err, errlen, "\"%s\": %s: expected %02d-%02d, "
			    "got %02d", when_quote(s, q, sizeof q),
			    field[i - 1].name, field[i - 1].lo, field[i - 1].hi,
			    v[i]);
			return (-1);
		}
	}
	/* mktime() would move Feb 30 to Mar 1 or 2 without a word. */
	if (v[2] > (mdays = when_mdays(v[0], v[1]))) {
		snprintf(err, errlen, "\"%s\": day: expected 01-%02d "
		    "(%04d-%02d has %d days), got %02d",
		    when_quote(s, q, sizeof q), mdays, v[0], v[1], mdays, v[2]);
		return (-1);
	}
	memset(&tm, 0, sizeof tm);
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	if (when_mktime(&tm, &t) == -1) {
		snprintf(err, errlen, "\"%s\": the time is out of range",
		    when_quote(s, q, sizeof q));
		return (-1);
	}
	/* A date that comes back changed was skipped by the time zone
	 * (Pacific/Apia had no 2011-12-30). Only the date is compared: a
	 * wall-clock time skipped by a change to summer time is taken as
	 * mktime() moves it, since in some zones that change happens at
	 * midnight and the day itself must still be accepted. */
	if (tm.tm_year != v[0] - 1900 || tm.tm_mon != v[1] - 1 ||
	    tm.tm_mday != v[2]) {
		snprintf(err, errlen, "\"%s\": no such day in the local time "
		    "zone", when_quote(s, q, sizeof q));
		return (-1);
	}
	*out = t;
	return (0);
}

/* A time of day: HH:MM[:SS], or one of Slurm's names for one. Today's,
 * unless lean takes it to yesterday's (a time still to come) or
 * tomorrow's (a time gone by). Returns 0, 1 when s is not of this form,
 * or -1 with err set. */
static int
when_time_of_day(const char *s, time_t now, enum when_lean lean, time_t *out,
    char *err, size_t errlen)
{
	static const struct {
		const char	*name;
		int		 hour;
	} named[] = {
		{ "noon", 12 }, { "elevenses", 11 }, { "fika", 15 },
		{ "teatime", 16 },
	};
	char		 q[SAFE_TEXT_MAX_ESC * 64 + 1];
	struct tm	 tm;
	time_t		 t;
	int		 v[3] = { 0 }, day;
	size_t		 i;

	for (i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (strcasecmp(s, named[i].name) == 0) {
			v[0] = named[i].hour;
			break;
		}
	}
	if (i == sizeof named / sizeof named[0]) {
		if (!when_digits(s, 2, &v[0]) || s[2] != ':' ||
		    !when_digits(s + 3, 2, &v[1]))
			return (1);
		if (s[5] == ':') {
			if (!when_digits(s + 6, 2, &v[2]) || s[8] != '\0')
				return (1);
		} else if (s[5] != '\0')
			return (1);
		if (v[0] > 23 || v[1] > 59 || v[2] > 59) {
			snprintf(err, errlen, "\"%s\": expected a time of day "
			    "from 00:00:00 to 23:59:59",
			    when_quote(s, q, sizeof q));
			return (-1);
		}
	}
	for (day = 0; day < 2; day++) {
		if (localtime_r(&now, &tm) == NULL)
			goto range;
		tm.tm_mday += day == 0 ? 0 : lean == WHEN_NEXT ? 1 : -1;
		tm.tm_hour = v[0];
		tm.tm_min = v[1];
		tm.tm_sec = v[2];
		if (when_mktime(&tm, &t) == -1)
			goto range;
		if (day == 1 || (lean == WHEN_NEXT ? t > now : t <= now)) {
			*out = t;
			return (0);
		}
	}
range:
	snprintf(err, errlen, "\"%s\": the time is out of range",
	    when_quote(s, q, sizeof q));
	return (-1);
}

/* @EPOCH. Returns 0, or -1 with err set. */
static int
when_epoch(const char *s, time_t *out, char *err, size_t errlen)
{
	char			 q[SAFE_TEXT_MAX_ESC * 64 + 1], *end;
	unsigned long long	 v;

	if (!isdigit((unsigned char)s[1]))
		goto bad;
	errno = 0;
	v = strtoull(s + 1, &end, 10);
	if (*end != '\0')
		goto bad;
	if (errno == ERANGE || v > WHEN_MAX_EPOCH) {
		snprintf(err, errlen, "\"%s\": expected @0 to @%lld "
		    "(9999-12-31T23:59:59Z)", when_quote(s, q, sizeof q),
		    WHEN_MAX_EPOCH);
		return (-1);
	}
	*out = (time_t)v;
	return (0);
bad:
	snprintf(err, errlen, "\"%s\": expected @ and the seconds since "
	    "1970-01-01T00:00:00Z, e.g. @1700000000",
	    when_quote(s, q, sizeof q));
	return (-1);
}

static int
when_parse_lean(const char *s, time_t now, enum when_lean lean, time_t *out,
    char *err, size_t errlen)
{
	static const struct {
		const char	*name;
		int		 days;
	} day[] = {
		{ "midnight", 0 }, { "today", 0 }, { "yesterday", -1 },
		{ "tomorrow", 1 },
	};
	char	q[SAFE_TEXT_MAX_ESC * 64 + 1];
	size_t	i;
	time_t	t;
	int	r;

	if (*s == '@') {
		if (when_epoch(s, &t, err, errlen) == -1)
			return (-1);
		*out = t;
		return (0);
	}
	for (i = 0; i < sizeof day / sizeof day[0]; i++) {
		if (strcasecmp(s, day[i].name) != 0)
			continue;
		if (when_days(now, day[i].days, true, &t) == -1) {
			snprintf(err, errlen, "\"%s\": the time is out of range",
			    s);
			return (-1);
		}
		*out = t;
		return (0);
	}
	if (strncasecmp(s, "now", 3) == 0)
		r = when_relative(s, s + 3, now, &t, err, errlen);
	else if ((r = when_date(s, &t, err, errlen)) == 1)
		r = when_time_of_day(s, now, lean, &t, err, errlen);
	if (r == -1)
		return (-1);
	if (r == 1) {
		snprintf(err, errlen, "\"%s\": %s", when_quote(s, q, sizeof q),
		    when_forms);
		return (-1);
	}
	*out = t;
	return (0);
}

int
when_parse(const char *s, time_t now, time_t *out, char *err, size_t errlen)
{
	return (when_parse_lean(s, now, WHEN_PAST, out, err, errlen));
}

int
when_parse_next(const char *s, time_t now, time_t *out, char *err,
    size_t errlen)
{
	return (when_parse_lean(s, now, WHEN_NEXT, out, err, errlen));
}
