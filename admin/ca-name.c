/* ca-name.c: the names a certificate may be made for (ca-name.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "admin/ca-entry.h"
#include "admin/ca-name.h"

/* s as it may be quoted to a terminal: at most 40 characters, those not
 * printable as '?'. */
static void
ca_name_quote(const char *s, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; s[i] != '\0' && i < 40 && i + 4 < len; i++)
		buf[i] = (s[i] > 0x20 && s[i] < 0x7f) || s[i] == ' ' ? s[i] :
		    '?';
	snprintf(buf + i, len - i, "%s", s[i] != '\0' ? "..." : "");
}

/* Whether s is 1-max of letters, digits and the characters of extra. */
static bool
ca_name_chars(const char *s, size_t max, const char *extra)
{
	size_t	n = strlen(s), i;

	if (n == 0 || n > max)
		return (false);
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) &&
		    strchr(extra, s[i]) == NULL)
			return (false);
	}
	return (true);
}

int
ca_name_check(const char *name, char *err, size_t errlen)
{
	char	q[64];

	if (!ca_name_chars(name, CA_NAME_MAX, "-_.") || name[0] == '.') {
		ca_name_quote(name, q, sizeof q);
		snprintf(err, errlen, "expected a name of 1-%d letters, digits, "
		    "'-', '_' or '.' (not first), got \"%s\"", CA_NAME_MAX, q);
		return (-1);
	}
	if (strcmp(name, "ca") == 0) {
		snprintf(err, errlen, "\"ca\" names the CA's own files; "
		    "expected another name");
		return (-1);
	}
	return (0);
}

int
ca_name_alt_check(const char *alt, char *err, size_t errlen)
{
	char	q[64];

	if (!ca_name_chars(alt, 253, "-.:")) {
		ca_name_quote(alt, q, sizeof q);
		snprintf(err, errlen, "expected a host name or an IP address "
		    "(letters, digits, '-', '.', ':'), got \"%s\"", q);
		return (-1);
	}
	return (0);
}
