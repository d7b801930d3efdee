/* sim-app.h: an application of Pollux's simulator study (issue 36), the
 * training job gsim replays with a speed read from measured tables: the
 * step and sync time of an iteration on a placement at a local batch
 * size, the progress made by the end of each epoch and the gradient
 * statistics while training it. The tables are Pollux's, in DIR/NAME/:
 * placements.csv (placement,local_bsz,step_time,sync_time; a placement is
 * a string of digits, one per node, each the GPUs used there),
 * scalability.csv (num_nodes,num_replicas,local_bsz,step_time,sync_time)
 * and one validation-BSZ.csv per total batch size BSZ (progress,
 * iteration,metric,grad_sqr,grad_var; a row per epoch). Loading reads
 * them (sim-app-load.c); every lookup after it is pure and cheap
 * (sim-app.c). */
#ifndef GB_SIM_APP_H
#define GB_SIM_APP_H

#include <stddef.h>
#include <stdint.h>

struct sim_app;

/* Loads the tables of application name from dir/name/. max_local 0: the
 * application's largest local batch size is placements.csv's largest
 * local_bsz; else max_local (Pollux caps yolov3's at 8), which must not
 * be below its smallest. Returns a new application for sim_app_free, or
 * NULL with "FILE:LINE: what was wrong, what is accepted" (or
 * "DIR/NAME: no placements.csv; ...") in err. Reads files; never aborts
 * on bad input. */
struct sim_app	*sim_app_load(const char *dir, const char *name,
		     uint32_t max_local, char *err, size_t errlen);
void		 sim_app_free(struct sim_app *);

/* The name it was loaded by, borrowed until sim_app_free. */
const char	*sim_app_name(const struct sim_app *);
/* The epochs it trains: the rows of its shortest validation file. */
uint32_t	 sim_app_epochs(const struct sim_app *);
/* The smallest and the largest total batch size validated (BSZ). */
uint32_t	 sim_app_init_batch(const struct sim_app *);
uint32_t	 sim_app_max_batch(const struct sim_app *);
/* The smallest local_bsz of placements.csv, and the largest or the cap
 * sim_app_load was given. */
uint32_t	 sim_app_min_local(const struct sim_app *);
uint32_t	 sim_app_max_local(const struct sim_app *);

/* The progress done by the end of epoch e (1..epochs): the least over the
 * validation files of their progress at row e (row 1 is the first after
 * the header); 0 for e = 0, and the last epoch's past it. */
double		 sim_app_progress(const struct sim_app *, uint32_t e);

/* The step and sync time in seconds of one iteration at local batch size
 * bsz on a placement of gpus[0..n) GPUs on each node, in any order, zeros
 * skipped:
 *  1. Its key is the non-zero counts rotated to their lexicographically
 *     least rotation, as digit strings (a count over 9 or more than 16
 *     nodes matches no row).
 *  2. A placement placements.csv measured: linear in bsz between its
 *     rows, step and sync apart; below its smallest or above its largest
 *     local_bsz, that row's.
 *  3. Any other: over the point set S, placements.csv's rows averaged by
 *     (num_nodes = digits, num_replicas = their sum, local_bsz) and
 *     scalability.csv's rows (a point in both averaged again), with
 *     N = min(nodes, 16) and R = the GPUs in all: the levels of
 *     num_nodes N0 <= N <= N1 nearest N (the end level's beyond them), at
 *     each the num_replicas R0 <= R <= R1 nearest R (the same way), at
 *     each of those linear in bsz as in 2, then linear in R between R0
 *     and R1, then in N between N0 and N1.
 * Returns 0, or -1 when no GPU is given (then both are 0). */
int		 sim_app_step(const struct sim_app *, const uint32_t *gpus,
		     size_t n, double bsz, double *step, double *sync);

/* The gradient statistics while training epoch e (from 0; past a
 * validation file's last row, its last row's) at total batch size b:
 * grad_sqr and grad_var linear in b between the validated sizes around b
 * (the one if b is one of them, the end one's outside them). */
void		 sim_app_grad(const struct sim_app *, double b, uint32_t e,
		     double *sqr, double *var);

#endif
