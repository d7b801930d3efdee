/* resv-tab-test.c: advance reservations' rules (daemon/controller/
 * resv-tab.c): host lists, what a reservation must be, which may not
 * overlap (and that a maintenance may), names made as Slurm's USER_N and
 * never reused, who may use one, open at its start and not at its end,
 * the flags taken and those refused with why, the nodes a reservation of
 * N GPUs takes, and its JSON. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/controller/resv-tab.h"
#include "tests/unit/tap.h"

static char	t_err[512];

/* A reservation (not in a table) of name on nodes from start to end. */
static void
t_resv(struct resv *r, const char *name, const char *nodes, int64_t start,
    int64_t end, const char *users, uint32_t flags)
{
	memset(r, 0, sizeof *r);
	r->name = strdup(name);
	r->start = start;
	r->end = end;
	r->users = strdup(users);
	r->accounts = strdup("");
	r->flags = flags;
	if (resv_tab_set_nodes(r, nodes, t_err, sizeof t_err) != 0)
		printf("# %s\n", t_err);
}

static void
t_nodes(void)
{
	struct resv	r;

	t_resv(&r, "a", "n[3-4],n1", 0, 10, "alice", 0);
	ok(r.nnames == 3 && strcmp(r.names[0], "n1") == 0 &&
	    strcmp(r.nodes, "n[1,3-4]") == 0,
	    "nodes: expanded, sorted, written back compressed (%s)", r.nodes);
	ok(resv_tab_has_node(&r, "n3") && !resv_tab_has_node(&r, "n2"),
	    "nodes: one of its, or not");
	ok(resv_tab_set_nodes(&r, "n[1-", t_err, sizeof t_err) == -1 &&
	    strncmp(t_err, "nodes: ", 7) == 0,
	    "nodes: a bad list refused: %s", t_err);
	ok(resv_tab_set_nodes(&r, "", t_err, sizeof t_err) == -1,
	    "nodes: none refused: %s", t_err);
	resv_tab_entry_clear(&r);
}

static void
t_check(void)
{
	struct resv_tab	t = { 0 };
	struct resv	r, o;
	const struct resv *f;
	uint64_t	id;
	char		name[64];

	t_resv(&r, "maint1", "n[1-2]", 100, 200, "root", RESV_F_MAINT);
	ok(resv_tab_check(&t, &r, 50, t_err, sizeof t_err) == 0,
	    "check: a maintenance to come is taken");
	id = resv_tab_put(&t, &r);
	ok(id == 1 && t.next_id == 2, "put: the first gets id 1");
	r.id = 0;
	ok(resv_tab_check(&t, &r, 50, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "exists already") != NULL,
	    "check: a second of the same name refused: %s", t_err);
	resv_tab_entry_clear(&r);

	t_resv(&o, "u1", "n[2-3]", 150, 300, "alice", 0);
	ok(resv_tab_check(&t, &o, 50, t_err, sizeof t_err) == 0,
	    "check: a user reservation may overlap a maintenance");
	resv_tab_put(&t, &o);
	resv_tab_entry_clear(&o);
	t_resv(&o, "u2", "n3", 299, 400, "bob", 0);
	ok(resv_tab_check(&t, &o, 50, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "node n3 is in reservation u1") != NULL,
	    "check: two user reservations may not share a node over a "
	    "time: %s", t_err);
	o.start = 300;
	ok(resv_tab_check(&t, &o, 50, t_err, sizeof t_err) == 0,
	    "check: one starting at the other's end may");
	o.start = 299;
	o.flags = RESV_F_MAINT;
	ok(resv_tab_check(&t, &o, 50, t_err, sizeof t_err) == 0,
	    "check: a maintenance may overlap one");
	o.flags = 0;
	ok(resv_tab_check(&t, &o, 300, t_err, sizeof t_err) == 0,
	    "check: one that has ended is in no one's way");
	resv_tab_entry_clear(&o);

	t_resv(&o, "x", "n9", 100, 100, "alice", 0);
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "after the start") != NULL,
	    "check: an end at the start refused: %s", t_err);
	o.end = 90;
	o.start = 10;
	ok(resv_tab_check(&t, &o, 90, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "past") != NULL,
	    "check: an end at now refused: %s", t_err);
	o.end = o.start + RESV_MAX_DURATION + 1;
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "365 days") != NULL,
	    "check: over a year refused: %s", t_err);
	o.end = 200;
	free(o.users);
	o.users = strdup("");
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "users or accounts") != NULL,
	    "check: neither users nor accounts refused: %s", t_err);
	free(o.accounts);
	o.accounts = strdup("phys,chem");
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == 0,
	    "check: accounts alone taken");
	free(o.accounts);
	o.accounts = strdup("-phys");
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "accounts:") != NULL,
	    "check: Slurm's -NAME refused: %s", t_err);
	free(o.name);
	o.name = strdup("a b");
	ok(resv_tab_check(&t, &o, 0, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "name:") != NULL,
	    "check: a name with a space refused: %s", t_err);
	resv_tab_entry_clear(&o);

	ok(strcmp(resv_tab_name(&t, "root", name, sizeof name), "root_3") ==
	    0, "name: USER_N, N the next id (%s)", name);
	ok(resv_tab_remove(&t, "u1") && !resv_tab_remove(&t, "u1") &&
	    t.n == 1, "remove: once");
	ok(strcmp(resv_tab_name(&t, "root", name, sizeof name), "root_3") ==
	    0, "name: ids are never reused (%s)", name);
	f = resv_tab_find(&t, "maint1");
	ok(f != NULL && resv_tab_find_id(&t, f->id) == f &&
	    resv_tab_find(&t, "nope") == NULL, "find: by name and by id");
	resv_tab_free(&t);
}

static void
t_who_when(void)
{
	struct resv_tab		 t = { 0 };
	struct resv		 r;

	t_resv(&r, "u", "n1", 100, 200, "alice,bob", 0);
	free(r.accounts);
	r.accounts = strdup("phys");
	ok(resv_tab_admits(&r, "alice", "") && resv_tab_admits(&r, "bob", "chem"),
	    "admits: its users, whatever their account");
	ok(resv_tab_admits(&r, "carol", "phys") && !resv_tab_admits(&r, "carol",
	    "chem") && !resv_tab_admits(&r, "ali", ""),
	    "admits: its accounts' jobs; no one else, no prefix of a name");
	ok(!resv_tab_is_active(&r, 99) && resv_tab_is_active(&r, 100) &&
	    resv_tab_is_active(&r, 199) && !resv_tab_is_active(&r, 200),
	    "active: from its start, not at its end");
	resv_tab_put(&t, &r);
	resv_tab_entry_clear(&r);
	t_resv(&r, "m", "n1", 150, 160, "root", RESV_F_MAINT);
	resv_tab_put(&t, &r);
	resv_tab_entry_clear(&r);
	ok(strcmp(resv_tab_on_node(&t, "n1", 120)->name, "u") == 0 &&
	    strcmp(resv_tab_on_node(&t, "n1", 155)->name, "m") == 0 &&
	    resv_tab_on_node(&t, "n2", 155) == NULL &&
	    resv_tab_on_node(&t, "n1", 99) == NULL,
	    "on node: the open one, a maintenance first");
	ok(resv_tab_ended(&t, 159) == NULL &&
	    strcmp(resv_tab_ended(&t, 160)->name, "m") == 0,
	    "ended: at its end");
	resv_tab_free(&t);
}

static void
t_flags(void)
{
	uint32_t	f;
	char		buf[64];

	ok(resv_tab_flags_parse("maint,IGNORE_JOBS", &f, t_err,
	    sizeof t_err) == 0 && f == (RESV_F_MAINT | RESV_F_IGNORE_JOBS),
	    "flags: MAINT and IGNORE_JOBS, any case");
	ok(strcmp(resv_tab_flags_text(f, buf, sizeof buf), "MAINT,IGNORE_JOBS") ==
	    0 && strcmp(resv_tab_flags_text(0, buf, sizeof buf), "") == 0,
	    "flags: written as Slurm's");
	ok(resv_tab_flags_parse("MAINT,OVERLAP", &f, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "OVERLAP is not taken by gbatch") != NULL,
	    "flags: Slurm's OVERLAP refused with why: %s", t_err);
	ok(resv_tab_flags_parse("daily", &f, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "do not repeat") != NULL,
	    "flags: DAILY refused with why: %s", t_err);
	ok(resv_tab_flags_parse("maintenance", &f, t_err, sizeof t_err) == -1 &&
	    strstr(t_err, "unknown flag") != NULL,
	    "flags: an unknown word refused: %s", t_err);
}

static void
t_pick(void)
{
	struct resv_node	n[] = {
		{ "a", 8, true }, { "b", 4, true }, { "c", 4, true },
		{ "d", 2, true }, { "e", 8, false },
	};
	size_t			out[5], k;

	k = resv_tab_pick(n, 5, 3, out, t_err, sizeof t_err);
	ok(k == 1 && out[0] == 1, "pick: 3 GPUs: the smallest node that "
	    "holds them (b)");
	k = resv_tab_pick(n, 5, 8, out, t_err, sizeof t_err);
	ok(k == 1 && out[0] == 0, "pick: 8: node a alone, not e (unusable)");
	k = resv_tab_pick(n, 5, 10, out, t_err, sizeof t_err);
	ok(k == 2 && out[0] == 0 && out[1] == 3,
	    "pick: 10: a, then the smallest that is enough (d)");
	k = resv_tab_pick(n, 5, 18, out, t_err, sizeof t_err);
	ok(k == 4, "pick: 18: every usable node");
	k = resv_tab_pick(n, 5, 19, out, t_err, sizeof t_err);
	ok(k == 0 && strstr(t_err, "hold 18 GPUs") != NULL,
	    "pick: 19: refused: %s", t_err);
}

static void
t_json(void)
{
	struct resv	 r;
	json_t		*j;
	char		*s;

	t_resv(&r, "root_1", "n[1-2]", 100, 3700, "root", RESV_F_MAINT);
	free(r.accounts);
	r.accounts = strdup("ops,it");
	j = resv_tab_json(&r, 200);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(s, "{\"accounts\":[\"ops\",\"it\"],\"duration\":3600,"
	    "\"end_time\":3700,\"flags\":[\"MAINT\"],\"name\":\"root_1\","
	    "\"node_count\":2,\"nodes\":\"n[1-2]\",\"start_time\":100,"
	    "\"state\":\"ACTIVE\",\"users\":[\"root\"]}", "json: as listed");
	free(s);
	json_decref(j);
	resv_tab_entry_clear(&r);
}

int
main(void)
{
	t_nodes();
	t_check();
	t_who_when();
	t_flags();
	t_pick();
	t_json();
	return (tap_done());
}
