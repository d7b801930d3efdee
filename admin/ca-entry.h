/* ca-entry.h: what the CA's index records of each certificate it issued
 * (ca.h writes it, ca-file.h reads and rewrites it): its serial, the role
 * it was made for, the name, when it expires and whether it was revoked. */
#ifndef GB_CA_ENTRY_H
#define GB_CA_ENTRY_H

#include <stdint.h>
#include <time.h>

/* Longest name a certificate may be made for (a node name's limit). */
#define CA_NAME_MAX	64

enum ca_role {
	CA_ROLE_CONTROLLER,	/* extendedKeyUsage serverAuth */
	CA_ROLE_NODE,		/* extendedKeyUsage clientAuth */
};

/* One line of the index. */
struct ca_entry {
	uint64_t	serial;
	enum ca_role	role;
	char		name[CA_NAME_MAX + 1];
	time_t		not_after;
	time_t		revoked;	/* when, or 0 */
};

/* The role as gctl prints and reads it: "controller", "node". */
const char	*ca_entry_role_name(enum ca_role);

#endif
