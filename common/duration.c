/* duration.c: parse and print time limits (min, min:sec, h:m:s, d-h:m:s). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/duration.h"

static const char duration_forms[] =
    "expected minutes, minutes:seconds, hours:minutes:seconds or "
    "days-hours[:minutes[:seconds]]";

/* Reads up to max unsigned decimal fields separated by ':'; returns how
 * many, or -1 on anything that is not digits and colons. */
static int
duration_fields(const char *s, uint64_t *v, int max, uint64_t most)
{
	int	n = 0;
	char	*end;

	for (;;) {
		if (n == max || !isdigit((unsigned char)*s))
			return (-1);
		errno = 0;
		v[n++] = strtoull(s, &end, 10);
		if (errno != 0 || v[n - 1] > most)
			return (-1);
		if (*end == '\0')
			return (n);
		if (*end != ':')
			return (-1);
		s = end + 1;
	}
}

/* Checks one field against its range; err names the field, the range
 * and the whole input. */
static int
duration_range(const char *field, uint64_t v, uint64_t max, const char *s,
    char *err, size_t errlen)
{
	if (v <= max)
		return (0);
	snprintf(err, errlen, "%s: expected 0-%llu, got %llu in \"%s\"", field,
	    (unsigned long long)max, (unsigned long long)v, s);
	return (-1);
}

int
duration_parse(const char *s, uint64_t max, uint64_t *secs, char *err,
    size_t errlen)
{
	char		 most[40];
	uint64_t	 v[3], days = 0, t;
	const char	*dash, *rest = s;
	char		*end;
	int		 n;

	if (strcasecmp(s, "unlimited") == 0 || strcasecmp(s, "infinite") == 0) {
		*secs = 0;
		return (0);
	}
	if ((dash = strchr(s, '-')) != NULL) {
		if (dash == s || !isdigit((unsigned char)*s))
			goto bad;
		errno = 0;
		days = strtoull(s, &end, 10);
		if (errno != 0 || end != dash)
			goto bad;
		rest = dash + 1;
	}
	if ((n = duration_fields(rest, v, 3, max)) == -1)
		goto bad;
	if (dash != NULL) {
		/* d-h, d-h:m, d-h:m:s: the days carry what is over a day. */
		if (duration_range("days", days, max / 86400, s, err,
		    errlen) == -1 ||
		    duration_range("hours", v[0], 23, s, err, errlen) == -1 ||
		    (n > 1 && duration_range("minutes", v[1], 59, s, err,
		    errlen) == -1) ||
		    (n > 2 && duration_range("seconds", v[2], 59, s, err,
		    errlen) == -1))
			return (-1);
		t = days * 86400 + v[0] * 3600;
		if (n > 1)
			t += v[1] * 60;
		if (n > 2)
			t += v[2];
	} else if (n == 1)
		t = v[0] * 60;
	else if (n == 2) {
		if (duration_range("seconds", v[1], 59, s, err, errlen) == -1)
			return (-1);
		t = v[0] * 60 + v[1];
	} else {
		if (duration_range("minutes", v[1], 59, s, err, errlen) == -1 ||
		    duration_range("seconds", v[2], 59, s, err, errlen) == -1)
			return (-1);
		t = v[0] * 3600 + v[1] * 60 + v[2];
	}
	if (t > max) {
		/* The most in days where it is whole days (365 days). */
		if (max % 86400 == 0)
			snprintf(most, sizeof most, "%llu day%s",
			    (unsigned long long)(max / 86400), max == 86400 ?
			    "" : "s");
		else
			duration_format(max, most, sizeof most);
		snprintf(err, errlen, "time \"%s\" is longer than %s, the most "
		    "accepted", s, most);
		return (-1);
	}
	*secs = t;
	return (0);
bad:
	snprintf(err, errlen, "%s, got \"%s\"", duration_forms, s);
	return (-1);
}

char *
duration_format(uint64_t secs, char *buf, size_t len)
{
	uint64_t	d = secs / 86400, h = secs / 3600 % 24;
	uint64_t	m = secs / 60 % 60, s = secs % 60;
	char		tmp[40], *p = tmp + sizeof tmp;
	size_t		n;

	/* Written backwards by hand: accounting prints a few of these for
	 * each of a million jobs, and snprintf was most of their cost. */
	*--p = '\0';
	*--p = (char)('0' + s % 10);
	*--p = (char)('0' + s / 10);
	*--p = ':';
	if (d == 0 && h == 0) {
		*--p = (char)('0' + m % 10);
		if (m >= 10)
			*--p = (char)('0' + m / 10);
	} else {
		*--p = (char)('0' + m % 10);
		*--p = (char)('0' + m / 10);
		*--p = ':';
		if (d == 0) {
			*--p = (char)('0' + h % 10);
			if (h >= 10)
				*--p = (char)('0' + h / 10);
		} else {
			*--p = (char)('0' + h % 10);
			*--p = (char)('0' + h / 10);
			*--p = '-';
			do {
				*--p = (char)('0' + d % 10);
			} while ((d /= 10) != 0);
		}
	}
	n = (size_t)(tmp + sizeof tmp - p);
	if (len > 0) {
		if (n > len) {
			n = len;
			p[n - 1] = '\0';
		}
		memcpy(buf, p, n);
	}
	return (buf);
}
