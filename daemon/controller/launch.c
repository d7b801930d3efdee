/* launch.c: messages that make node daemons act on jobs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/store.h"

static json_t *
launch_parse(const char *text, json_t *fallback)
{
	json_t	*v;

	if (text == NULL || (v = json_loads(text, 0, NULL)) == NULL)
		return (fallback);
	json_decref(fallback);
	return (v);
}

static void
launch_fail(struct job *j, const char *message)
{
	struct job_change	how = { 0 };

	how.message = message;
	how.detail = message;
	log_error("job %" PRIu64 ": %s", job_id(j), message);
	(void)job_change_state(j, JOB_FAILED, &how);
}

/* The job's checkpoint grace: its own, else the config's, never above
 * the config's cap. */
static int
launch_grace(const struct store_job *row)
{
	const struct conf	*c = gbatchd_conf();
	int			 g = row->ckpt_grace != 0 ? (int)row->ckpt_grace :
				     c->ckpt_grace;

	return (g < c->max_ckpt_grace ? g : c->max_ckpt_grace);
}

/* The rendezvous port of a job (MASTER_PORT): spread by id over a range
 * above the usual services, so jobs sharing a first node rarely meet. */
static int
launch_port(uint64_t id)
{
	return (20000 + (int)(id % 20000));
}

void
launch_job(struct job *j)
{
	struct store_job	 row;
	struct node		*n = job_node(j);
	struct peer		*peer = node_peer(n);
	json_t			*msg, *spec, *gpus;
	char			*ckpt_dir;
	unsigned		 i;
	int			 rc;

	if (peer == NULL) {
		launch_fail(j, "its node disconnected before the launch");
		return;
	}
	if ((rc = store_job_get(job_id(j), &row)) != 1) {
		launch_fail(j, rc == 0 ? "its row is missing from the store" :
		    "cannot read its script from the store");
		return;
	}
	ckpt_dir = xasprintf("%s/.gbatch/ckpt/%" PRIu64, row.workdir, row.id);
	gpus = json_array();
	for (i = 0; i < 64; i++) {
		if (job_gpu_mask(j) & (UINT64_C(1) << i))
			json_array_append_new(gpus, json_integer(i));
	}
	spec = json_pack("{s:I,s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:s,s:o,s:o,"
	    "s:o,s:I,s:s,s:i,s:i,s:I,s:s,s:i,s:i,s:s,s:i}",
	    "id", (json_int_t)row.id, "name", row.name, "user", row.user,
	    "uid", (json_int_t)row.uid, "gid", (json_int_t)row.gid,
	    "workdir", row.workdir, "stdout", row.stdout_path,
	    "stderr", row.stderr_path, "script", row.script,
	    "argv", launch_parse(row.argv, json_array()),
	    "env", launch_parse(row.env, json_object()),
	    "gpus", gpus, "time_limit", (json_int_t)row.time_limit,
	    "nodelist", node_name(n), "num_nodes", 1, "node_rank", 0,
	    "restarts", (json_int_t)row.restarts,
	    "ckpt_dir", ckpt_dir,
	    "ckpt_signal", row.ckpt_signal != 0 ? row.ckpt_signal : 10,
	    "ckpt_grace", launch_grace(&row),
	    "master_addr", *node_addr(n) != '\0' ? node_addr(n) : node_name(n),
	    "master_port", launch_port(row.id));
	free(ckpt_dir);
	store_job_done();
	if (spec == NULL) {
		launch_fail(j, "cannot encode its launch message");
		return;
	}
	msg = proto_msg(MSG_JOB_LAUNCH);
	json_object_set_new(msg, "job", spec);
	peer_send(peer, msg);
	json_decref(msg);
}

int
launch_signal(struct job *j, int signal, bool cancel)
{
	struct node	*n = job_node(j);
	json_t		*msg;

	if (n == NULL || node_peer(n) == NULL)
		return (-1);
	msg = json_pack("{s:i,s:I,s:i,s:b}", "type", MSG_JOB_SIGNAL,
	    "id", (json_int_t)job_id(j), "signal", signal, "cancel", cancel);
	peer_send(node_peer(n), msg);
	json_decref(msg);
	return (0);
}

int
launch_preempt(struct job *j)
{
	struct node	*n = job_node(j);
	json_t		*msg;

	if (n == NULL || node_peer(n) == NULL)
		return (-1);
	msg = json_pack("{s:i,s:I}", "type", MSG_JOB_PREEMPT,
	    "id", (json_int_t)job_id(j));
	peer_send(node_peer(n), msg);
	json_decref(msg);
	return (0);
}
