/* req-job-submit.c: JOB_SUBMIT. Every field is checked here with a message
 * that names it and what is accepted; the reply with the id leaves only
 * after the commit that holds the job (the commit queue sees to that). */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/frame.h"
#include "common/hostlist.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/log.h"
#include "common/outpat.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job.h"
#include "daemon/controller/job-fit.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"
#include "daemon/controller/resv-tab.h"
#include "daemon/controller/schedule-estimate.h"
#include "daemon/controller/session.h"
#include "daemon/controller/store.h"
#include "daemon/controller/store-sql.h"
#include "policy/sched.h"

/* Every member gbatchd keeps as it came (common/job-req.h's field) goes
 * into that field of row, as the field's kind holds it (store-sql.h has
 * where each is). Strings are borrowed from the request. */
static void
req_job_submit_fields(const struct job_req_val *v, struct store_job *row)
{
	char		*at;
	uint64_t	 u64;
	int64_t		 i64;
	uint32_t	 u32;
	int		 i, f, jf;

	for (f = 0; f < JRQ_COUNT; f++) {
		if ((jf = job_reqs[f].field) == JOB_REQ_NO_FIELD)
			continue;
		at = (char *)row + store_job_offset[jf];
		switch (job_fields[jf].kind) {
		case JFK_U64:
			u64 = (uint64_t)v[f].n;
			memcpy(at, &u64, sizeof u64);
			break;
		case JFK_I64:
			i64 = v[f].n;
			memcpy(at, &i64, sizeof i64);
			break;
		case JFK_U32:
			u32 = (uint32_t)v[f].n;
			memcpy(at, &u32, sizeof u32);
			break;
		case JFK_INT:
		case JFK_NULLINT:
			i = (int)v[f].n;
			memcpy(at, &i, sizeof i);
			break;
		case JFK_TEXT:
		case JFK_TEXT0:
		case JFK_TEXTREF:
			memcpy(at, &v[f].s, sizeof v[f].s);
			break;
		default:
			break;
		}
	}
}

/* An output pattern, checked by the module that expands it; its detail
 * goes into err after the field's name. */
static int
req_job_submit_pattern(const char *key, const char *s, char *err,
    size_t errlen)
{
	int	n;

	n = snprintf(err, errlen, "%s: ", key);
	if (n < 0 || (size_t)n >= errlen)
		n = 0;
	return (outpat_check(s, err + n, errlen - (size_t)n));
}

/* Sends {"re":200,"ok":true,"seq":...,"job_id":id} (and the warning, if
 * any). Pipelined submits send thousands a second, so the usual integer
 * seq is written by hand rather than through a JSON tree. */
static void
req_job_submit_reply(struct peer *p, const json_t *msg, uint64_t id,
    const char *warning)
{
	json_t	*seq = json_object_get(msg, "seq"), *reply;
	char	 buf[128];
	int	 n;

	if ((seq != NULL && !json_is_integer(seq)) || warning != NULL) {
		reply = proto_reply_ok(msg);
		json_object_set_new(reply, "job_id", json_integer(
		    (json_int_t)id));
		if (warning != NULL)
			json_object_set_new(reply, "warning",
			    json_string(warning));
		peer_send(p, reply);
		json_decref(reply);
		return;
	}
	if (seq != NULL)
		n = snprintf(buf + FRAME_HEADER, sizeof buf - FRAME_HEADER,
		    "{\"re\":%d,\"ok\":true,\"seq\":%" JSON_INTEGER_FORMAT
		    ",\"job_id\":%" PRIu64 "}", MSG_JOB_SUBMIT,
		    json_integer_value(seq), id);
	else
		n = snprintf(buf + FRAME_HEADER, sizeof buf - FRAME_HEADER,
		    "{\"re\":%d,\"ok\":true,\"job_id\":%" PRIu64 "}",
		    MSG_JOB_SUBMIT, id);
	buf[0] = buf[1] = 0;
	buf[2] = (char)(n >> 8);
	buf[3] = (char)n;
	peer_send_bytes(p, buf, FRAME_HEADER + (size_t)n);
}

/* A warning for a job of gpus GPUs that no node taking jobs now could
 * run, even idle (it is accepted: nodes come back): which nodes it waits
 * for. NULL when the up nodes could run it. A new string. */
static char *
req_job_submit_warning(uint32_t gpus, bool consolidate)
{
	enum sched_reason	 r = core_unrunnable(gpus, consolidate);
	struct node		*n;
	char			*list = xstrdup(""), *t;
	size_t			 shown = 0, more = 0;
	bool			 drained;

	if (r == SCHED_REASON_NONE) {
		free(list);
		return (NULL);
	}
	drained = r == SCHED_REASON_NODES_DRAINED;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (drained ? !(node_is_up(n) && node_is_drained(n)) :
		    node_is_up(n))
			continue;
		if (shown == 5) {
			more++;
			continue;
		}
		t = xasprintf("%s%s%s", list, shown > 0 ? ", " : "",
		    node_name(n));
		free(list);
		list = t;
		shown++;
	}
	if (more > 0) {
		t = xasprintf("%s and %zu more", list, more);
		free(list);
		list = t;
	}
	t = xasprintf("no node that takes jobs now could run its %u GPU%s%s; "
	    "it waits until %s%s%s", gpus, gpus == 1 ? "" : "s",
	    consolidate ? " on one node" : "", drained ?
	    "a drained node is resumed (gctl resume)" :
	    "nodes come back", shown > 0 ? (drained ? "; drained: " :
	    "; down: ") : "", list);
	free(list);
	return (t);
}

/* The scheduling options of gsub, beside the numbers already in row:
 * the checkpoint grace within the cluster's most, and the flags of
 * --signal=B:, --no-requeue, --consolidate and --spread, --open-mode and
 * --kill-on-invalid-dep. */
static int
req_job_submit_sched(const struct job_req_val *v, const struct conf *c,
    struct store_job *row, char *err, size_t errlen)
{
	if (row->ckpt_grace > (uint32_t)c->max_ckpt_grace) {
		snprintf(err, errlen, "a checkpoint grace of %u s (gsub "
		    "--ckpt-grace, or --signal's @SECONDS) is above the "
		    "cluster's most, scheduler.max_ckpt_grace = %d s",
		    row->ckpt_grace, c->max_ckpt_grace);
		return (-1);
	}
	if (v[JRQ_WARN_BATCH].n != 0)
		row->flags |= JOB_F_WARN_BATCH;
	if (v[JRQ_REQUEUE].n == 0)
		row->flags |= JOB_F_NO_REQUEUE;
	if (v[JRQ_PLACEMENT].s != NULL)
		row->flags |= strcmp(v[JRQ_PLACEMENT].s, "spread") == 0 ?
		    JOB_F_SPREAD : JOB_F_CONSOLIDATE;
	if (v[JRQ_OPEN_MODE].s != NULL && strcmp(v[JRQ_OPEN_MODE].s,
	    "append") == 0)
		row->flags |= JOB_F_APPEND;
	if (v[JRQ_BATCH].s != NULL && strcmp(v[JRQ_BATCH].s, "once") == 0) {
		if (v[JRQ_INTERACTIVE].json != NULL) {
			snprintf(err, errlen, "batch: an interactive job runs "
			    "its command, not a batch script; expected "
			    "\"per_task\" or none");
			return (-1);
		}
		row->flags |= JOB_F_BATCH_ONCE;
	}
	if (v[JRQ_KILL_INVALID_DEP].json != NULL)
		row->flags |= v[JRQ_KILL_INVALID_DEP].n != 0 ?
		    JOB_F_KILL_INVALID_DEP : JOB_F_KEEP_INVALID_DEP;
	return (0);
}

/* The GPUs of p's nodes that gbatchd knows; *all says whether it knows
 * each node p names (a partition of every node: whether any). */
static uint64_t
req_job_submit_part_gpus(const struct part *p, bool *all)
{
	struct node	*n;
	uint64_t	 sum = 0;
	size_t		 i;

	*all = true;
	if (p->nodes == NULL)
		return (node_gpus_all());
	for (i = 0; i < p->nnames; i++) {
		if ((n = node_find(p->names[i])) == NULL)
			*all = false;
		else
			sum += node_gpus_total(n);
	}
	return (sum);
}

/* A job none of whose partitions that take it could ever hold its GPUs,
 * every node of theirs known, is refused: it would wait for ever. */
static int
req_job_submit_part_room(const struct conf *c, const char *list,
    const struct part_ask *a, char *err, size_t errlen)
{
	const struct part	*v[PART_MAX_ASKED];
	char			 detail[256];
	uint64_t		 most = 0, g;
	size_t			 n, i;
	bool			 all;

	n = part_listed(&c->parts, list, v, NULL);
	for (i = 0; i < n; i++) {
		if (part_admits(v[i], a, detail, sizeof detail) != PART_OK)
			continue;
		g = req_job_submit_part_gpus(v[i], &all);
		if (!all || g >= a->gpus)
			return (0);
		if (g > most)
			most = g;
	}
	snprintf(err, errlen, "%u GPUs: %s %.80s has %llu GPU%s in all; ask "
	    "for fewer, or another partition", a->gpus, strchr(list, ',') !=
	    NULL ? "the largest partition of" : "partition", list,
	    (unsigned long long)most, most == 1 ? "" : "s");
	return (-1);
}

/* What row asks that its partitions judge. */
static void
req_job_submit_ask(const struct store_job *row, struct part_ask *a)
{
	memset(a, 0, sizeof *a);
	a->time_limit = row->time_limit;
	a->gpus = row->gpus;
	a->nodes = row->num_nodes;
	a->account = row->account != NULL ? row->account : "";
	a->qos = row->qos != NULL ? row->qos : "";
}

/* sbatch's -p: the partitions row may run in, each known, written as
 * gbatch keeps them into buf (row->partition then points there); one of
 * them must take the job, and a job that gave no time limit gets the
 * first's default. */
static int
req_job_submit_part(const struct conf *c, struct store_job *row, char *buf,
    size_t buflen, char *err, size_t errlen)
{
	const struct part	*p;
	struct part_ask		 a;
	char			 why[384];

	if (part_resolve(&c->parts, row->partition != NULL ? row->partition :
	    "", buf, buflen, err, errlen) == -1)
		return (-1);
	row->partition = buf;
	if (c->parts.n == 0)
		return (0);
	req_job_submit_ask(row, &a);
	if ((p = part_choose(&c->parts, buf, &a, row->req_nodes != NULL ?
	    row->req_nodes : "", NULL, why, sizeof why)) == NULL) {
		if (strchr(buf, ',') == NULL)
			snprintf(err, errlen, "partition %.80s does not take the "
			    "job: %s", buf, why);
		else
			snprintf(err, errlen, "no partition of %.80s takes "
			    "the job: %s", buf, why);
		return (-1);
	}
	row->time_limit = part_time_limit(p, &a);
	return (req_job_submit_part_room(c, buf, &a, err, errlen));
}

/* Member f (nodelist, exclude): sbatch's node list, every name one of the
 * cluster's; *out gets the names joined by ',' (a new string, NULL when
 * it is absent). */
static int
req_job_submit_nodes(const struct job_req_val *v, enum job_req f, char **out,
    char *err, size_t errlen)
{
	const char	*key = job_reqs[f].member;
	char		**names, herr[256], q[128];
	size_t		  n, i, len = 0;

	*out = NULL;
	if (v[f].s == NULL)
		return (0);
	if (hostlist_expand(v[f].s, &names, &n, herr, sizeof herr) != 0) {
		snprintf(err, errlen, "%s: %s", key, herr);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		if (node_find(names[i]) == NULL) {
			snprintf(err, errlen, "%s: \"%s\" is not a node of this "
			    "cluster (gnodes lists them)", key,
			    safe_text_str(names[i], q, sizeof q));
			hostlist_free(names, n);
			return (-1);
		}
		len += strlen(names[i]) + 1;
	}
	*out = xcalloc(1, len + 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(*out, ",");
		strcat(*out, names[i]);
	}
	hostlist_free(names, n);
	return (0);
}

/* gpu_type (NULL: none): a GPU model some node of the cluster has, e.g.
 * "a100". */
static int
req_job_submit_gpu_type(const char *t, char *err, size_t errlen)
{
	const char	*p;
	struct node	*n;
	char		 q[128];

	if (t == NULL)
		return (0);
	for (p = t; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' &&
		    *p != '.' && *p != ' ')
			break;
	}
	if (*p != '\0') {
		snprintf(err, errlen, "gpu_type: expected a GPU model of 1 to "
		    "%d letters, digits, '-', '_', '.' or spaces, e.g. "
		    "\"a100\"", JOB_REQ_MAX_GPU_TYPE);
		return (-1);
	}
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (node_gpus_match(n, t))
			return (0);
	}
	snprintf(err, errlen, "gpu_type: no node seen since gbatchd started "
	    "has GPUs of type \"%s\" (gnodes -o name,gpu_model shows their "
	    "models)", safe_text_str(t, q, sizeof q));
	return (-1);
}

/* A CPU job's request v (gpus 0, numbers in row): it counts nothing by
 * the GPU (CPUs, memory, tasks), names no GPU model and has no free
 * split. */
static int
req_job_submit_cpu_job(const struct job_req_val *v,
    const struct store_job *row, char *err, size_t errlen)
{
	const char	*what = NULL;

	if (row->cpus_per_gpu != 0)
		what = "cpus_per_gpu";
	else if (row->mem_per_gpu != 0)
		what = "mem_per_gpu";
	else if (v[JRQ_TASKS_PER_NODE].s != NULL)
		what = "tasks_per_node \"gpu\"";
	else if (v[JRQ_GPU_TYPE].s != NULL)
		what = "gpu_type";
	else if (v[JRQ_ANY_SHAPE].n != 0)
		what = "any_shape";
	if (what == NULL)
		return (0);
	snprintf(err, errlen, "%s: a job of no GPU (gpus 0) has none to "
	    "count by or choose; expected cpus_per_task, mem, tasks_per_node "
	    "N or num_nodes", what);
	return (-1);
}

/* The shape and tasks of the request v, whose numbers are in row already
 * (gpus, num_nodes, cpus_per_gpu, cpus_per_task, mem, mem_per_gpu):
 * num_nodes divides the GPUs, any_shape is not with num_nodes, one of
 * each pair of CPUs and memory, gpu_bind "none" only with tasks_per_node
 * "gpu". Sets row's tasks_per_node (written into tasks, room for 16
 * bytes) and flags. */
static int
req_job_submit_shape(const struct job_req_val *v, struct store_job *row,
    char *tasks, char *err, size_t errlen)
{
	bool	per_gpu = false;

	if (row->gpus == 0 && req_job_submit_cpu_job(v, row, err,
	    errlen) != 0)
		return (-1);
	if (job_req_check_split(row->gpus, row->num_nodes, err, errlen) != 0)
		return (-1);
	if (job_req_check_elastic(row->gpus, row->gpus_max, row->num_nodes,
	    err, errlen) != 0)
		return (-1);
	if (row->gpus_max == row->gpus)
		row->gpus_max = 0;	/* one count: a rigid job */
	if (job_req_check_slice(row->gpus, row->gpus_max, row->time_slice,
	    row->gpu_mem, err, errlen) != 0 ||
	    job_req_check_share(row->gpu_share, row->gpus, row->gpus_max,
	    row->num_nodes, row->time_slice != 0, err, errlen) != 0)
		return (-1);
	if (v[JRQ_ANY_SHAPE].n != 0) {
		if (row->num_nodes > 0) {
			snprintf(err, errlen, "any_shape: a job with "
			    "num_nodes has its shape; expected one of them");
			return (-1);
		}
		row->flags |= JOB_F_ANY_SHAPE;
	}
	tasks[0] = '\0';
	if (v[JRQ_TASKS_PER_NODE].s != NULL) {
		per_gpu = true;
		strcpy(tasks, "gpu");
	} else if (v[JRQ_TASKS_PER_NODE].n > 1) {
		/* One per node is what every job gets. */
		snprintf(tasks, 16, "%u", (unsigned)v[JRQ_TASKS_PER_NODE].n);
	}
	row->tasks_per_node = tasks;
	/* What it asks beside its GPUs: one of each pair at most, as sbatch
	 * has them. */
	if (row->cpus_per_gpu != 0 && row->cpus_per_task != 0) {
		snprintf(err, errlen, "cpus_per_gpu and cpus_per_task exclude "
		    "each other; expected one of them");
		return (-1);
	}
	if (row->mem != 0 && row->mem_per_gpu != 0) {
		snprintf(err, errlen, "mem and mem_per_gpu exclude each other; "
		    "expected one of them");
		return (-1);
	}
	if (v[JRQ_GPU_BIND].json != NULL && job_req_word(JRQ_GPU_BIND, "none",
	    4) == v[JRQ_GPU_BIND].n) {
		if (!per_gpu) {
			snprintf(err, errlen, "gpu_bind: \"none\" keeps a task "
			    "per GPU from having its own GPU; expected it with "
			    "tasks_per_node \"gpu\"");
			return (-1);
		}
		row->flags |= JOB_F_GPU_BIND_NONE;
	}
	return (0);
}

/* The partition row (its list resolved, req_job_submit_part's) would run
 * in on the nodes est foresees: the first of its list that takes it and
 * holds them, else the first that takes it; gbatch's one without
 * partitions. */
static const char *
req_job_submit_est_part(const struct conf *c, const struct store_job *row,
    const struct schedule_estimate *est)
{
	const struct part	*in;
	struct part_ask		 a;
	char			 why[384];

	if (c->parts.n == 0)
		return (row->partition);
	req_job_submit_ask(row, &a);
	if ((in = part_choose(&c->parts, row->partition, &a, est->nodes, NULL,
	    why, sizeof why)) == NULL)
		in = part_choose(&c->parts, row->partition, &a,
		    row->req_nodes != NULL ? row->req_nodes : "", NULL, why,
		    sizeof why);
	return (in != NULL ? in->name : row->partition);
}

/* Answers a JOB_SUBMIT with "test_only": the estimate of row's start
 * (schedule-estimate.h) and the partition it would run in; nothing is
 * stored. */
static void
req_job_submit_test_only(struct peer *p, const json_t *msg,
    const struct store_job *row)
{
	struct schedule_estimate	 est;
	json_t				*reply;
	int64_t				 now = ctx_now_ms();

	schedule_estimate(row, now, &est);
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "test_only", json_true());
	/* The time the estimate is from: the client tells "now" from a
	 * later start by it, not by its own clock (another host's, or one
	 * stepped in between). */
	json_object_set_new(reply, "now", json_integer((json_int_t)(now /
	    1000)));
	json_object_set_new(reply, "found", json_boolean(est.found));
	json_object_set_new(reply, "start", est.found ?
	    json_integer((json_int_t)est.start) : json_null());
	json_object_set_new(reply, "where", json_string(est.where));
	json_object_set_new(reply, "nodes", json_string(est.nodes));
	json_object_set_new(reply, "ahead", json_integer((json_int_t)
	    est.ahead));
	json_object_set_new(reply, "never_fits", json_boolean(
	    est.never_fits));
	json_object_set_new(reply, "partition", json_string(
	    req_job_submit_est_part(ctx_conf(), row, &est)));
	peer_send(p, reply);
	json_decref(reply);
}

/* "array" (s, sbatch's --array text): *tasks and *spec get the tasks the
 * array's row stands for and the whole array with its throttle, in normal
 * form (new strings), *first its lowest task and *count how many. */
static int
req_job_submit_array(const char *s, char **tasks, char **spec,
    uint32_t *first, uint32_t *count, char *err, size_t errlen)
{
	struct array_set	a;
	char			aerr[256];
	size_t			len;

	if (array_parse(s, &a, aerr, sizeof aerr) != 0) {
		snprintf(err, errlen, "array: %s", aerr);
		return (-1);
	}
	len = array_format(&a, true, NULL, 0);
	*spec = xmalloc(len + 1);
	(void)array_format(&a, true, *spec, len + 1);
	len = array_format(&a, false, NULL, 0);
	*tasks = xmalloc(len + 1);
	(void)array_format(&a, false, *tasks, len + 1);
	*first = array_min(&a);
	*count = array_count(&a);
	array_free(&a);
	return (0);
}

/* v, an array of strings or an object of them (checked), as compact JSON
 * text: what json_dumps writes, without its callback a character. A
 * pipelined submit sends thousands a second, each with its environment,
 * and json_dumps took a fifth of gbatchd's time. A new string. */
static char *
req_job_submit_text(const json_t *v)
{
	struct jtext	 b;
	const char	*key;
	json_t		*s;
	size_t		 i;

	jtext_init(&b, 1024);
	if (json_is_array(v)) {
		jtext_add(&b, "[", 1);
		json_array_foreach(v, i, s) {
			if (i > 0)
				jtext_add(&b, ",", 1);
			jtext_string(&b, json_string_value(s));
		}
		jtext_add(&b, "]", 2);		/* and the NUL */
	} else {
		jtext_add(&b, "{", 1);
		json_object_foreach((json_t *)v, key, s) {
			if (b.len > 1)
				jtext_add(&b, ",", 1);
			jtext_string(&b, key);
			jtext_add(&b, ":", 1);
			jtext_string(&b, json_string_value(s));
		}
		jtext_add(&b, "}", 2);		/* and the NUL */
	}
	return (b.buf);
}

/* Waiting jobs (pending or held) of user (NULL: anyone's) charged to
 * account, or (anyone's) to an account below it: assoc-tab.h's count
 * for max_pending. A walk of the table, made only while a cap is set. */
static size_t
req_job_submit_waiting(const char *user, const char *account, void *arg)
{
	const struct assoc_tab	*t = arg;
	const struct job	*j;
	size_t			 n = 0;

	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_state(j) != JOB_PENDING && job_state(j) != JOB_HELD)
			continue;
		if (user != NULL ? strcmp(job_user(j), user) == 0 &&
		    strcmp(job_account(j), account) == 0 :
		    assoc_tab_is_within(t, job_account(j), account))
			n++;
	}
	return (n);
}

/* Whether name is one of list's ("n1,n2"). */
static bool
req_job_submit_listed(const char *list, const char *name)
{
	size_t		 len = strlen(name);
	const char	*at;

	for (at = list; (at = strstr(at, name)) != NULL; at += len) {
		if ((at == list || at[-1] == ',') && (at[len] == ',' ||
		    at[len] == '\0'))
			return (true);
	}
	return (false);
}

/* A job of a reservation (gsub --reservation): it must be there and not
 * ended, let the user or the job's account in, and hold on the nodes
 * the job may use of it (its partitions', -w, -x, GPU type) the GPUs the
 * job asks for. Returns NULL, or the refusal's code with err. A job
 * whose reservation is still to come waits for it (Reservation). */
static const char *
req_job_submit_resv(const struct conf *c, const char *user,
    struct store_job *row, char *err, size_t errlen)
{
	const struct part	*v[PART_MAX_ASKED];
	const struct resv	*r;
	struct node		*n;
	uint64_t		 gpus = 0;
	size_t			 nv, i, k;

	if (row->reservation == NULL || *row->reservation == '\0')
		return (NULL);
	if ((r = resv_tab_find(core_resv(), row->reservation)) == NULL ||
	    r->end <= ctx_now()) {
		snprintf(err, errlen, "reservation: no reservation %s (gctl "
		    "reservation list shows them)", label_ok(row->reservation) ?
		    row->reservation : "of that name");
		return (PROTO_E_INVALID);
	}
	if (!resv_tab_admits(r, user, row->account != NULL ? row->account : "")) {
		snprintf(err, errlen, "reservation %s is for %s%s%s%s%s; not "
		    "for %s%s%s", r->name, *r->users != '\0' ? "users " : "",
		    r->users, *r->users != '\0' && *r->accounts != '\0' ?
		    " and " : "", *r->accounts != '\0' ? "accounts " : "",
		    r->accounts, user, row->account != NULL ? " of account " :
		    "", row->account != NULL ? row->account : "");
		return (PROTO_E_PERMISSION);
	}
	nv = part_listed(&c->parts, row->partition, v, NULL);
	for (i = 0; i < r->nnames; i++) {
		if ((n = node_find(r->names[i])) == NULL ||
		    (row->req_nodes != NULL && *row->req_nodes != '\0' &&
		    !req_job_submit_listed(row->req_nodes, r->names[i])) ||
		    (row->exclude_nodes != NULL &&
		    req_job_submit_listed(row->exclude_nodes, r->names[i])) ||
		    (row->gpu_type != NULL && *row->gpu_type != '\0' &&
		    !node_gpus_match(n, row->gpu_type)))
			continue;
		for (k = 0; k < nv && !part_has_node(v[k], r->names[i]); k++)
			continue;
		if (nv == 0 || k < nv)
			gpus += node_gpus_total(n);
	}
	if (gpus < row->gpus) {
		snprintf(err, errlen, "reservation %s: the nodes of it the job "
		    "may use (its partitions, -w, -x, GPU type) hold %" PRIu64
		    " GPU%s; it asks for %u", r->name, gpus, gpus == 1 ? "" :
		    "s", row->gpus);
		return (PROTO_E_UNSATISFIABLE);
	}
	if (r->start > ctx_now())
		row->reason = "Reservation";
	return (NULL);
}

static void
req_job_submit(struct peer *p, const json_t *msg)
{
	const struct conf	*c = ctx_conf();
	struct job_req_val	 v[JRQ_COUNT];
	struct store_job	 row;
	struct job		*j;
	json_t			*job;
	char			 err[512], *argv = NULL, *env = NULL;
	char			*warning = NULL, *depend = NULL;
	char			*atasks = NULL, *aspec = NULL, *unfit;
	char			 tasks[16], part[1100], qos[LABEL_MAX + 1];
	char			*req_nodes = NULL, *exc_nodes = NULL;
	const char		*account, *code;
	uint32_t		 afirst = 0, acount = 0;
	uint64_t		 all;
	struct session_tty	 tty;
	bool			 interactive;

	if (peer_uid(p) == 0 && !c->allow_root_jobs) {
		req_error(p, msg, PROTO_E_PERMISSION, "root may not submit "
		    "jobs (controller.allow_root_jobs is false); submit as "
		    "the user the job should run as");
		audit_refused(p, "submit", NULL, "root jobs are off "
		    "(controller.allow_root_jobs)");
		return;
	}
	if (c->max_pending_per_user > 0 && job_table_waiting_of(peer_uid(p)) >=
	    (size_t)c->max_pending_per_user) {
		req_error(p, msg, PROTO_E_INVALID, "%s has %zu jobs waiting to "
		    "start (pending or held), the most "
		    "controller.max_pending_per_user allows; submit more once "
		    "some have started or were cancelled", peer_user(p),
		    job_table_waiting_of(peer_uid(p)));
		return;
	}
	if (!json_is_object(job = json_object_get(msg, "job"))) {
		req_error(p, msg, PROTO_E_INVALID, "job: expected an object "
		    "describing the job");
		return;
	}
	/* Every member as common/job-req.h describes it; then what the
	 * members must be together, and against the cluster. */
	if (job_req_read(job, v, err, sizeof err) != 0)
		goto invalid;
	memset(&row, 0, sizeof row);
	row.array_task_id = -1;
	req_job_submit_fields(v, &row);
	/* What gacct -A and scripts match on: a label. */
	if (row.account != NULL && !label_ok(row.account)) {
		snprintf(err, sizeof err, "account: expected 1 to %d letters, "
		    "digits, '.', '-' or '_', got \"%s\"",
		    LABEL_MAX, row.account);
		goto invalid;
	}
	/* The account before the partitions, which may take jobs by
	 * account: none asked is the user's default. */
	if (assoc_tab_resolve(core_assoc(), peer_user(p), row.account,
	    c->enforce_accounts, &account, err, sizeof err) != 0)
		goto invalid;
	if (*account != '\0')
		row.account = account;
	/* Only an operator puts a job ahead of others of its queue. */
	if ((row.nice < 0 || row.priority != 0) && !peer_is_operator(p)) {
		req_error(p, msg, PROTO_E_PERMISSION, "%s: only an operator "
		    "may give a job %s; a user may lower their own jobs with "
		    "a nice of 0 to %d", row.nice < 0 ? "nice" : "priority",
		    row.nice < 0 ? "a negative nice" : "a priority",
		    JOB_REQ_MAX_NICE);
		goto out;
	}
	/* The QOS too: none asked is the default's. */
	if (qos_resolve(&c->qos, row.qos != NULL ? row.qos : "", qos,
	    sizeof qos, err, sizeof err) != 0)
		goto invalid;
	row.qos = qos;
	if (session_submit_read(v, &row, &interactive, &tty, err,
	    sizeof err) != 0)
		goto invalid;
	/* An interactive job runs its argv itself, without a script. */
	if ((row.script == NULL || *row.script == '\0') && (!interactive ||
	    json_array_size(v[JRQ_ARGV].json) == 0)) {
		snprintf(err, sizeof err, "script: missing; expected the job "
		    "script's text");
		goto invalid;
	}
	if (row.script == NULL)
		row.script = "";
	if (row.workdir == NULL || row.workdir[0] != '/') {
		snprintf(err, sizeof err, "workdir: expected an absolute path, "
		    "got \"%s\"", row.workdir != NULL ? row.workdir : "");
		goto invalid;
	}
	if (req_job_submit_sched(v, c, &row, err, sizeof err) != 0)
		goto invalid;
	/* What it waits for must exist: an unknown id is a typo. */
	if (v[JRQ_DEPENDENCY].len > 0) {
		depend = xmalloc(JOB_REQ_MAX_DEPEND + 1);
		if (depend_wait_check(v[JRQ_DEPENDENCY].s, depend,
		    JOB_REQ_MAX_DEPEND + 1, err, sizeof err) != 0)
			goto invalid;
		row.dependency = depend;
	}
	if (req_job_submit_nodes(v, JRQ_NODELIST, &req_nodes, err,
	    sizeof err) != 0 || req_job_submit_nodes(v, JRQ_EXCLUDE,
	    &exc_nodes, err, sizeof err) != 0 ||
	    req_job_submit_gpu_type(row.gpu_type, err, sizeof err) != 0)
		goto invalid;
	row.req_nodes = req_nodes;
	row.exclude_nodes = exc_nodes;
	if (req_job_submit_shape(v, &row, tasks, err, sizeof err) != 0 ||
	    req_job_submit_part(c, &row, part, sizeof part, err,
	    sizeof err) != 0)
		goto invalid;
	/* Its time limit is known now, the partition's default too. */
	if (qos_admits(qos_find(&c->qos, row.qos), &row.time_limit, row.gpus,
	    err, sizeof err) != 0 || assoc_tab_submit_check(core_assoc(), peer_user(p),
	    row.account != NULL ? row.account : "", row.time_limit,
	    row.gpus, req_job_submit_waiting, core_assoc(), err,
	    sizeof err) != 0)
		goto invalid;
	if (v[JRQ_ARRAY].s != NULL && req_job_submit_array(v[JRQ_ARRAY].s,
	    &atasks, &aspec, &afirst, &acount, err, sizeof err) != 0)
		goto invalid;
	if (row.stdout_path == NULL)
		row.stdout_path = aspec != NULL ? OUTPAT_ARRAY_DEFAULT :
		    OUTPAT_DEFAULT;
	if (row.stderr_path == NULL)
		row.stderr_path = row.stdout_path;
	if (req_job_submit_pattern("stdout", row.stdout_path, err,
	    sizeof err) != 0 || req_job_submit_pattern("stderr",
	    row.stderr_path, err, sizeof err) != 0)
		goto invalid;
	if (row.command == NULL)
		row.command = "";
	if (row.name == NULL || *row.name == '\0')
		row.name = job_req_default_name(row.command);
	/* A job larger than a node spans nodes; one larger than the whole
	 * cluster could never start. */
	all = node_gpus_all();
	if (all != 0 && row.gpus > all) {
		req_error(p, msg, PROTO_E_UNSATISFIABLE, "--gpus %u: the "
		    "cluster has %llu GPU%s in all", row.gpus,
		    (unsigned long long)all, all == 1 ? "" : "s");
		goto out;
	}
	if ((unfit = job_fit_shape(row.gpus, row.num_nodes,
	    (row.flags & JOB_F_ANY_SHAPE) != 0)) != NULL ||
	    (unfit = job_fit_res(&row)) != NULL) {
		req_error(p, msg, PROTO_E_UNSATISFIABLE, "%s", unfit);
		free(unfit);
		goto out;
	}

	/* Its reservation, once its partitions and nodes are known. */
	if ((code = req_job_submit_resv(c, peer_user(p), &row, err,
	    sizeof err)) != NULL) {
		if (strcmp(code, PROTO_E_PERMISSION) == 0)
			audit_refused(p, "submit", NULL, "%s", err);
		req_error(p, msg, code, "%s", err);
		goto out;
	}

	/* sbatch's --test-only: where and when, nothing submitted. */
	if (json_is_true(json_object_get(msg, "test_only"))) {
		req_job_submit_test_only(p, msg, &row);
		goto out;
	}
	argv = json_array_size(v[JRQ_ARGV].json) != 0 ?
	    req_job_submit_text(v[JRQ_ARGV].json) : NULL;
	row.argv = argv != NULL ? argv : "[]";
	env = json_object_size(v[JRQ_ENV].json) != 0 ?
	    req_job_submit_text(v[JRQ_ENV].json) : NULL;
	row.env = env != NULL ? env : "{}";
	row.id = store_job_next_id();
	if (aspec != NULL) {
		/* The array's row stands for its tasks; an array of one task
		 * is that task at once. */
		row.array_job_id = row.id;
		row.array_spec = aspec;
		if (acount > 1)
			row.array_tasks = atasks;
		else
			row.array_task_id = (int)afirst;
	}
	row.user = peer_user(p);
	row.uid = peer_uid(p);
	row.gid = peer_gid(p);
	row.submit_time = ctx_now();
	row.pending_since = row.submit_time * 1000;
	row.state = v[JRQ_HOLD].n != 0 ? JOB_HELD : JOB_PENDING;
	if (row.reason == NULL || v[JRQ_HOLD].n != 0)
		row.reason = v[JRQ_HOLD].n != 0 ? "Held" : "None";
	/* A job that may not start yet is not waiting yet either. */
	if (row.dependency != NULL && row.state == JOB_PENDING)
		row.reason = "Dependency";
	if (row.begin_time > row.submit_time && row.state == JOB_PENDING) {
		row.reason = "BeginTime";
		row.pending_since = row.begin_time * 1000;
	}
	if (store_job_insert(&row) != 0 ||
	    store_event_insert(row.id, row.submit_time, "",
	    job_state_name(row.state), "submitted") != 0) {
		req_error(p, msg, PROTO_E_INTERNAL, "the job store failed; "
		    "see gbatchd's log");
		goto out;
	}
	row.script = row.env = NULL;
	j = job_create(&row);
	metrics_count_submit();
	/* Debug only: at thousands of submits a second, a line per job
	 * costs more than the job's row. */
	log_debug("job %" PRIu64 ": submitted by %s, %u GPU%s, %s", row.id,
	    row.user, row.gpus, row.gpus == 1 ? "" : "s",
	    job_state_name(row.state));
	if (row.state == JOB_PENDING) {
		core_job_new(j);
		warning = req_job_submit_warning(row.gpus,
		    (row.flags & JOB_F_CONSOLIDATE) != 0);
	}

	if (interactive)
		session_open_job(p, row.id, &tty);
	req_job_submit_reply(p, msg, row.id, warning);
out:
	free(warning);
	free(argv);
	free(env);
	free(depend);
	free(atasks);
	free(aspec);
	free(req_nodes);
	free(exc_nodes);
	return;
invalid:
	req_error(p, msg, PROTO_E_INVALID, "%s", err);
	goto out;
}

const struct req_entry req_job_submit_entry = {
	MSG_JOB_SUBMIT, "JOB_SUBMIT", REQ_CLIENT, false, true, req_job_submit,
	false
};
