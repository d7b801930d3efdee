/* label-test.c: the names that label things (common/label.c), alone and
 * in lists joined by ',' (partitions). */
#include <string.h>

#include "common/label.h"
#include "tests/unit/tap.h"

int
main(void)
{
	char	long_name[LABEL_MAX + 2], list[2 * LABEL_MAX + 4];

	ok(label_ok("gpu-a100_2.x"), "letters, digits, '.', '-', '_'");
	ok(!label_ok("") && !label_ok("a b") && !label_ok("a,b") &&
	    !label_ok("n\x1b[2J"), "empty, a space, a comma, an escape: no");
	memset(long_name, 'a', LABEL_MAX + 1);
	long_name[LABEL_MAX + 1] = '\0';
	ok(!label_ok(long_name), "%d characters: too long", LABEL_MAX + 1);
	long_name[LABEL_MAX] = '\0';
	ok(label_ok(long_name), "%d characters: the most", LABEL_MAX);
	ok(label_list_ok("gpu") && label_list_ok("gpu,long,debug"),
	    "a list of one, of three");
	ok(!label_list_ok("") && !label_list_ok(",gpu") &&
	    !label_list_ok("gpu,") && !label_list_ok("gpu,,long") &&
	    !label_list_ok("gpu, long"), "empty names or a space: no");
	strcpy(list, "gpu,");
	strcat(list, long_name);
	ok(label_list_ok(list), "a name of the most in a list");
	strcat(list, "a");
	ok(!label_list_ok(list), "one over it: no");
	return (tap_done());
}
