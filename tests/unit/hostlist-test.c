/* hostlist-test.c: Slurm's node lists (common/hostlist.c). */
#include <stdio.h>
#include <string.h>

#include "common/hostlist.h"
#include "tests/unit/tap.h"

/* in expands to the names of want, joined by spaces. */
static void
t_ok(const char *in, const char *want)
{
	char	**v, got[4096] = "", err[256] = "";
	size_t	  n, i;

	if (hostlist_expand(in, &v, &n, err, sizeof err) != 0) {
		ok(0, "\"%s\" expands", in);
		printf("#   err \"%s\"\n", err);
		return;
	}
	for (i = 0; i < n; i++) {
		strncat(got, i > 0 ? " " : "", sizeof got - strlen(got) - 1);
		strncat(got, v[i], sizeof got - strlen(got) - 1);
	}
	is_str(got, want, "\"%s\" expands to \"%s\"", in, want);
	hostlist_free(v, n);
}

static void
t_bad(const char *in, const char *part)
{
	char	**v, err[512] = "";
	size_t	  n;
	int	  r;

	r = hostlist_expand(in, &v, &n, err, sizeof err);
	if (!ok(r == -1 && strstr(err, part) != NULL && v == NULL && n == 0,
	    "\"%s\" is refused (%s)", in, part))
		printf("#   returned %d, err \"%s\"\n", r, err);
}

int
main(void)
{
	char	big[64];

	t_ok("n1", "n1");
	t_ok("n1,n2", "n1 n2");
	t_ok("n[1-3]", "n1 n2 n3");
	t_ok("gpu[01-03,10]", "gpu01 gpu02 gpu03 gpu10");
	t_ok("gpu[08-10]", "gpu08 gpu09 gpu10");
	t_ok("n[1-2]-ib,x", "n1-ib n2-ib x");
	t_ok("n2,n[1-3],n2", "n2 n1 n3");
	t_ok("rack1.node-7_a", "rack1.node-7_a");
	t_bad("", "empty");
	t_bad("n1,,n2", "an empty name");
	t_bad("n[3-1]", "ranges N-M (M >= N)");
	t_bad("n[1-]", "ranges N-M");
	t_bad("n[]", "one range list in brackets");
	t_bad("n[1", "one range list in brackets");
	t_bad("n1]", "one range list in brackets");
	t_bad("n[1][2]", "one range list in brackets");
	t_bad("n[a-b]", "expected numbers");
	t_bad("n 1", "letters, digits");
	t_bad("n/1", "letters, digits");
	t_bad("n\x1b[2J", "\\e");
	snprintf(big, sizeof big, "n[0-%d]", HOSTLIST_MAX);
	t_bad(big, "more than 4096 node names");
	snprintf(big, sizeof big, "n[1-%d]", HOSTLIST_MAX);
	t_ok("n[7-7]", "n7");
	{
		char	**v, err[256];
		size_t	  n;

		ok(hostlist_expand(big, &v, &n, err, sizeof err) == 0 &&
		    n == HOSTLIST_MAX, "the most names a list may have");
		hostlist_free(v, n);
	}
	return (tap_done());
}
