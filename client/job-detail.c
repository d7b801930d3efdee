/* job-detail.c: everything about one job, line by line (job-detail.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/job-detail.h"
#include "common/outpat.h"

/* Hands fn one line made as printf makes it. */
static void
job_detail_emit(job_detail_fn fn, void *arg, const char *fmt, ...)
{
	char	line[16384];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fn(arg, line);
}

/* "label:<pad> text", or for an empty label a continuation line lined up
 * under the text. */
static void
job_detail_field(job_detail_fn fn, void *arg, const char *label, size_t w,
    const char *text)
{
	if (*label == '\0')
		job_detail_emit(fn, arg, "%*s%s", (int)w + 2, "", text);
	else
		job_detail_emit(fn, arg, "%s:%*s %s", label, (int)(w >
		    strlen(label) ? w - strlen(label) : 0), "", text);
}

/* One output file of a job as its node opens it: the pattern expanded as
 * gnoded expands it (outpat_expand()), against the working directory. */
static void
job_detail_file_name(const struct job_row *row, const char *pattern,
    const struct outpat_vars *v, char *out, size_t len)
{
	char	path[PATH_MAX], workdir[PATH_MAX], perr[256];

	if (outpat_expand(pattern, v, path, sizeof path, perr,
	    sizeof perr) == -1) {
		snprintf(out, len, "%s (%s)", pattern, perr);
		return;
	}
	jscan_string(&row->v[JF_WORKDIR], workdir, sizeof workdir);
	if (path[0] == '/' || workdir[0] == '\0')
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%s%s%s", workdir,
		    workdir[strlen(workdir) - 1] == '/' ? "" : "/", path);
}

/* The pattern's variables for row; the part's are set by the caller. */
static void
job_detail_vars(const struct job_row *row, struct outpat_vars *v,
    char *name, size_t namelen, char *user, size_t userlen)
{
	long long	n;

	jscan_string(&row->v[JF_NAME], name, namelen);
	jscan_string(&row->v[JF_USER], user, userlen);
	memset(v, 0, sizeof *v);
	v->id = jscan_int(&row->v[JF_ID], &n) == 0 ? (uint64_t)n : 0;
	v->name = name;
	v->user = user;
	v->restarts = jscan_int(&row->v[JF_RESTARTS], &n) == 0 && n > 0 ?
	    (unsigned)n : 0;
	v->rank = -1;
	v->node_rank = -1;
	v->array_job = jscan_int(&row->v[JF_ARRAY_JOB_ID], &n) == 0 && n > 0 ?
	    (uint64_t)n : 0;
	v->array_task = jscan_int(&row->v[JF_ARRAY_TASK_ID], &n) == 0 ?
	    (long)n : -1;
}

int
job_detail_file(const struct job_row *row, enum job_field k, char *out,
    size_t len)
{
	struct outpat_vars	 v;
	char			 pattern[PATH_MAX], name[512], user[256];
	char			 nodes[8192], *comma;

	jscan_string(&row->v[k], pattern, sizeof pattern);
	if (*pattern == '\0')
		return (-1);
	job_detail_vars(row, &v, name, sizeof name, user, sizeof user);
	jscan_string(&row->v[JF_NODES], nodes, sizeof nodes);
	if (outpat_per_part(pattern) && *nodes != '\0') {
		if ((comma = strchr(nodes, ',')) != NULL)
			*comma = '\0';
		v.node = nodes;
		v.rank = 0;
		v.node_rank = 0;
	}
	job_detail_file_name(row, pattern, &v, out, len);
	return (0);
}

/* stdout and stderr: the files, not the pattern. A multi-node job whose
 * pattern names the part (%N, %t) has a file per part, one line each, in
 * rank order (the nodes field is); before it has nodes, those sequences
 * stay as written. */
static void
job_detail_files(const struct job_row *row, enum job_field k,
    const char *label, size_t w, job_detail_fn fn, void *arg)
{
	struct outpat_vars	 v;
	char			 pattern[PATH_MAX], name[512], user[256];
	char			 nodes[8192], file[2 * PATH_MAX + 64];
	char			 line[sizeof file + 300];
	char			*node, *next;
	long			 rank = 0;

	jscan_string(&row->v[k], pattern, sizeof pattern);
	if (*pattern == '\0') {
		job_detail_field(fn, arg, label, w, "-");
		return;
	}
	job_detail_vars(row, &v, name, sizeof name, user, sizeof user);
	jscan_string(&row->v[JF_NODES], nodes, sizeof nodes);
	if (!outpat_per_part(pattern) || *nodes == '\0') {
		job_detail_file_name(row, pattern, &v, file, sizeof file);
		job_detail_field(fn, arg, label, w, file);
		return;
	}
	for (node = nodes; node != NULL; node = next, rank++) {
		if ((next = strchr(node, ',')) != NULL)
			*next++ = '\0';
		v.node = node;
		v.rank = rank;
		v.node_rank = rank;
		job_detail_file_name(row, pattern, &v, file, sizeof file);
		/* Node names are short (req-hello.c checks them). */
		snprintf(line, sizeof line, "%s (rank %ld, %.255s)", file, rank,
		    node);
		/* The label on the first line only; the others line up. */
		job_detail_field(fn, arg, rank == 0 ? label : "", w, line);
	}
}

/* The history: one line per state change, "WHEN  FROM -> TO  what", so the
 * runs of a requeued job read in order. */
static void
job_detail_history(const struct jscan_val *history, job_detail_fn fn,
    void *arg)
{
	struct jscan_val	 ev, v;
	size_t			 pos = 0;
	long long		 when;
	time_t			 t;
	struct tm		 tm;
	char			 date[32], from[64], to[64], detail[1024];

	fn(arg, "history:");
	while (jscan_element(history, &pos, &ev) == 1) {
		date[0] = from[0] = to[0] = detail[0] = '\0';
		if (jscan_get(&ev, "time", &v) == 0 && jscan_int(&v,
		    &when) == 0) {
			t = (time_t)when;
			if (localtime_r(&t, &tm) != NULL)
				strftime(date, sizeof date,
				    "%Y-%m-%dT%H:%M:%S", &tm);
		}
		if (jscan_get(&ev, "from", &v) == 0)
			jscan_string(&v, from, sizeof from);
		if (jscan_get(&ev, "to", &v) == 0)
			jscan_string(&v, to, sizeof to);
		if (jscan_get(&ev, "detail", &v) == 0)
			jscan_string(&v, detail, sizeof detail);
		job_detail_emit(fn, arg, "  %s  %s -> %s%s%s", date,
		    *from == '\0' ? "(new)" : from, to, *detail != '\0' ?
		    "  " : "", detail);
	}
}

void
job_detail(const struct job_row *row, job_detail_fn fn, void *arg)
{
	struct jscan_val	 key, val;
	char			 buf[8192], keybuf[256];
	const char		*s, *name;
	size_t			 i, w = 0, pos = 0;

	for (i = 0; i < job_row_ncols; i++) {
		if (strlen(job_row_cols[i].name) > w)
			w = strlen(job_row_cols[i].name);
	}
	for (i = 0; i < job_row_ncols; i++) {
		name = job_row_cols[i].name;
		if (strcmp(name, "stdout") == 0) {
			job_detail_files(row, JF_STDOUT, name, w, fn, arg);
			continue;
		}
		if (strcmp(name, "stderr") == 0) {
			job_detail_files(row, JF_STDERR, name, w, fn, arg);
			continue;
		}
		buf[0] = '\0';
		s = job_row_cols[i].get(row, NULL, buf, sizeof buf);
		job_detail_field(fn, arg, name, w, s == NULL || *s == '\0' ?
		    "-" : s);
	}
	/* Anything newer controllers send that this client has no field
	 * for, as it came. */
	while (jscan_member(&row->obj, &pos, &key, &val) == 1) {
		if (job_row_knows(&key) || jscan_key_is(&key, "history"))
			continue;
		jscan_string(&key, keybuf, sizeof keybuf);
		job_detail_emit(fn, arg, "%s:%*s %.*s", keybuf, (int)(w >
		    strlen(keybuf) ? w - strlen(keybuf) : 0), "",
		    (int)(val.n < 8192 ? val.n : 8192), val.p);
	}
	pos = 0;
	while (jscan_member(&row->obj, &pos, &key, &val) == 1) {
		if (jscan_key_is(&key, "history") && val.type == JSCAN_ARRAY)
			job_detail_history(&val, fn, arg);
	}
}
