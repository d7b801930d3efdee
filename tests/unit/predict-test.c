/* predict-test.c: the duration predictor of policy/predict.c. Covers the
 * name key (dates, timestamps, mixed separators, empty, NULL, all digits,
 * cutting), a cold start, each rule at its minimum and one short of it
 * (the more specific rule winning a tie), a user's first job of a name
 * falling to the GPU-count rules, the median on hand-made sets, the
 * window dropping old runs, the order runs are learned in, thousands of
 * keys, every key in one hash chain, and the bound on keys. Expected
 * values are worked out by hand in the comments. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "policy/predict.h"
#include "policy/predict-int.h"
#include "tests/unit/tap.h"

static void
t_learn(struct predict *p, const char *user, const char *name,
    uint32_t gpus, uint64_t run_ms)
{
	struct predict_job	j = { user, name, gpus };

	predict_learn(p, &j, run_ms, run_ms * gpus);
}

static struct predict_guess
t_guess(const struct predict *p, const char *user, const char *name,
    uint32_t gpus)
{
	struct predict_job	j = { user, name, gpus };
	struct predict_guess	g;

	predict_guess(p, &j, &g);
	return (g);
}

static void
t_key(const char *name, const char *want)
{
	char	buf[PREDICT_KEY_MAX + 1];
	size_t	n;

	n = predict_name_key(name, buf, sizeof buf);
	is_str(buf, want, "name key of \"%s\"", name ? name : "(null)");
	is_int(n, strlen(want), "name key length of \"%s\"",
	    name ? name : "(null)");
}

static void
test_name_key(void)
{
	char	buf[8];

	t_key("train-2026-11-28-run3", "train-run");
	t_key("train-2026-12-01-run17", "train-run");
	t_key("train_2026.12.01_run17", "train-run");
	t_key("train 20261201T101500Z run 4", "train-run");
	t_key("train-2026-11-28T10:15:00Z", "train");
	t_key("train-2026-11-28t10:15:00z", "train");
	/* A T or Z not after a digit is a word. */
	t_key("eval-T-Z", "eval-T-Z");
	t_key("run3a", "run-a");
	t_key("run3Trial", "run-Trial");
	t_key("resnet50_bs256", "resnet-bs");
	t_key("run-a3f9c2", "run-a-f-c");
	t_key("__job__", "job");
	t_key("Train-v2", "Train-v");
	t_key("\xc3\xbc" "ber_lauf1", "\xc3\xbc" "ber-lauf");
	t_key("a+b=c/d:e", "a-b-c-d-e");
	t_key("", "");
	t_key(NULL, "");
	t_key("12345", "");
	t_key("2026-11-28T10:15:00Z", "");
	t_key("-_. ", "");

	/* Cut to fit, the full length returned. */
	is_int(predict_name_key("train-run", buf, 6), 9, "cut: full length");
	is_str(buf, "train", "cut: what fits");
	is_int(predict_name_key("train-run", buf, 1), 9, "cut to nothing");
	is_str(buf, "", "cut to nothing: empty");
	is_int(predict_name_key("train-run", NULL, 0), 9, "no buffer");
}

static void
test_cold_start(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_job	 j = { "alice", "train", 1 };
	struct predict_guess	 g = { 1, 1, PREDICT_BY_NAME, 1 };
	uint64_t		 s[4];

	ok(!predict_guess(p, &j, &g), "cold start: no guess");
	ok(g.run_ms == 0 && g.gpu_ms == 0 && g.samples == 0,
	    "cold start: times and samples 0");
	is_int(g.how, PREDICT_NONE, "cold start: how none");
	is_str(predict_how_name(g.how), "none", "cold start: named none");
	is_int(predict_similar(p, &j, s, 4), 0, "cold start: no similar");
	predict_free(p);
	predict_free(NULL);
}

static void
test_by_name(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_guess	 g;

	/* One run is the name rule's minimum, whatever the GPU count. */
	t_learn(p, "alice", "train-2026-11-28-run3", 4, 1000);
	g = t_guess(p, "alice", "train-2026-12-01-run17", 8);
	is_int(g.how, PREDICT_BY_NAME, "one run of a similar name");
	is_int(g.samples, 1, "by name: 1 sample");
	is_int(g.run_ms, 1000, "by name: run time");
	is_int(g.gpu_ms, 4000, "by name: GPU-time");
	is_str(predict_how_name(g.how), "user's similar name",
	    "by name: named");
	/* Another user's job of that name is not alice's. */
	g = t_guess(p, "bob", "train-2026-12-01-run17", 4);
	is_int(g.how, PREDICT_NONE, "another user's name: not by name");
	/* A name of no letters never matches by name, even another such. */
	t_learn(p, "carol", "123", 1, 50);
	g = t_guess(p, "carol", "456", 2);
	is_int(g.how, PREDICT_NONE, "a name of digits: no name rule");
	g = t_guess(p, "carol", NULL, 2);
	is_int(g.how, PREDICT_NONE, "a NULL name: no name rule");
	predict_free(p);
}

static void
test_first_of_a_name(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_guess	 g;
	const char		*names[] = { "alpha", "beta", "gamma", "delta",
				    "eps" };
	uint64_t		 s[8];
	struct predict_job	 j = { "alice", "zeta", 2 };
	size_t			 i;

	/* Runs of 100..500 ms: every rule's median is 300. */
	for (i = 0; i < 5; i++)
		t_learn(p, "alice", names[i], 2, 100 * (i + 1));
	g = t_guess(p, "alice", "zeta", 2);
	is_int(g.how, PREDICT_BY_USER_GPUS, "user's first of a name");
	is_int(g.samples, 5, "by user's GPUs: 5 samples");
	is_int(g.run_ms, 300, "by user's GPUs: median run");
	is_int(g.gpu_ms, 600, "by user's GPUs: median GPU-time");
	is_int(predict_similar(p, &j, s, 8), 5, "similar: the user's 5");
	ok(s[0] == 200 && s[4] == 1000, "similar: GPU-times, oldest first");

	g = t_guess(p, "carol", "zeta", 2);
	is_int(g.how, PREDICT_BY_GPUS, "a new user: the GPU count");
	is_int(g.samples, 5, "by GPUs: 5 samples");
	is_int(g.run_ms, 300, "by GPUs: median run");
	g = t_guess(p, "carol", "zeta", 1);
	is_int(g.how, PREDICT_NONE, "a GPU count never run: none");
	predict_free(p);
}

static void
test_minimums(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_guess	 g;
	int			 i;

	/* Four runs of 1 GPU by bob and carol, then dave's fifth. */
	for (i = 0; i < 4; i++)
		t_learn(p, i % 2 ? "bob" : "carol", i < 2 ? "x" : "y", 1,
		    10);
	t_learn(p, "dave", "z", 1, 10);
	g = t_guess(p, "erin", "w", 1);
	is_int(g.how, PREDICT_BY_GPUS, "GPU rule at its minimum, 5");
	is_int(g.samples, PREDICT_MIN_BY_GPUS, "GPU rule: 5 samples");

	/* alice's one run of 1 GPU is below the user's minimum. */
	t_learn(p, "alice", "first", 1, 1000);
	g = t_guess(p, "alice", "second", 1);
	is_int(g.how, PREDICT_BY_GPUS, "user's GPUs below minimum: GPUs");
	is_int(g.samples, 6, "GPU rule: 6 samples");
	is_int(g.run_ms, 10, "GPU rule: median of 5x10, 1000");

	/* Two runs: the user's rule, though the GPU rule has more. */
	t_learn(p, "alice", "third", 1, 3000);
	g = t_guess(p, "alice", "fourth", 1);
	is_int(g.how, PREDICT_BY_USER_GPUS, "user's GPUs at minimum, 2");
	is_int(g.samples, 2, "user's GPUs: 2 samples");
	is_int(g.run_ms, 2000, "user's GPUs: mean of the two");

	/* One run of a name wins over the user's rule, which has more. */
	g = t_guess(p, "alice", "third-2", 1);
	is_int(g.how, PREDICT_BY_NAME, "one run of the name wins the tie");
	is_int(g.run_ms, 3000, "by name: its one run");
	predict_free(p);

	/* One short of the GPU rule's minimum: nothing. */
	p = predict_create(PREDICT_MAX_KEYS);
	for (i = 0; i < PREDICT_MIN_BY_GPUS - 1; i++)
		t_learn(p, "bob", "x", 3, 10);
	g = t_guess(p, "carol", "y", 3);
	is_int(g.how, PREDICT_NONE, "GPU rule one short: none");
	predict_free(p);
}

static void
test_median(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_job	 j = { "u", "odd", 1 };
	struct predict_guess	 g;
	uint64_t		 odd[] = { 7, 1, 1000000, 3, 5 };
	uint64_t		 even[] = { 10, 40, 20, 1000 };
	size_t			 i;

	/* 1 3 5 7 1000000: 5 (the mean would be 200003). */
	for (i = 0; i < 5; i++)
		t_learn(p, "u", "odd", 1, odd[i]);
	is_int(t_guess(p, "u", "odd", 1).run_ms, 5, "median of five");
	/* 10 20 40 1000: (20 + 40) / 2. */
	for (i = 0; i < 4; i++)
		t_learn(p, "u", "even", 1, even[i]);
	is_int(t_guess(p, "u", "even", 1).run_ms, 30, "median of four");
	/* 1 2: 1.5, rounded down. */
	t_learn(p, "u", "half", 1, 1);
	t_learn(p, "u", "half", 1, 2);
	is_int(t_guess(p, "u", "half", 1).run_ms, 1, "median rounds down");
	/* The two largest times: no overflow on the way to the mean. */
	j.name = "huge";
	predict_learn(p, &j, UINT64_MAX, UINT64_MAX);
	predict_learn(p, &j, UINT64_MAX - 2, UINT64_MAX - 2);
	predict_guess(p, &j, &g);
	ok(g.run_ms == UINT64_MAX - 1, "median of the largest times");
	/* Run and GPU-time take their medians apart: run 20, GPU 200. */
	j.name = "apart";
	predict_learn(p, &j, 10, 300);
	predict_learn(p, &j, 20, 100);
	predict_learn(p, &j, 30, 200);
	predict_guess(p, &j, &g);
	is_int(g.run_ms, 20, "apart: median run");
	is_int(g.gpu_ms, 200, "apart: median GPU-time");
	predict_free(p);
}

static void
test_window(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_job	 j = { "u", "w", 1 };
	struct predict_guess	 g;
	uint64_t		 s[PREDICT_WINDOW + 4];
	uint64_t		 i;
	size_t			 n;

	/* Runs 1..20: the window keeps 5..20, median (12 + 13) / 2. */
	for (i = 1; i <= 20; i++)
		t_learn(p, "u", "w", 1, i);
	g = t_guess(p, "u", "w", 1);
	is_int(g.samples, PREDICT_WINDOW, "window: 16 samples kept");
	is_int(g.run_ms, 12, "window: median of 5..20");
	n = predict_similar(p, &j, s, PREDICT_WINDOW + 4);
	is_int(n, PREDICT_WINDOW, "window: 16 similar");
	ok(s[0] == 5 && s[15] == 20, "window: the oldest dropped, in order");
	for (i = 1; i < PREDICT_WINDOW && s[i] == s[i - 1] + 1; i++)
		;
	is_int(i, PREDICT_WINDOW, "window: 5..20 one by one");
	n = predict_similar(p, &j, s, 4);
	ok(n == 4 && s[0] == 17 && s[3] == 20, "similar: the newest 4");
	predict_free(p);

	/* Runs 20..1: the window keeps 16..1, median (8 + 9) / 2. */
	p = predict_create(PREDICT_MAX_KEYS);
	for (i = 20; i >= 1; i--)
		t_learn(p, "u", "w", 1, i);
	is_int(t_guess(p, "u", "w", 1).run_ms, 8,
	    "window: the newest count, not the order's first");
	predict_free(p);
}

/* The i-th run of test_order: 3 users, 3 names, 5 GPU counts. */
static struct predict_job
t_job_at(int i)
{
	static const char	*users[] = { "ann", "ben", "cy" };
	static const char	*names[] = { "fit", "eval", "sweep" };

	return ((struct predict_job){ users[i % 3], names[i % 9 / 3],
	    (uint32_t)(i % 5 + 1) });
}

static void
test_order(void)
{
	struct predict		*a = predict_create(PREDICT_MAX_KEYS);
	struct predict		*b = predict_create(PREDICT_MAX_KEYS);
	struct predict_guess	 ga, gb;
	struct predict_job	 j;
	uint64_t		 v[60];
	int			 i, same = 0;

	/* 60 runs, learned forwards into a and backwards into b; no key
	 * passes its window (a name has 6 or 7 runs, a user's GPU count 4,
	 * a GPU count 12). */
	for (i = 0; i < 60; i++)
		v[i] = tap_rand() % 100000;
	for (i = 0; i < 60; i++) {
		j = t_job_at(i);
		predict_learn(a, &j, v[i], v[i] * j.gpus);
		j = t_job_at(59 - i);
		predict_learn(b, &j, v[59 - i], v[59 - i] * j.gpus);
	}
	/* Every known and a new user, name and GPU count. */
	for (i = 0; i < 4 * 4 * 7; i++) {
		j = t_job_at(i);
		if (i % 4 == 3)
			j.user = "dora";
		if (i % 7 == 6)
			j.name = "new";
		j.gpus = (uint32_t)(i % 6 + 1);
		predict_guess(a, &j, &ga);
		predict_guess(b, &j, &gb);
		same += ga.how == gb.how && ga.samples == gb.samples &&
		    ga.run_ms == gb.run_ms && ga.gpu_ms == gb.gpu_ms;
	}
	is_int(same, 4 * 4 * 7, "within the window, order does not matter");
	predict_free(a);
	predict_free(b);
}

static void
test_many_keys(void)
{
	struct predict		*p = predict_create(PREDICT_MAX_KEYS);
	struct predict_guess	 g;
	char			 user[32], name[32];
	int			 i, right = 0;

	/* 3,000 users with one name each, and a second run of the name: a
	 * key apart per user, each its own median. Names are letters only,
	 * as digits would vanish from the key. */
	for (i = 0; i < 3000; i++) {
		snprintf(user, sizeof user, "user%d", i);
		snprintf(name, sizeof name, "job%c%c", 'a' + i % 26,
		    'a' + i / 26 % 26);
		t_learn(p, user, name, (uint32_t)(i % 8), (uint64_t)i * 10);
		t_learn(p, user, name, (uint32_t)(i % 8), (uint64_t)i * 10 + 2);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(user, sizeof user, "user%d", i);
		snprintf(name, sizeof name, "job%c%c-2", 'a' + i % 26,
		    'a' + i / 26 % 26);
		g = t_guess(p, user, name, 1);
		right += g.how == PREDICT_BY_NAME && g.samples == 2 &&
		    g.run_ms == (uint64_t)i * 10 + 1;
	}
	is_int(right, 3000, "3,000 users' names, each its own");
	predict_free(p);
}

static uint64_t
t_hash_one(enum predict_how how, uint32_t gpus, const char *user,
    const char *name)
{
	return (42);
}

static void
test_collisions(void)
{
	struct predict		*p = predict_create_hashed(PREDICT_MAX_KEYS,
				    t_hash_one);
	struct predict_guess	 g;
	char			 user[32];
	int			 i, right = 0;

	/* Every key hashes alike: their text must tell them apart. */
	t_learn(p, "ab", "c", 1, 100);
	t_learn(p, "a", "bc", 1, 200);
	is_int(t_guess(p, "ab", "c", 1).run_ms, 100, "collision: ab, c");
	is_int(t_guess(p, "a", "bc", 1).run_ms, 200, "collision: a, bc");
	for (i = 0; i < 300; i++) {
		snprintf(user, sizeof user, "u%d", i);
		t_learn(p, user, "x", (uint32_t)i, (uint64_t)i);
		t_learn(p, user, "x", (uint32_t)i, (uint64_t)i);
	}
	for (i = 0; i < 300; i++) {
		snprintf(user, sizeof user, "u%d", i);
		g = t_guess(p, user, "y", (uint32_t)i);
		right += g.how == PREDICT_BY_USER_GPUS && g.samples == 2 &&
		    g.run_ms == (uint64_t)i;
	}
	is_int(right, 300, "300 users' GPU counts in one chain");
	g = t_guess(p, "nobody", "y", 7);
	is_int(g.how, PREDICT_NONE, "collision: GPU count 7 has 2, not 5");
	predict_free(p);
}

static void
test_key_bound(void)
{
	struct predict		*p = predict_create(5);
	struct predict_guess	 g;

	/* Keys, newest first: G1 Ua1 Nfoo, then G1 Ua1 Nbar Nfoo, then
	 * G1 Ua1 Nqux Nbar Nfoo (5); zip's name drops foo's, the oldest. */
	t_learn(p, "alice", "foo", 1, 10);
	t_learn(p, "alice", "bar", 1, 20);
	t_learn(p, "alice", "qux", 1, 30);
	t_learn(p, "alice", "zip", 1, 40);
	g = t_guess(p, "alice", "foo", 1);
	is_int(g.how, PREDICT_BY_USER_GPUS, "bound: the oldest name gone");
	is_int(g.samples, 4, "bound: the user's key kept every run");
	g = t_guess(p, "alice", "bar", 1);
	is_int(g.how, PREDICT_BY_NAME, "bound: a newer name kept");
	predict_free(p);

	/* Learning a key again makes it the newest: foo, learned again
	 * after qux, outlives bar, and the user's key outlives both. */
	p = predict_create(5);
	t_learn(p, "alice", "foo", 1, 10);
	t_learn(p, "alice", "bar", 1, 20);
	t_learn(p, "alice", "qux", 1, 30);
	t_learn(p, "alice", "foo", 1, 10);
	t_learn(p, "alice", "zip", 1, 40);
	g = t_guess(p, "alice", "foo", 1);
	is_int(g.how, PREDICT_BY_NAME, "bound: a name learned again kept");
	is_int(g.samples, 2, "bound: both its runs");
	g = t_guess(p, "alice", "bar", 1);
	is_int(g.how, PREDICT_BY_USER_GPUS, "bound: the oldest learned gone");
	is_int(g.samples, 5, "bound: the user's key kept every run");
	predict_free(p);

	/* Fewer than 3 keys are 3: one job's keys all stay, the next
	 * job's three replace them. */
	p = predict_create(0);
	t_learn(p, "alice", "foo", 1, 10);
	is_int(t_guess(p, "alice", "foo", 1).how, PREDICT_BY_NAME,
	    "bound 0: one job's keys kept");
	t_learn(p, "bob", "bar", 2, 10);
	is_int(t_guess(p, "alice", "foo", 1).how, PREDICT_NONE,
	    "bound 0: replaced by the next job's");
	is_int(t_guess(p, "bob", "bar", 2).how, PREDICT_BY_NAME,
	    "bound 0: the next job's kept");
	predict_free(p);
}

int
main(void)
{
	test_name_key();
	test_cold_start();
	test_by_name();
	test_first_of_a_name();
	test_minimums();
	test_median();
	test_window();
	test_order();
	test_many_keys();
	test_collisions();
	test_key_bound();
	return (tap_done());
}
