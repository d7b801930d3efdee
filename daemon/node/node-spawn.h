/* node-spawn.h: turning a launch into the job's process, inside the
 * shepherd: the script file, the user's identity, the environment, output
 * files, exec. Everything that can fail for a user's reason fails here with
 * a one-line message that ends up in the job's JOB_ENDED. */
#ifndef GB_NODE_SPAWN_H
#define GB_NODE_SPAWN_H

#include <sys/types.h>

#include <stddef.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-launch.h"

struct node_spawn;

/* Resolves the user, writes the script under STATE/scripts and builds the
 * argv and environment. Blocks (NSS lookups, disk). Returns a new spawn the
 * caller frees, or NULL with err set. */
struct node_spawn	*node_spawn_prepare(const struct node_conf *,
			     const struct node_launch *, char *err,
			     size_t errlen);

/* Puts the processes the spawn starts into cg (NULL: none), entered by
 * each child before it becomes the job's user. */
struct node_cgroup;
void			 node_spawn_set_cgroup(struct node_spawn *,
			     const struct node_cgroup *);

/* Makes the spawn start task local (0 to the launch's tasks - 1) of this
 * node next: its ranks and GPU in the environment, its output files.
 * node_spawn_prepare readies task 0. Returns 0, or -1 with err set. */
int			 node_spawn_task(struct node_spawn *,
			     const struct node_conf *, unsigned local,
			     char *err, size_t errlen);

/* Forks the job: own session and process group, the user's ids, workdir,
 * stdin /dev/null, stdout and stderr to the job's files. Returns the job's
 * pid once it has exec'd, or -1 with err set when it could not start (the
 * child is reaped then). Blocks until the exec succeeds or fails. */
pid_t			 node_spawn_start(struct node_spawn *, char *err,
			     size_t errlen);

/* In a child already forked (a step's, node-steps.c): becomes the job's
 * process, as node_spawn_start's child does, writing why it could not to
 * fd (close-on-exec) and exiting 127 then. Never returns. */
void			 node_spawn_exec(struct node_spawn *, int fd)
			     __attribute__((noreturn));

/* Once the job's processes have all ended: removes its checkpoint
 * directory, and its parents below the working directory, where they are
 * empty (node_ckpt_remove), as the job's user; only on the part of rank 0.
 * Blocks (the file system); switches the effective ids and back. Returns
 * 0, or -1 with err set. */
int			 node_spawn_tidy(struct node_spawn *, char *err,
			     size_t errlen);

/* Removes the script and its directory. */
void			 node_spawn_cleanup(struct node_spawn *);
void			 node_spawn_free(struct node_spawn *);

#endif
