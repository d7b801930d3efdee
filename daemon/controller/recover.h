/* recover.h: rebuilding memory from the store at start-up. */
#ifndef GB_CTL_RECOVER_H
#define GB_CTL_RECOVER_H

/* Loads the known nodes (down until they say HELLO) and the jobs not yet
 * finished: pending ones queue again with their ids, running ones keep
 * their GPUs until their node re-registers or node_timeout passes, and
 * grun's jobs lose their sessions (session_recover). Returns
 * 0, or -1 when the store cannot be read. */
int	recover_load(void);

#endif
