/* resv-words-test.c: a reservation's words (client/resv-words.c) as
 * gctl reservation's options and scontrol's Slurm keywords write them,
 * each key's forms and refusals, the request they make; and RESV_LIST's
 * reply read back (client/resv-list.c). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "client/resv-list.h"
#include "client/resv-words.h"
#include "common/proto.h"
#include "tests/unit/tap.h"

/* A fixed now: 2026-11-28T12:00:00Z. */
#define NOW	((time_t)1795867200)

static char	t_err[512];

static int64_t
t_int(const json_t *set, const char *key)
{
	return ((int64_t)json_integer_value(json_object_get(set, key)));
}

static const char *
t_str(const json_t *set, const char *key)
{
	const char	*s = json_string_value(json_object_get(set, key));

	return (s != NULL ? s : "(none)");
}

static void
t_put(void)
{
	json_t		*set = json_object();
	const char	*name = NULL;

	ok(resv_words_put(set, &name, RESV_WORDS_NAME, "maint-1", NOW, t_err,
	    sizeof t_err) == 0 && name != NULL &&
	    strcmp(name, "maint-1") == 0 && json_object_size(set) == 0,
	    "name: kept apart from set");
	ok(resv_words_put(set, &name, RESV_WORDS_NAME, "again", NOW, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "given twice") != NULL,
	    "name: once: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_START, "now+1hour", NOW,
	    t_err, sizeof t_err) == 0 && t_int(set, "start_time") == NOW +
	    3600, "start: now+1hour");
	ok(resv_words_put(set, &name, RESV_WORDS_DURATION, "90", NOW, t_err,
	    sizeof t_err) == 0 && t_int(set, "duration") == 5400,
	    "duration: Slurm's minutes");
	ok(resv_words_put(set, &name, RESV_WORDS_END, "now+2hours", NOW,
	    t_err, sizeof t_err) == -1 && strstr(t_err, "duration is given "
	    "already") != NULL, "end after a duration refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_NODES, "n[1-3],gpu7", NOW,
	    t_err, sizeof t_err) == 0 && strcmp(t_str(set, "nodes"),
	    "n[1-3],gpu7") == 0, "nodes: a host list, as given");
	ok(resv_words_put(set, &name, RESV_WORDS_GPUS, "8", NOW, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "nodes is given already") !=
	    NULL, "gpus after nodes refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_USERS, "root,alice", NOW,
	    t_err, sizeof t_err) == 0, "users: names joined by ','");
	ok(resv_words_put(set, &name, RESV_WORDS_ACCOUNTS, "-phys", NOW,
	    t_err, sizeof t_err) == -1 && strstr(t_err, "-NAME") != NULL,
	    "accounts: Slurm's -NAME refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_FLAGS, "maint", NOW, t_err,
	    sizeof t_err) == 0 && strcmp(t_str(set, "flags"), "maint") == 0,
	    "flags: as given, gbatchd judges them");
	json_decref(set);

	set = json_object();
	name = NULL;
	ok(resv_words_put(set, &name, RESV_WORDS_DURATION, "UNLIMITED", NOW,
	    t_err, sizeof t_err) == -1 && strstr(t_err, "a reservation ends") !=
	    NULL, "duration: UNLIMITED refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_DURATION, "366-00:00:00",
	    NOW, t_err, sizeof t_err) == -1, "duration: over a year refused");
	ok(resv_words_put(set, &name, RESV_WORDS_DURATION, "0:30", NOW, t_err,
	    sizeof t_err) == 0 && t_int(set, "duration") == 30,
	    "duration: M:S");
	ok(resv_words_put(set, &name, RESV_WORDS_GPUS, "0", NOW, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "from 1 to") != NULL,
	    "gpus: 0 refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_GPUS, "4x", NOW, t_err,
	    sizeof t_err) == -1, "gpus: a word refused");
	ok(resv_words_put(set, &name, RESV_WORDS_NODES, "n[1-", NOW, t_err,
	    sizeof t_err) == -1 && strncmp(t_err, "nodes: ", 7) == 0,
	    "nodes: a bad list refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_START, "someday", NOW,
	    t_err, sizeof t_err) == -1 && strncmp(t_err, "start_time: ", 12) ==
	    0, "start: a bad time refused: %s", t_err);
	ok(resv_words_put(set, &name, RESV_WORDS_NAME, "a\033b", NOW, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "\\e") != NULL,
	    "name: a control character refused, shown made safe: %s", t_err);
	json_decref(set);
}

static void
t_slurm(void)
{
	char		*w1[] = { "ReservationName=m1", "StartTime=now",
			    "duration=2:00:00", "Nodes=n[1-2]", "USERS=root",
			    "Flags=MAINT,IGNORE_JOBS" };
	char		*w2[] = { "starttime=now+10", "EndTime=now+70",
			    "TRES=gres/gpu=8", "Accounts=phys" };
	char		*w3[] = { "Duration=10", "NodeCnt=2", "Users=root" };
	char		*w4[] = { "Color=red" };
	char		*w5[] = { "TRES=cpu=4" };
	char		*w6[] = { "StartTime" };
	const char	*name;
	json_t		*set = json_object(), *req;
	char		*s;

	ok(resv_words_slurm(6, w1, NOW, &name, set, t_err,
	    sizeof t_err) == 0 && strcmp(name, "m1") == 0 &&
	    t_int(set, "start_time") == NOW && t_int(set, "duration") ==
	    7200 && strcmp(t_str(set, "nodes"), "n[1-2]") == 0 &&
	    strcmp(t_str(set, "users"), "root") == 0 &&
	    strcmp(t_str(set, "flags"), "MAINT,IGNORE_JOBS") == 0,
	    "slurm: create's keys, any case");
	req = resv_words_request("create", name, set);
	s = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(s, "{\"action\":\"create\",\"name\":\"m1\",\"set\":{\"duration\":"
	    "7200,\"flags\":\"MAINT,IGNORE_JOBS\",\"nodes\":\"n[1-2]\","
	    "\"start_time\":1795867200,\"users\":\"root\"},\"type\":110}",
	    "request: RESV with its set");
	free(s);
	json_decref(req);
	set = json_object();
	ok(resv_words_slurm(4, w2, NOW, &name, set, t_err,
	    sizeof t_err) == 0 && name == NULL && t_int(set, "end_time") ==
	    NOW + 70 && t_int(set, "gpus") == 8,
	    "slurm: EndTime, and TRES=gres/gpu=N as a number of GPUs");
	json_decref(set);
	set = json_object();
	ok(resv_words_slurm(3, w3, NOW, &name, set, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "NodeCnt: not taken by "
	    "gbatch") != NULL, "slurm: NodeCnt refused with why: %s", t_err);
	json_decref(set);
	set = json_object();
	ok(resv_words_slurm(1, w4, NOW, &name, set, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "unknown key") != NULL,
	    "slurm: an unknown key refused: %s", t_err);
	ok(resv_words_slurm(1, w5, NOW, &name, set, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "gres/gpu=N") != NULL,
	    "slurm: TRES of CPUs refused: %s", t_err);
	ok(resv_words_slurm(1, w6, NOW, &name, set, t_err,
	    sizeof t_err) == -1 && strstr(t_err, "KEY=VALUE") != NULL,
	    "slurm: a word without = refused: %s", t_err);
	json_decref(set);
	req = resv_words_request("delete", "m1", NULL);
	s = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(s, "{\"action\":\"delete\",\"name\":\"m1\",\"type\":110}",
	    "request: a delete has no set");
	free(s);
	json_decref(req);
}

static void
t_list(void)
{
	struct resv_list	 l;
	json_t			*reply;

	reply = json_loads("{\"ok\":true,\"now\":5,\"reservations\":[{\"name\":"
	    "\"m1\",\"start_time\":100,\"end_time\":200,\"duration\":100,"
	    "\"nodes\":\"n[1-2]\",\"node_count\":2,\"gpus\":8,\"users\":["
	    "\"root\",\"alice\"],\"accounts\":[],\"flags\":[\"MAINT\","
	    "\"IGNORE_JOBS\"],\"state\":\"INACTIVE\"}]}", 0, NULL);
	ok(resv_list_read(&l, reply, t_err, sizeof t_err) == 0 && l.n == 1 &&
	    l.now == 5, "list: read");
	ok(strcmp(l.v[0].name, "m1") == 0 && l.v[0].start == 100 &&
	    l.v[0].end == 200 && l.v[0].gpus == 8 &&
	    strcmp(l.v[0].users, "root,alice") == 0 &&
	    strcmp(l.v[0].accounts, "") == 0 &&
	    strcmp(l.v[0].flags, "MAINT,IGNORE_JOBS") == 0 &&
	    strcmp(l.v[0].state, "INACTIVE") == 0,
	    "list: the arrays joined by ','");
	resv_list_free(&l);
	ok(resv_list_read(&l, json_object(), t_err, sizeof t_err) == -1 &&
	    l.n == 0, "list: a reply without reservations refused");
}

int
main(void)
{
	/* Times read and written in UTC here. */
	setenv("TZ", "UTC", 1);
	tzset();
	t_put();
	t_slurm();
	t_list();
	return (tap_done());
}
