/* node-ckpt.h: a job's checkpoint directory (GBATCH_CKPT_DIR) on the file
 * system: made before the job starts, removed after it ends when it holds
 * nothing. Both run in a process that already has the job's user's
 * identity (node-spawn.c forks one), so they can only touch what the user
 * could. docs/job-files.md says who calls them and why. */
#ifndef GB_NODE_CKPT_H
#define GB_NODE_CKPT_H

#include <stddef.h>

/* mkdir -p path: its parents mode 0755, path itself 0700 (checkpoints are
 * the user's data); an existing directory is used as it is. Tries again
 * when a parent disappears meanwhile (another job's node_ckpt_remove in
 * the same working directory). Returns 0, or -1 with errno set. */
int	node_ckpt_make(const char *path);

/* Removes path if it is an empty directory, then each parent strictly
 * below top while it is empty; never top, never anything that is not
 * empty. A path already gone is not an error (its parents are still
 * looked at). Returns 0, or -1 with err naming the directory and why. */
int	node_ckpt_remove(const char *path, const char *top, char *err,
	    size_t errlen);

#endif
