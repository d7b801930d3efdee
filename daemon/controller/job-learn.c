/* job-learn.c: a job's reports and its model (job-learn.h). */
#include <stdlib.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-int.h"
#include "daemon/controller/job-learn.h"
#include "daemon/controller/node.h"
#include "policy/goodput.h"

struct job_learn {
	struct goodput_model	 model;
	struct progress		 last;
	uint32_t		 init_batch;	/* the first report's batch */
	uint32_t		 nspeedup;	/* 0: none */
	double			 speedup[JOB_LEARN_TABLE];
};

void
job_learn_report(struct job *j, const struct progress *p)
{
	struct job_learn	*l;
	struct goodput_report	 r;
	uint32_t		 replicas = job_run_gpus(j);

	if (replicas == 0)
		return;		/* a CPU job: nothing to scale */
	if (j->rare == NULL || j->rare->learn == NULL) {
		l = xcalloc(1, sizeof *l);
		goodput_init(&l->model);
		job_rare_set(j)->learn = l;
	}
	l = j->rare->learn;
	l->last = *p;
	if (l->init_batch == 0)
		l->init_batch = (uint32_t)(replicas * p->local_bsz >
		    UINT32_MAX ? UINT32_MAX : replicas * p->local_bsz);
	r.nodes = (uint32_t)job_nparts(j);
	r.replicas = replicas;
	r.local = (uint32_t)p->local_bsz;
	r.step_s = p->step_time;
	r.sync_s = p->sync_time;
	goodput_report(&l->model, &r);
	if (p->has_grad)
		goodput_grads(&l->model, p->grad_sqr, p->grad_var);
	if (job_gpus_max(j) > 0 && job_node(j) != NULL)
		l->nspeedup = (uint32_t)goodput_speedups(&l->model,
		    (uint64_t)replicas * p->local_bsz,
		    node_gpus_total(job_node(j)), job_gpus_max(j),
		    l->init_batch, l->speedup, JOB_LEARN_TABLE);
}

const double *
job_learn_speedup(const struct job *j, size_t *n)
{
	const struct job_learn	*l;

	if (j->rare == NULL || (l = j->rare->learn) == NULL ||
	    l->nspeedup == 0)
		return (NULL);
	*n = l->nspeedup;
	return (l->speedup);
}

bool
job_learn_now(const struct job *j, double *step_s, double *goodput)
{
	const struct job_learn	*l;
	uint32_t		 replicas = job_run_gpus(j), nodes;

	if (j->rare == NULL || (l = j->rare->learn) == NULL)
		return (false);
	*step_s = l->last.step_time;
	nodes = job_nparts(j) > 0 ? (uint32_t)job_nparts(j) : 1;
	*goodput = goodput_rate(&l->model, nodes, replicas,
	    (uint32_t)l->last.local_bsz, 0, l->init_batch) * l->init_batch;
	return (true);
}
