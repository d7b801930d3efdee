/* node.c: the node table. A handful to thousands of nodes: a sorted list is
 * plenty, and a scheduling pass reads them in this order. */
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/node.h"
#include "daemon/controller/store.h"
#include "policy/sched.h"

struct node {
	char			*name;
	uint32_t		 number;	/* node_number */
	uint32_t		 gpus_total;
	/* Each GPU's use as the last heartbeat said: % busy and MiB used
	 * (-1: not said), and since when it has been under
	 * NODE_GPU_LOW_UTIL % while its holder held it (0: it is not; the
	 * core says who holds it, node_gpu_handed when that changes). */
	int			 gpu_util[SCHED_MAX_GPUS_PER_NODE];
	int64_t			 gpu_mem_used[SCHED_MAX_GPUS_PER_NODE];
	int64_t			 gpu_low_since[SCHED_MAX_GPUS_PER_NODE];
	bool			 up;
	bool			 seen;		/* HELLO since start */
	bool			 drained;
	bool			 freezer;	/* can suspend its jobs */
	char			*reason;
	char			*addr;
	char			*gpu_source;
	json_t			*gpus;		/* HELLO's GPU descriptions */
	uint32_t		 cpus;		/* HELLO's; 0: not said */
	uint64_t		 memory_mb;
	uint32_t		 gpu_shards;	/* HELLO's; 1: none */
	/* What NODE_LIST says of each GPU that changes only with a HELLO:
	 * GPU i's members are gpu_text[gpu_text_off[i]] up to
	 * gpu_text_off[i + 1] ({"index":0,"name":...,"memory_mb":81920). */
	struct jtext		 gpu_text;
	size_t			 gpu_text_off[SCHED_MAX_GPUS_PER_NODE + 1];
	uint32_t		 gpus_described;	/* in gpu_text */
	int64_t			 gpu_index[SCHED_MAX_GPUS_PER_NODE];
	struct peer		*peer;
	int64_t			 last_seen;
	uint32_t		 sched_index;	/* in the scheduling core */
	char			*switch_name;	/* topology label, "" none */
	TAILQ_ENTRY(node)	 entry;
};
TAILQ_HEAD(node_list, node);

/* Every node the controller knows, in name order, and how many. Global:
 * the one node table, found by name from every floor (node_find). */
static struct {
	struct node_list	 all;
	size_t			 total;
} nodes = {
	.all = TAILQ_HEAD_INITIALIZER(nodes.all),
};

struct node *
node_find(const char *name)
{
	struct node	*n;

	TAILQ_FOREACH(n, &nodes.all, entry) {
		if (strcmp(n->name, name) == 0)
			return (n);
	}
	return (NULL);
}

struct node *
node_get(const char *name)
{
	struct node	*n, *at;
	unsigned	 i;

	if ((n = node_find(name)) != NULL)
		return (n);
	n = xcalloc(1, sizeof *n);
	n->name = xstrdup(name);
	n->number = (uint32_t)nodes.total;
	n->sched_index = NODE_NO_INDEX;
	for (i = 0; i < SCHED_MAX_GPUS_PER_NODE; i++)
		n->gpu_util[i] = n->gpu_mem_used[i] = -1;
	n->switch_name = xstrdup("");
	n->reason = xstrdup("");
	n->addr = xstrdup("");
	n->gpu_source = xstrdup("");
	TAILQ_FOREACH(at, &nodes.all, entry) {
		if (strcmp(at->name, name) > 0)
			break;
	}
	if (at == NULL)
		TAILQ_INSERT_TAIL(&nodes.all, n, entry);
	else
		TAILQ_INSERT_BEFORE(at, n, entry);
	nodes.total++;
	return (n);
}

void
node_free_all(void)
{
	struct node	*n;

	while ((n = TAILQ_FIRST(&nodes.all)) != NULL) {
		TAILQ_REMOVE(&nodes.all, n, entry);
		free(n->name);
		free(n->reason);
		free(n->switch_name);
		free(n->addr);
		free(n->gpu_source);
		json_decref(n->gpus);
		free(n->gpu_text.buf);
		free(n);
	}
	nodes.total = 0;
}

struct node *node_first(void) { return (TAILQ_FIRST(&nodes.all)); }
struct node *node_next(const struct node *n) { return (TAILQ_NEXT(n, entry)); }
const char *node_name(const struct node *n) { return (n->name); }
uint32_t node_number(const struct node *n) { return (n->number); }
uint32_t node_gpus_total(const struct node *n) { return (n->gpus_total); }
bool node_is_up(const struct node *n) { return (n->up); }
bool node_is_drained(const struct node *n) { return (n->drained); }
struct peer *node_peer(const struct node *n) { return (n->peer); }
int64_t node_last_seen(const struct node *n) { return (n->last_seen); }
bool node_seen_since_start(const struct node *n) { return (n->seen); }
const char *node_drain_reason(const struct node *n) { return (n->reason); }
size_t node_count(void) { return (nodes.total); }

uint64_t
node_gpus_mask(const struct node *n)
{
	if (n->gpus_total >= 64)
		return (UINT64_MAX);
	return ((UINT64_C(1) << n->gpus_total) - 1);
}

bool
node_is_schedulable(const struct node *n)
{
	return (n->up && n->peer != NULL && !n->drained);
}

const char *
node_state_name(const struct node *n, uint64_t held, uint32_t cpus)
{
	uint64_t	all = node_gpus_mask(n);

	if (!n->up)
		return ("down");
	if (n->drained)
		return ("drained");
	if ((held & all) == 0 && cpus == 0)
		return ("idle");
	if ((held & all) == all && all != 0)
		return ("allocated");
	return ("mixed");
}

uint32_t
node_largest(void)
{
	struct node	*n;
	uint32_t	 most = 0;

	TAILQ_FOREACH(n, &nodes.all, entry) {
		if (n->gpus_total > most)
			most = n->gpus_total;
	}
	return (most);
}

uint64_t
node_gpus_all(void)
{
	struct node	*n;
	uint64_t	 sum = 0;

	TAILQ_FOREACH(n, &nodes.all, entry)
		sum += n->gpus_total;
	return (sum);
}

size_t
node_count_up(void)
{
	struct node	*n;
	size_t		 up = 0;

	TAILQ_FOREACH(n, &nodes.all, entry) {
		if (n->up)
			up++;
	}
	return (up);
}

void
node_set_known(struct node *n, uint32_t gpus, bool drained,
    const char *reason, int64_t last_seen)
{
	n->gpus_total = gpus > SCHED_MAX_GPUS_PER_NODE ?
	    SCHED_MAX_GPUS_PER_NODE : gpus;
	n->drained = drained;
	free(n->reason);
	n->reason = xstrdup(reason != NULL ? reason : "");
	n->last_seen = last_seen;
}

/* The members of each GPU's NODE_LIST entry that come from HELLO, written
 * once here rather than at every listing. */
static void
node_gpu_text(struct node *n)
{
	struct jtext	*b = &n->gpu_text;
	const char	*s;
	json_t		*src, *v;
	uint32_t	 i;

	b->len = 0;
	for (i = 0; i < n->gpus_total; i++) {
		n->gpu_text_off[i] = b->len;
		src = json_array_get(n->gpus, i);
		v = json_object_get(src, "index");
		jtext_add(b, "{\"index\":", 9);
		n->gpu_index[i] = json_is_integer(v) ? json_integer_value(v) : i;
		jtext_int(b, n->gpu_index[i]);
		jtext_add(b, ",\"name\":", 8);
		s = json_string_value(json_object_get(src, "name"));
		jtext_string(b, s != NULL ? s : "");
		jtext_add(b, ",\"uuid\":", 8);
		s = json_string_value(json_object_get(src, "uuid"));
		jtext_string(b, s != NULL ? s : "");
		jtext_add(b, ",\"memory_mb\":", 13);
		jtext_int(b, json_integer_value(json_object_get(src,
		    "memory_mb")));
	}
	n->gpu_text_off[i] = b->len;
	n->gpus_described = n->gpus_total;
}

void
node_set_up(struct node *n, struct peer *peer, const char *addr,
    const char *gpu_source, json_t *gpus, int64_t now)
{
	size_t	count = json_array_size(gpus);

	n->gpus_total = count > SCHED_MAX_GPUS_PER_NODE ?
	    SCHED_MAX_GPUS_PER_NODE : (uint32_t)count;
	n->up = true;
	n->seen = true;
	n->peer = peer;
	free(n->addr);
	n->addr = xstrdup(addr != NULL ? addr : "");
	free(n->gpu_source);
	n->gpu_source = xstrdup(gpu_source != NULL ? gpu_source : "");
	json_decref(n->gpus);
	n->gpus = json_incref(gpus);
	node_gpu_text(n);
	n->last_seen = now;
}

void
node_set_down(struct node *n)
{
	n->up = false;
	n->peer = NULL;
}

void
node_peer_gone(struct node *n, struct peer *peer)
{
	if (n->peer == peer)
		n->peer = NULL;
}

void
node_touch(struct node *n, int64_t now)
{
	n->last_seen = now;
}

void
node_set_drain(struct node *n, bool drained, const char *reason)
{
	n->drained = drained;
	free(n->reason);
	n->reason = xstrdup(reason != NULL ? reason : "");
}

void
node_gpu_handed(struct node *n, uint64_t mask)
{
	unsigned	i;

	/* Idle time counts from its new holder's first heartbeat on it. */
	for (i = 0; i < SCHED_MAX_GPUS_PER_NODE; i++) {
		if (mask & (UINT64_C(1) << i))
			n->gpu_low_since[i] = 0;
	}
}

void
node_set_res(struct node *n, uint32_t cpus, uint64_t memory_mb)
{
	n->cpus = cpus;
	n->memory_mb = memory_mb;
}

uint32_t node_cpus(const struct node *n) { return (n->cpus); }
uint64_t node_memory_mb(const struct node *n) { return (n->memory_mb); }

/* Appends v, or null when v is below 0 (not known). */
static void
node_put_known(struct jtext *b, int64_t v)
{
	if (v < 0)
		JTEXT_LIT(b, "null");
	else
		jtext_put_int(b, v);
}

/* Writes ids[0..n) as JSON numbers, lowest first, between commas. */
static void
node_put_ids(struct jtext *b, const uint64_t *ids, size_t n)
{
	uint64_t	last = 0, next;
	size_t		i, k;

	/* n is a handful: a pass for each, no copy to sort. */
	for (k = 0; k < n; k++) {
		next = UINT64_MAX;
		for (i = 0; i < n; i++) {
			if (ids[i] > last && ids[i] < next)
				next = ids[i];
		}
		if (k > 0)
			JTEXT_LIT(b, ",");
		jtext_put_int(b, (int64_t)next);
		last = next;
	}
}

/* The jobs beside the first on GPU i ("[43,44]", lowest first), where
 * there are any; returns whether there were. */
static bool
node_put_co(struct jtext *b, const struct node_use *use, size_t i)
{
	uint64_t	ids[64];
	size_t		k, n = 0;

	for (k = 0; k < use->nco && n < 64; k++) {
		if (use->co[k].gpu == i)
			ids[n++] = use->co[k].job;
	}
	if (n == 0)
		return (false);
	jtext_reserve(b, 24 * n + 8);
	JTEXT_LIT(b, "[");
	node_put_ids(b, ids, n);
	JTEXT_LIT(b, "]");
	return (true);
}

void
node_describe(const struct node *n, struct jtext *b, bool brief,
    const struct node_use *use)
{
	static const char *const key[6] = { "{\"name\":", ",\"state\":",
			    ",\"reason\":", ",\"addr\":", ",\"gpu_source\":",
			    ",\"switch\":" };
	static const uint64_t	 none[SCHED_MAX_GPUS_PER_NODE];
	const char	*str[6] = { n->name, node_state_name(n, use->held,
			    use->cpus),
			    n->reason, n->addr, n->gpu_source, n->switch_name };
	const uint64_t	*job = use->job != NULL ? use->job : none;
	size_t		 i, len = 0;

	/* In an open reservation, a node that takes jobs reads as Slurm's
	 * do: maint throughout a maintenance, reserved while idle. */
	if (*use->reservation != '\0' && n->up && !n->drained &&
	    (use->resv_maint || strcmp(str[1], "idle") == 0))
		str[1] = use->resv_maint ? "maint" : "reserved";
	for (i = 0; i < 6; i++)
		len += strlen(str[i]) * 6 + 2;
	len += strlen(use->partitions) * 6 + 2;
	len += strlen(use->reservation) * 6 + 2;
	/* Room for the members' names and integers, and per GPU for its
	 * use besides its HELLO text. */
	jtext_reserve(b, len + 256 + n->gpu_text.len + n->gpus_total * 256);
	for (i = 0; i < 6; i++) {
		jtext_put(b, key[i], strlen(key[i]));
		jtext_put_string(b, str[i], strlen(str[i]));
	}
	JTEXT_LIT(b, ",\"gpus_total\":");
	jtext_put_int(b, n->gpus_total);
	JTEXT_LIT(b, ",\"gpus_alloc\":");
	jtext_put_int(b, __builtin_popcountll(use->held & node_gpus_mask(n)));
	/* CPUs and memory: null where the node did not say. */
	JTEXT_LIT(b, ",\"cpus_total\":");
	node_put_known(b, n->cpus != 0 ? (int64_t)n->cpus : -1);
	JTEXT_LIT(b, ",\"cpus_alloc\":");
	jtext_put_int(b, use->cpus);
	JTEXT_LIT(b, ",\"memory_mb\":");
	node_put_known(b, n->memory_mb != 0 ? (int64_t)n->memory_mb : -1);
	JTEXT_LIT(b, ",\"memory_alloc_mb\":");
	jtext_put_int(b, (int64_t)use->mem_mb);
	JTEXT_LIT(b, ",\"gpu_shards\":");
	jtext_put_int(b, node_gpu_shards(n));
	JTEXT_LIT(b, ",\"last_seen\":");
	jtext_put_int(b, n->last_seen);
	JTEXT_LIT(b, ",\"partitions\":");
	jtext_put_string(b, use->partitions, strlen(use->partitions));
	JTEXT_LIT(b, ",\"reservation\":");
	jtext_put_string(b, use->reservation, strlen(use->reservation));
	/* The CPU jobs on it, by id, lowest first. */
	jtext_reserve(b, 24 * use->ncpu_jobs + 16);
	JTEXT_LIT(b, ",\"cpu_jobs\":[");
	node_put_ids(b, use->cpu_job, use->ncpu_jobs);
	JTEXT_LIT(b, "],\"gpus\":[");
	for (i = 0; i < n->gpus_total; i++) {
		if (i != 0)
			JTEXT_LIT(b, ",");
		if (brief) {
			/* [index, job, util, mem_used_mb, low_since], then
			 * an array's task [array_job_id, array_task_id] and
			 * the jobs beside job [also] where there are: what
			 * changes, without a member name per value. */
			JTEXT_LIT(b, "[");
			jtext_put_int(b, i < n->gpus_described ?
			    n->gpu_index[i] : (int64_t)i);
			JTEXT_LIT(b, ",");
			node_put_known(b, job[i] != 0 ?
			    (int64_t)job[i] : -1);
			JTEXT_LIT(b, ",");
			node_put_known(b, n->gpu_util[i]);
			JTEXT_LIT(b, ",");
			node_put_known(b, n->gpu_mem_used[i]);
			JTEXT_LIT(b, ",");
			jtext_put_int(b, job[i] != 0 ?
			    n->gpu_low_since[i] : 0);
			if (job[i] != 0 && use->task != NULL &&
			    use->task[i] >= 0) {
				JTEXT_LIT(b, ",");
				jtext_put_int(b, (int64_t)use->array[i]);
				JTEXT_LIT(b, ",");
				jtext_put_int(b, use->task[i]);
			} else if (job[i] != 0 && use->nco > 0)
				JTEXT_LIT(b, ",0,-1");
			/* Then the jobs beside it on the GPU. */
			if (job[i] != 0 && use->nco > 0) {
				JTEXT_LIT(b, ",");
				if (!node_put_co(b, use, i))
					JTEXT_LIT(b, "[]");
			}
			JTEXT_LIT(b, "]");
			continue;
		}
		if (i >= n->gpus_described) {
			/* Known from the database, not yet from a HELLO. */
			JTEXT_LIT(b, "{\"index\":");
			jtext_put_int(b, (int64_t)i);
			JTEXT_LIT(b, ",\"name\":\"\",\"uuid\":\"\","
			    "\"memory_mb\":0");
		} else
			jtext_put(b, n->gpu_text.buf + n->gpu_text_off[i],
			    n->gpu_text_off[i + 1] - n->gpu_text_off[i]);
		JTEXT_LIT(b, ",\"job\":");
		node_put_known(b, job[i] != 0 ?
		    (int64_t)job[i] : -1);
		JTEXT_LIT(b, ",\"util\":");
		node_put_known(b, n->gpu_util[i]);
		JTEXT_LIT(b, ",\"mem_used_mb\":");
		node_put_known(b, n->gpu_mem_used[i]);
		JTEXT_LIT(b, ",\"low_since\":");
		jtext_put_int(b, job[i] != 0 ? n->gpu_low_since[i] : 0);
		if (job[i] != 0 && use->task != NULL && use->task[i] >= 0) {
			JTEXT_LIT(b, ",\"array_job_id\":");
			jtext_put_int(b, (int64_t)use->array[i]);
			JTEXT_LIT(b, ",\"array_task_id\":");
			jtext_put_int(b, use->task[i]);
		}
		if (job[i] != 0 && use->nco > 0) {
			JTEXT_LIT(b, ",\"also\":");
			if (!node_put_co(b, use, i))
				JTEXT_LIT(b, "[]");
		}
		JTEXT_LIT(b, "}");
	}
	JTEXT_LIT(b, "]}");
}

int
node_save(const struct node *n)
{
	struct store_node	row;

	row.name = n->name;
	row.gpus = n->gpus_total;
	row.drained = n->drained;
	row.reason = n->reason;
	row.last_seen = n->last_seen;
	return (store_node_save(&row));
}

int
node_event(const struct node *n, int64_t when, const char *state,
    const char *detail)
{
	return (store_node_event(n->name, when, state, detail));
}

uint32_t
node_sched_index(const struct node *n)
{
	return (n->sched_index);
}

void
node_set_sched_index(struct node *n, uint32_t i)
{
	n->sched_index = i;
}

const char *
node_addr(const struct node *n)
{
	return (n->addr);
}

void
node_set_gpu_shards(struct node *n, uint32_t shards)
{
	n->gpu_shards = shards;
}

uint32_t
node_gpu_shards(const struct node *n)
{
	return (n->gpu_shards > 1 ? n->gpu_shards : 1);
}

bool
node_freezer(const struct node *n)
{
	return (n->freezer);
}

void
node_set_freezer(struct node *n, bool freezer)
{
	n->freezer = freezer;
}

const char *
node_switch(const struct node *n)
{
	return (n->switch_name);
}

void
node_set_switch(struct node *n, const char *label)
{
	free(n->switch_name);
	n->switch_name = xstrdup(label != NULL ? label : "");
}

void
node_gpu_use(struct node *n, const json_t *gpus, int64_t now)
{
	const json_t	*g, *u, *m;
	json_int_t	 index;
	size_t		 k;

	/* What a node sends is checked here: a bad entry is skipped, never
	 * trusted (an index past the node's GPUs, a share past 100). */
	json_array_foreach(gpus, k, g) {
		if (!json_is_integer(json_object_get(g, "index")))
			continue;
		index = json_integer_value(json_object_get(g, "index"));
		if (index < 0 || index >= (json_int_t)n->gpus_total)
			continue;
		u = json_object_get(g, "util");
		m = json_object_get(g, "mem_used_mb");
		n->gpu_util[index] = json_is_integer(u) &&
		    json_integer_value(u) >= 0 && json_integer_value(u) <= 100 ?
		    (int)json_integer_value(u) : -1;
		n->gpu_mem_used[index] = json_is_integer(m) &&
		    json_integer_value(m) >= 0 ? (int64_t)json_integer_value(m) :
		    -1;
		if (n->gpu_util[index] < 0 ||
		    n->gpu_util[index] >= NODE_GPU_LOW_UTIL)
			n->gpu_low_since[index] = 0;
		else if (n->gpu_low_since[index] == 0)
			n->gpu_low_since[index] = now;
	}
}

uint32_t
node_gpu_mem_free(const struct node *n, uint32_t i)
{
	json_int_t	total;

	if (i >= n->gpus_total || n->gpu_mem_used[i] < 0 || n->gpus == NULL)
		return (UINT32_MAX);
	total = json_integer_value(json_object_get(json_array_get(n->gpus, i),
	    "memory_mb"));
	if (total <= 0)
		return (UINT32_MAX);
	if (total <= n->gpu_mem_used[i])
		return (0);
	total -= n->gpu_mem_used[i];
	return (total >= UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)total);
}

bool
node_gpus_match(const struct node *n, const char *type)
{
	const json_t	*g;
	const char	*name, *p;
	size_t		 i, len = strlen(type);

	if (n->gpus == NULL || json_array_size(n->gpus) == 0 || len == 0)
		return (false);
	json_array_foreach(n->gpus, i, g) {
		name = json_string_value(json_object_get(g, "name"));
		if (name == NULL)
			return (false);
		for (p = name; *p != '\0'; p++) {
			if (strncasecmp(p, type, len) == 0)
				break;
		}
		if (*p == '\0')
			return (false);
	}
	return (true);
}
