/* job-list-test.c: daemon/controller/job-list.c, the JOB_LIST record
 * writer: records are JSON that decodes to the row's values (escapes
 * included), "fields" picks members (id always), unknown names are refused
 * with the accepted ones listed, and a buffer too small grows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/controller/job-list.h"
#include "daemon/controller/store.h"
#include "tests/unit/tap.h"

static void
t_row(struct store_job *r)
{
	memset(r, 0, sizeof *r);
	r->id = 4711;
	r->name = "train \"big\"\n\ttab\\slash\x01";
	r->user = "alice";
	r->uid = 1000;
	r->state = JOB_RUNNING;
	r->reason = "";
	r->gpus = 2;
	r->time_limit = 3600;
	r->command = "/home/alice/train.sh";
	r->argv = "[\"--lr\",\"0.1\"]";
	r->workdir = "/home/alice";
	r->stdout_path = "gbatch-%j.out";
	r->stderr_path = "gbatch-%j.out";
	r->submit_time = 1700000000;
	r->start_time = 1700000100;
	r->node = "n1";
	r->gpu_mask = 0x9;
	r->message = "";
}

/* Writes row with fields and decodes it; NULL when it is not JSON. */
static json_t *
t_write(const struct store_job *r, struct job_field_set fields,
    size_t start)
{
	struct job_list_plan	 plan;
	struct jtext		 b;
	json_t			*v;

	job_list_plan(&plan, fields);
	if (start != 0)
		jtext_init(&b, start);
	else
		memset(&b, 0, sizeof b);
	job_list_row(&b, r, 1700000160, &plan);
	v = json_loadb(b.buf, b.len, JSON_REJECT_DUPLICATES, NULL);
	free(b.buf);
	return (v);
}

static void
t_all(void)
{
	struct store_job	 r;
	json_t			*v, *alloc;
	size_t			 n;
	int			 f;

	t_row(&r);
	v = t_write(&r, job_field_wire_set(), 0);
	ok(v != NULL, "a record of every field is JSON");
	if (v == NULL)
		return;
	for (f = 0, n = 0; f < JF_COUNT; f++)
		n += jfs_has(job_field_wire_set(), f);
	is_int(json_object_size(v), n, "every field is there");
	is_int(json_integer_value(json_object_get(v, "id")), 4711, "id");
	is_str(json_string_value(json_object_get(v, "name")), r.name,
	    "a name with quotes, control characters and a backslash "
	    "decodes to itself");
	is_str(json_string_value(json_object_get(v, "state")), "RUNNING",
	    "state");
	is_str(json_string_value(json_object_get(v, "reason")), "None",
	    "an empty reason is None");
	is_int(json_integer_value(json_object_get(v, "elapsed")), 60,
	    "elapsed of a running job counts from its start");
	alloc = json_array_get(json_object_get(v, "alloc"), 0);
	is_str(json_string_value(json_object_get(alloc, "node")), "n1",
	    "alloc names the node");
	ok(json_array_size(json_object_get(alloc, "gpus")) == 2 &&
	    json_integer_value(json_array_get(json_object_get(alloc, "gpus"),
	    1)) == 3, "alloc lists GPUs 0 and 3 of mask 0x9");
	ok(json_is_null(json_object_get(v, "exit_code")) &&
	    json_is_null(json_object_get(v, "signal")),
	    "no exit status yet: null");
	is_str(json_string_value(json_array_get(json_object_get(v, "argv"),
	    1)), "0.1", "argv is copied as the JSON it is");
	json_decref(v);

	r.node = NULL;
	r.gpu_mask = 0;
	r.has_exit = 1;
	r.exit_code = 7;
	r.end_time = 1700000130;
	r.state = JOB_FAILED;
	v = t_write(&r, job_field_wire_set(), 4096);
	ok(v != NULL && json_array_size(json_object_get(v, "alloc")) == 0 &&
	    strcmp(json_string_value(json_object_get(v, "nodes")), "") == 0,
	    "a job without GPUs has an empty alloc and nodes");
	ok(v != NULL && json_integer_value(json_object_get(v, "exit_code")) ==
	    7 && json_integer_value(json_object_get(v, "elapsed")) == 30,
	    "a finished job has its exit code, elapsed from start to end");
	ok(v != NULL && json_integer_value(json_object_get(v, "jct")) == 130,
	    "a finished job's JCT runs from submit to end");
	json_decref(v);

	r.alloc = "n1:0xf,n2:0x3";
	v = t_write(&r, job_field_wire_set(), 0);
	alloc = v != NULL ? json_object_get(v, "alloc") : NULL;
	ok(json_array_size(alloc) == 2 && json_array_size(json_object_get(
	    json_array_get(alloc, 1), "gpus")) == 2 &&
	    strcmp(json_string_value(json_object_get(v, "nodes")), "n1,n2") == 0,
	    "a multi-node job lists each part and every node");
	json_decref(v);
}

static void
t_fields(void)
{
	struct store_job	 r;
	json_t			*names, *v;
	struct job_field_set	 fields;
	char			 err[512];

	t_row(&r);
	is_int(job_list_fields(NULL, &fields, err, sizeof err), 0,
	    "no fields member: accepted");
	ok(jfs_eq(fields, job_field_wire_set()),
	    "no fields member: every field");

	names = json_pack("[s,s]", "state", "gpus");
	is_int(job_list_fields(names, &fields, err, sizeof err), 0,
	    "two known fields: accepted");
	json_decref(names);
	v = t_write(&r, fields, 0);
	ok(v != NULL && json_object_size(v) == 3 &&
	    json_object_get(v, "id") != NULL &&
	    json_object_get(v, "state") != NULL &&
	    json_object_get(v, "gpus") != NULL,
	    "state and gpus asked: the record has them and id, nothing else");
	json_decref(v);

	names = json_array();
	is_int(job_list_fields(names, &fields, err, sizeof err), 0,
	    "an empty list: accepted");
	json_decref(names);
	v = t_write(&r, fields, 0);
	ok(v != NULL && json_object_size(v) == 1, "an empty list: id only");
	json_decref(v);

	names = json_pack("[s,s]", "state", "colour");
	is_int(job_list_fields(names, &fields, err, sizeof err), -1,
	    "an unknown field is refused");
	ok(strstr(err, "\"colour\"") != NULL && strstr(err, "accepted:") !=
	    NULL && strstr(err, " message") != NULL,
	    "the error names it and the accepted fields: %s", err);
	json_decref(names);

	names = json_pack("[i]", 3);
	is_int(job_list_fields(names, &fields, err, sizeof err), -1,
	    "a number for a name is refused");
	json_decref(names);
	names = json_string("id");
	is_int(job_list_fields(names, &fields, err, sizeof err), -1,
	    "a string for the list is refused");
	json_decref(names);
}

static void
t_growth(void)
{
	struct jtext		 b;
	struct store_job	 r;
	struct job_list_plan	 plan;
	json_t			*v;
	char			*big;
	int			 i;

	t_row(&r);
	job_list_plan(&plan, job_field_wire_set());
	big = malloc(100001);
	if (big == NULL)
		abort();
	memset(big, '"', 100000);
	big[100000] = '\0';
	r.message = big;
	jtext_init(&b, 16);
	jtext_add(&b, "[", 1);
	for (i = 0; i < 3; i++) {
		if (i != 0)
			jtext_add(&b, ",", 1);
		job_list_row(&b, &r, 0, &plan);
	}
	jtext_add(&b, "]", 1);
	v = json_loadb(b.buf, b.len, 0, NULL);
	ok(v != NULL && json_array_size(v) == 3 &&
	    strlen(json_string_value(json_object_get(json_array_get(v, 2),
	    "message"))) == 100000,
	    "three records with 100,000 escaped quotes each grow a 16-byte "
	    "buffer");
	json_decref(v);
	free(b.buf);
	free(big);
}

/* A "rows" record: the values of the object's members, in the columns'
 * order, the blank fields null. */
static void
t_values(void)
{
	struct store_job	 r;
	struct jtext		 b;
	struct job_field_set	 fields = jfs_none();
	struct job_list_plan	 plan;
	json_t			*cols, *vals, *obj, *v;
	size_t			 i;
	const char		*name;
	int			 same = 1;

	jfs_add(&fields, JF_ID);
	jfs_add(&fields, JF_STATE);
	jfs_add(&fields, JF_GPUS);
	jfs_add(&fields, JF_WORKDIR);
	jfs_add(&fields, JF_QUEUE);
	t_row(&r);
	memset(&b, 0, sizeof b);
	job_list_columns(&b, fields);
	cols = json_loadb(b.buf, b.len, 0, NULL);
	b.len = 0;
	job_list_plan(&plan, fields);
	job_list_values(&b, &r, 1700000160, &plan, jfs_none());
	vals = json_loadb(b.buf, b.len, 0, NULL);
	b.len = 0;
	obj = t_write(&r, fields, 0);
	ok(json_is_array(cols) && json_array_size(cols) == 5 &&
	    json_is_array(vals) && json_array_size(vals) == 5,
	    "values: five columns, five values");
	json_array_foreach(cols, i, v) {
		name = json_string_value(v);
		if (name == NULL || !json_equal(json_object_get(obj, name),
		    json_array_get(vals, i)))
			same = 0;
	}
	ok(same && json_object_size(obj) == 5, "values: each the object's "
	    "member of its column's name");
	is_str(json_string_value(json_array_get(cols, 0)), "id",
	    "values: the columns in the record's order");
	json_decref(vals);
	job_list_values(&b, &r, 1700000160, &plan, jfs_one(JF_WORKDIR));
	vals = json_loadb(b.buf, b.len, 0, NULL);
	json_array_foreach(cols, i, v) {
		if (strcmp(json_string_value(v), "workdir") == 0)
			ok(json_is_null(json_array_get(vals, i)), "values: a "
			    "blank field is null and keeps its column");
	}
	free(b.buf);
	json_decref(cols);
	json_decref(vals);
	json_decref(obj);
}

int
main(void)
{
	t_all();
	t_fields();
	t_growth();
	t_values();
	return (tap_done());
}
