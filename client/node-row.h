/* node-row.h: one node of a NODE_LIST reply (a struct model_node,
 * model-nodes.h), as gnodes and gtop show it: the columns -o takes,
 * described once. */
#ifndef GB_NODE_ROW_H
#define GB_NODE_ROW_H

#include <stddef.h>

#include "client/model-nodes.h"
#include "client/table.h"

/* The fields gnodes -o accepts; a row is a struct model_node. */
extern const struct table_col	node_row_cols[];
extern const size_t		node_row_ncols;

/* gnodes' default columns. */
#define NODE_ROW_DEFAULT	"name,state,gpus,cpus,jobs,cpu_jobs,reason"

#endif
