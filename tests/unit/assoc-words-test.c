/* assoc-words-test.c: the members of accounts and users' associations
 * (client/assoc-words.c), as gctl account and gctl user and sacctmgr set
 * them: whose each is, what each takes, each once, and the ASSOC request
 * of a change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/assoc-words.h"
#include "tests/unit/tap.h"

/* val put as member name of of's gives set (compact JSON, keys sorted). */
static void
t_put(const char *name, int of, const char *val, const char *want)
{
	const struct assoc_words_member	*m = assoc_words_find(name, of);
	json_t				*set = json_object();
	char				 err[256] = "", *got;

	if (m == NULL || assoc_words_put(set, m, val, err, sizeof err) != 0) {
		ok(0, "%s=%s is taken (%s)", name, val, err);
		json_decref(set);
		return;
	}
	got = json_dumps(set, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(got, want, "%s=%s gives %s", name, val, want);
	free(got);
	json_decref(set);
}

/* val is refused as member name of of's, err holding part. */
static void
t_bad(const char *name, int of, const char *val, const char *part)
{
	const struct assoc_words_member	*m = assoc_words_find(name, of);
	json_t				*set = json_object();
	char				 err[256] = "";

	ok(m != NULL && assoc_words_put(set, m, val, err, sizeof err) == -1 &&
	    strstr(err, part) != NULL && json_object_size(set) == 0,
	    "%s=%s is refused with \"%s\" (%s)", name, val, part, err);
	json_decref(set);
}

int
main(void)
{
	const struct assoc_words_member	*m;
	json_t				*set, *req;
	char				 buf[256], err[256], *got;

	/* Whose each member is, in any case. */
	ok(assoc_words_find("PARENT", ASSOC_WORDS_ACCOUNT) != NULL,
	    "parent is an account's, in any case");
	ok(assoc_words_find("parent", ASSOC_WORDS_USER) == NULL,
	    "a user's association has no parent");
	ok(assoc_words_find("gpu_hours", ASSOC_WORDS_USER) == NULL,
	    "nor a GPU-hour budget");
	ok(assoc_words_find("default", ASSOC_WORDS_ACCOUNT) == NULL,
	    "an account is no one's default");
	ok(assoc_words_find("max_jobs", ASSOC_WORDS_USER) != NULL &&
	    assoc_words_find("max_jobs", ASSOC_WORDS_ACCOUNT) != NULL,
	    "both have limits");
	ok(assoc_words_find("colour", ASSOC_WORDS_ACCOUNT |
	    ASSOC_WORDS_USER) == NULL, "an unknown name is none");
	is_str(assoc_words_names(ASSOC_WORDS_ACCOUNT, buf, sizeof buf),
	    "parent, shares, description, max_gpus, max_jobs, max_pending, "
	    "max_time or gpu_hours", "an account's members, as a reader is "
	    "told them");
	is_str(assoc_words_names(ASSOC_WORDS_USER, buf, sizeof buf),
	    "default, max_gpus, max_jobs, max_pending or max_time",
	    "a user's");

	/* What each takes. */
	t_put("shares", ASSOC_WORDS_ACCOUNT, "10", "{\"shares\":10}");
	t_put("max_gpus", ASSOC_WORDS_USER, "0", "{\"max_gpus\":0}");
	t_put("max_pending", ASSOC_WORDS_ACCOUNT, "1000000000",
	    "{\"max_pending\":1000000000}");
	t_put("max_time", ASSOC_WORDS_ACCOUNT, "2:00:00",
	    "{\"max_time\":7200}");
	t_put("max_time", ASSOC_WORDS_USER, "30", "{\"max_time\":1800}");
	t_put("max_time", ASSOC_WORDS_USER, "1-00:00:00",
	    "{\"max_time\":86400}");
	t_put("default", ASSOC_WORDS_USER, "YES", "{\"default\":true}");
	t_put("default", ASSOC_WORDS_USER, "no", "{\"default\":false}");
	t_put("description", ASSOC_WORDS_ACCOUNT, "All of science",
	    "{\"description\":\"All of science\"}");
	t_bad("shares", ASSOC_WORDS_ACCOUNT, "0", "shares: expected a whole "
	    "number from 1 to 1000000000, got \"0\"");
	t_bad("shares", ASSOC_WORDS_ACCOUNT, "none", "got \"none\"");
	t_bad("max_jobs", ASSOC_WORDS_USER, "-1", "max_jobs: expected a whole "
	    "number from 0 to 1000000000 (0: no limit), got \"-1\"");
	t_bad("max_jobs", ASSOC_WORDS_USER, "1000000001", "got \"1000000001\"");
	t_bad("max_jobs", ASSOC_WORDS_USER, "3x", "got \"3x\"");
	t_bad("max_jobs", ASSOC_WORDS_USER, "", "got \"\"");
	t_bad("max_time", ASSOC_WORDS_ACCOUNT, "forever", "max_time: ");
	t_bad("max_time", ASSOC_WORDS_ACCOUNT, "400-00:00:00", "max_time: ");
	t_bad("default", ASSOC_WORDS_USER, "maybe", "default: expected yes or "
	    "no, got \"maybe\"");
	/* A budget's GPU-hours: whole ones as a whole number. */
	t_put("gpu_hours", ASSOC_WORDS_ACCOUNT, "500", "{\"gpu_hours\":500}");
	t_put("gpu_hours", ASSOC_WORDS_ACCOUNT, "0.25",
	    "{\"gpu_hours\":0.25}");
	t_bad("gpu_hours", ASSOC_WORDS_ACCOUNT, "-1", "gpu_hours: expected "
	    "GPU-hours a month, a number from 0 (no budget) to 1000000000 "
	    "such as 500 or 0.25, got \"-1\"");
	t_bad("gpu_hours", ASSOC_WORDS_ACCOUNT, "1e3", "got \"1e3\"");
	t_bad("gpu_hours", ASSOC_WORDS_ACCOUNT, ".5", "got \".5\"");
	t_bad("gpu_hours", ASSOC_WORDS_ACCOUNT, "1000000001", "got");
	t_bad("description", ASSOC_WORDS_ACCOUNT, "\xff\xfe", "description: "
	    "expected UTF-8 text");

	/* Each member once, whichever way it came. */
	set = json_object();
	m = assoc_words_find("max_jobs", ASSOC_WORDS_USER);
	ok(assoc_words_put(set, m, "3", err, sizeof err) == 0 &&
	    assoc_words_put(set, m, "4", err, sizeof err) == -1 &&
	    strcmp(err, "max_jobs: given twice; expected each key once") == 0,
	    "a member given twice is refused (%s)", err);
	ok(assoc_words_put_int(set, m, 5, err, sizeof err) == -1 &&
	    json_integer_value(json_object_get(set, "max_jobs")) == 3,
	    "as a number too, and the first stays");
	json_decref(set);

	/* Numbers already read, within the member's bounds. */
	set = json_object();
	ok(assoc_words_put_int(set, assoc_words_find("gpu_hours",
	    ASSOC_WORDS_ACCOUNT), 500, err, sizeof err) == 0 &&
	    json_integer_value(json_object_get(set, "gpu_hours")) == 500,
	    "a number is put as it is");
	ok(assoc_words_put_int(set, assoc_words_find("shares",
	    ASSOC_WORDS_ACCOUNT), 0, err, sizeof err) == -1 &&
	    strstr(err, "shares: expected a whole number from 1 to") != NULL,
	    "a share of 0 is refused (%s)", err);
	ok(assoc_words_put_int(set, assoc_words_find("max_time",
	    ASSOC_WORDS_ACCOUNT), 366ULL * 86400, err, sizeof err) == -1 &&
	    strstr(err, "max_time: expected seconds from 0 to 31536000") !=
	    NULL, "a time past a job's longest limit is refused (%s)", err);
	ok(assoc_words_put_int(set, assoc_words_find("max_gpus",
	    ASSOC_WORDS_ACCOUNT), 1000000001, err, sizeof err) == -1,
	    "a count past the most is refused");
	json_decref(set);

	/* A budget in GPU-seconds, as the wire takes it. */
	set = json_object();
	ok(assoc_words_put_budget(set, 7200, err, sizeof err) == 0 &&
	    json_is_integer(json_object_get(set, "gpu_hours")) &&
	    json_integer_value(json_object_get(set, "gpu_hours")) == 2,
	    "whole GPU-hours as a whole number");
	ok(assoc_words_put_budget(set, 60, err, sizeof err) == -1 &&
	    strstr(err, "gpu_hours: given twice") != NULL, "once");
	json_decref(set);
	set = json_object();
	ok(assoc_words_put_budget(set, 5400, err, sizeof err) == 0 &&
	    json_real_value(json_object_get(set, "gpu_hours")) == 1.5,
	    "90 GPU-minutes are 1.5 GPU-hours");
	json_decref(set);
	set = json_object();
	ok(assoc_words_put_budget(set, 3600 * ASSOC_WORDS_COUNT_MAX + 60, err,
	    sizeof err) == -1 && strstr(err, "at most 1000000000") != NULL,
	    "more than the most is refused");
	json_decref(set);

	/* The request of a change; an empty set is none. */
	set = json_pack("{s:i}", "shares", 2);
	req = assoc_words_request("account_modify", "phys", NULL, set);
	got = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(got, "{\"action\":\"account_modify\",\"name\":\"phys\","
	    "\"set\":{\"shares\":2},\"type\":108}", "account_modify's request");
	free(got);
	json_decref(req);
	req = assoc_words_request("user_delete", "alice", "phys",
	    json_object());
	got = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	is_str(got, "{\"account\":\"phys\",\"action\":\"user_delete\","
	    "\"name\":\"alice\",\"type\":108}", "user_delete's, no set");
	free(got);
	json_decref(req);
	return (tap_done());
}
