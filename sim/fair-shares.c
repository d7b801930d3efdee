/* fair-shares.c: reads gsim --shares FILE; see fair-shares.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/csv.h"
#include "sim/fair-shares.h"

#define FAIR_SHARES_MAX	1000000

struct fair_shares_row {
	bool		 user;
	char		*name;
	char		*parent;	/* "" for the root */
	uint32_t	 shares;
	unsigned	 line;
	bool		 added;
};

struct fair_shares {
	struct fair_shares_row	*rows;
	size_t			 n, size;
};

static const char *const fair_shares_cols[] = { "kind", "name", "parent",
    "shares" };

static void
fair_shares_clear(struct fair_shares *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		free(s->rows[i].name);
		free(s->rows[i].parent);
	}
	free(s->rows);
}

/* The first account row named name, or NULL. */
static const struct fair_shares_row *
fair_shares_account(const struct fair_shares *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		if (!s->rows[i].user && strcmp(s->rows[i].name, name) == 0)
			return (&s->rows[i]);
	}
	return (NULL);
}

/* The first row that names the same account, or user in the same
 * account, as row, or NULL. */
static const struct fair_shares_row *
fair_shares_twin(const struct fair_shares *s,
    const struct fair_shares_row *row)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		if (s->rows[i].user == row->user &&
		    strcmp(s->rows[i].name, row->name) == 0 &&
		    (!row->user || strcmp(s->rows[i].parent, row->parent) == 0))
			return (&s->rows[i]);
	}
	return (NULL);
}

/* Reads the record at hand into row. */
static int
fair_shares_row(const struct csv *c, const int *col,
    const struct fair_shares *s, struct fair_shares_row *row, char *err,
    size_t errlen)
{
	const struct fair_shares_row	*twin;
	const char			*kind = csv_field(c, col[0]);
	char				*where;
	uint64_t			 v;

	memset(row, 0, sizeof *row);
	row->line = c->line;
	if (strcmp(kind, "account") != 0 && strcmp(kind, "user") != 0) {
		snprintf(err, errlen, "%s:%u: kind \"%s\": expected account or "
		    "user", c->path, c->line, kind);
		return (-1);
	}
	row->user = strcmp(kind, "user") == 0;
	if (*csv_field(c, col[1]) == '\0') {
		snprintf(err, errlen, "%s:%u: name is empty; expected the "
		    "%s's name", c->path, c->line, kind);
		return (-1);
	}
	if (csv_uint(c, col[3], "shares", 1, FAIR_SHARES_MAX, &v, err,
	    errlen) != 0)
		return (-1);
	row->shares = (uint32_t)v;
	row->name = xstrdup(csv_field(c, col[1]));
	row->parent = xstrdup(csv_field(c, col[2]));
	if ((twin = fair_shares_twin(s, row)) != NULL) {
		where = !row->user ? xstrdup("") : *row->parent == '\0' ?
		    xstrdup(" under the root") : xasprintf(" in account \"%s\"",
		    row->parent);
		snprintf(err, errlen, "%s:%u: %s \"%s\"%s is given twice (first "
		    "on line %u)", c->path, c->line, kind, row->name, where,
		    twin->line);
		free(where);
		free(row->name);
		free(row->parent);
		return (-1);
	}
	return (0);
}

static int
fair_shares_read(const char *path, struct fair_shares *s, char *err,
    size_t errlen)
{
	struct csv	c;
	char		*have;
	int		 col[4], r;
	size_t		 i;

	if (csv_open(&c, path, err, errlen) != 0)
		return (-1);
	for (i = 0; i < 4; i++) {
		const char *const names[] = { fair_shares_cols[i], NULL };

		if ((col[i] = csv_column(&c, names)) < 0) {
			have = csv_header(&c);
			snprintf(err, errlen, "%s:1: no %s column; the header "
			    "has: %s (expected kind, name, parent, shares)",
			    path, fair_shares_cols[i], have);
			free(have);
			csv_close(&c);
			return (-1);
		}
	}
	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (s->n == s->size) {
			s->size = s->size != 0 ? s->size * 2 : 16;
			s->rows = xreallocarray(s->rows, s->size,
			    sizeof *s->rows);
		}
		if ((r = fair_shares_row(&c, col, s, &s->rows[s->n], err,
		    errlen)) != 0)
			break;
		s->n++;
	}
	csv_close(&c);
	return (r < 0 ? -1 : 0);
}

/* Adds the accounts, each once its parent is in: rows may name a parent
 * before its own row. What is left names a parent that no row gives, or
 * is in a loop of parents. */
static int
fair_shares_accounts(const char *path, struct fair_shares *s,
    struct fair_tree *t, char *err, size_t errlen)
{
	const struct fair_shares_row	*parent;
	struct fair_shares_row		*row;
	size_t				 i;
	bool				 more = true;

	while (more) {
		more = false;
		for (i = 0; i < s->n; i++) {
			row = &s->rows[i];
			parent = fair_shares_account(s, row->parent);
			if (row->user || row->added || (*row->parent != '\0' &&
			    (parent == NULL || !parent->added)))
				continue;
			if (fair_tree_add_account(t, row->name, row->parent,
			    row->shares, err, errlen) < 0)
				return (-1);
			row->added = true;
			more = true;
		}
	}
	for (i = 0; i < s->n; i++) {
		row = &s->rows[i];
		if (!row->user && !row->added &&
		    fair_shares_account(s, row->parent) == NULL) {
			snprintf(err, errlen, "%s:%u: account \"%s\": parent "
			    "\"%s\" is no account of this file", path,
			    row->line, row->name, row->parent);
			return (-1);
		}
	}
	for (i = 0; i < s->n; i++) {
		row = &s->rows[i];
		if (!row->user && !row->added) {
			snprintf(err, errlen, "%s:%u: account \"%s\" is its "
			    "own ancestor: its parents loop back to it", path,
			    row->line, row->name);
			return (-1);
		}
	}
	return (0);
}

int
fair_shares_load(const char *path, struct fair_tree *t, char *err,
    size_t errlen)
{
	struct fair_shares	 s;
	struct fair_shares_row	*row;
	size_t			 i;
	int			 ret = -1;

	memset(&s, 0, sizeof s);
	if (fair_shares_read(path, &s, err, errlen) != 0 ||
	    fair_shares_accounts(path, &s, t, err, errlen) != 0)
		goto out;
	for (i = 0; i < s.n; i++) {
		row = &s.rows[i];
		if (!row->user)
			continue;
		if (*row->parent != '\0' &&
		    fair_shares_account(&s, row->parent) == NULL) {
			snprintf(err, errlen, "%s:%u: user \"%s\": account "
			    "\"%s\" is no account of this file", path,
			    row->line, row->name, row->parent);
			goto out;
		}
		if (fair_tree_add_user(t, row->name, row->parent, row->shares,
		    err, errlen) < 0)
			goto out;
	}
	ret = 0;
out:
	fair_shares_clear(&s);
	return (ret);
}
