/* master-port.h: the rendezvous port (MASTER_PORT) a job's processes meet
 * on, picked when it starts from controller.master_ports. */
#ifndef GB_CTL_MASTER_PORT_H
#define GB_CTL_MASTER_PORT_H

#include <stdint.h>

struct node;

/* The port for job id starting with its first part on master: from the
 * id's place in controller.master_ports, the first one on that no job
 * running with the same first node holds, so two gangs sharing a node
 * never meet. master NULL: the id's own port. Reads the jobs running on
 * master; never blocks. */
uint32_t	master_port_pick(const struct node *master, uint64_t id);

#endif
