/* node-shm.h: what a job leaves in /dev/shm. POSIX shared memory and
 * semaphores (shm_open, sem_open: PyTorch's DataLoader workers, NCCL's
 * and MPI's intranode transports) are files there that outlive their
 * processes: a job killed at its time limit leaves gigabytes of them in
 * RAM. gnoded removes what a user owns there once the last of that user's
 * jobs on the node has ended (node.clean_shm; gnoded(8)). */
#ifndef GB_NODE_SHM_H
#define GB_NODE_SHM_H

#include <sys/types.h>

#include <stddef.h>

/* The directory of POSIX shared memory. */
#define NODE_SHM_DIR	"/dev/shm"

/* Removes every entry of dir owned by uid, a directory with what it holds
 * that is uid's too, never following a symlink (every step is relative to
 * a directory opened without following one, so a link swapped in meanwhile
 * leads nowhere). uid 0 is refused: root's files are the system's.
 * Returns how many entries it removed, or -1 with err when dir cannot be
 * read. */
long	node_shm_clean(const char *dir, uid_t uid, char *err, size_t errlen);

#endif
