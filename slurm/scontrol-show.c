/* scontrol-show.c: scontrol show job, node, partition, reservation and
 * config: gbatch's jobs, nodes, reservations and settings as Slurm's
 * scontrol prints them, "Key=Value" records with the fields gbatch has
 * (gbatch-slurm(7) lists them). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/resv-list.h"
#include "client/slurm-part.h"
#include "common/cmd.h"
#include "common/outpat.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "slurm/scontrol.h"
#include "slurm/slurm-fmt.h"

/* A record as Slurm's scontrol writes it: "Key=Value" pairs, the first
 * group on the record's first line and each further group on a line of
 * its own indented three spaces, a blank line after the record; or, with
 * oneline (-o), every pair on one line. Values from users and peers are
 * escaped (safe-text.h). */
struct scontrol_rec {
	bool	oneline;
	bool	started;	/* a pair is on the record's first line */
	bool	open;		/* a pair is on the current line */
};

static void
scontrol_rec_begin(struct scontrol_rec *rec, bool oneline)
{
	rec->oneline = oneline;
	rec->started = false;
	rec->open = false;
}

static void
scontrol_rec_line(struct scontrol_rec *rec)
{
	if (rec->oneline || !rec->open)
		return;
	putchar('\n');
	rec->open = false;
}

static void
scontrol_rec_kv(struct scontrol_rec *rec, const char *key, const char *value)
{
	if (rec->open)
		putchar(' ');
	else if (rec->started)
		fputs("   ", stdout);
	rec->started = rec->open = true;
	printf("%s=", key);
	safe_text_fwrite(value, strlen(value), stdout);
}

static void
scontrol_rec_kvf(struct scontrol_rec *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
scontrol_rec_kvf(struct scontrol_rec *rec, const char *key, const char *fmt,
    ...)
{
	va_list	ap;
	char	buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	scontrol_rec_kv(rec, key, buf);
}

static void
scontrol_rec_end(struct scontrol_rec *rec)
{
	if (rec->open)
		putchar('\n');
	if (!rec->oneline)
		putchar('\n');
	rec->open = false;
}

/* A member as text, or Slurm's "(null)" where it is empty. */
static const char *
scontrol_str(const struct job_row *r, enum job_field f, char *buf,
    size_t len)
{
	const char	*s = slurm_fmt_row_str(r, f, buf, len);

	return (*s == '\0' ? "(null)" : s);
}

static void
scontrol_date(struct scontrol_rec *rec, const char *key, long long t,
    const char *none)
{
	char	buf[64];

	slurm_fmt_date(t, none, buf, sizeof buf);
	scontrol_rec_kv(rec, key, buf);
}

static void
scontrol_limit(struct scontrol_rec *rec, const char *key, long long secs)
{
	char	buf[64];

	if (secs <= 0) {
		scontrol_rec_kv(rec, key, "UNLIMITED");
		return;
	}
	slurm_fmt_duration(secs, true, buf, sizeof buf);
	scontrol_rec_kv(rec, key, buf);
}

/* The name /etc/group gives gid, into buf; "" when it has none. Read by
 * hand: the command is linked statically, where getgrgid would need the
 * NSS libraries of the glibc it was built with. */
static const char *
scontrol_group(long long gid, char *buf, size_t len)
{
	FILE		*f;
	char		 line[1024], *name, *id, *save;

	buf[0] = '\0';
	if ((f = fopen("/etc/group", "re")) == NULL)
		return (buf);
	while (fgets(line, sizeof line, f) != NULL) {
		if ((name = strtok_r(line, ":", &save)) == NULL ||
		    strtok_r(NULL, ":", &save) == NULL ||
		    (id = strtok_r(NULL, ":\n", &save)) == NULL)
			continue;
		if (strtoll(id, NULL, 10) == gid) {
			snprintf(buf, len, "%s", name);
			break;
		}
	}
	fclose(f);
	return (buf);
}

/* UserId=alice(1000) GroupId=alice(1000). */
static void
scontrol_ids(struct scontrol_rec *rec, const struct job_row *r)
{
	long long	 gid = slurm_fmt_row_int(r, JF_GID);
	char		 buf[512], group[256];

	scontrol_rec_kvf(rec, "UserId", "%s(%lld)", slurm_fmt_row_str(r,
	    JF_USER, buf, sizeof buf), slurm_fmt_row_int(r, JF_UID));
	scontrol_rec_kvf(rec, "GroupId", "%s(%lld)", scontrol_group(gid, group,
	    sizeof group), gid);
}

/* An output file as the job's first part writes it: its pattern
 * expanded, under the job's directory when relative. */
static void
scontrol_path(struct scontrol_rec *rec, const char *key,
    const struct job_row *r, enum job_field f)
{
	struct outpat_vars	 v;
	char			 pat[2048], name[512], user[256], node[256];
	char			 dir[2048], out[4096], err[256];
	long long		 task = slurm_fmt_row_int(r, JF_ARRAY_TASK_ID);

	slurm_fmt_row_str(r, f, pat, sizeof pat);
	if (*pat == '\0') {
		scontrol_rec_kv(rec, key, "(null)");
		return;
	}
	memset(&v, 0, sizeof v);
	v.id = (uint64_t)slurm_fmt_row_int(r, JF_ID);
	v.name = slurm_fmt_row_str(r, JF_NAME, name, sizeof name);
	v.user = slurm_fmt_row_str(r, JF_USER, user, sizeof user);
	v.restarts = (unsigned)slurm_fmt_row_int(r, JF_RESTARTS);
	slurm_fmt_row_str(r, JF_NODES, node, sizeof node);
	node[strcspn(node, ",")] = '\0';
	v.node = *node != '\0' ? node : NULL;
	v.array_job = (uint64_t)slurm_fmt_row_int(r, JF_ARRAY_JOB_ID);
	v.array_task = v.array_job != 0 ? (long)task : 0;
	if (outpat_expand(pat, &v, out, sizeof out, err, sizeof err) == -1)
		snprintf(out, sizeof out, "%s", pat);
	slurm_fmt_row_str(r, JF_WORKDIR, dir, sizeof dir);
	if (*out == '/' || *dir == '\0')
		scontrol_rec_kv(rec, key, out);
	else
		scontrol_rec_kvf(rec, key, "%s/%s", dir, out);
}

/* TRES: the CPUs the job holds (else those it asked for), the memory it
 * asked for (gbatch's default share is the node's to decide), its nodes
 * and GPUs. */
static void
scontrol_tres(const struct job_row *r, char *buf, size_t len)
{
	long long	cpus = slurm_fmt_row_int(r, JF_ALLOC_CPUS);
	long long	mem = slurm_fmt_row_mem_asked(r);
	size_t		off = 0;

	buf[0] = '\0';
	if (cpus <= 0)
		cpus = slurm_fmt_row_cpus_asked(r);
	if (cpus > 0)
		off += (size_t)snprintf(buf + off, len - off, "cpu=%lld,",
		    cpus);
	if (mem > 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, "mem=%lldM,",
		    mem);
	if (off < len)
		slurm_fmt_node_gpus(r, buf + off, len - off);
}

static void
scontrol_job(const struct job_row *r, bool oneline)
{
	struct scontrol_rec	 rec;
	enum job_state		 s = slurm_fmt_row_state(r);
	char			 buf[4096], tmp[4096];
	long long		 arr = slurm_fmt_row_int(r, JF_ARRAY_JOB_ID);

	scontrol_rec_begin(&rec, oneline);
	scontrol_rec_kvf(&rec, "JobId", "%lld", slurm_fmt_row_int(r, JF_ID));
	if (arr > 0) {
		scontrol_rec_kvf(&rec, "ArrayJobId", "%lld", arr);
		slurm_fmt_row_str(r, JF_ARRAY_TASK_ID, buf, sizeof buf);
		scontrol_rec_kv(&rec, "ArrayTaskId", *buf != '\0' ? buf :
		    slurm_fmt_row_str(r, JF_ARRAY_TASKS, tmp, sizeof tmp));
	}
	scontrol_rec_kv(&rec, "JobName", slurm_fmt_row_str(r, JF_NAME, buf,
	    sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_ids(&rec, r);
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "Priority", "%lld", slurm_fmt_row_int(r,
	    JF_PRIORITY));
	scontrol_rec_kvf(&rec, "Nice", "%lld", slurm_fmt_row_int(r, JF_NICE));
	scontrol_rec_kv(&rec, "Account", scontrol_str(r, JF_ACCOUNT, buf,
	    sizeof buf));
	scontrol_rec_kv(&rec, "QOS", slurm_part_qos_of_job(slurm_fmt_row_str(
	    r, JF_QOS, buf, sizeof buf)));
	scontrol_rec_kv(&rec, "Comment", scontrol_str(r, JF_COMMENT, buf,
	    sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "JobState", slurm_fmt_state(s));
	scontrol_rec_kv(&rec, "Reason", slurm_fmt_reason(s, slurm_fmt_row_str(
	    r, JF_REASON, tmp, sizeof tmp)));
	scontrol_rec_kv(&rec, "Dependency", scontrol_str(r, JF_DEPENDENCY, buf,
	    sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "Restarts", "%lld", slurm_fmt_row_int(r,
	    JF_RESTARTS));
	scontrol_rec_kv(&rec, "BatchFlag", strcmp(slurm_fmt_row_str(r, JF_KIND,
	    buf, sizeof buf), "interactive") == 0 ? "0" : "1");
	scontrol_rec_kvf(&rec, "ExitCode", "%lld:%lld", slurm_fmt_row_int(r,
	    JF_EXIT_CODE), slurm_fmt_row_int(r, JF_SIGNAL));
	scontrol_rec_line(&rec);
	slurm_fmt_duration(slurm_fmt_row_int(r, JF_ELAPSED), true, buf,
	    sizeof buf);
	scontrol_rec_kv(&rec, "RunTime", buf);
	scontrol_limit(&rec, "TimeLimit", slurm_fmt_row_int(r, JF_TIME_LIMIT));
	scontrol_rec_line(&rec);
	scontrol_date(&rec, "SubmitTime", slurm_fmt_row_int(r, JF_SUBMIT_TIME),
	    "Unknown");
	scontrol_date(&rec, "EligibleTime", slurm_fmt_row_int(r,
	    JF_BEGIN_TIME) > 0 ? slurm_fmt_row_int(r, JF_BEGIN_TIME) :
	    slurm_fmt_row_int(r, JF_SUBMIT_TIME), "Unknown");
	scontrol_rec_line(&rec);
	scontrol_date(&rec, "StartTime", slurm_fmt_row_int(r, JF_START_TIME),
	    "Unknown");
	scontrol_date(&rec, "EndTime", slurm_fmt_row_int(r, JF_END_TIME),
	    "Unknown");
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "Partition", slurm_part_of_job(
	    slurm_fmt_row_str(r, JF_PARTITION, buf, sizeof buf)));
	scontrol_rec_kv(&rec, "Reservation", scontrol_str(r, JF_RESERVATION,
	    buf, sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "ReqNodeList", scontrol_str(r, JF_REQ_NODES, buf,
	    sizeof buf));
	scontrol_rec_kv(&rec, "ExcNodeList", scontrol_str(r, JF_EXCLUDE_NODES,
	    buf, sizeof buf));
	scontrol_rec_line(&rec);
	slurm_fmt_row_str(r, JF_NODES, buf, sizeof buf);
	scontrol_rec_kv(&rec, "NodeList", *buf != '\0' ? buf : "(null)");
	if (*buf != '\0') {
		buf[strcspn(buf, ",")] = '\0';
		scontrol_rec_kv(&rec, "BatchHost", buf);
	}
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "NumNodes", "%lld", slurm_fmt_row_nodes(r));
	if (slurm_fmt_row_int(r, JF_ALLOC_CPUS) > 0)
		scontrol_rec_kvf(&rec, "NumCPUs", "%lld", slurm_fmt_row_int(r,
		    JF_ALLOC_CPUS));
	scontrol_rec_kvf(&rec, "NumTasks", "%lld", slurm_fmt_row_ntasks(r));
	if (slurm_fmt_row_int(r, JF_CPUS_PER_TASK) > 0)
		scontrol_rec_kvf(&rec, "CPUs/Task", "%lld", slurm_fmt_row_int(r,
		    JF_CPUS_PER_TASK));
	scontrol_rec_line(&rec);
	scontrol_tres(r, buf, sizeof buf);
	scontrol_rec_kv(&rec, "TRES", buf);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "Command", scontrol_str(r, JF_COMMAND, buf,
	    sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "WorkDir", scontrol_str(r, JF_WORKDIR, buf,
	    sizeof buf));
	scontrol_rec_line(&rec);
	scontrol_path(&rec, "StdErr", r, JF_STDERR);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "StdIn", "/dev/null");
	scontrol_rec_line(&rec);
	scontrol_path(&rec, "StdOut", r, JF_STDOUT);
	scontrol_rec_line(&rec);
	/* A CPU job has none, as Slurm's has no TresPerJob. */
	if (slurm_fmt_row_int(r, JF_GPUS) > 0)
		scontrol_rec_kvf(&rec, "TresPerJob", "gres/gpu:%lld",
		    slurm_fmt_row_int(r, JF_GPUS));
	scontrol_rec_end(&rec);
}

int
scontrol_show_job(struct model *m, const char *id, bool oneline, char *err,
    size_t errlen)
{
	size_t	i;
	int	r;

	/* As squeue: a job finished longer ago than MinJobAge is not
	 * known; without an id, every job it knows, finished ones too. */
	m->filter.forget_finished = true;
	if (id != NULL) {
		m->filter.ids = json_array();
		if (cmd_split(id, "job id", cmd_add_job, m->filter.ids, err,
		    errlen) == -1)
			return (EXIT_USAGE);
	} else if (job_filter_add_state(&m->filter, "all", err, errlen) ==
	    -1)
		return (EXIT_USAGE);
	if ((r = model_refresh_jobs(m, NULL)) != 0) {
		snprintf(err, errlen, "%s", m->err);
		return (r);
	}
	if (id != NULL && (m->jobs.n == 0 ||
	    (m->jobs.missing.type == JSCAN_ARRAY && m->jobs.missing.n > 2))) {
		snprintf(err, errlen, "slurm_load_jobs error: Invalid job id "
		    "specified");
		return (EXIT_REFUSED);
	}
	if (m->jobs.n == 0)
		printf("No jobs in the system\n");
	for (i = 0; i < m->jobs.n; i++)
		scontrol_job(&m->jobs.rows[i], oneline);
	return (EXIT_OK);
}

/* Slurm's name of a gbatch node state. */
static const char *
scontrol_node_state(const char *s)
{
	static const struct {
		const char	*gbatch, *slurm;
	} map[] = {
		{ "idle", "IDLE" },
		{ "mixed", "MIXED" },
		{ "allocated", "ALLOCATED" },
		{ "drained", "IDLE+DRAIN" },
		{ "reserved", "RESERVED" },
		{ "maint", "MAINT" },
		{ "draining", "MIXED+DRAIN" },
		{ "down", "DOWN" },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcmp(s, map[i].gbatch) == 0)
			return (map[i].slurm);
	}
	return ("UNKNOWN");
}

static void
scontrol_node(const struct slurm_parts *ps, const struct model_node *n,
    bool oneline)
{
	struct scontrol_rec	rec;
	char			gres[128], tres[256];

	scontrol_rec_begin(&rec, oneline);
	scontrol_rec_kv(&rec, "NodeName", n->name);
	scontrol_rec_line(&rec);
	if (n->cpus_total >= 0) {
		scontrol_rec_kvf(&rec, "CPUAlloc", "%lld", n->cpus_alloc);
		scontrol_rec_kvf(&rec, "CPUTot", "%lld", n->cpus_total);
		scontrol_rec_line(&rec);
	}
	snprintf(gres, sizeof gres, "gpu:%lld", n->gpus_total);
	scontrol_rec_kv(&rec, "Gres", gres);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "NodeAddr", *n->addr != '\0' ? n->addr : n->name);
	scontrol_rec_kv(&rec, "NodeHostName", n->name);
	scontrol_rec_line(&rec);
	if (n->mem_total >= 0) {
		scontrol_rec_kvf(&rec, "RealMemory", "%lld", n->mem_total);
		scontrol_rec_kvf(&rec, "AllocMem", "%lld", n->mem_alloc);
		scontrol_rec_line(&rec);
	}
	scontrol_rec_kv(&rec, "State", scontrol_node_state(n->state));
	scontrol_rec_line(&rec);
	/* As Slurm's, none for a node no partition holds. */
	if (!ps->configured || *n->partitions != '\0') {
		scontrol_rec_kv(&rec, "Partitions", ps->configured ?
		    n->partitions : ps->v[0].name);
		scontrol_rec_line(&rec);
	}
	snprintf(tres, sizeof tres, "cpu=%lld,mem=%lldM,gres/gpu=%lld",
	    n->cpus_total > 0 ? n->cpus_total : 0, n->mem_total > 0 ?
	    n->mem_total : 0, n->gpus_total);
	scontrol_rec_kv(&rec, "CfgTRES", tres);
	scontrol_rec_line(&rec);
	if (n->gpus_alloc > 0 || n->cpus_alloc > 0)
		snprintf(tres, sizeof tres, "cpu=%lld,mem=%lldM,gres/gpu=%lld",
		    n->cpus_alloc > 0 ? n->cpus_alloc : 0, n->mem_alloc > 0 ?
		    n->mem_alloc : 0, n->gpus_alloc);
	else
		tres[0] = '\0';
	scontrol_rec_kv(&rec, "AllocTRES", tres);
	if (*n->reason != '\0') {
		scontrol_rec_line(&rec);
		scontrol_rec_kv(&rec, "Reason", n->reason);
	}
	scontrol_rec_end(&rec);
}

int
scontrol_show_node(struct model *m, const char *name, bool oneline,
    char *err, size_t errlen)
{
	struct slurm_parts	ps;
	size_t			i, shown = 0;
	int			r;

	if ((r = model_refresh_nodes(m, false)) != 0 ||
	    (r = model_fetch_parts(m, &ps)) != 0) {
		snprintf(err, errlen, "%s", m->err);
		return (r);
	}
	for (i = 0; i < m->nodes.n; i++) {
		if (name != NULL && strcmp(m->nodes.rows[i].name, name) != 0)
			continue;
		scontrol_node(&ps, &m->nodes.rows[i], oneline);
		shown++;
	}
	slurm_part_free(&ps);
	if (name != NULL && shown == 0) {
		snprintf(err, errlen, "Node %s not found", name);
		return (EXIT_REFUSED);
	}
	if (m->nodes.n == 0)
		printf("No nodes in the system\n");
	return (EXIT_OK);
}

/* A partition's time limit as Slurm's scontrol writes it: none (0) as
 * none says, else HH:MM:SS or D-HH:MM:SS. */
static void
scontrol_part_time(struct scontrol_rec *rec, const char *key, long long secs,
    const char *none)
{
	char	buf[64];

	if (secs <= 0) {
		scontrol_rec_kv(rec, key, none);
		return;
	}
	slurm_fmt_duration(secs, true, buf, sizeof buf);
	scontrol_rec_kv(rec, key, buf);
}

/* AllowAccounts or AllowQos (key): the names of list (p's accounts or
 * QOS), joined by ','; ALL for any. */
static void
scontrol_part_names(struct scontrol_rec *rec, const char *key,
    const json_t *list)
{
	const json_t	*v;
	char		 buf[1024];
	size_t		 i, at = 0;

	buf[0] = '\0';
	json_array_foreach((json_t *)list, i, v) {
		if (json_is_string(v) && at < sizeof buf)
			at += (size_t)snprintf(buf + at, sizeof buf - at,
			    "%s%s", at > 0 ? "," : "", json_string_value(v));
	}
	scontrol_rec_kv(rec, key, *buf != '\0' ? buf : "ALL");
}

static void
scontrol_partition(const struct slurm_parts *ps, const struct slurm_part *p,
    const struct model_nodes *nodes, bool oneline)
{
	struct scontrol_rec	 rec;
	const struct model_node	*n;
	long long		 cpus = 0, gpus = 0;
	size_t			 i, len, off, total = 0;
	char			*list;

	scontrol_rec_begin(&rec, oneline);
	scontrol_rec_kv(&rec, "PartitionName", p->name);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "AllowGroups", "ALL");
	scontrol_part_names(&rec, "AllowAccounts", p->accounts);
	scontrol_part_names(&rec, "AllowQos", p->qos);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "Default", p->is_default ? "YES" : "NO");
	scontrol_part_time(&rec, "DefaultTime", p->default_time, "NONE");
	if (p->max_nodes > 0)
		scontrol_rec_kvf(&rec, "MaxNodes", "%lld", p->max_nodes);
	else
		scontrol_rec_kv(&rec, "MaxNodes", "UNLIMITED");
	scontrol_part_time(&rec, "MaxTime", p->max_time, "UNLIMITED");
	scontrol_rec_line(&rec);
	/* Its nodes as gbatch.conf names them; one of every node, those
	 * gbatchd knows, comma-separated (a list Slurm's tools read too). */
	for (i = 0, len = 1; i < nodes->n; i++)
		len += strlen(nodes->rows[i].name) + 1;
	list = xmalloc(len);
	list[0] = '\0';
	for (i = 0, off = 0; i < nodes->n; i++) {
		n = &nodes->rows[i];
		if (!slurm_part_node_in(ps, n->partitions, p))
			continue;
		off += (size_t)snprintf(list + off, len - off, "%s%s",
		    off > 0 ? "," : "", n->name);
		cpus += n->cpus_total > 0 ? n->cpus_total : 0;
		gpus += n->gpus_total;
		total++;
	}
	scontrol_rec_kv(&rec, "Nodes", p->nodes != NULL ? p->nodes : list);
	free(list);
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "PriorityTier", "%lld", p->tier);
	scontrol_rec_kv(&rec, "PreemptMode", "REQUEUE");
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "State", "UP");
	scontrol_rec_kvf(&rec, "TotalCPUs", "%lld", cpus);
	scontrol_rec_kvf(&rec, "TotalNodes", "%zu", total);
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "TRES", "cpu=%lld,node=%zu,gres/gpu=%lld", cpus,
	    total, gpus);
	scontrol_rec_end(&rec);
}

int
scontrol_show_partition(struct model *m, const char *name, bool oneline,
    char *err, size_t errlen)
{
	struct slurm_parts	 ps;
	const struct slurm_part	*p = NULL;
	size_t			 i;
	int			 r;

	if ((r = model_fetch_parts(m, &ps)) != 0 ||
	    (r = model_refresh_nodes(m, true)) != 0) {
		snprintf(err, errlen, "%s", m->err);
		slurm_part_free(&ps);
		return (r);
	}
	if (name != NULL && (p = slurm_part_find(&ps, name)) == NULL) {
		snprintf(err, errlen, "Partition %s not found", name);
		slurm_part_free(&ps);
		return (EXIT_REFUSED);
	}
	for (i = 0; i < ps.n; i++) {
		if (p == NULL || p == &ps.v[i])
			scontrol_partition(&ps, &ps.v[i], &m->nodes, oneline);
	}
	slurm_part_free(&ps);
	return (EXIT_OK);
}

/* A list as Slurm writes it: "(null)" for none. */
static const char *
scontrol_resv_list(const char *s)
{
	return (*s != '\0' ? s : "(null)");
}

static void
scontrol_resv(const struct resv_list_entry *e, bool oneline)
{
	struct scontrol_rec	 rec;
	char			 buf[64];

	scontrol_rec_begin(&rec, oneline);
	scontrol_rec_kv(&rec, "ReservationName", e->name);
	scontrol_rec_kv(&rec, "StartTime", resv_list_time(e->start, buf,
	    sizeof buf));
	scontrol_rec_kv(&rec, "EndTime", resv_list_time(e->end, buf,
	    sizeof buf));
	slurm_fmt_duration(e->duration, true, buf, sizeof buf);
	scontrol_rec_kv(&rec, "Duration", buf);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "Nodes", e->nodes);
	scontrol_rec_kvf(&rec, "NodeCnt", "%lld", (long long)e->node_count);
	scontrol_rec_kv(&rec, "CoreCnt", "0");
	scontrol_rec_kv(&rec, "Features", "(null)");
	scontrol_rec_kv(&rec, "PartitionName", "(null)");
	scontrol_rec_kv(&rec, "Flags", scontrol_resv_list(e->flags));
	scontrol_rec_line(&rec);
	scontrol_rec_kvf(&rec, "TRES", "gres/gpu=%lld", (long long)e->gpus);
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "Users", scontrol_resv_list(e->users));
	scontrol_rec_kv(&rec, "Groups", "(null)");
	scontrol_rec_kv(&rec, "Accounts", scontrol_resv_list(e->accounts));
	scontrol_rec_kv(&rec, "Licenses", "(null)");
	scontrol_rec_kv(&rec, "State", e->state);
	scontrol_rec_kv(&rec, "BurstBuffer", "(null)");
	scontrol_rec_kv(&rec, "Watts", "n/a");
	scontrol_rec_line(&rec);
	scontrol_rec_kv(&rec, "MaxStartDelay", "(null)");
	scontrol_rec_end(&rec);
}

int
scontrol_show_resv(struct model *m, const char *name, bool oneline,
    char *err, size_t errlen)
{
	struct resv_list	 l;
	json_t			*req = proto_msg(MSG_RESV_LIST), *reply;
	size_t			 i;
	int			 r;

	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0) {
		snprintf(err, errlen, "%s", m->err);
		return (r);
	}
	if (resv_list_read(&l, reply, err, errlen) != 0)
		return (EXIT_UNREACHABLE);
	for (i = 0; i < l.n && name != NULL && strcmp(l.v[i].name, name) != 0;
	    i++)
		continue;
	if (name != NULL && i == l.n) {
		snprintf(err, errlen, "Reservation %s not found", name);
		resv_list_free(&l);
		return (EXIT_REFUSED);
	}
	if (l.n == 0)
		printf("No reservations in the system\n");
	for (i = 0; i < l.n; i++) {
		if (name == NULL || strcmp(l.v[i].name, name) == 0)
			scontrol_resv(&l.v[i], oneline);
	}
	resv_list_free(&l);
	return (EXIT_OK);
}

/* One setting as Slurm's show config lines it up. */
static void
scontrol_conf(const char *key, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
scontrol_conf(const char *key, const char *fmt, ...)
{
	va_list	ap;
	char	buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	printf("%-23s = ", key);
	safe_text_fwrite(buf, strlen(buf), stdout);
	putchar('\n');
}

static const char *
scontrol_conf_str(const json_t *group, const char *key)
{
	const char	*s = json_string_value(json_object_get(group, key));

	return (s != NULL ? s : "(null)");
}

static long long
scontrol_conf_int(const json_t *group, const char *key)
{
	return ((long long)json_integer_value(json_object_get(group, key)));
}

int
scontrol_show_config(struct model *m, char *err, size_t errlen)
{
	json_t		*req, *reply, *ping, *conf, *ctl, *sch;
	const char	*listen, *port, *version;
	char		 host[256], when[64];
	int		 r;

	req = proto_msg(MSG_CONFIG_SHOW);
	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0 || (r = model_refresh_ping(m)) != 0) {
		if (r == 0)
			json_decref(reply);
		snprintf(err, errlen, "%s", m->err);
		return (r);
	}
	ping = m->ping;
	conf = json_object_get(reply, "config");
	ctl = json_object_get(conf, "controller");
	sch = json_object_get(conf, "scheduler");
	listen = scontrol_conf_str(ctl, "listen");
	port = strrchr(listen, ':');
	snprintf(host, sizeof host, "%.*s", port != NULL ? (int)(port -
	    listen) : (int)strlen(listen), listen);
	version = json_string_value(json_object_get(ping, "server"));
	slurm_fmt_date((int64_t)time(NULL), "Unknown", when, sizeof when);
	printf("Configuration data as of %s\n", when);
	scontrol_conf("ClusterName", "%s", scontrol_conf_str(ctl,
	    "cluster_name"));
	scontrol_conf("GresTypes", "gpu");
	scontrol_conf("MaxJobCount", "%lld", scontrol_conf_int(ctl,
	    "max_pending_per_user"));
	scontrol_conf("MinJobAge", "%lld sec", scontrol_conf_int(ctl,
	    "min_job_age"));
	scontrol_conf("PreemptMode", "REQUEUE");
	scontrol_conf("PreemptType", "preempt/gbatch");
	scontrol_conf("PrivateData", "%s", json_is_true(json_object_get(ctl,
	    "private_data")) ? "jobs" : "none");
	scontrol_conf("SchedulerType", "sched/gbatch (%s, placement %s)",
	    scontrol_conf_str(sch, "policy"), scontrol_conf_str(sch,
	    "placement"));
	scontrol_conf("SelectType", "select/cons_tres");
	scontrol_conf("SLURM_CONF", "%s", json_string_value(json_object_get(
	    reply, "file")) != NULL ? json_string_value(json_object_get(reply,
	    "file")) : "(null)");
	scontrol_conf("SLURM_VERSION", "%s", version != NULL ? version :
	    "gbatchd");
	scontrol_conf("SlurmctldHost[0]", "%s", host);
	scontrol_conf("SlurmctldPort", "%s", port != NULL ? port + 1 : "0");
	scontrol_conf("SlurmdTimeout", "%lld sec", scontrol_conf_int(ctl,
	    "node_timeout"));
	scontrol_conf("StateSaveLocation", "%s", scontrol_conf_str(ctl,
	    "state_dir"));
	printf("\nSlurmctld(primary) at %s is UP\n", host);
	json_decref(reply);
	return (EXIT_OK);
}
