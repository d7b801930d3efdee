/* recover.h: rebuilding memory from the store at start-up. */
#ifndef GB_CTL_RECOVER_H
#define GB_CTL_RECOVER_H

#include <stddef.h>
#include <stdint.h>

/* Loads the known nodes (down until they say HELLO) and the jobs not yet
 * finished: pending ones queue again with their ids, running ones keep
 * their GPUs until their node re-registers or node_timeout passes. The
 * interactive jobs (grun's), whose sessions died with the last gbatchd,
 * are handed to lost (session_recover, as gbatchd.c wires it). Returns
 * 0, or -1 when the store cannot be read. */
int	recover_load(void (*lost)(const uint64_t *ids, size_t n));

#endif
