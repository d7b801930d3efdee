/* qos-test.c: QOS classes (daemon/controller/qos.c) as gbatch.conf's qos
 * group gives them: reading, what is refused and why, with the
 * partitions that name them; the default, a job's --qos, the limits that
 * take or refuse a job, who may preempt whom, the tiers of QOS
 * priorities and partitions' tiers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/job-req.h"
#include "daemon/common/conf-file.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/part.h"
#include "daemon/controller/qos.h"
#include "tests/unit/tap.h"

static char	t_dir[] = "/tmp/qos-test.XXXXXX";
static char	t_file[256];

/* Both groups, as conf.c has them: the QOS first. */
struct t_conf {
	struct qoses	qos;
	struct parts	parts;
};

static int
t_qos(void *settings, const config_setting_t *m, char *err, size_t len)
{
	return (qos_read(&((struct t_conf *)settings)->qos, m, err, len));
}

static int
t_qos_check(void *settings, const config_setting_t *g, char *err,
    size_t len)
{
	return (qos_check(&((struct t_conf *)settings)->qos,
	    config_setting_source_line(g), err, len));
}

static int
t_part(void *settings, const config_setting_t *m, char *err, size_t len)
{
	return (part_read(&((struct t_conf *)settings)->parts, m, err, len));
}

static int
t_part_check(void *settings, const config_setting_t *g, char *err,
    size_t len)
{
	struct t_conf	*c = settings;

	return (qos_check_parts(&c->qos, &c->parts,
	    config_setting_source_line(g), err, len));
}

static const struct conf_file_group t_groups[] = {
	{ "qos", NULL, 0, t_qos_check, t_qos },
	{ "partitions", NULL, 0, t_part_check, t_part },
};

static void
t_clear(struct t_conf *c)
{
	qos_clear(&c->qos);
	part_clear(&c->parts);
}

/* Reads text into c (cleared first); conf_file_read's value, err. */
static int
t_read(const char *text, struct t_conf *c, char *err, size_t len)
{
	FILE	*f;

	if ((f = fopen(t_file, "w")) == NULL) {
		perror(t_file);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	t_clear(c);
	err[0] = '\0';
	return (conf_file_read(t_file, true, t_groups, 2, c, err, len));
}

static const char t_text[] =
    "qos = {\n"
    "  normal = { };\n"
    "  high = { priority = 10; preempt = [\"scavenger\"];\n"
    "    max_gpus_per_user = 16; max_jobs_per_user = 4;\n"
    "    max_time = \"2-00:00:00\"; usage_factor = 2.0; };\n"
    "  scavenger = { usage_factor = 0.0; preempt_mode = \"requeue\"; };\n"
    "  vip = { priority = 10; preempt_mode = \"off\"; };\n"
    "};\n"
    "partitions = {\n"
    "  gpu = { tier = 0; };\n"
    "  fast = { tier = 4; qos = [\"high\"]; };\n"
    "};\n";

static void
test_read(void)
{
	struct t_conf		 c = { { 0 }, { 0 } };
	const struct qos	*q;
	char			 err[512];

	ok(t_read(t_text, &c, err, sizeof err) == 0 && c.qos.n == 4,
	    "four QOS read (%s)", err);
	q = qos_find(&c.qos, "high");
	ok(q != NULL && q->priority == 10 && q->max_gpus_per_user == 16 &&
	    q->max_jobs_per_user == 4 && q->max_time == 2 * 86400 &&
	    q->usage_factor == 2.0 && q->preempt.n == 1 &&
	    q->mode == QOS_MODE_CHECKPOINT, "high: its keys");
	q = qos_find(&c.qos, "scavenger");
	ok(q != NULL && q->usage_factor == 0.0 && q->mode == QOS_MODE_REQUEUE &&
	    q->priority == 0, "scavenger: requeued, free");
	ok(qos_find(&c.qos, "vip")->mode == QOS_MODE_OFF, "vip: never "
	    "preempted");
	ok(qos_find(&c.qos, "normal")->usage_factor == 1.0, "a factor of 1 "
	    "by default");
	ok(qos_default(&c.qos) == qos_find(&c.qos, "normal"), "none marked "
	    "the default: the one named normal");
	ok(qos_find(&c.qos, "nope") == NULL, "no QOS nope");
	is_int((int)qos_class(&c.qos, qos_find(&c.qos, "vip")), 3,
	    "a QOS's class is its place");
	t_clear(&c);
	ok(t_read("qos = { a = { }; b = { default = true; }; };\n", &c, err,
	    sizeof err) == 0 && qos_default(&c.qos) == &c.qos.v[1],
	    "the one marked the default");
	t_clear(&c);
	ok(t_read("qos = { a = { }; b = { }; };\n", &c, err, sizeof err) ==
	    0 && qos_default(&c.qos) == &c.qos.v[0], "else the first");
	t_clear(&c);
	q = qos_default(&c.qos);
	ok(q != NULL && strcmp(q->name, JOB_REQ_QOS) == 0 && q->priority == 0 &&
	    q->mode == QOS_MODE_CHECKPOINT && q->usage_factor == 1.0,
	    "without any: the built-in normal");
	ok(qos_find(&c.qos, JOB_REQ_QOS) == q && qos_find(&c.qos, "high") ==
	    NULL, "which alone is found");
}

/* What gbatchd refuses to start with, each naming the line and key. */
static void
test_refused(void)
{
	static const struct {
		const char	*text, *want, *why;
	} t[] = {
		{ "qos = { a = { priority = 256; }; };\n",
		  "line 1: qos.a.priority: ", "a priority over 255" },
		{ "qos = { a = { preempt_mode = \"suspend\"; }; };\n",
		  "line 1: qos.a.preempt_mode: expected \"checkpoint\", "
		  "\"requeue\" or \"off\", got \"suspend\"", "a mode unknown" },
		{ "qos = { a = { usage_factor = -1.0; }; };\n",
		  "line 1: qos.a.usage_factor: ", "a negative factor" },
		{ "qos = { a = { colour = 1; }; };\n",
		  "line 1: qos.a.colour: unknown key; expected default, ",
		  "an unknown key, with those accepted" },
		{ "qos = { a = { default = true; }; b = { default = true; "
		  "}; };\n", "line 1: qos: a and b are both the default",
		  "two defaults" },
		{ "qos = { a = { priority = 5; preempt = [\"c\"]; }; };\n",
		  "line 1: qos.a.preempt: no QOS \"c\"", "an unknown QOS to "
		  "preempt" },
		{ "qos = { a = { priority = 5; preempt = [\"b\"]; }; b = { "
		  "priority = 5; }; };\n", "line 1: qos.a.preempt: b has "
		  "priority 5, not below a's 5", "one of the same priority" },
		{ "qos = { a = { preempt = [\"a\"]; }; };\n",
		  "line 1: qos.a.preempt: a has priority 0, not below",
		  "itself" },
		{ "qos = { a = { max_time = \"3 days\"; }; };\n",
		  "line 1: qos.a.max_time: ", "a bad time" },
		{ "partitions = { p = { qos = [\"high\"]; }; };\n",
		  "line 1: partitions.p.qos: no QOS \"high\"; expected names of "
		  "the qos group (or \"normal\" without one)",
		  "a partition naming a QOS that is none" },
		{ "qos = { a = { }; };\npartitions = { p = { qos = "
		  "[\"normal\"]; }; };\n", "line 2: partitions.p.qos: no QOS "
		  "\"normal\"", "normal is none once the group names others" },
	};
	struct t_conf	c = { { 0 }, { 0 } };
	char		err[512];
	size_t		i;
	const char	*at;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		at = t_read(t[i].text, &c, err, sizeof err) == -1 ?
		    strstr(err, ": line ") : NULL;
		ok(at != NULL && strncmp(at + 2, t[i].want,
		    strlen(t[i].want)) == 0, "refused: %s (%s)", t[i].why,
		    err);
		t_clear(&c);
	}
	ok(t_read("partitions = { p = { qos = [\"normal\"]; }; };\n", &c, err,
	    sizeof err) == 0, "normal is a QOS without the group (%s)", err);
	t_clear(&c);
}

/* 17 QOS priorities and 16 partition tiers make 272 tiers: refused. */
static void
test_too_many_tiers(void)
{
	struct t_conf	 c = { { 0 }, { 0 } };
	char		 text[8192], err[512];
	size_t		 at = 0;
	int		 i;

	at += (size_t)snprintf(text + at, sizeof text - at, "qos = {\n");
	for (i = 0; i < 17; i++)
		at += (size_t)snprintf(text + at, sizeof text - at,
		    "q%d = { priority = %d; };\n", i, i);
	at += (size_t)snprintf(text + at, sizeof text - at,
	    "};\npartitions = {\n");
	for (i = 0; i < 16; i++)
		at += (size_t)snprintf(text + at, sizeof text - at,
		    "p%d = { tier = %d; };\n", i, i * 10);
	snprintf(text + at, sizeof text - at, "};\n");
	ok(t_read(text, &c, err, sizeof err) == -1 && strstr(err,
	    "17 QOS priorities times 16 partition tiers make 272 tiers; "
	    "expected 256 at most") != NULL, "too many tiers: refused (%s)",
	    err);
	t_clear(&c);
}

static void
test_resolve(void)
{
	struct t_conf	c = { { 0 }, { 0 } };
	char		out[64], err[512];

	ok(qos_resolve(&c.qos, "", out, sizeof out, err, sizeof err) == 0 &&
	    strcmp(out, "normal") == 0, "without QOS: none asked is normal");
	ok(qos_resolve(&c.qos, "normal", out, sizeof out, err, sizeof err) ==
	    0, "normal asked is taken");
	ok(qos_resolve(&c.qos, "high", out, sizeof out, err, sizeof err) ==
	    -1 && strcmp(err, "QOS \"high\": this cluster has no QOS but "
	    "\"normal\" (leave --qos out)") == 0, "another is refused (%s)",
	    err);
	(void)t_read(t_text, &c, err, sizeof err);
	ok(qos_resolve(&c.qos, "high", out, sizeof out, err, sizeof err) ==
	    0 && strcmp(out, "high") == 0, "a QOS of the group");
	ok(qos_resolve(&c.qos, "gold", out, sizeof out, err, sizeof err) ==
	    -1 && strcmp(err, "QOS \"gold\": no such QOS; expected one of "
	    "normal, high, scavenger, vip") == 0, "an unknown one names "
	    "those there are (%s)", err);
	t_clear(&c);
}

static void
test_admits(void)
{
	struct t_conf		 c = { { 0 }, { 0 } };
	const struct qos	*high;
	uint64_t		 t;
	char			 err[512];

	(void)t_read(t_text, &c, err, sizeof err);
	high = qos_find(&c.qos, "high");
	t = 0;
	ok(qos_admits(high, &t, 8, err, sizeof err) == 0 && t == 2 * 86400,
	    "no time limit: the QOS's max_time");
	t = 3600;
	ok(qos_admits(high, &t, 16, err, sizeof err) == 0 && t == 3600,
	    "an hour and 16 GPUs: taken as they are");
	t = 3 * 86400;
	ok(qos_admits(high, &t, 1, err, sizeof err) == -1 && strcmp(err,
	    "QOS high does not take the job: the time limit 3-00:00:00 is "
	    "over its max_time 2-00:00:00") == 0, "over max_time: refused "
	    "(%s)", err);
	t = 60;
	ok(qos_admits(high, &t, 17, err, sizeof err) == -1 && strstr(err,
	    "17 GPUs is over its max_gpus_per_user 16") != NULL,
	    "larger than a user may hold: refused (%s)", err);
	t = 0;
	ok(qos_admits(qos_find(&c.qos, "normal"), &t, 64, err,
	    sizeof err) == 0 && t == 0, "normal: no limit");
	t_clear(&c);
}

static void
test_preempt_and_tiers(void)
{
	struct t_conf		 c = { { 0 }, { 0 } };
	struct qos_tiers	 t;
	const struct qos	*normal, *high, *scav, *vip;
	char			 err[512];

	(void)t_read(t_text, &c, err, sizeof err);
	normal = qos_find(&c.qos, "normal");
	high = qos_find(&c.qos, "high");
	scav = qos_find(&c.qos, "scavenger");
	vip = qos_find(&c.qos, "vip");
	ok(qos_may_preempt(high, scav), "high may preempt scavenger (listed)");
	ok(!qos_may_preempt(high, normal), "high may not preempt normal "
	    "(not listed)");
	ok(qos_may_preempt(normal, scav) && qos_may_preempt(scav, normal),
	    "one priority: the queues decide, both ways");
	ok(qos_may_preempt(high, high), "a QOS and itself: the queues decide");
	ok(qos_may_preempt(high, vip), "high and vip, one priority: the queues");
	is_int((int)qos_tiers_make(&c.qos, &c.parts, &t), 4, "2 priorities "
	    "x 2 partition tiers: 4 tiers");
	is_int(qos_tier(&t, normal, 0), 0, "normal in gpu: tier 0");
	is_int(qos_tier(&t, normal, 4), 1, "normal in fast: tier 1");
	is_int(qos_tier(&t, high, 0), 2, "high in gpu: tier 2, above any "
	    "partition's tier of a lower QOS");
	is_int(qos_tier(&t, high, 4), 3, "high in fast: tier 3");
	t_clear(&c);
	is_int((int)qos_tiers_make(&c.qos, NULL, &t), 1, "without either: "
	    "one tier");
	is_int(qos_tier(&t, qos_default(&c.qos), 0), 0, "which is 0");
}

static void
test_copy(void)
{
	struct t_conf	c = { { 0 }, { 0 } };
	struct qoses	b = { 0 };
	json_t		*j;
	char		err[512];

	(void)t_read(t_text, &c, err, sizeof err);
	qos_copy(&b, &c.qos);
	ok(qos_equal(&c.qos, &b), "a copy is equal");
	b.v[1].priority = 11;
	ok(!qos_equal(&c.qos, &b), "a priority changed is not");
	j = qos_json(&c.qos);
	ok(json_integer_value(json_object_get(json_object_get(j, "high"),
	    "max_gpus_per_user")) == 16 && json_is_true(json_object_get(
	    json_object_get(j, "normal"), "default")) && strcmp(
	    json_string_value(json_object_get(json_object_get(j,
	    "scavenger"), "preempt_mode")), "requeue") == 0,
	    "the settings as gctl show config has them");
	json_decref(j);
	qos_clear(&b);
	t_clear(&c);
	j = qos_json(&c.qos);
	ok(json_object_size(j) == 1 && json_object_get(j, "normal") != NULL,
	    "without QOS: normal alone");
	json_decref(j);
}

/* What a GPU-second of each QOS is charged, in thousandths, and the name
 * a job of '' is reported under. */
static void
test_weight(void)
{
	struct t_conf	c = { { 0 }, { 0 } };
	char		err[512];

	(void)t_read(t_text, &c, err, sizeof err);
	is_int(qos_weight(&c.qos, "high"), 2 * BUDGET_MILLI, "high: a factor "
	    "of 2, 2000 thousandths");
	is_int(qos_weight(&c.qos, "scavenger"), 0, "scavenger: free");
	is_int(qos_weight(&c.qos, "normal"), BUDGET_MILLI, "normal: 1");
	is_int(qos_weight(&c.qos, ""), BUDGET_MILLI, "'': the default's");
	is_int(qos_weight(&c.qos, "gone"), BUDGET_MILLI, "a QOS no longer in "
	    "the settings: 1");
	ok(strcmp(qos_key(&c.qos, ""), "normal") == 0 &&
	    strcmp(qos_key(&c.qos, "high"), "high") == 0, "'' is reported "
	    "under the default's name, others under their own");
	t_clear(&c);
	ok(t_read("qos = { a = { usage_factor = 0.3336; };\n"
	    "  b = { default = true; usage_factor = 0.5; }; };\n", &c, err,
	    sizeof err) == 0, "read (%s)", err);
	is_int(qos_weight(&c.qos, "a"), 334, "kept to the nearest thousandth");
	is_int(qos_weight(&c.qos, ""), 500, "'': the one marked the default");
	ok(strcmp(qos_key(&c.qos, ""), "b") == 0, "and its name");
	t_clear(&c);
	is_int(qos_weight(&c.qos, ""), BUDGET_MILLI, "without QOS: 1");
	ok(strcmp(qos_key(&c.qos, ""), JOB_REQ_QOS) == 0, "under normal");
}

int
main(void)
{
	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(t_file, sizeof t_file, "%s/gbatch.conf", t_dir);
	test_read();
	test_refused();
	test_too_many_tiers();
	test_resolve();
	test_admits();
	test_preempt_and_tiers();
	test_copy();
	test_weight();
	unlink(t_file);
	rmdir(t_dir);
	return (tap_done());
}
