/* array.c: job-array task sets (array.h).
 *
 * Parsing merges the items of one step and residue as intervals, marks
 * what is left in a bitmap over the span of the tasks (so a repeated item
 * costs its length once, however often it is written), reads the bitmap
 * back as runs of consecutive tasks and compresses those by the rule in
 * array.h. The compression reads "pieces", ranges in ascending order, and
 * moves over a piece whose step is the run's in one jump; array_remove()
 * feeds it the few ranges around the task taken, then the rest unchanged,
 * and stops as soon as a new range would start where an old one did. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

static const char array_forms[] = "give TASK or FIRST-LAST[:STEP], e.g. 7, "
    "0-99 or 0-20:2, joined by ',' and optionally %N";

/* What a compression reads: head's pieces, then tail's. */
struct array_src {
	const struct array_range	*head, *tail;
	size_t				 nhead, ntail;
};

/* A task of a source and the piece it is in. */
struct array_pos {
	size_t		 i;
	uint32_t	 v;
};

static void __attribute__((format(printf, 5, 6)))
array_err(char *err, size_t errlen, const char *s, size_t len,
    const char *fmt, ...)
{
	char	what[256], q[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	safe_text(s, len < 48 ? len : 48, q, sizeof q);
	snprintf(err, errlen, "'%s': %s; %s", q, what, array_forms);
}

/* Reads a decimal number at *pp (before end) into *v. Returns 0, -1 when
 * there is no digit, -2 when it is above max; *pp is left after the
 * digits. */
static int
array_num(const char **pp, const char *end, uint32_t max, uint32_t *v)
{
	const char	*p = *pp;
	uint64_t	 x = 0;

	if (p == end || !isdigit((unsigned char)*p))
		return (-1);
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if ((x = x * 10 + (uint64_t)(*p - '0')) > max)
			x = (uint64_t)max + 1;	/* no overflow, however long */
	}
	*pp = p;
	*v = (uint32_t)x;
	return (x > max ? -2 : 0);
}

static void
array_push(struct array_range **v, size_t *n, size_t *cap,
    struct array_range r)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 8 : *cap * 2;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = r;
}

/* One item, FIRST[-LAST[:STEP]], len bytes at p, appended to it. */
static int
array_item(const char *p, size_t len, struct array_range **it, size_t *n,
    size_t *cap, char *err, size_t errlen)
{
	const char		*q = p, *end = p + len, *why = NULL;
	struct array_range	 r = { 0, 0, 1 };
	bool			 dash;
	int			 rc;

	rc = array_num(&q, end, ARRAY_TASK_MAX, &r.first);
	r.last = r.first;
	if ((dash = rc == 0 && q < end && *q == '-')) {
		q++;
		rc = array_num(&q, end, ARRAY_TASK_MAX, &r.last);
	}
	if (dash && rc == 0 && q < end && *q == ':') {
		q++;
		rc = array_num(&q, end, ARRAY_TASK_MAX, &r.step);
	}
	if (rc == -2) {
		array_err(err, errlen, p, len, "a number above %u, the "
		    "highest task", ARRAY_TASK_MAX);
		return (-1);
	}
	if (rc == -1)
		why = "expected whole numbers";
	else if (q < end)
		why = *q == ':' ? "a step needs a range, FIRST-LAST:STEP" :
		    "unexpected text after the tasks";
	else if (r.step == 0)
		why = "a step of 0";
	else if (r.last < r.first)
		why = "the last task is below the first";
	if (why != NULL) {
		array_err(err, errlen, p, len, "%s", why);
		return (-1);
	}
	r.last -= (r.last - r.first) % r.step;
	if ((r.last - r.first) / r.step >= ARRAY_MAX_TASKS) {
		array_err(err, errlen, p, len, "%u tasks, more than %u in "
		    "one array", (r.last - r.first) / r.step + 1,
		    ARRAY_MAX_TASKS);
		return (-1);
	}
	array_push(it, n, cap, r);
	return (0);
}

/* %N after the items, at p (the '%'). */
static int
array_throttle(const char *p, uint32_t *throttle, char *err, size_t errlen)
{
	const char	*q = p + 1, *end = p + strlen(p);

	if (array_num(&q, end, ARRAY_MAX_TASKS, throttle) != 0 || q != end ||
	    *throttle == 0) {
		array_err(err, errlen, p, (size_t)(end - p), "expected %%N, "
		    "at most N tasks running at once, N from 1 to %u",
		    ARRAY_MAX_TASKS);
		return (-1);
	}
	return (0);
}

/* Orders by step, then residue, then first, so that items which could
 * merge as intervals are neighbours. */
static int
array_cmp_class(const void *va, const void *vb)
{
	const struct array_range	*a = va, *b = vb;
	uint32_t			 ra = a->first % a->step;
	uint32_t			 rb = b->first % b->step;

	if (a->step != b->step)
		return (a->step < b->step ? -1 : 1);
	if (ra != rb)
		return (ra < rb ? -1 : 1);
	return (a->first < b->first ? -1 : a->first > b->first);
}

/* Merges overlapping or touching items of one step and residue, in
 * place; returns how many are left. */
static size_t
array_merge(struct array_range *it, size_t n)
{
	size_t	i, m = 0;

	qsort(it, n, sizeof *it, array_cmp_class);
	for (i = 0; i < n; i++) {
		if (m > 0 && it[m - 1].step == it[i].step &&
		    it[m - 1].first % it[i].step ==
		    it[i].first % it[i].step &&
		    it[i].first <= it[m - 1].last + it[i].step) {
			if (it[i].last > it[m - 1].last)
				it[m - 1].last = it[i].last;
		} else
			it[m++] = it[i];
	}
	return (m);
}

/* Marks the merged items in a bitmap from the lowest task and reads it
 * back as runs of consecutive tasks into *runs. Returns how many tasks
 * there are, stopping early past ARRAY_MAX_TASKS. The merged items of one
 * step and residue are disjoint, so marking costs at most that many tasks
 * for each such class, however often the text repeats an item. */
static uint32_t
array_runs(const struct array_range *it, size_t n, struct array_range **runs,
    size_t *nruns)
{
	uint64_t	*w, bit, x;
	uint32_t	 lo = it[0].first, hi = it[0].last, v, count = 0;
	size_t		 i, cap = 0, nw;

	for (i = 1; i < n; i++) {
		lo = it[i].first < lo ? it[i].first : lo;
		hi = it[i].last > hi ? it[i].last : hi;
	}
	w = xcalloc((nw = (hi - lo) / 64 + 1), sizeof *w);
	for (i = 0; i < n && count <= ARRAY_MAX_TASKS; i++) {
		for (v = it[i].first - lo; v <= it[i].last - lo &&
		    count <= ARRAY_MAX_TASKS; v += it[i].step) {
			bit = 1ULL << (v % 64);
			count += (w[v / 64] & bit) == 0;
			w[v / 64] |= bit;
		}
	}
	*runs = NULL;
	*nruns = 0;
	for (i = 0; i < nw && count <= ARRAY_MAX_TASKS; i++) {
		for (x = w[i]; x != 0; x &= x - 1) {
			v = lo + (uint32_t)(i * 64 +
			    (size_t)__builtin_ctzll(x));
			if (*nruns > 0 && (*runs)[*nruns - 1].last + 1 == v)
				(*runs)[*nruns - 1].last = v;
			else
				array_push(runs, nruns, &cap,
				    (struct array_range){ v, v, 1 });
		}
	}
	free(w);
	return (count);
}

static const struct array_range *
array_src_at(const struct array_src *src, size_t i)
{
	if (i < src->nhead)
		return (&src->head[i]);
	if (i - src->nhead < src->ntail)
		return (&src->tail[i - src->nhead]);
	return (NULL);
}

/* Moves p to the next task; false, p unchanged, at the end. */
static bool
array_pos_next(const struct array_src *src, struct array_pos *p)
{
	const struct array_range	*r = array_src_at(src, p->i);

	if (p->v < r->last) {
		p->v += r->step;
		return (true);
	}
	if ((r = array_src_at(src, p->i + 1)) == NULL)
		return (false);
	p->i++;
	p->v = r->first;
	return (true);
}

/* The range array.h's rule takes from p; p is left on its last task.
 * Within a piece of another step a run moves at most one task, so this
 * costs the pieces it spans, not its tasks. */
static struct array_range
array_take(const struct array_src *src, struct array_pos *p)
{
	struct array_range		 out = { p->v, p->v, 1 };
	struct array_pos		 q1 = *p, q2;
	const struct array_range	*r;
	uint32_t			 d;

	if (!array_pos_next(src, &q1))
		return (out);
	d = q1.v - p->v;
	q2 = q1;
	if (d > 1 && (!array_pos_next(src, &q2) || q2.v - q1.v != d))
		return (out);
	for (;;) {
		r = array_src_at(src, p->i);
		if (r->step == d && p->v < r->last) {
			p->v = r->last;
			continue;
		}
		q1 = *p;
		if (!array_pos_next(src, &q1) || q1.v != p->v + d)
			break;
		*p = q1;
	}
	out.last = p->v;
	out.step = d;
	return (out);
}

/* Compresses src into *out (*nout ranges, the caller frees *out). With
 * resync, stops where a range would start on the first task of a tail
 * piece: from there on the greedy rule sees what it saw when it made the
 * tail, so the tail stands. Returns that piece's index in the tail, or
 * ntail. */
static size_t
array_compress(const struct array_src *src, bool resync,
    struct array_range **out, size_t *nout)
{
	const struct array_range	*r = array_src_at(src, 0);
	struct array_pos		 p = { 0, r != NULL ? r->first : 0 };
	size_t				 cap = 0;

	*out = NULL;
	*nout = 0;
	if (r == NULL)
		return (src->ntail);
	for (;;) {
		if (resync && p.i >= src->nhead &&
		    p.v == src->tail[p.i - src->nhead].first)
			return (p.i - src->nhead);
		array_push(out, nout, &cap, array_take(src, &p));
		if (!array_pos_next(src, &p))
			return (src->ntail);
	}
}

/* Merges the items of s into a's ranges. */
static int
array_build(struct array_set *a, struct array_range *it, size_t n,
    const char *s, char *err, size_t errlen)
{
	struct array_src	 src = { NULL, NULL, 0, 0 };
	struct array_range	*runs;
	size_t			 nruns;

	n = array_merge(it, n);
	if (array_runs(it, n, &runs, &nruns) > ARRAY_MAX_TASKS) {
		array_err(err, errlen, s, strlen(s), "more than %u tasks in "
		    "one array", ARRAY_MAX_TASKS);
		free(runs);
		return (-1);
	}
	src.head = runs;
	src.nhead = nruns;
	array_compress(&src, false, &a->r, &a->n);
	free(runs);
	return (0);
}

int
array_parse(const char *s, struct array_set *a, char *err, size_t errlen)
{
	struct array_range	*it = NULL;
	size_t			 n = 0, cap = 0;
	const char		*p, *sep, *pct = strchr(s, '%');

	memset(a, 0, sizeof *a);
	if (*s == '\0') {
		snprintf(err, errlen, "empty; %s", array_forms);
		return (-1);
	}
	for (p = s;; p = sep + 1) {
		sep = p + strcspn(p, ",%");
		if (sep == p) {
			array_err(err, errlen, s, strlen(s), "an empty item");
			goto fail;
		}
		if (array_item(p, (size_t)(sep - p), &it, &n, &cap, err,
		    errlen) == -1)
			goto fail;
		if (*sep != ',')
			break;
	}
	if (pct != NULL && array_throttle(pct, &a->throttle, err,
	    errlen) == -1)
		goto fail;
	if (array_build(a, it, n, s, err, errlen) == -1)
		goto fail;
	free(it);
	return (0);
fail:
	free(it);
	array_free(a);
	return (-1);
}

void
array_free(struct array_set *a)
{
	free(a->r);
	memset(a, 0, sizeof *a);
}

static void __attribute__((format(printf, 4, 5)))
array_put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	if (*at < len)
		n = vsnprintf(buf + *at, len - *at, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

size_t
array_format(const struct array_set *a, bool throttle, char *buf,
    size_t len)
{
	const struct array_range	*r;
	const char			*sep;
	size_t				 i, at = 0;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < a->n; i++) {
		r = &a->r[i];
		sep = i > 0 ? "," : "";
		if (r->first == r->last)
			array_put(buf, len, &at, "%s%u", sep, r->first);
		else if (r->step == 1)
			array_put(buf, len, &at, "%s%u-%u", sep, r->first,
			    r->last);
		else
			array_put(buf, len, &at, "%s%u-%u:%u", sep, r->first,
			    r->last, r->step);
	}
	if (throttle && a->throttle > 0)
		array_put(buf, len, &at, "%%%u", a->throttle);
	return (at);
}

uint32_t
array_count(const struct array_set *a)
{
	uint32_t	count = 0;
	size_t		i;

	for (i = 0; i < a->n; i++)
		count += (a->r[i].last - a->r[i].first) / a->r[i].step + 1;
	return (count);
}

uint32_t
array_min(const struct array_set *a)
{
	return (a->n > 0 ? a->r[0].first : 0);
}

uint32_t
array_max(const struct array_set *a)
{
	return (a->n > 0 ? a->r[a->n - 1].last : 0);
}

/* The index of the first range that ends at or above task; n if none. */
static size_t
array_find(const struct array_set *a, uint32_t task)
{
	size_t	lo = 0, hi = a->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a->r[mid].last < task)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

bool
array_has(const struct array_set *a, uint32_t task)
{
	size_t	i = array_find(a, task);

	return (i < a->n && task >= a->r[i].first &&
	    (task - a->r[i].first) % a->r[i].step == 0);
}

bool
array_next(const struct array_set *a, uint32_t after, bool first,
    uint32_t *task)
{
	const struct array_range	*r;
	uint32_t			 from = first ? 0 : after + 1;
	size_t				 i;

	if (!first && after == UINT32_MAX)
		return (false);
	if ((i = array_find(a, from)) == a->n)
		return (false);
	r = &a->r[i];
	if (from <= r->first)
		*task = r->first;
	else
		*task = r->first + ((from - r->first) + r->step - 1) /
		    r->step * r->step;
	return (true);
}

/* Replaces a's ranges [from, to) with out's nout. */
static void
array_splice(struct array_set *a, size_t from, size_t to,
    const struct array_range *out, size_t nout)
{
	size_t	n = a->n - (to - from) + nout;

	if (n > a->n)
		a->r = xreallocarray(a->r, n, sizeof *a->r);
	memmove(a->r + from + nout, a->r + to, (a->n - to) * sizeof *a->r);
	if (nout > 0)
		memcpy(a->r + from, out, nout * sizeof *out);
	if ((a->n = n) == 0) {
		free(a->r);
		a->r = NULL;
	}
}

/* Which ranges can change: the rule looks at most two tasks past a
 * range's first and one past its last, and the two ranges before task's
 * hold at least two tasks, so ranges from two before on are rebuilt. */
bool
array_remove(struct array_set *a, uint32_t task)
{
	struct array_range	 head[4], *out, r;
	struct array_src	 src;
	size_t			 i = array_find(a, task), from, nh, j, nout;

	if (!array_has(a, task))
		return (false);
	r = a->r[i];
	from = i >= 2 ? i - 2 : 0;
	nh = i - from;
	memcpy(head, a->r + from, nh * sizeof *head);
	if (task > r.first)
		head[nh++] = (struct array_range){ r.first, task - r.step,
		    r.step };
	if (task < r.last)
		head[nh++] = (struct array_range){ task + r.step, r.last,
		    r.step };
	src = (struct array_src){ head, a->r + i + 1, nh, a->n - i - 1 };
	j = array_compress(&src, true, &out, &nout);
	array_splice(a, from, i + 1 + j, out, nout);
	free(out);
	return (true);
}

/* The job id s is refused; why, when not "", says more. */
static int
array_jobid_bad(const char *s, const char *why, const char *more, char *err,
    size_t errlen)
{
	char	q[256];

	safe_text(s, strlen(s) < 48 ? strlen(s) : 48, q, sizeof q);
	if (more != NULL)
		snprintf(err, errlen, "job id '%s': %s", q, more);
	else
		snprintf(err, errlen, "job id '%s': %s%sexpected ID, ID_TASK "
		    "or ID_[TASKS], ID a whole number from 1", q, why,
		    *why != '\0' ? "; " : "");
	return (-1);
}

int
array_jobid_parse(const char *s, uint64_t *id, struct array_set *tasks,
    char *err, size_t errlen)
{
	const char	*p;
	char		*in, e[512];
	uint64_t	 x = 0;
	size_t		 len;
	int		 rc;

	memset(tasks, 0, sizeof *tasks);
	*id = 0;
	for (p = s; isdigit((unsigned char)*p); p++) {
		if (x > (INT64_MAX - (uint64_t)(*p - '0')) / 10)
			return (array_jobid_bad(s, "", NULL, err, errlen));
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (p == s || x == 0 || (*p != '\0' && *p != '_'))
		return (array_jobid_bad(s, "", NULL, err, errlen));
	if (*p == '_') {
		/* ID_TASK or ID_[TASKS]; both read by array_parse. */
		len = strlen(++p);
		if (*p == '[' && len >= 3 && p[len - 1] == ']') {
			p++;
			len -= 2;
		} else if (len == 0 || strspn(p, "0123456789") != len)
			return (array_jobid_bad(s, "", NULL, err, errlen));
		if (memchr(p, '%', len) != NULL)
			return (array_jobid_bad(s, "no %N here", NULL, err,
			    errlen));
		in = xstrndup(p, len);
		rc = array_parse(in, tasks, e, sizeof e);
		free(in);
		if (rc == -1)
			return (array_jobid_bad(s, "", e, err, errlen));
	}
	*id = x;
	return (0);
}
