/* gacct-report.c: gacct --report
 * users|cluster|nodes|timeline|accounts|partitions|qos. gbatchd
 * aggregates (JOB_ACCT with "report", docs/protocol.md) and sends a row
 * per user, per group of jobs, per node, per account, partition or QOS,
 * and a cluster report's series (the timeline); this prints them in
 * gacct's formats, through the columns client/acct-row.h describes.
 * --json prints the reply's figures as they came, as "rows" whichever
 * they were. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bin/gacct-report.h"
#include "client/acct-row.h"
#include "client/table.h"
#include "common/cmd.h"

int
gacct_report_print(json_t *reply, const char *member, struct table *t,
    bool json)
{
	/* The reply's members --json keeps: the accounts report's month
	 * is that of its budgets' figures. */
	static const char *const keys[] = { "report", "since", "until",
	    "month" };
	json_t		*rows = json_object_get(reply, member);
	json_t		*out;
	const char	*k;
	size_t		 i;

	if (!json_is_array(rows)) {
		fprintf(stderr, "gacct: bad reply from gbatchd: no %s\n",
		    member);
		return (-1);
	}
	if (json) {
		out = json_object();
		for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			k = keys[i];
			if (json_object_get(reply, k) != NULL)
				json_object_set(out, k, json_object_get(reply,
				    k));
		}
		if (strcmp(member, "series") == 0)
			json_object_set_new(out, "report", json_string(
			    "timeline"));
		if (strcmp(member, "fairshare") == 0)
			json_object_set_new(out, "report", json_string(
			    "fairshare"));
		json_object_set(out, "rows", rows);
		cmd_json_print(out, JSON_INDENT(2));
		json_decref(out);
		return (0);
	}
	for (i = 0; i < json_array_size(rows); i++) {
		if (!json_is_object(json_array_get(rows, i))) {
			fprintf(stderr, "gacct: bad reply from gbatchd: a row "
			    "is not an object\n");
			return (-1);
		}
		table_add(t, json_array_get(rows, i), NULL);
	}
	return (0);
}
