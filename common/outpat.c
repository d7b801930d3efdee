/* outpat.c: output file patterns: %j, %x, %u, %r, %N, %n, %t, %A, %a
 * and %%. */
#include <stdio.h>
#include <string.h>

#include "common/outpat.h"

/* Every sequence a pattern may hold, in the order error messages list
 * them. */
static const struct outpat_seq {
	char		 c;
	const char	*what;
} outpat_seqs[] = {
	{ 'j', "job id" },
	{ 'x', "job name" },
	{ 'u', "user" },
	{ 'r', "restart count" },
	{ 'N', "node name" },
	{ 'n', "node rank" },
	{ 't', "task rank" },
	{ 'A', "array job id" },
	{ 'a', "array task id" },
	{ '%', "a percent sign" },
};
#define OUTPAT_NSEQS	(sizeof outpat_seqs / sizeof outpat_seqs[0])

static int
outpat_known(char c)
{
	size_t	i;

	for (i = 0; i < OUTPAT_NSEQS; i++) {
		if (c != '\0' && outpat_seqs[i].c == c)
			return (1);
	}
	return (0);
}

int
outpat_check(const char *pattern, char *err, size_t errlen)
{
	const char	*p;
	size_t		 i, len;

	if (*pattern == '\0') {
		snprintf(err, errlen, "expected a file name pattern, got an "
		    "empty string");
		return (-1);
	}
	for (p = pattern; (p = strchr(p, '%')) != NULL; p += 2) {
		if (outpat_known(p[1]))
			continue;
		len = (size_t)snprintf(err, errlen, "unknown \"%%%.1s\" in "
		    "\"%s\"; accepted:", p + 1, pattern);
		for (i = 0; i < OUTPAT_NSEQS && len < errlen; i++) {
			len += (size_t)snprintf(err + len, errlen - len,
			    "%s %%%c (%s)", i == 0 ? "" : ",", outpat_seqs[i].c,
			    outpat_seqs[i].what);
		}
		return (-1);
	}
	return (0);
}

/* The text of sequence c, or NULL when c is unknown or its value is not;
 * numbers are written into num. */
static const char *
outpat_value(char c, const struct outpat_vars *v, char *num, size_t numlen)
{
	switch (c) {
	case 'j':
		snprintf(num, numlen, "%llu", (unsigned long long)v->id);
		return (num);
	case 'x':
		return (v->name);
	case 'u':
		return (v->user);
	case 'r':
		snprintf(num, numlen, "%u", v->restarts);
		return (num);
	case 'N':
		return (v->node);
	case 'A':
		snprintf(num, numlen, "%llu", (unsigned long long)
		    (v->array_job != 0 ? v->array_job : v->id));
		return (num);
	case 'a':
		if (v->array_job == 0)
			return ("0");
		if (v->array_task < 0)
			return (NULL);
		snprintf(num, numlen, "%ld", v->array_task);
		return (num);
	case 't':
		if (v->rank < 0)
			return (NULL);
		snprintf(num, numlen, "%ld", v->rank);
		return (num);
	case 'n':
		if (v->node_rank < 0)
			return (NULL);
		snprintf(num, numlen, "%ld", v->node_rank);
		return (num);
	case '%':
		return ("%");
	}
	return (NULL);
}

int
outpat_expand(const char *pattern, const struct outpat_vars *v, char *out,
    size_t outlen, char *err, size_t errlen)
{
	const char	*p, *add;
	char		 num[32];
	size_t		 len = 0, n;

	if (outlen == 0) {
		snprintf(err, errlen, "no room to expand \"%s\"", pattern);
		return (-1);
	}
	for (p = pattern; *p != '\0'; p++) {
		add = NULL;
		if (p[0] == '%' && p[1] != '\0')
			add = outpat_value(p[1], v, num, sizeof num);
		if (add != NULL) {
			p++;
			n = strlen(add);
		} else {
			/* Copied as written: a plain byte, or an unknown
			 * sequence (its letter comes next time round). */
			add = p;
			n = 1;
		}
		if (len + n >= outlen) {
			snprintf(err, errlen, "\"%s\": the file name would be "
			    "longer than %zu bytes", pattern, outlen - 1);
			return (-1);
		}
		memcpy(out + len, add, n);
		len += n;
	}
	out[len] = '\0';
	return (0);
}

bool
outpat_per_part(const char *pattern)
{
	const char	*p;

	for (p = pattern; (p = strchr(p, '%')) != NULL; p += 2) {
		if (p[1] == '\0')
			break;
		if (p[1] == 'N' || p[1] == 'n' || p[1] == 't')
			return (true);
	}
	return (false);
}

bool
outpat_per_task(const char *pattern)
{
	const char	*p;

	for (p = pattern; (p = strchr(p, '%')) != NULL; p += 2) {
		if (p[1] == '\0')
			break;
		if (p[1] == 't')
			return (true);
	}
	return (false);
}

bool
outpat_truncates(const char *pattern, unsigned restarts, unsigned nparts)
{
	if (restarts > 0)
		return (false);
	return (nparts <= 1 || outpat_per_part(pattern));
}
