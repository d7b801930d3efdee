/* resv-tab.c: advance reservations' table and rules (resv-tab.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/hostlist.h"
#include "common/label.h"
#include "common/xmalloc.h"
#include "daemon/controller/resv-tab.h"

void
resv_tab_entry_clear(struct resv *r)
{
	free(r->name);
	free(r->nodes);
	hostlist_free(r->names, r->nnames);
	free(r->users);
	free(r->accounts);
	memset(r, 0, sizeof *r);
}

void
resv_tab_free(struct resv_tab *t)
{
	size_t	i;

	for (i = 0; i < t->n; i++)
		resv_tab_entry_clear(&t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

static char *
resv_dup(const char *s)
{
	return (xstrdup(s != NULL ? s : ""));
}

void
resv_tab_copy(struct resv *dst, const struct resv *src)
{
	size_t	i;

	*dst = *src;
	dst->name = resv_dup(src->name);
	dst->nodes = resv_dup(src->nodes);
	dst->users = resv_dup(src->users);
	dst->accounts = resv_dup(src->accounts);
	dst->names = xcalloc(src->nnames + 1, sizeof *dst->names);
	for (i = 0; i < src->nnames; i++)
		dst->names[i] = xstrdup(src->names[i]);
}

const struct resv *
resv_tab_find(const struct resv_tab *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].name, name) == 0)
			return (&t->v[i]);
	}
	return (NULL);
}

const struct resv *
resv_tab_find_id(const struct resv_tab *t, uint64_t id)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].id == id)
			return (&t->v[i]);
	}
	return (NULL);
}

static int
resv_by_name(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

int
resv_tab_set_nodes(struct resv *r, const char *text, char *err, size_t errlen)
{
	char	**names, e[256];
	size_t	  n;

	if (text == NULL || *text == '\0') {
		snprintf(err, errlen, "nodes: expected a host list, as "
		    "\"n[1-4],gpu7\"");
		return (-1);
	}
	if (hostlist_expand(text, &names, &n, e, sizeof e) != 0) {
		snprintf(err, errlen, "nodes: %s", e);
		return (-1);
	}
	qsort(names, n, sizeof *names, resv_by_name);
	hostlist_free(r->names, r->nnames);
	free(r->nodes);
	r->names = names;
	r->nnames = n;
	r->nodes = hostlist_compress(names, n);
	return (0);
}

bool
resv_tab_has_node(const struct resv *r, const char *node)
{
	return (bsearch(&node, r->names, r->nnames, sizeof *r->names,
	    resv_by_name) != NULL);
}

/* Whether name is one of list's ("a,b"). */
static bool
resv_in_list(const char *list, const char *name)
{
	size_t		 len = strlen(name);
	const char	*p;

	if (len == 0)
		return (false);
	for (p = list; (p = strstr(p, name)) != NULL; p += len) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' ||
		    p[len] == '\0'))
			return (true);
	}
	return (false);
}

/* The first node a and b share, or NULL (both sorted). */
static const char *
resv_shared_node(const struct resv *a, const struct resv *b)
{
	size_t	i = 0, j = 0;
	int	c;

	while (i < a->nnames && j < b->nnames) {
		if ((c = strcmp(a->names[i], b->names[j])) == 0)
			return (a->names[i]);
		if (c < 0)
			i++;
		else
			j++;
	}
	return (NULL);
}

/* A list of users or accounts: labels joined by ',', or nothing. */
static int
resv_check_list(const char *what, const char *list, char *err, size_t errlen)
{
	if (list == NULL || *list == '\0')
		return (0);
	if (strlen(list) > RESV_MAX_LIST || !label_list_ok(list) ||
	    *list == '-' || strstr(list, ",-") != NULL) {
		snprintf(err, errlen, "%s: expected names joined by ',' (each "
		    "1 to %d letters, digits, '.', '-' or '_'; Slurm's -NAME, "
		    "to leave one out, is not taken)", what, LABEL_MAX);
		return (-1);
	}
	return (0);
}

int
resv_tab_check(const struct resv_tab *t, const struct resv *r, int64_t now,
    char *err, size_t errlen)
{
	const struct resv	*o;
	const char		*node;
	size_t			 i;

	if (r->name == NULL || !label_ok(r->name)) {
		snprintf(err, errlen, "name: expected 1 to %d letters, digits, "
		    "'.', '-' or '_'", LABEL_MAX);
		return (-1);
	}
	if ((o = resv_tab_find(t, r->name)) != NULL && o->id != r->id) {
		snprintf(err, errlen, "reservation %s exists already; change "
		    "it with update, or give another name", r->name);
		return (-1);
	}
	if (r->start < 0 || r->end <= r->start) {
		snprintf(err, errlen, "the end must come after the start");
		return (-1);
	}
	if (r->end <= now) {
		snprintf(err, errlen, "the end is past: a reservation must end "
		    "after now");
		return (-1);
	}
	if (r->end - r->start > RESV_MAX_DURATION) {
		snprintf(err, errlen, "duration: at most 365 days");
		return (-1);
	}
	if (r->nnames == 0) {
		snprintf(err, errlen, "nodes: expected at least one node");
		return (-1);
	}
	if (resv_check_list("users", r->users, err, errlen) != 0 ||
	    resv_check_list("accounts", r->accounts, err, errlen) != 0)
		return (-1);
	if ((r->users == NULL || *r->users == '\0') && (r->accounts == NULL ||
	    *r->accounts == '\0')) {
		snprintf(err, errlen, "a reservation is for some users or "
		    "accounts: give users or accounts (a maintenance's too, "
		    "users root, say)");
		return (-1);
	}
	for (i = 0; i < t->n; i++) {
		o = &t->v[i];
		if (o->id == r->id || (o->flags & RESV_F_MAINT) ||
		    (r->flags & RESV_F_MAINT) || o->end <= r->start ||
		    r->end <= o->start || o->end <= now)
			continue;
		if ((node = resv_shared_node(r, o)) != NULL) {
			snprintf(err, errlen, "node %s is in reservation %s over "
			    "the same time; reservations overlap only for a "
			    "maintenance (flags MAINT)", node, o->name);
			return (-1);
		}
	}
	return (0);
}

static int
resv_by_start(const void *a, const void *b)
{
	const struct resv	*x = a, *y = b;

	if (x->start != y->start)
		return (x->start < y->start ? -1 : 1);
	return (strcmp(x->name, y->name));
}

uint64_t
resv_tab_put(struct resv_tab *t, const struct resv *r)
{
	struct resv	*dst = NULL;
	uint64_t	 id;
	size_t		 i;

	if (t->next_id == 0)
		t->next_id = 1;
	for (i = 0; i < t->n && r->id != 0; i++) {
		if (t->v[i].id == r->id) {
			dst = &t->v[i];
			resv_tab_entry_clear(dst);
			break;
		}
	}
	if (dst == NULL) {
		t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
		dst = &t->v[t->n++];
	}
	resv_tab_copy(dst, r);
	if (dst->id == 0)
		dst->id = t->next_id;
	if (dst->id >= t->next_id)
		t->next_id = dst->id + 1;
	id = dst->id;
	qsort(t->v, t->n, sizeof *t->v, resv_by_start);
	return (id);
}

bool
resv_tab_remove(struct resv_tab *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].name, name) != 0)
			continue;
		resv_tab_entry_clear(&t->v[i]);
		memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) *
		    sizeof *t->v);
		t->n--;
		return (true);
	}
	return (false);
}

const char *
resv_tab_name(const struct resv_tab *t, const char *user, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s_%" PRIu64, user, t->next_id != 0 ?
	    t->next_id : 1);
	return (buf);
}

bool
resv_tab_admits(const struct resv *r, const char *user, const char *account)
{
	return (resv_in_list(r->users, user) ||
	    (account != NULL && resv_in_list(r->accounts, account)));
}

bool
resv_tab_is_active(const struct resv *r, int64_t now)
{
	return (r->start <= now && now < r->end);
}

const struct resv *
resv_tab_on_node(const struct resv_tab *t, const char *node, int64_t now)
{
	const struct resv	*found = NULL;
	size_t			 i;

	for (i = 0; i < t->n; i++) {
		if (!resv_tab_is_active(&t->v[i], now) ||
		    !resv_tab_has_node(&t->v[i], node))
			continue;
		if (t->v[i].flags & RESV_F_MAINT)
			return (&t->v[i]);
		if (found == NULL)
			found = &t->v[i];
	}
	return (found);
}

const struct resv *
resv_tab_ended(const struct resv_tab *t, int64_t now)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].end <= now)
			return (&t->v[i]);
	}
	return (NULL);
}

/* Slurm's reservation flags gbatch does not take, and why. */
static const struct {
	const char	*word;
	const char	*why;
} resv_flags_not[] = {
	{ "OVERLAP", "only a maintenance (MAINT) may overlap another" },
	{ "FLEX", "a reservation's jobs run on its nodes alone" },
	{ "DAILY", "reservations do not repeat" },
	{ "WEEKLY", "reservations do not repeat" },
	{ "WEEKDAY", "reservations do not repeat" },
	{ "WEEKEND", "reservations do not repeat" },
	{ "HOURLY", "reservations do not repeat" },
	{ "FIRST_CORES", "a reservation holds whole nodes" },
	{ "PART_NODES", "name the nodes, or a number of GPUs" },
	{ "ANY_NODES", "a reservation's jobs run on its nodes alone" },
	{ "STATIC_ALLOC", "a reservation's nodes are fixed once made" },
	{ "REPLACE", "a reservation's nodes are fixed once made" },
	{ "REPLACE_DOWN", "a reservation's nodes are fixed once made" },
	{ "PURGE_COMP", "a reservation lasts to its end" },
	{ "NO_HOLD_JOBS_AFTER", "jobs of a reservation that ended wait "
	    "(ReservationDeleted)" },
	{ "TIME_FLOAT", "a reservation starts at a fixed time" },
	{ "LICENSE_ONLY", "gbatch has no licenses" },
	{ "NO_HOLD_JOBS", "jobs of a reservation that ended wait "
	    "(ReservationDeleted)" },
	{ "SPEC_NODES", "it is implied by naming the nodes" },
	{ "USER_DELETE", "only operators delete reservations" },
	{ "MAGNETIC", "a job uses a reservation by asking for it" },
};

int
resv_tab_flags_parse(const char *s, uint32_t *flags, char *err, size_t errlen)
{
	char	*copy = xstrdup(s), *w, *save = NULL;
	size_t	 i;

	*flags = 0;
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save)) {
		if (strcasecmp(w, "MAINT") == 0) {
			*flags |= RESV_F_MAINT;
			continue;
		}
		if (strcasecmp(w, "IGNORE_JOBS") == 0) {
			*flags |= RESV_F_IGNORE_JOBS;
			continue;
		}
		for (i = 0; i < sizeof resv_flags_not /
		    sizeof resv_flags_not[0]; i++) {
			if (strcasecmp(w, resv_flags_not[i].word) == 0)
				break;
		}
		if (i < sizeof resv_flags_not / sizeof resv_flags_not[0])
			snprintf(err, errlen, "flags: %s is not taken by gbatch "
			    "(%s); expected MAINT or IGNORE_JOBS",
			    resv_flags_not[i].word, resv_flags_not[i].why);
		else
			snprintf(err, errlen, "flags: unknown flag \"%.64s\"; "
			    "expected MAINT or IGNORE_JOBS", w);
		free(copy);
		return (-1);
	}
	free(copy);
	return (0);
}

const char *
resv_tab_flags_text(uint32_t flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", flags & RESV_F_MAINT ? "MAINT" : "",
	    (flags & RESV_F_MAINT) && (flags & RESV_F_IGNORE_JOBS) ? "," : "",
	    flags & RESV_F_IGNORE_JOBS ? "IGNORE_JOBS" : "");
	return (buf);
}

size_t
resv_tab_pick(const struct resv_node *nodes, size_t n, uint32_t gpus,
    size_t *out, char *err, size_t errlen)
{
	uint64_t	sum = 0, have = 0;
	size_t		i, k = 0, best, last;
	bool		*taken;

	for (i = 0; i < n; i++) {
		if (nodes[i].usable)
			have += nodes[i].gpus;
	}
	if (gpus == 0 || have < gpus) {
		snprintf(err, errlen, "gpus %u: the nodes that may be reserved "
		    "then (up, not drained, in no other reservation) hold %"
		    PRIu64 " GPU%s", gpus, have, have == 1 ? "" : "s");
		return (0);
	}
	taken = xcalloc(n + 1, sizeof *taken);
	for (;;) {
		/* The smallest node that holds what is left, else the
		 * largest (the first of equals). */
		best = SIZE_MAX;
		last = SIZE_MAX;
		for (i = 0; i < n; i++) {
			if (!nodes[i].usable || taken[i] || nodes[i].gpus == 0)
				continue;
			if (sum + nodes[i].gpus >= gpus && (last == SIZE_MAX ||
			    nodes[i].gpus < nodes[last].gpus))
				last = i;
			if (best == SIZE_MAX || nodes[i].gpus >
			    nodes[best].gpus)
				best = i;
		}
		if (last != SIZE_MAX) {
			out[k++] = last;
			break;
		}
		taken[best] = true;
		out[k++] = best;
		sum += nodes[best].gpus;
	}
	free(taken);
	return (k);
}

/* list ("a,b") as an array of its names. */
static json_t *
resv_json_list(const char *list)
{
	json_t		*a = json_array();
	const char	*p = list, *comma;

	while (p != NULL && *p != '\0') {
		comma = strchr(p, ',');
		json_array_append_new(a, json_stringn(p, comma != NULL ?
		    (size_t)(comma - p) : strlen(p)));
		p = comma != NULL ? comma + 1 : NULL;
	}
	return (a);
}

json_t *
resv_tab_json(const struct resv *r, int64_t now)
{
	json_t	*flags = json_array();

	if (r->flags & RESV_F_MAINT)
		json_array_append_new(flags, json_string("MAINT"));
	if (r->flags & RESV_F_IGNORE_JOBS)
		json_array_append_new(flags, json_string("IGNORE_JOBS"));
	return (json_pack("{s:s, s:I, s:I, s:I, s:s, s:I, s:o, s:o, s:o, "
	    "s:s}", "name", r->name, "start_time", (json_int_t)r->start,
	    "end_time", (json_int_t)r->end, "duration",
	    (json_int_t)(r->end - r->start), "nodes", r->nodes, "node_count",
	    (json_int_t)r->nnames, "users", resv_json_list(r->users),
	    "accounts", resv_json_list(r->accounts), "flags", flags, "state",
	    resv_tab_is_active(r, now) ? "ACTIVE" : "INACTIVE"));
}
