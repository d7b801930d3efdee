/* sim-app-load.c: reads an application's tables (Pollux's placements.csv,
 * scalability.csv and validation-BSZ.csv) into the sorted, indexed arrays
 * of sim-app-int.h; see sim-app.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "sim/csv.h"
#include "sim/sim-app-int.h"
#include "sim/sim-app.h"

/* The largest local_bsz, num_replicas and BSZ taken: far beyond any GPU's
 * memory, and small enough for a uint32_t. */
#define SIM_APP_LOAD_MAX	(UINT32_C(1) << 24)

static const char *const sim_app_load_place_cols[] = { "placement",
    "local_bsz", "step_time", "sync_time", NULL };
static const char *const sim_app_load_scale_cols[] = { "num_nodes",
    "num_replicas", "local_bsz", "step_time", "sync_time", NULL };
static const char *const sim_app_load_val_cols[] = { "progress", "grad_sqr",
    "grad_var", NULL };

/* A row read, keyed as its table will be: a placement (sub 0), or
 * num_nodes and num_replicas. */
struct sim_app_load_rec {
	uint64_t		key, sub;
	struct sim_app_pt	pt;
};

struct sim_app_load_recs {
	struct sim_app_load_rec	*v;
	size_t			 n, size;
};

/* A validation file: its BSZ and rows (x progress, a grad_sqr, b
 * grad_var). */
struct sim_app_load_val {
	uint32_t		 bsz;
	char			*file;
	struct sim_app_pt	*rows;
	size_t			 n;
};

/* Finds each of names (NULL-terminated) as a column into col[]; else says
 * which is missing, what the header has and what is expected. */
static int
sim_app_load_columns(const struct csv *c, const char *const *names, int *col,
    char *err, size_t errlen)
{
	const char	*one[2] = { NULL, NULL };
	char		*have;
	size_t		 i, len;

	for (i = 0; names[i] != NULL; i++) {
		one[0] = names[i];
		if ((col[i] = csv_column(c, one)) >= 0)
			continue;
		have = csv_header(c);
		len = (size_t)snprintf(err, errlen, "%s:1: no %s column; the "
		    "header has: %s (expected", c->path, names[i], have);
		free(have);
		for (i = 0; names[i] != NULL && len < errlen; i++)
			len += (size_t)snprintf(err + len, errlen - len,
			    "%s %s", i > 0 ? "," : "", names[i]);
		if (len < errlen)
			snprintf(err + len, errlen - len, ")");
		return (-1);
	}
	return (0);
}

/* Opens appdir/file into c and finds the columns names (NULL-terminated)
 * into col[]; *path (the caller's to free once c is closed) names it. A
 * missing table is said so. */
static int
sim_app_load_open(struct csv *c, const char *appdir, const char *file,
    const char *const *names, int *col, char **path, char *err, size_t errlen)
{
	*path = xasprintf("%s/%s", appdir, file);
	if (access(*path, F_OK) != 0 && errno == ENOENT) {
		snprintf(err, errlen, "%s: no %s; expected Pollux's tables "
		    "there: placements.csv, scalability.csv and "
		    "validation-BSZ.csv", appdir, file);
		goto fail;
	}
	if (csv_open(c, *path, err, errlen) != 0)
		goto fail;
	if (sim_app_load_columns(c, names, col, err, errlen) != 0) {
		csv_close(c);
		goto fail;
	}
	return (0);

fail:
	free(*path);
	*path = NULL;
	return (-1);
}

/* Reads column col as a finite number, not negative when nonneg. */
static int
sim_app_load_num(const struct csv *c, int col, int nonneg, double *v,
    char *err, size_t errlen)
{
	const char	*s = csv_field(c, col);
	char		*end;

	*v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !isfinite(*v) || (nonneg && *v < 0)) {
		snprintf(err, errlen, "%s:%u: %s \"%s\": expected a%s number",
		    c->path, c->line, c->names[col], s,
		    nonneg ? " non-negative" : "");
		return (-1);
	}
	return (0);
}

/* Reads the step_time and sync_time of a row into p. */
static int
sim_app_load_times(const struct csv *c, const int *col,
    struct sim_app_pt *p, char *err, size_t errlen)
{
	return (sim_app_load_num(c, col[0], 1, &p->a, err, errlen) != 0 ||
	    sim_app_load_num(c, col[1], 1, &p->b, err, errlen) != 0 ? -1 : 0);
}

static void
sim_app_load_push(struct sim_app_load_recs *r, uint64_t key, uint64_t sub,
    const struct sim_app_pt *pt)
{
	if (r->n == r->size) {
		r->size = r->size != 0 ? r->size * 2 : 256;
		r->v = xreallocarray(r->v, r->size, sizeof *r->v);
	}
	r->v[r->n].key = key;
	r->v[r->n].sub = sub;
	r->v[r->n++].pt = *pt;
}

static int
sim_app_load_by_key(const void *a, const void *b)
{
	const struct sim_app_load_rec	*x = a, *y = b;

	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	if (x->sub != y->sub)
		return (x->sub < y->sub ? -1 : 1);
	return (x->pt.x < y->pt.x ? -1 : x->pt.x > y->pt.x);
}

/* Sorts r by key, sub and x, and makes rows alike in all three one, of
 * their mean values. */
static void
sim_app_load_merge(struct sim_app_load_recs *r)
{
	size_t	i, j, k, out = 0;

	qsort(r->v, r->n, sizeof *r->v, sim_app_load_by_key);
	for (i = 0; i < r->n; i = j) {
		r->v[out] = r->v[i];
		for (j = i + 1; j < r->n &&
		    sim_app_load_by_key(&r->v[i], &r->v[j]) == 0; j++) {
			r->v[out].pt.a += r->v[j].pt.a;
			r->v[out].pt.b += r->v[j].pt.b;
		}
		k = j - i;
		r->v[out].pt.a /= (double)k;
		r->v[out].pt.b /= (double)k;
		out++;
	}
	r->n = out;
}

/* Indexes r (merged) into t: an outer span a key, an inner span a key and
 * sub. */
static void
sim_app_load_table(const struct sim_app_load_recs *r, struct sim_app_table *t)
{
	const struct sim_app_load_rec	*v = r->v;
	size_t				 i;

	t->outer = xcalloc(r->n, sizeof *t->outer);
	t->inner = xcalloc(r->n, sizeof *t->inner);
	t->pts = xcalloc(r->n, sizeof *t->pts);
	for (i = 0; i < r->n; i++) {
		t->pts[i] = v[i].pt;
		if (i == 0 || v[i].key != v[i - 1].key) {
			t->outer[t->nouter].key = v[i].key;
			t->outer[t->nouter++].first = t->ninner;
		}
		if (i == 0 || v[i].key != v[i - 1].key ||
		    v[i].sub != v[i - 1].sub) {
			t->inner[t->ninner].key = v[i].sub;
			t->inner[t->ninner].first = i;
			t->outer[t->nouter - 1].n++;
			t->ninner++;
		}
		t->inner[t->ninner - 1].n++;
	}
}

/* Reads a placement's digits into its key, nodes and GPUs. */
static int
sim_app_load_placement(const struct csv *c, int col, uint64_t *key,
    uint64_t *nodes, uint64_t *gpus, char *err, size_t errlen)
{
	const char	*s = csv_field(c, col);
	uint32_t	 counts[SIM_APP_MAX_NODES];
	size_t		 n;

	*gpus = 0;
	for (n = 0; n < SIM_APP_MAX_NODES && s[n] >= '1' && s[n] <= '9'; n++) {
		counts[n] = (uint32_t)(s[n] - '0');
		*gpus += counts[n];
	}
	if (n == 0 || s[n] != '\0') {
		snprintf(err, errlen, "%s:%u: placement \"%s\": expected 1 to "
		    "%d digits 1-9, one per node, each the GPUs used there",
		    c->path, c->line, s, SIM_APP_MAX_NODES);
		return (-1);
	}
	*nodes = n;
	return (sim_app_key(counts, n, key));
}

/* Reads placements.csv into app->place, S's points from it into s and the
 * local batch sizes into app. */
static int
sim_app_load_places(struct sim_app *app, const char *appdir,
    struct sim_app_load_recs *s, char *err, size_t errlen)
{
	struct sim_app_load_recs	 p = { NULL, 0, 0 };
	struct sim_app_pt		 pt;
	struct csv			 c;
	char				*path;
	uint64_t			 key, nodes, gpus, bsz;
	int				 col[4], r, ret = -1;

	if (sim_app_load_open(&c, appdir, "placements.csv",
	    sim_app_load_place_cols, col, &path, err, errlen) != 0)
		return (-1);
	app->min_local = UINT32_MAX;
	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (sim_app_load_placement(&c, col[0], &key, &nodes, &gpus,
		    err, errlen) != 0 || csv_uint(&c, col[1], "local_bsz", 1,
		    SIM_APP_LOAD_MAX, &bsz, err, errlen) != 0 ||
		    sim_app_load_times(&c, col + 2, &pt, err, errlen) != 0)
			goto fail;
		pt.x = (double)bsz;
		sim_app_load_push(&p, key, 0, &pt);
		sim_app_load_push(s, nodes, gpus, &pt);
		if (bsz < app->min_local)
			app->min_local = (uint32_t)bsz;
		if (bsz > app->max_local)
			app->max_local = (uint32_t)bsz;
	}
	if (r < 0)
		goto fail;
	if (p.n == 0) {
		snprintf(err, errlen, "%s: no rows after the header; expected "
		    "a row per placement and local_bsz measured", path);
		goto fail;
	}
	sim_app_load_merge(&p);
	sim_app_load_table(&p, &app->place);
	ret = 0;

fail:
	csv_close(&c);
	free(path);
	free(p.v);
	return (ret);
}

/* Adds scalability.csv's rows to s. */
static int
sim_app_load_scale(const char *appdir, struct sim_app_load_recs *s,
    char *err, size_t errlen)
{
	struct sim_app_pt	 pt;
	struct csv		 c;
	char			*path;
	uint64_t		 nodes, gpus, bsz;
	int			 col[5], r;

	if (sim_app_load_open(&c, appdir, "scalability.csv",
	    sim_app_load_scale_cols, col, &path, err, errlen) != 0)
		return (-1);
	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (csv_uint(&c, col[0], "num_nodes", 1, SIM_APP_LOAD_MAX,
		    &nodes, err, errlen) != 0 || csv_uint(&c, col[1],
		    "num_replicas", 1, SIM_APP_LOAD_MAX, &gpus, err,
		    errlen) != 0 || csv_uint(&c, col[2], "local_bsz", 1,
		    SIM_APP_LOAD_MAX, &bsz, err, errlen) != 0 ||
		    sim_app_load_times(&c, col + 3, &pt, err, errlen) != 0) {
			r = -1;
			break;
		}
		pt.x = (double)bsz;
		sim_app_load_push(s, nodes, gpus, &pt);
	}
	csv_close(&c);
	free(path);
	return (r < 0 ? -1 : 0);
}

/* Reads the rows of the validation file v. */
static int
sim_app_load_val(const char *appdir, struct sim_app_load_val *v, char *err,
    size_t errlen)
{
	struct sim_app_pt	*p;
	struct csv		 c;
	char			*path;
	size_t			 size = 0;
	int			 col[3], r;

	if (sim_app_load_open(&c, appdir, v->file, sim_app_load_val_cols, col,
	    &path, err, errlen) != 0)
		return (-1);
	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (v->n == size) {
			size = size != 0 ? size * 2 : 128;
			v->rows = xreallocarray(v->rows, size, sizeof *v->rows);
		}
		p = &v->rows[v->n];
		if (sim_app_load_num(&c, col[0], 1, &p->x, err, errlen) != 0 ||
		    sim_app_load_num(&c, col[1], 0, &p->a, err, errlen) != 0 ||
		    sim_app_load_num(&c, col[2], 0, &p->b, err, errlen) != 0) {
			r = -1;
			break;
		}
		v->n++;
	}
	if (r == 0 && v->n == 0) {
		snprintf(err, errlen, "%s: no rows after the header; expected "
		    "one per epoch", path);
		r = -1;
	}
	csv_close(&c);
	free(path);
	return (r < 0 ? -1 : 0);
}

static int
sim_app_load_by_bsz(const void *a, const void *b)
{
	const struct sim_app_load_val	*x = a, *y = b;

	if (x->bsz != y->bsz)
		return (x->bsz < y->bsz ? -1 : 1);
	return (strcmp(x->file, y->file));
}

/* Lists appdir's validation-BSZ.csv files by BSZ into *vals. */
static int
sim_app_load_list(const char *appdir, struct sim_app_load_val **vals,
    size_t *n, char *err, size_t errlen)
{
	struct dirent	*d;
	DIR		*dp;
	const char	*s;
	size_t		 len, size = 0, i;
	unsigned long	 bsz;

	if ((dp = opendir(appdir)) == NULL) {
		snprintf(err, errlen, "%s: %s", appdir, strerror(errno));
		return (-1);
	}
	while ((d = readdir(dp)) != NULL) {
		if (strncmp(d->d_name, "validation-", 11) != 0)
			continue;
		s = d->d_name + 11;
		len = strspn(s, "0123456789");
		if (len == 0 || len > 9 || strcmp(s + len, ".csv") != 0)
			continue;
		if (*n == size) {
			size = size != 0 ? size * 2 : 16;
			*vals = xreallocarray(*vals, size, sizeof **vals);
		}
		bsz = strtoul(s, NULL, 10);
		memset(&(*vals)[*n], 0, sizeof **vals);
		(*vals)[*n].bsz = (uint32_t)bsz;
		(*vals)[(*n)++].file = xstrdup(d->d_name);
		if (bsz == 0 || bsz > SIM_APP_LOAD_MAX) {
			snprintf(err, errlen, "%s/%s: expected a total batch "
			    "size from 1 to %u in the name", appdir,
			    d->d_name, SIM_APP_LOAD_MAX);
			closedir(dp);
			return (-1);
		}
	}
	closedir(dp);
	if (*n == 0) {
		snprintf(err, errlen, "%s: no validation-BSZ.csv; expected one "
		    "per total batch size validated", appdir);
		return (-1);
	}
	qsort(*vals, *n, sizeof **vals, sim_app_load_by_bsz);
	for (i = 1; i < *n; i++) {
		if ((*vals)[i].bsz == (*vals)[i - 1].bsz) {
			snprintf(err, errlen, "%s/%s and %s are both of BSZ "
			    "%u; expected one file per size", appdir,
			    (*vals)[i - 1].file, (*vals)[i].file,
			    (*vals)[i].bsz);
			return (-1);
		}
	}
	return (0);
}

/* Reads the validation files into app's progress and gradient rows. */
static int
sim_app_load_vals(struct sim_app *app, const char *appdir, char *err,
    size_t errlen)
{
	struct sim_app_load_val	*v = NULL;
	struct sim_app_pt	*p;
	size_t			 n = 0, i, e, row;
	int			 r = -1;

	if (sim_app_load_list(appdir, &v, &n, err, errlen) != 0)
		goto fail;
	app->epochs = UINT32_MAX;
	for (i = 0; i < n; i++) {
		if (sim_app_load_val(appdir, &v[i], err, errlen) != 0)
			goto fail;
		if (v[i].n < app->epochs)
			app->epochs = (uint32_t)v[i].n;
		if (v[i].n > app->nrows)
			app->nrows = v[i].n;
	}
	app->nval = n;
	app->grad = xcalloc(app->nrows * n, sizeof *app->grad);
	app->progress = xcalloc((size_t)app->epochs + 1,
	    sizeof *app->progress);
	for (e = 0; e < app->nrows; e++) {
		for (i = 0; i < n; i++) {
			row = e < v[i].n ? e : v[i].n - 1;
			p = &app->grad[e * n + i];
			*p = v[i].rows[row];
			p->x = v[i].bsz;
			if (e < app->epochs && (i == 0 ||
			    v[i].rows[row].x < app->progress[e + 1]))
				app->progress[e + 1] = v[i].rows[row].x;
		}
	}
	r = 0;

fail:
	for (i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].rows);
	}
	free(v);
	return (r);
}

struct sim_app *
sim_app_load(const char *dir, const char *name, uint32_t max_local,
    char *err, size_t errlen)
{
	struct sim_app_load_recs	 s = { NULL, 0, 0 };
	struct sim_app			*app;
	char				*appdir;

	if (*name == '\0' || strchr(name, '/') != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		snprintf(err, errlen, "application \"%s\": expected the name "
		    "of a folder in %s", name, dir);
		return (NULL);
	}
	app = xcalloc(1, sizeof *app);
	app->name = xstrdup(name);
	appdir = xasprintf("%s/%s", dir, name);
	if (sim_app_load_places(app, appdir, &s, err, errlen) != 0)
		goto fail;
	/* S averages placements.csv's rows alike first, so a point measured
	 * on many placements counts once beside scalability.csv's. */
	sim_app_load_merge(&s);
	if (sim_app_load_scale(appdir, &s, err, errlen) != 0)
		goto fail;
	sim_app_load_merge(&s);
	sim_app_load_table(&s, &app->scale);
	if (max_local != 0) {
		if (max_local < app->min_local) {
			snprintf(err, errlen, "%s: local batch size cap %u: "
			    "expected at least placements.csv's smallest "
			    "local_bsz, %u", appdir, max_local,
			    app->min_local);
			goto fail;
		}
		app->max_local = max_local;
	}
	if (sim_app_load_vals(app, appdir, err, errlen) != 0)
		goto fail;
	free(s.v);
	free(appdir);
	return (app);

fail:
	free(s.v);
	free(appdir);
	sim_app_free(app);
	return (NULL);
}
