/* fairshare-report.c: the fair-share tree as rows, the figures sshare and
 * gacct --report fairshare print (see struct fairshare_row). */
#include <stdlib.h>

#include "policy/fairshare-int.h"

struct fairshare_report_walk {
	const struct fairshare	*fs;
	struct fairshare_row	*rows;
	size_t			 n;
	double			 decay;		/* stored usage to now's */
};

static double
fairshare_report_ratio(double part, double whole)
{
	return (whole > 0 ? part / whole : 0);
}

/* n's row, then its children's, depth first; norm: n's norm shares. */
static void
fairshare_report_node(struct fairshare_report_walk *w,
    const struct fairshare_node *n, unsigned depth, double norm)
{
	const struct fairshare_node	*root = w->fs->tree.root;
	struct fairshare_row		*r = &w->rows[w->n++];
	size_t				 i;

	r->account = n->account;
	r->user = n->user;
	r->depth = depth;
	r->shares = n->shares;
	r->norm_shares = norm;
	r->raw_usage_s = n->usage * w->decay / 1000;
	r->norm_usage = fairshare_report_ratio(n->usage, root->usage);
	if (n->parent == NULL) {
		r->effective_usage = 1;
		r->level_fs = 0;
	} else {
		r->effective_usage = fairshare_report_ratio(n->usage,
		    n->parent->usage);
		r->level_fs = fairshare_level_fs(n);
	}
	if (n->user != NULL) {
		r->standing = n->standing;
		r->factor = n->factor;
	}
	for (i = 0; i < n->nchild; i++)
		fairshare_report_node(w, n->child[i], depth + 1, norm *
		    (double)n->child[i]->shares / (double)n->child_shares);
}

struct fairshare_row *
fairshare_report(const struct fairshare *fs, int64_t now, size_t *np)
{
	struct fairshare_report_walk	w;

	w.fs = fs;
	w.n = 0;
	w.decay = fairshare_decay(fs, now);
	if ((w.rows = calloc(fs->tree.nnodes, sizeof *w.rows)) == NULL)
		abort();
	fairshare_report_node(&w, fs->tree.root, 0, 1);
	*np = w.n;
	return (w.rows);
}
