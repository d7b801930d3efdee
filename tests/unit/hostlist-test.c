/* hostlist-test.c: Slurm's node lists (common/hostlist.c). */
#include <stdio.h>
#include <stdlib.h>
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

/* The names in expands to, compressed, read want; and want expands to
 * the same names (sorted): the two are each other's inverse. */
static void
t_compress(const char *in, const char *want)
{
	char	**v, **w, *got, err[256] = "";
	size_t	  n, m, i, j, found = 0;

	if (hostlist_expand(in, &v, &n, err, sizeof err) != 0) {
		ok(0, "\"%s\" expands", in);
		return;
	}
	got = hostlist_compress(v, n);
	is_str(got, want, "\"%s\" compresses to \"%s\"", in, want);
	if (hostlist_expand(got, &w, &m, err, sizeof err) == 0) {
		for (i = 0; i < n; i++) {
			for (j = 0; j < m; j++)
				found += strcmp(v[i], w[j]) == 0;
		}
		ok(m == n && found == n, "and \"%s\" expands to the same %zu "
		    "names", got, n);
		hostlist_free(w, m);
	} else
		ok(0, "\"%s\" expands again: %s", got, err);
	free(got);
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
	/* Compressed as scontrol show hostlist writes them. */
	t_compress("n1,n2,n3", "n[1-3]");
	t_compress("n3,n1,n7,n2", "n[1-3,7]");
	t_compress("gpu01,gpu02,gpu04", "gpu[01-02,04]");
	t_compress("n1", "n1");
	t_compress("login,n2,n1", "login,n[1-2]");
	t_compress("a1,b1,a2", "a[1-2],b1");
	t_compress("n9,n10,n11", "n[9-11]");
	t_compress("rack1-n1,rack1-n2,rack2-n1", "rack1-n[1-2],rack2-n1");
	t_compress("gpu[01-16],gpu[20-21]", "gpu[01-16,20-21]");
	t_compress("n01,n1", "n1,n01");
	return (tap_done());
}
