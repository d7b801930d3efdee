/* node-outfile.h: opening a job's output and error files as its user,
 * safe against what another user planted at their names. A job's files
 * often go to a shared sticky directory (/tmp/gbatch-%j.out) where anyone
 * may create the name first: a symlink there to a file of the victim's
 * would have the job overwrite it, and a file made writable by all would
 * receive the job's output. The kernel refuses both only where
 * fs.protected_symlinks and fs.protected_regular are set; gnoded applies
 * the same rule itself, whatever the host's sysctls. */
#ifndef GB_NODE_OUTFILE_H
#define GB_NODE_OUTFILE_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>

/* Whether a directory of mode dir_mode is one where other users may
 * plant names: sticky, and writable by its group or by all (/tmp,
 * /dev/shm, /var/tmp). */
bool	node_outfile_shared_dir(mode_t dir_mode);

/* Whether a job running as uid me may follow a symlink, or write to a
 * file that was there before it, owned by owner, in a directory owned by
 * dir_uid of mode dir_mode: always outside a shared sticky directory;
 * inside one, only what the job's user or the directory's owner made. */
bool	node_outfile_may_use(uid_t me, uid_t owner, uid_t dir_uid,
	    mode_t dir_mode);

/* Opens path for the job's output as the calling (job's) user: created
 * with mode 0666 less the umask, always appended to (each write lands at
 * the end, never over another writer's lines), emptied first when
 * truncate. Returns the descriptor, or -1 with err saying why: errno's
 * text, or that another user's symlink or file sits at the name in a
 * shared sticky directory. */
int	node_outfile_open(const char *path, bool truncate, char *err,
	    size_t errlen);

#endif
