/* label.c: names as label.h says. */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>

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

bool
label_list_ok(const char *s)
{
	const char	*p;
	size_t		 len = 0;

	for (p = s; ; p++) {
		if (*p == ',' || *p == '\0') {
			if (len == 0)
				return (false);
			if (*p == '\0')
				return (true);
			len = 0;
		} else if (++len > LABEL_MAX || (!isalnum((unsigned char)*p) &&
		    *p != '.' && *p != '-' && *p != '_'))
			return (false);
	}
}
