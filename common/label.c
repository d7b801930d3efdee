/* label.c: names as label.h says. */
#include <ctype.h>
#include <stdbool.h>

#include "common/label.h"

bool
label_ok(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (p - s == LABEL_MAX || (!isalnum((unsigned char)*p) &&
		    *p != '.' && *p != '-' && *p != '_'))
			return (false);
	}
	return (p != s);
}
