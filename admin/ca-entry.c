/* ca-entry.c: a certificate's entry in the CA's index (ca-entry.h). */
#include "admin/ca-entry.h"

const char *
ca_entry_role_name(enum ca_role r)
{
	return (r == CA_ROLE_CONTROLLER ? "controller" : "node");
}
