/* slurm-fmt.c: Slurm's ways of writing things (slurm-fmt.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "client/job-filter.h"
#include "slurm/slurm-fmt.h"

static const struct {
	const char	*name;
	const char	*code;
} slurm_states[JOB_STATE_COUNT] = {
	[JOB_PENDING] = { "PENDING", "PD" },
	[JOB_HELD] = { "PENDING", "PD" },
	[JOB_RUNNING] = { "RUNNING", "R" },
	[JOB_PREEMPTING] = { "RUNNING", "R" },
	[JOB_SUSPENDED] = { "SUSPENDED", "S" },
	[JOB_COMPLETED] = { "COMPLETED", "CD" },
	[JOB_FAILED] = { "FAILED", "F" },
	[JOB_CANCELLED] = { "CANCELLED", "CA" },
	[JOB_TIMEOUT] = { "TIMEOUT", "TO" },
	[JOB_NODE_FAIL] = { "NODE_FAIL", "NF" },
	[JOB_OUT_OF_MEMORY] = { "OUT_OF_MEMORY", "OOM" },
};

const char *
slurm_fmt_row_str(const struct job_row *r, enum job_field k, char *buf,
    size_t len)
{
	if (r->v[k].type == JSCAN_NONE || r->v[k].type == JSCAN_NULL)
		return ("");
	jscan_string(&r->v[k], buf, len);
	return (buf);
}

long long
slurm_fmt_row_int(const struct job_row *r, enum job_field k)
{
	long long	v;

	/* A job's GPUs: an elastic one's while it runs, what it holds. */
	if (k == JF_GPUS && (v = job_row_gpus_held(r)) >= 0)
		return (v);
	return (jscan_int(&r->v[k], &v) == 0 ? v : 0);
}

enum job_state
slurm_fmt_row_state(const struct job_row *r)
{
	enum job_state	s;
	char		buf[32];

	if (job_state_parse(slurm_fmt_row_str(r, JF_STATE, buf, sizeof buf),
	    &s) == -1)
		return (JOB_PENDING);
	return (s);
}

long long
slurm_fmt_row_tasks(const struct job_row *r, long long nodes)
{
	char		 buf[32];
	long long	 t;

	slurm_fmt_row_str(r, JF_TASKS_PER_NODE, buf, sizeof buf);
	if (strcmp(buf, "gpu") == 0)
		return (nodes > 0 && slurm_fmt_row_int(r, JF_GPUS) / nodes > 0 ?
		    slurm_fmt_row_int(r, JF_GPUS) / nodes : 1);
	t = strtoll(buf, NULL, 10);
	return (t > 0 ? t : 1);
}

long long
slurm_fmt_row_nodes(const struct job_row *r)
{
	int		n = slurm_fmt_row_nnodes(r);
	long long	asked = slurm_fmt_row_int(r, JF_NUM_NODES);

	return (n > 0 ? n : asked > 0 ? asked : 1);
}

long long
slurm_fmt_row_ntasks(const struct job_row *r)
{
	long long	nodes = slurm_fmt_row_nodes(r);

	return (slurm_fmt_row_tasks(r, nodes) * nodes);
}

long long
slurm_fmt_row_cpus_asked(const struct job_row *r)
{
	long long	cpg = slurm_fmt_row_int(r, JF_CPUS_PER_GPU);

	long long	cpt = slurm_fmt_row_int(r, JF_CPUS_PER_TASK);

	if (cpg > 0)
		return (cpg * slurm_fmt_row_int(r, JF_GPUS));
	/* A CPU job takes a CPU a task at least. */
	if (cpt == 0 && slurm_fmt_row_int(r, JF_GPUS) == 0)
		cpt = 1;
	return (cpt * slurm_fmt_row_ntasks(r));
}

void
slurm_fmt_node_gpus(const struct job_row *r, char *buf, size_t len)
{
	long long	gpus = slurm_fmt_row_int(r, JF_GPUS);

	if (gpus > 0)
		snprintf(buf, len, "node=%lld,gres/gpu=%lld",
		    slurm_fmt_row_nodes(r), gpus);
	else
		snprintf(buf, len, "node=%lld", slurm_fmt_row_nodes(r));
}

long long
slurm_fmt_row_mem_asked(const struct job_row *r)
{
	long long	mpg = slurm_fmt_row_int(r, JF_MEM_PER_GPU);

	if (mpg > 0)
		return (mpg * slurm_fmt_row_int(r, JF_GPUS));
	return (slurm_fmt_row_int(r, JF_MEM) * slurm_fmt_row_nodes(r));
}

void
slurm_fmt_dated(FILE *f)
{
	char	buf[64];
	time_t	now = time(NULL);

	strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", localtime(&now));
	fprintf(f, "%s\n", buf);
}

int
slurm_fmt_row_nnodes(const struct job_row *r)
{
	char		 nodes[4096];
	const char	*p;
	int		 n = 1;

	p = slurm_fmt_row_str(r, JF_NODES, nodes, sizeof nodes);
	if (*p == '\0')
		return (0);
	for (; *p != '\0'; p++)
		n += *p == ',';
	return (n);
}

int
slurm_fmt_add_user(const char *item, void *arg, char *err, size_t errlen)
{
	return (job_filter_add_user(arg, item, err, errlen));
}

const char *
slurm_fmt_state(enum job_state s)
{
	return ((unsigned)s < JOB_STATE_COUNT && slurm_states[s].name != NULL ?
	    slurm_states[s].name : "UNKNOWN");
}

const char *
slurm_fmt_state_code(enum job_state s)
{
	return ((unsigned)s < JOB_STATE_COUNT && slurm_states[s].code != NULL ?
	    slurm_states[s].code : "??");
}

const char *
slurm_fmt_reason(enum job_state s, const char *reason)
{
	if (s == JOB_HELD)
		return ("JobHeldUser");
	if (reason == NULL || *reason == '\0')
		return ("None");
	return (reason);
}

void
slurm_fmt_duration(int64_t secs, bool hours, char *buf, size_t len)
{
	int64_t	d, h, m, sec;

	if (secs < 0)
		secs = 0;
	d = secs / 86400;
	h = secs / 3600 % 24;
	m = secs / 60 % 60;
	sec = secs % 60;
	if (d > 0)
		snprintf(buf, len, "%" PRId64 "-%02" PRId64 ":%02" PRId64
		    ":%02" PRId64, d, h, m, sec);
	else if (hours)
		snprintf(buf, len, "%02" PRId64 ":%02" PRId64 ":%02" PRId64, h,
		    m, sec);
	else if (h > 0)
		snprintf(buf, len, "%" PRId64 ":%02" PRId64 ":%02" PRId64, h,
		    m, sec);
	else
		snprintf(buf, len, "%" PRId64 ":%02" PRId64, m, sec);
}

char *
slurm_fmt_member(const char *member, uint64_t v, char *buf, size_t len)
{
	if (v == 0)
		buf[0] = '\0';
	else if (strcmp(member, "max_gpus") == 0)
		snprintf(buf, len, "gres/gpu=%llu", (unsigned long long)v);
	else if (strcmp(member, "gpu_hours") == 0 && v % 60 == 0)
		snprintf(buf, len, "gres/gpu=%llu", (unsigned long long)v / 60);
	else if (strcmp(member, "gpu_hours") == 0)
		snprintf(buf, len, "gres/gpu=%.2f", (double)v / 60);
	else if (strcmp(member, "max_time") == 0)
		slurm_fmt_duration((int64_t)v, true, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return (buf);
}

void
slurm_fmt_field(FILE *f, int width, const char *value, int parsable,
    bool last)
{
	int	w = width < 0 ? -width : width;

	if (parsable) {
		fputs(value, f);
		if (parsable == 1 || !last)
			fputc('|', f);
		return;
	}
	if (w < 1)
		w = 1;
	if (strlen(value) > (size_t)w)
		fprintf(f, "%.*s+ ", w - 1, value);
	else
		fprintf(f, width < 0 ? "%-*s " : "%*s ", w, value);
}

void
slurm_fmt_field_name(FILE *f, int width, const char *name, int parsable,
    bool last)
{
	int	w = width < 0 ? -width : width;

	if (parsable) {
		fputs(name, f);
		if (parsable == 1 || !last)
			fputc('|', f);
		return;
	}
	fprintf(f, width < 0 ? "%-*.*s " : "%*.*s ", w, w, name);
}

void
slurm_fmt_field_rule(FILE *f, int width)
{
	int	w = width < 0 ? -width : width;

	while (w-- > 0)
		fputc('-', f);
	fputc(' ', f);
}

void
slurm_fmt_date(int64_t t, const char *none, char *buf, size_t len)
{
	time_t		tt = (time_t)t;
	struct tm	tm;

	if (t <= 0 || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%s", none);
}

int
slurm_fmt_parse(const char *fmt, const char *prog, const char *fields,
    struct slurm_item *items, int max, char *err, size_t errlen)
{
	const char	*p = fmt;
	struct slurm_item *it;
	size_t		 n;
	int		 count = 0;

	while (*p != '\0') {
		if (count == max) {
			snprintf(err, errlen, "more than %d items", max);
			return (-1);
		}
		it = &items[count++];
		memset(it, 0, sizeof *it);
		if (*p != '%' || p[1] == '%') {
			/* Text up to the next field. */
			for (n = 0; *p != '\0' && n < sizeof it->text - 1;) {
				if (*p == '%' && p[1] != '%')
					break;
				it->text[n++] = *p;
				p += *p == '%' ? 2 : 1;
			}
			continue;
		}
		p++;
		if (*p == '.') {
			it->right = true;
			p++;
		}
		while (isdigit((unsigned char)*p) && it->width < 1000)
			it->width = it->width * 10 + (*p++ - '0');
		if (!isalpha((unsigned char)*p)) {
			snprintf(err, errlen, "expected a field letter after "
			    "'%%' at \"%.16s\"", p);
			return (-1);
		}
		if (strchr(fields, *p) == NULL) {
			n = (size_t)snprintf(err, errlen, "--format: %%%c is not "
			    "a field gbatch's %s prints; it prints", *p, prog);
			for (; *fields != '\0' && n < errlen; fields++)
				n += (size_t)snprintf(err + n, errlen - n,
				    " %%%c", *fields);
			return (-1);
		}
		it->field = *p++;
	}
	return (count);
}

int
slurm_fmt_parse_long(const char *list, const char *prog,
    const struct slurm_long_field *fields, size_t nfields,
    struct slurm_item *items, int max, char *err, size_t errlen)
{
	const char	*p = list, *end, *colon;
	struct slurm_item *it;
	size_t		 k, len, off;
	int		 count = 0, w;

	while (*p != '\0') {
		end = p + strcspn(p, ",");
		colon = memchr(p, ':', (size_t)(end - p));
		len = (size_t)((colon != NULL ? colon : end) - p);
		for (k = 0; k < nfields; k++) {
			if (strlen(fields[k].name) == len &&
			    strncasecmp(fields[k].name, p, len) == 0)
				break;
		}
		if (k == nfields) {
			off = (size_t)snprintf(err, errlen, "--Format: \"%.*s\" "
			    "is not a field gbatch's %s prints; it prints",
			    (int)len, p, prog);
			for (k = 0; k < nfields && off < errlen; k++)
				off += (size_t)snprintf(err + off, errlen - off,
				    "%s%s", k > 0 ? ", " : " ", fields[k].name);
			return (-1);
		}
		if (count + 2 > max) {
			snprintf(err, errlen, "--Format: more than %d fields",
			    max / 2);
			return (-1);
		}
		if (count > 0) {
			it = &items[count++];
			memset(it, 0, sizeof *it);
			it->text[0] = ' ';
		}
		it = &items[count++];
		memset(it, 0, sizeof *it);
		it->field = fields[k].field;
		it->width = 20;
		it->at_least = true;
		if (colon != NULL) {
			p = colon + 1;
			if (*p == '.') {
				it->right = true;
				p++;
			}
			for (w = 0; p < end && isdigit((unsigned char)*p) &&
			    w < 1000; p++)
				w = w * 10 + (*p - '0');
			if (p != end) {
				snprintf(err, errlen, "--Format: \"%.*s\": "
				    "expected NAME[:[.]WIDTH]",
				    (int)(end - (colon - len)), colon - len);
				return (-1);
			}
			if (w > 0)
				it->width = w;
		}
		p = *end != '\0' ? end + 1 : end;
	}
	return (count);
}

/* Appends len bytes of s to the line, as many as fit. */
static void
slurm_fmt_line_add(struct slurm_line *l, const char *s, size_t len)
{
	if (len > sizeof l->buf - 1 - l->len)
		len = sizeof l->buf - 1 - l->len;
	memcpy(l->buf + l->len, s, len);
	l->len += len;
}

static void
slurm_fmt_line_pad(struct slurm_line *l, int n)
{
	if (n <= 0)
		return;
	if ((size_t)n > sizeof l->buf - 1 - l->len)
		n = (int)(sizeof l->buf - 1 - l->len);
	memset(l->buf + l->len, ' ', (size_t)n);
	l->len += (size_t)n;
}

void
slurm_fmt_line_put(struct slurm_line *l, const struct slurm_item *it,
    const char *value)
{
	int	len = (int)strlen(value);

	if (it->field == 0) {
		slurm_fmt_line_add(l, it->text, strlen(it->text));
		return;
	}
	if (it->width > 0 && len > it->width && !it->at_least)
		len = it->width;
	if (it->width > 0 && it->right)
		slurm_fmt_line_pad(l, it->width - len);
	slurm_fmt_line_add(l, value, (size_t)len);
	if (it->width > 0 && !it->right)
		slurm_fmt_line_pad(l, it->width - len);
}

void
slurm_fmt_line_end(struct slurm_line *l, FILE *f)
{
	l->buf[l->len++] = '\n';
	fwrite(l->buf, 1, l->len, f);
	l->len = 0;
}

void
slurm_fmt_put(FILE *f, const struct slurm_item *it, const char *value)
{
	struct slurm_line	l;

	l.len = 0;
	slurm_fmt_line_put(&l, it, value);
	fwrite(l.buf, 1, l.len, f);
}
