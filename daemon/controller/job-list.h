/* job-list.h: job records as JOB_LIST sends them, written as text into one
 * buffer. A listing of 10,000 pending jobs must take milliseconds, which
 * building a jansson tree (or many small evbuffer appends) per job does
 * not. */
#ifndef GB_CTL_JOB_LIST_H
#define GB_CTL_JOB_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/job-field.h"
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/jtext.h"

struct store_job;

/* A record's members are the fields of common/job-field.h that have a
 * wire name, in that order (docs/protocol.md, JOB_LIST); which of them a
 * record holds is a struct job_field_set. job_field_private_set() names
 * what controller.private_data keeps from users other than a job's owner
 * (and operators): what the job runs and where, the files it writes, and
 * its end message, which may quote any of them. The rest (id, user, name,
 * state, GPUs, nodes, times, queue) stays: users share the cluster and
 * must see why their own jobs wait. As Slurm's PrivateData=jobs, but other
 * users' jobs stay in the listing. */

/* Reads a request's "fields" member (NULL or null: every field) into a
 * set of fields; "id" is always in it. Returns 0, or
 * -1 with err naming the accepted fields. */
int	job_list_fields(const json_t *names, struct job_field_set *fields,
	    char *err, size_t errlen);
/* The stored fields job_list_row reads to write the members of fields: a
 * query for them may read only those columns. */
struct job_field_set job_list_store_fields(struct job_field_set fields);
/* Appends an allocation's text ("n1:0xf,n2:0x3", store.h) as the alloc
 * array: [{"node":"n1","gpus":[0,1,2,3]},...]. */
void	job_list_alloc(struct jtext *, const char *text);
/* What a listing writes of each record, worked out once for its fields
 * (job_list_plan) and kept by the listing: the members in order, and
 * each one's name as written (,"name":). A listing writes thousands of
 * rows of one set of fields. */
struct job_list_plan {
	size_t		n;
	uint8_t		f[JF_COUNT];
	struct job_list_key {
		uint8_t	len;
		char	text[40];
	}		key[JF_COUNT];
	/* scheduler.preempt_plain and the QOS' modes, for the preempt
	 * member (the caller's, job_preempt_modes; job_list_plan leaves
	 * none, plain false). */
	struct job_preempt_modes preempt;
};
void	job_list_plan(struct job_list_plan *, struct job_field_set fields);
/* Appends the JOB_LIST record of row with the members of plan; now
 * computes a running job's elapsed time. */
void	job_list_row(struct jtext *, const struct store_job *row,
	    int64_t now, const struct job_list_plan *);
/* The same record as an array of the members' values, in the order of
 * job_list_columns (JOB_LIST "rows"): the fields in blank are written as
 * null, so every row keeps the columns (controller.private_data). */
void	job_list_values(struct jtext *, const struct store_job *row,
	    int64_t now, const struct job_list_plan *,
	    struct job_field_set blank);
/* Appends the wire names of fields, in the order a record holds them, as
 * a JSON array. */
void	job_list_columns(struct jtext *, struct job_field_set fields);

#endif
