/* node-progress.h: the file a job's reports of how it trains go to
 * (GBATCH_PROGRESS, common/progress.h's lines), one a job on this node:
 * STATE/progress/ID, made by gnoded for each run, empty, the job's user's
 * with mode 0600, in a directory of gnoded's (0711: the user may write
 * the file, never replace it with a link). gnoded reads what the job
 * appended at each heartbeat, at most NODE_PROGRESS_READ bytes (a job
 * that writes more loses its older lines, not gnoded its time), through
 * O_NOFOLLOW and O_NONBLOCK, a regular file only; the newest good line
 * is passed on, a bad one is logged once a run and skipped. */
#ifndef GB_NODE_PROGRESS_H
#define GB_NODE_PROGRESS_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/progress.h"

#define NODE_PROGRESS_READ	65536

struct node_progress;

/* Makes the run's file, empty (chowned to uid:gid where chown_it):
 * NULL with err where it cannot. */
struct node_progress	*node_progress_open(const char *state_dir,
			     uint64_t id, uid_t uid, gid_t gid, bool chown_it,
			     char *err, size_t errlen);
/* The file of a job found running after gnoded restarted, read from its
 * start again; NULL where there is none. */
struct node_progress	*node_progress_attach(const char *state_dir,
			     uint64_t id);
const char		*node_progress_path(const struct node_progress *);
/* Reads what was appended since the last call: 1 with the newest good
 * report in *out where a line came, 0 where none did. */
int			 node_progress_poll(struct node_progress *,
			     struct progress *out);
/* NODE_HEARTBEAT's "progress" entry of job id: its newest good report
 * since the last call, with "job" (a new object), or NULL for none. */
json_t			*node_progress_report(struct node_progress *,
			     uint64_t id);
/* Forgets the reader; with remove, the file too (the run is over). NULL
 * is ignored. */
void			 node_progress_close(struct node_progress *,
			     bool remove);

#endif
