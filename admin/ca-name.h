/* ca-name.h: the names a certificate may be made for: the name it is
 * issued to (a node's, or the controller's), which names its files too,
 * and the other DNS names or IP addresses of its SAN. */
#ifndef GB_CA_NAME_H
#define GB_CA_NAME_H

#include <stddef.h>

/* Whether name may be certified: 1-64 letters, digits, '-', '_' or '.',
 * not starting with '.', and not "ca" (the CA's own files). Returns 0, or
 * -1 with err saying what is accepted. */
int	ca_name_check(const char *name, char *err, size_t errlen);
/* Whether alt is a DNS name or an IP address for the SAN. */
int	ca_name_alt_check(const char *alt, char *err, size_t errlen);

#endif
