/* node-record.h: the node's state directory, which is what lets jobs
 * outlive gnoded. Layout (gnoded(8), FILES):
 *
 *	STATE/jobs/ID.job	the job's records, one a line
 *	STATE/scripts/ID-PID	the job script, owned by the job's user
 *
 * A record is a job report as docs/protocol.md writes it, plus private
 * fields ("shepherd_pid", "shepherd_start", "pid_start"), on a line of its
 * own after its kind: "run" (the job's shepherd and process group) or
 * "end" (how the job ended, kept until JOB_ENDED_ACK). Both carry
 * "preempted": true once the shepherd has begun a preemption. Writers
 * append a whole line at once (gnoded, then the shepherd, which outlives
 * it), and the last whole line of a kind is the record: one file a job,
 * made once and removed once, where a file a record rewritten through a
 * temporary file made five. Jobs started by an older gnoded have ID.run
 * and ID.end, whole files, which are still read. */
#ifndef GB_NODE_RECORD_H
#define GB_NODE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum node_record_kind {
	NODE_RECORD_RUN,
	NODE_RECORD_END,
};

/* Creates STATE, STATE/jobs (0700) and STATE/scripts (0711) as needed and
 * removes leftover temporary files. Returns 0 or -1 with err set. */
int	 node_record_init(const char *state_dir, char *err, size_t errlen);

/* Appends the record, which replaces the job's last of its kind for
 * readers. Returns 0 or -1 with err set. */
int	 node_record_write(const char *state_dir, uint64_t id,
	     enum node_record_kind, const json_t *, char *err, size_t errlen);

/* Returns the record (a new reference), or NULL with err set; errno is
 * ENOENT when there is none. */
json_t	*node_record_read(const char *state_dir, uint64_t id,
	     enum node_record_kind, char *err, size_t errlen);

/* Adds to a run record what it keeps of the job's launch l for a gnoded
 * started again (node-jobs-recover.c): its uid, its CPUs (cpuset), its
 * shards (gpu_share), whether MPS serves it (mps) and whether its streams
 * are relayed (interactive). gnoded's record at the launch and the
 * shepherd's at the start both take them from here, so neither drops
 * one. */
struct node_launch;
void	 node_record_run_launch(json_t *rec, const struct node_launch *l);

/* Removes the job's records; missing ones are fine. */
void	 node_record_remove(const char *state_dir, uint64_t id);

/* Lists the ids that have a record, each once, in a new array the caller
 * frees. Returns 0 or -1 with err set. */
int	 node_record_scan(const char *state_dir, uint64_t **ids, size_t *n,
	     char *err, size_t errlen);

#endif
