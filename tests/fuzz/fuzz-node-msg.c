/* fuzz-node-msg.c: gnoded's decoding of what the controller sends it
 * (daemon/node/node-msg.c) and of the job in a JOB_LAUNCH
 * (daemon/node/node-launch.c), on any frame body. The input goes through
 * frame_body as dial.c hands it over. A message is decoded or
 * refused with a reason; what is decoded carries only values gnoded can
 * act on: a job id above 0, a real signal number, and for a launch the
 * same id, an absolute working directory, output patterns, GPU indices
 * in range and environment entries NAME=VALUE. A session's IO and
 * IO_CONTROL name a job, and a STEP_LAUNCH carries a launch.
 * A message type node-msg.c learns needs its case below and a seed in
 * corpus/node-msg/: make check replays the corpus, and only the fuzz run
 * would find an unseeded type (stop 23's CI did). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/frame.h"
#include "common/proto.h"
#include "daemon/node/node-launch.h"
#include "daemon/node/node-msg.h"
#include "tests/fuzz/fuzz.h"

/* node-launch.c's caps, as the protocol documents them. */
#define FUZZ_MAX_GPUS	64

static void
fuzz_node_launch(const json_t *msg, uint64_t id)
{
	struct node_launch	*l;
	char			 err[1024];
	size_t			 i, n;

	err[0] = '\0';
	if ((l = node_launch_parse(msg, err, sizeof err)) == NULL) {
		/* The refusal names the field: "job" or "job.FIELD...". */
		if (strncmp(err, "job", 3) != 0)
			abort();
		return;
	}
	if (l->id != id || l->workdir[0] != '/' || *l->out == '\0' ||
	    *l->err == '\0' || l->user == NULL || l->script == NULL ||
	    l->num_nodes < 1 || l->ckpt_signal < 1 || l->ckpt_signal >= NSIG ||
	    l->ngpus > FUZZ_MAX_GPUS || l->master_port > 65535 ||
	    (*l->ckpt_dir != '\0' && *l->ckpt_dir != '/'))
		abort();
	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i] >= FUZZ_MAX_GPUS)
			abort();
	}
	n = json_array_size(json_object_get(json_object_get(msg, "job"),
	    "argv"));
	for (i = 0; l->argv[i] != NULL; i++)
		;
	if (i != n)
		abort();
	for (i = 0; l->env[i] != NULL; i++) {
		if (l->env[i][0] == '=' || strchr(l->env[i], '=') == NULL)
			abort();
	}
	node_launch_free(l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct node_msg	 m;
	json_t		*msg;
	char		 err[1024], why[512];
	int		 r;

	if (size == 0 || size > FRAME_MAX_REQUEST)
		return (0);
	if ((msg = frame_body(data, size, err, sizeof err)) == NULL)
		return (0);
	why[0] = '\0';
	r = node_msg_decode(msg, &m, why, sizeof why);
	if (r == -1) {
		if (why[0] == '\0')
			abort();
		goto out;
	}
	if (r != 0)
		abort();
	switch (m.type) {
	case NODE_MSG_HELLO_REPLY:
		if (m.accepted == (m.refusal[0] != '\0'))
			abort();
		break;
	case NODE_MSG_OTHER_REPLY:
		break;
	case NODE_MSG_SIGNAL:
		if (m.sig < 1 || m.sig >= NSIG)
			abort();
		/* FALLTHROUGH */
	case NODE_MSG_PREEMPT:
	case NODE_MSG_ENDED_ACK:
		if (m.id == 0)
			abort();
		break;
	case NODE_MSG_IO:
	case NODE_MSG_IO_CONTROL:
		/* node-io.c reads the rest, and drops what it does not
		 * know; the envelope names a job. */
		if (m.id == 0)
			abort();
		break;
	case NODE_MSG_LAUNCH:
	case NODE_MSG_STEP_LAUNCH:
		/* A step carries its job's launch, decoded the same way. */
		if (m.id == 0)
			abort();
		fuzz_node_launch(msg, m.id);
		break;
	case NODE_MSG_RELAY_REPLY:
		if (m.chan == 0)
			abort();
		break;
	default:
		abort();
	}
out:
	json_decref(msg);
	return (0);
}
