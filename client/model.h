/* model.h: what a client knows of the cluster, refreshed through client/:
 * the jobs a filter selects (a JOB_LIST reply kept as one buffer, its rows
 * pointing into it) and the nodes (a NODE_LIST reply, model-nodes.h). gq and gnodes
 * refresh once; gtop keeps a model for as long as it runs, so the model
 * keeps its connection between refreshes, opens it again after the
 * controller went away (a refresh that fails says why and leaves the last
 * figures in place), and bounds each refresh by a timeout that can change.
 * Nothing here prints: a refresh returns the commands' exit status and the
 * message. */
#ifndef GB_MODEL_H
#define GB_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "client/assoc-list.h"
#include "client/client.h"
#include "client/job-filter.h"
#include "client/slurm-part.h"
#include "client/job-row.h"
#include "client/jscan.h"
#include "client/model-nodes.h"

struct model_jobs {
	char		*body;		/* the reply's text; rows point into it */
	struct job_row	*rows;		/* those the filter passed, in order */
	size_t		 n;
	size_t		 size;		/* room in rows */
	struct jscan_val missing;	/* ids the controller did not find */
	long long	 now;		/* the reply's "now" */
};

/* The cluster reports a client keeps (JOB_ACCT "report":"cluster"). */
enum model_acct {
	MODEL_ACCT_HOUR,	/* the last hour: gtop's header */
	MODEL_ACCT_TODAY,	/* since midnight: gtop's header */
	MODEL_ACCT_WINDOW,	/* gtop's JCT pane, its window */
	MODEL_ACCT_COUNT
};

struct model {
	unsigned		 timeout_s;	/* each refresh's; 0: none */
	struct client		*c;		/* NULL while disconnected */
	bool			 used;		/* c has answered a call */
	struct job_filter	 filter;	/* which jobs refresh_jobs keeps */
	struct model_jobs	 jobs;
	uint64_t		 jobs_gen;	/* bumped by each refresh of jobs */
	struct model_jobs	 job;		/* model_refresh_job's, whole */
	json_t			*acct[MODEL_ACCT_COUNT]; /* replies, or NULL */
	time_t			 acct_at[MODEL_ACCT_COUNT]; /* when asked */
	struct model_nodes	 nodes;		/* NODE_LIST's reply */
	json_t			*ping;		/* PING's reply, or NULL */
	/* ASSOC_LIST's, with fair share's lines (model_refresh_assoc);
	 * empty until asked. */
	struct assoc_list	 assoc;
	time_t			 refreshed;	/* the last refresh that worked */
	int			 status;	/* the last refresh: 0 or EXIT_* */
	char			 err[1024];	/* why, when status is not 0 */
};

void	model_init(struct model *, unsigned timeout_s);
void	model_free(struct model *);
void	model_set_timeout(struct model *, unsigned timeout_s);

/* The connection, opened if need be: 0 with *cp (borrowed, valid until
 * the next model call), or an exit status with m->err set. */
int	model_client(struct model *, struct client **cp);

/* Sends req (a request the caller built; not taken over) on the model's
 * connection, opened again once if it died, and waits for the reply: 0
 * with *reply (a new reference), or an exit status with m->err set to the
 * controller's message or what went wrong. */
int	model_request(struct model *, json_t *req, json_t **reply);
/* Asks m's controller for its settings (CONFIG_SHOW) and reads their
 * partitions into ps (slurm-part.h). Returns 0, or an exit status with
 * m->err set. Blocks up to m's timeout. */
int	model_fetch_parts(struct model *, struct slurm_parts *ps);
/* Asks m's controller for every account and association (ASSOC_LIST) and
 * reads them into l (assoc-list.h; the caller frees it). Returns 0, or an
 * exit status with m->err set and l empty. Blocks up to m's timeout. */
int	model_fetch_assoc(struct model *, struct assoc_list *l);

/* Asks for the jobs m->filter selects, with only the members in fields (a
 * JSON array of JOB_LIST member names; NULL for every member, and the
 * event history too). The rows the filter passes replace m->jobs. Returns
 * 0, or an exit status with m->err set and m->jobs left as it was. Blocks
 * up to the timeout (twice when a kept connection turns out dead and is
 * opened again). */
int	model_refresh_jobs(struct model *, const json_t *fields);

/* As model_refresh_jobs, but the listing comes streamed ("stream": in
 * frames of a few thousand jobs) and each row the filter passes goes to
 * fn as its frame arrives, valid during the call only: memory stays flat
 * whatever the queue's size. During the calls and afterwards m->jobs holds
 * no rows, only the frame's now and, once the last frame came, the ids the
 * controller did not find (missing). Without fields, every member and the
 * event history (of jobs asked for by id), and when the filter has nothing
 * left to check, a row holds the job's object alone (obj), unread.
 * Returns as refresh_jobs; a failure part-way leaves the rows already
 * handed over. */
int	model_stream_jobs(struct model *, const json_t *fields,
	    void (*fn)(const struct job_row *, void *), void *arg);

/* Asks for every member of job id and its history, whatever the filter;
 * it replaces m->job (n is 0 when the controller does not know the id).
 * Returns as refresh_jobs. */
int	model_refresh_job(struct model *, uint64_t id);

/* Asks for the cluster report of the jobs that ended since since (seconds
 * since the epoch) until now, with its series in bins when bins > 0; the
 * reply (its "rows" and "series": acct-row.h) replaces m->acct[slot].
 * Returns as refresh_jobs. */
int	model_refresh_acct(struct model *, enum model_acct slot,
	    int64_t since, int bins);

/* Asks how the controller is (PING: its version, the policy in force and
 * its queue thresholds); the reply replaces m->ping. Returns as
 * refresh_jobs. */
int	model_refresh_ping(struct model *);

/* Asks for the nodes; they replace m->nodes. brief: without the GPUs'
 * names, uuids and memory sizes (gtop asks every few seconds for what
 * changes). Returns as refresh_jobs. */
/* model_fetch_assoc into m->assoc, the one before freed. 0, or an exit
 * status with m->err set. */
int	model_refresh_assoc(struct model *);
int	model_refresh_nodes(struct model *, bool brief);

/* What a client may do to a job from a listing (gcancel, gctl hold,
 * release, requeue). */
enum model_action {
	MODEL_CANCEL,
	MODEL_HOLD,
	MODEL_RELEASE,
	MODEL_REQUEUE,
	MODEL_DRAIN,		/* a node's (model_node_action) */
	MODEL_RESUME,
};
/* The JOB_UPDATE request of action ("hold", "release", "requeue", "set")
 * on id as a user writes it: "42", or an array's tasks, "42_7" or
 * "42_[3-5]". A new request, or NULL with err saying what is wrong with id
 * (the caller names the option). */
json_t	*model_job_update_request(const char *id, const char *action,
	    char *err, size_t errlen);

/* The requests of action on the ids in argv[0..argc), each word an id or
 * a comma list of them: a new JSON array of them, or NULL with err (the
 * first id that is wrong) and none made: every id is checked before one
 * is acted on. */
json_t	*model_job_update_requests(int argc, char **argv, const char *action,
	    char *err, size_t errlen);

/* Asks the controller to act on job id; it decides whether this user may.
 * Returns 0, or an exit status (EXIT_REFUSED, EXIT_PERMISSION, ...) with
 * m->err saying why. Blocks up to the timeout. */
int	model_job_action(struct model *, uint64_t id, enum model_action);
/* Asks the controller to drain node (MODEL_DRAIN, with reason) or resume
 * it (MODEL_RESUME); operators only, the controller says. Returns as
 * model_job_action. */
int	model_node_action(struct model *, const char *node, enum model_action,
	    const char *reason);

#endif
