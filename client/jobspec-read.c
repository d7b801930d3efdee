/* jobspec-read.c: how gsub reads an option's value: a count, a size, a
 * time, a text, a word, ... each within the bounds of the request member
 * it sets (common/job-req.h), or its own row's (jobspec-opt.c). Each
 * writes what is accepted into err; jobspec_opt_set names the option. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/jobenv.h"
#include "client/jobspec-int.h"
#include "client/when.h"
#include "common/array.h"
#include "common/cmd.h"
#include "common/depend.h"
#include "common/duration.h"
#include "common/hostlist.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/outpat.h"
#include "common/xmalloc.h"

/* --signal's seconds before the time limit when it gives none: Slurm's. */
#define JOBSPEC_READ_WARN_DEFAULT	60

/* The least and most o takes: its request member's, or its row's own. */
static int64_t
jobspec_read_min(const struct jobspec_opt *o)
{
	return (o->req != JRQ_COUNT ? job_reqs[o->req].min : 1);
}

static int64_t
jobspec_read_max(const struct jobspec_opt *o)
{
	return (o->max != 0 || o->req == JRQ_COUNT ? o->max :
	    job_reqs[o->req].max);
}

/* A whole number from min to max of arg, or -1. */
static int64_t
jobspec_read_number(const char *arg, int64_t min, int64_t max)
{
	const char	*p;
	int64_t		 n = 0;

	for (p = arg; isdigit((unsigned char)*p); p++) {
		if (n > (max - (*p - '0')) / 10)
			return (-1);
		n = n * 10 + (*p - '0');
	}
	if (*arg == '\0' || *p != '\0' || n < min)
		return (-1);
	return (n);
}

int
jobspec_read_count(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if ((v->n = jobspec_read_number(arg, jobspec_read_min(o),
	    jobspec_read_max(o))) == -1) {
		snprintf(err, errlen, "expected a whole number from %lld to "
		    "%lld, got \"%s\"", (long long)jobspec_read_min(o),
		    (long long)jobspec_read_max(o), arg);
		return (-1);
	}
	return (0);
}

/* --nice, --priority: a whole number with a sign or none, within the
 * member's bounds. */
int
jobspec_read_signed(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	int64_t	min = jobspec_read_min(o), max = jobspec_read_max(o), n;
	bool	neg = *arg == '-';

	n = jobspec_read_number(arg + (neg || *arg == '+'), 0, neg ?
	    (min < 0 ? -min : 0) : max);
	if (n == -1 || (neg && -n < min)) {
		snprintf(err, errlen, "expected a whole number from %lld to "
		    "%lld, got \"%s\"", (long long)min, (long long)max, arg);
		return (-1);
	}
	v->n = neg ? -n : n;
	return (0);
}

/* -G [TYPE:]MIN-MAX: an elastic job's range, MIN in v->n, MAX in
 * v->n2 (0 where they are one count); dash is the '-'. */
static int
jobspec_read_gpu_range(const struct jobspec_opt *o, const char *arg,
    const char *dash, struct jobspec_value *v, char *err, size_t errlen)
{
	struct jobspec_value	 b;
	char			 first[JOB_REQ_MAX_GPU_TYPE + 32];

	if (o->field != JOBSPEC_F_GPUS) {
		snprintf(err, errlen, "\"%s\" is a range; a range of GPUs "
		    "(an elastic job) is -G MIN-MAX's alone", arg);
		return (-1);
	}
	if ((size_t)(dash - arg) >= sizeof first) {
		snprintf(err, errlen, "\"%s\": expected [TYPE:]MIN-MAX, "
		    "such as 2-8", arg);
		return (-1);
	}
	snprintf(first, sizeof first, "%.*s", (int)(dash - arg), arg);
	memset(&b, 0, sizeof b);
	if (jobspec_read_gpus(o, first, v, err, errlen) == -1)
		return (-1);
	if (jobspec_read_count(o, dash + 1, &b, err, errlen) == -1) {
		free(v->s);
		v->s = NULL;
		return (-1);
	}
	if (v->n == 0 || b.n < v->n) {
		snprintf(err, errlen, "\"%s\": expected MIN-MAX with 1 <= MIN "
		    "<= MAX, such as 2-8: an elastic job runs on any count "
		    "from MIN to MAX", arg);
		free(v->s);
		v->s = NULL;
		return (-1);
	}
	v->n2 = b.n == v->n ? 0 : b.n;
	return (0);
}

/* [TYPE:]N (-G, --gpus-per-node, --gpus-per-task): N GPUs, of the model
 * TYPE (kept in s) when given; -G [TYPE:]MIN-MAX an elastic job's range
 * (jobspec_read_gpu_range). */
int
jobspec_read_gpus(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	char		 type[JOB_REQ_MAX_GPU_TYPE + 1];
	const char	*num = strrchr(arg, ':'), *dash;
	long		 n;

	dash = strchr(num != NULL ? num + 1 : arg, '-');
	if (dash != NULL && dash != (num != NULL ? num + 1 : arg))
		return (jobspec_read_gpu_range(o, arg, dash, v, err, errlen));
	if (strchr(arg, ':') == NULL)
		return (jobspec_read_count(o, arg, v, err, errlen));
	if ((n = slurm_opt_gpus(arg, 0, type, sizeof type, err,
	    errlen)) == -1)
		return (-1);
	v->n = n;
	v->s = *type != '\0' ? xstrdup(type) : NULL;
	return (0);
}

/* -N: N, or sbatch's N-N (a range of one). */
int
jobspec_read_nodes(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	const char		*dash = strchr(arg, '-');
	char			 first[32];
	struct jobspec_value	 b;

	if (dash == NULL)
		return (jobspec_read_count(o, arg, v, err, errlen));
	snprintf(first, sizeof first, "%.*s", (int)(dash - arg), arg);
	if (jobspec_read_count(o, first, v, err, errlen) == -1 ||
	    jobspec_read_count(o, dash + 1, &b, err, errlen) == -1)
		return (-1);
	if (v->n != b.n) {
		snprintf(err, errlen, "\"%s\" is a range; gbatch gives a job "
		    "an exact number of nodes: give one number (-N %lld), or "
		    "--any-shape with -G for GPUs on whatever nodes have them",
		    arg, (long long)b.n);
		return (-1);
	}
	return (0);
}

/* --ntasks-per-node: K, or "gpu" (JOBSPEC_SHAPE_PER_GPU). */
int
jobspec_read_tasks(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if (job_req_word(o->req, arg, strlen(arg)) != -1) {
		v->n = JOBSPEC_SHAPE_PER_GPU;
		return (0);
	}
	if ((v->n = jobspec_read_number(arg, jobspec_read_min(o),
	    jobspec_read_max(o))) != -1)
		return (0);
	/* The member's one word: "gpu". */
	snprintf(err, errlen, "expected a whole number from %lld to %lld, or "
	    "%s (one process per GPU), got \"%s\"",
	    (long long)jobspec_read_min(o), (long long)jobspec_read_max(o),
	    job_reqs[o->req].words, arg);
	return (-1);
}

/* --gpu-bind: "none" (n 1), or "task"/"single:1" (each task its own GPU,
 * the default); Slurm's other forms are refused. */
int
jobspec_read_bind(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	(void)o;
	/* Slurm's verbose and quiet prefixes say nothing here. */
	if (strncmp(arg, "verbose,", 8) == 0)
		arg += 8;
	if (strcmp(arg, "none") == 0 || strcmp(arg, "single:1") == 0 ||
	    strcmp(arg, "task") == 0) {
		v->n = strcmp(arg, "none") == 0;
		return (0);
	}
	snprintf(err, errlen, "expected none (each task sees all its node's "
	    "GPUs) or single:1 (each its own, the default with "
	    "--ntasks-per-node gpu), got \"%s\"", arg);
	return (-1);
}

/* A memory size as sbatch writes it: N with K, M (the default), G or T
 * after it; in MB (rounded up), within the member's range. */
int
jobspec_read_mem(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	unsigned long long	 n;
	char			*end;
	uint64_t		 kb;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || errno != 0 || n == 0 ||
	    n > (uint64_t)jobspec_read_max(o))
		goto bad;
	switch (*end == '\0' ? 'M' : toupper((unsigned char)*end)) {
	case 'K':
		kb = n;
		break;
	case 'M':
		kb = n * 1024;
		break;
	case 'G':
		kb = n * 1024 * 1024;
		break;
	case 'T':
		kb = n * 1024 * 1024 * 1024;
		break;
	default:
		goto bad;
	}
	if (*end != '\0' && end[1] != '\0' && !(toupper((unsigned char)
	    end[1]) == 'B' && end[2] == '\0'))
		goto bad;
	if ((v->n = (int64_t)((kb + 1023) / 1024)) > jobspec_read_max(o))
		goto bad;
	return (0);
bad:
	snprintf(err, errlen, "expected a size: a whole number with K, M (the "
	    "default), G or T after it (16G, 512M), got \"%s\"", arg);
	return (-1);
}

/* A line of text within the member's length (-J at least a character):
 * printable, as a name or a comment is shown. */
int
jobspec_read_line(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	int64_t	min = o->field == JOBSPEC_F_NAME ? 1 : 0;

	if ((int64_t)strlen(arg) < min || (int64_t)strlen(arg) >
	    jobspec_read_max(o) || !jobspec_printable(arg)) {
		if (min > 0)
			snprintf(err, errlen, "expected 1 to %lld printable "
			    "characters, got \"%s\"",
			    (long long)jobspec_read_max(o), arg);
		else
			snprintf(err, errlen, "expected up to %lld printable "
			    "characters, got \"%s\"",
			    (long long)jobspec_read_max(o), arg);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* An output file pattern (common/outpat.h). */
int
jobspec_read_pattern(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	char	perr[512];

	if (*arg == '\0' || (int64_t)strlen(arg) > jobspec_read_max(o) ||
	    !jobspec_printable(arg)) {
		snprintf(err, errlen, "expected a file name pattern of 1 to "
		    "%lld printable characters, got \"%s\"",
		    (long long)jobspec_read_max(o), arg);
		return (-1);
	}
	if (outpat_check(arg, perr, sizeof perr) == -1) {
		snprintf(err, errlen, "%s", perr);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* -D: a directory, made absolute against the current one later. */
int
jobspec_read_dir(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if (*arg == '\0' || (int64_t)strlen(arg) > jobspec_read_max(o) ||
	    !jobspec_printable(arg)) {
		snprintf(err, errlen, "expected a directory, got \"%s\"", arg);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* A time as Slurm writes one (common/duration.h), in seconds. */
int
jobspec_read_duration(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	uint64_t	secs;

	if (duration_parse(arg, (uint64_t)jobspec_read_max(o), &secs, err,
	    errlen) == -1) {
		/* For a time limit, more than the most is none at all. */
		if (o->req == JRQ_TIME_LIMIT && strstr(err, "longer") != NULL)
			snprintf(err + strlen(err), errlen - strlen(err),
			    "; UNLIMITED for no limit");
		return (-1);
	}
	v->n = (int64_t)secs;
	return (0);
}

/* -b: a time to start at (client/when.h), in seconds since the epoch. */
int
jobspec_read_begin(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	time_t	when = 0;
	char	derr[256];

	if (when_parse_next(arg, time(NULL), &when, derr, sizeof derr) == -1) {
		snprintf(err, errlen, "%s", derr);
		return (-1);
	}
	v->n = when > 0 ? (int64_t)when : 0;
	if (job_req_check_num(o->req, v->n, derr, sizeof derr) == -1) {
		snprintf(err, errlen, "%s (seconds since the epoch, from "
		    "\"%s\")", derr, arg);
		return (-1);
	}
	return (0);
}

/* A text the request carries as it is, checked by the parser of its
 * kind: node lists, an array, a dependency, the --export list. */
int
jobspec_read_parsed(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	struct array_set	 aset;
	struct depend		 dep;
	char			**names;
	size_t			 n;

	switch (o->field) {
	case JOBSPEC_F_ARRAY:
		if (array_parse(arg, &aset, err, errlen) == -1)
			return (-1);
		array_free(&aset);
		break;
	case JOBSPEC_F_DEPENDENCY:
		if (depend_parse(arg, &dep, err, errlen) == -1)
			return (-1);
		depend_free(&dep);
		break;
	case JOBSPEC_F_EXPORT:
		/* jobenv_check names the option itself: the detail is what
		 * follows. */
		if (jobenv_check(arg, err, errlen) == -1) {
			if (strncmp(err, "--export: ", 10) == 0)
				memmove(err, err + 10, strlen(err + 10) + 1);
			return (-1);
		}
		break;
	default:
		if (hostlist_expand(arg, &names, &n, err, errlen) == -1)
			return (-1);
		hostlist_free(names, n);
		break;
	}
	v->s = xstrdup(arg);
	return (0);
}

/* One of the member's words (--open-mode). */
int
jobspec_read_word(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	char	words[128], *p, *q;

	if ((v->n = job_req_word(o->req, arg, strlen(arg))) != -1) {
		v->s = xstrdup(arg);
		return (0);
	}
	/* gsub's messages write the words bare. */
	job_req_words(o->req, words, sizeof words);
	for (p = q = words; *p != '\0'; p++) {
		if (*p != '"')
			*q++ = *p;
	}
	*q = '\0';
	snprintf(err, errlen, "expected %s, got \"%s\"", words, arg);
	return (-1);
}

/* --kill-on-invalid-dep: yes (n 1) or no (n 0). */
int
jobspec_read_yesno(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	(void)o;
	if (strcmp(arg, "yes") != 0 && strcmp(arg, "no") != 0) {
		snprintf(err, errlen, "expected yes or no, got \"%s\"", arg);
		return (-1);
	}
	v->n = strcmp(arg, "yes") == 0;
	return (0);
}

/* --signal=[B:]SIG[@SECONDS]: kept as written, for jobspec_check; n is
 * the signal. */
int
jobspec_read_warn(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	struct jobspec_warn	w;

	(void)o;
	if (jobspec_read_signal(arg, &w, err, errlen) == -1)
		return (-1);
	v->n = w.sig;
	v->s = xstrdup(arg);
	return (0);
}

int
jobspec_read_signal(const char *arg, struct jobspec_warn *w, char *err,
    size_t errlen)
{
	char		 name[64], derr[256];
	const char	*at, *s = arg;
	int64_t		 secs = JOBSPEC_READ_WARN_DEFAULT;

	w->batch = false;
	if (strncmp(s, "B:", 2) == 0) {
		w->batch = true;
		s += 2;
	} else if (strncmp(s, "R:", 2) == 0) {
		snprintf(err, errlen, "R: is for Slurm's reservations of a "
		    "MaxStartDelay, which gbatch has not; give "
		    "[B:]SIG[@SECONDS]");
		return (-1);
	}
	at = strchr(s, '@');
	snprintf(name, sizeof name, "%.*s", (int)(at != NULL ? at - s :
	    (ptrdiff_t)strlen(s)), s);
	if (cmd_parse_signal(name, &w->sig, derr, sizeof derr) == -1 ||
	    job_req_check_num(JRQ_WARN_SIGNAL, w->sig, derr,
	    sizeof derr) == -1) {
		snprintf(err, errlen, "%s; expected [B:]SIG[@SECONDS]", derr);
		return (-1);
	}
	if (at != NULL && (secs = jobspec_read_number(at + 1, 0,
	    job_reqs[JRQ_WARN_TIME].max)) == -1) {
		snprintf(err, errlen, "expected SECONDS from 0 to %lld after "
		    "'@', got \"%s\"", (long long)job_reqs[JRQ_WARN_TIME].max,
		    at + 1);
		return (-1);
	}
	w->secs = (unsigned)secs;
	return (0);
}

/* --ckpt-signal: a signal's name or number. */
int
jobspec_read_signum(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	int	sig;

	if (cmd_parse_signal(arg, &sig, err, errlen) == -1 ||
	    job_req_check_num(o->req, sig, err, errlen) == -1)
		return (-1);
	v->n = sig;
	return (0);
}

/* -A, --qos, --reservation: a label (common/label.h), within the
 * member's length. */
int
jobspec_read_account(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if (!label_ok(arg) || (int64_t)strlen(arg) > jobspec_read_max(o)) {
		snprintf(err, errlen, "expected 1 to %lld letters, digits, "
		    "'.', '-' or '_', got \"%s\"",
		    (long long)jobspec_read_max(o), arg);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* -p: partition names (labels) joined by ',', within the member's
 * length; which exist is gbatchd's to say. */
int
jobspec_read_partition(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if ((int64_t)strlen(arg) > jobspec_read_max(o) || !label_list_ok(arg)) {
		snprintf(err, errlen, "expected partition names of 1 to %d "
		    "letters, digits, '.', '-' or '_', joined by ',' "
		    "(\"gpu,long\"), got \"%s\"", LABEL_MAX, arg);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* --wrap: a command line for /bin/sh, which is the job's command too
 * (gq shows it): one line of text within the command member's length. */
int
jobspec_read_wrap(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if (*arg == '\0' || (int64_t)strlen(arg) > jobspec_read_max(o) ||
	    !jobspec_printable(arg)) {
		snprintf(err, errlen, "expected a command line of 1 to %lld "
		    "bytes of text on one line, got \"%s\"",
		    (long long)jobspec_read_max(o), arg);
		return (-1);
	}
	v->s = xstrdup(arg);
	return (0);
}

/* --jobid: a job's id. */
int
jobspec_read_jobid(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen)
{
	if ((v->n = jobspec_read_number(arg, 1, jobspec_read_max(o))) == -1) {
		snprintf(err, errlen, "expected a job id, got \"%s\"", arg);
		return (-1);
	}
	return (0);
}

/* Whether the options of o's row may be given here: grun's own are
 * refused by gsub, whose jobs run in the background, and --wrap by grun,
 * which runs the command after its options. */
