/* job-filter-test.c: client/job-filter.c, which jobs gq and gtop show:
 * what goes to the controller, what is applied here, and the messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/job-filter.h"
#include "client/jscan.h"
#include "tests/unit/tap.h"

/* Whether the job object text passes f; -2 when it is not a job. */
static int
t_match(const struct job_filter *f, const char *text)
{
	struct jscan_val	obj;
	struct job_row		row;
	size_t			pos = 0;

	if (jscan_value(text, strlen(text), &pos, &obj) == -1 ||
	    job_row_scan(&obj, &row) == -1)
		return (-2);
	return (job_filter_match(f, &row));
}

int
main(void)
{
	struct job_filter	 f;
	char			 err[512], *text;
	json_t			*req;

	job_filter_init(&f);
	is_int(t_match(&f, "{\"id\":1,\"user\":\"x\",\"state\":\"RUNNING\"}"),
	    1, "an empty filter passes everything");
	req = json_object();
	job_filter_request(&f, req);
	is_int(json_object_size(req), 0, "and asks the controller nothing");
	json_decref(req);

	/* Users go to the controller, which knows the accounts and checks
	 * the names; --me is resolved by whoever holds the connection. */
	is_int(job_filter_add_user(&f, "", err, sizeof err), -1,
	    "an empty user name is refused");
	job_filter_add_me(&f);
	ok(f.me && f.nusers == 0, "me: for the model to resolve");
	is_int(job_filter_add_user(&f, "alice", err, sizeof err), 0, "alice");
	is_int(job_filter_add_user(&f, "root", err, sizeof err), 0, "root");
	req = json_object();
	job_filter_request(&f, req);
	text = json_dumps(json_object_get(req, "users"), JSON_COMPACT);
	is_str(text, "[\"alice\",\"root\"]", "users go by name");
	free(text);
	ok(json_object_get(req, "user") == NULL, "as a list, even one");
	json_decref(req);
	ok(job_filter_trivial(&f), "and nothing is left to filter here");
	job_filter_clear(&f);
	ok(!f.me, "cleared");

	/* States: names and short forms, any case, or all. */
	is_int(job_filter_add_state(&f, "bogus", err, sizeof err), -1,
	    "an unknown state is refused");
	ok(strstr(err, "unknown state \"bogus\"; accepted: PENDING (PD)") ==
	    err, "naming what is accepted");
	ok(!job_filter_finished(&f), "no state: nothing finished asked");
	is_int(job_filter_add_state(&f, "pd", err, sizeof err), 0, "pd");
	is_int(job_filter_add_state(&f, "Running", err, sizeof err), 0,
	    "Running");
	ok(!job_filter_finished(&f), "pending and running are not finished");
	req = json_object();
	job_filter_request(&f, req);
	text = json_dumps(json_object_get(req, "states"), JSON_COMPACT);
	is_str(text, "[\"PENDING\",\"RUNNING\"]", "states go by name");
	free(text);
	json_decref(req);
	is_int(t_match(&f, "{\"user\":\"a\",\"state\":\"HELD\"}"), 0,
	    "a state not asked is dropped here too");
	is_int(t_match(&f, "{\"user\":\"a\",\"state\":\"RUNNING\"}"), 1,
	    "one asked passes");
	is_int(job_filter_add_state(&f, "all", err, sizeof err), 0, "all");
	ok(job_filter_finished(&f), "all asks finished states");
	job_filter_clear(&f);

	/* Ids go to the controller. */
	job_filter_add_id(&f, 7);
	job_filter_add_id(&f, 9);
	req = json_object();
	job_filter_request(&f, req);
	text = json_dumps(json_object_get(req, "ids"), JSON_COMPACT);
	is_str(text, "[7,9]", "ids go to the controller");
	free(text);
	json_decref(req);
	job_filter_clear(&f);

	/* A name substring (gtop's /) is applied here. */
	job_filter_set_name(&f, "bert");
	is_int(t_match(&f, "{\"name\":\"bert-large\",\"state\":\"R\"}"), 1,
	    "a name holding the substring passes");
	is_int(t_match(&f, "{\"name\":\"resnet\"}"), 0, "another does not");
	is_int(t_match(&f, "{\"id\":3}"), 0, "nor a job without a name");
	job_filter_set_name(&f, "");
	ok(f.name == NULL, "an empty substring clears it");
	job_filter_clear(&f);
	return (tap_done());
}
