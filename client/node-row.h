/* node-row.h: one node of a NODE_LIST reply (a jansson object, as
 * docs/protocol.md gives it), as gnodes and gtop show it: the columns -o
 * takes, described once. */
#ifndef GB_NODE_ROW_H
#define GB_NODE_ROW_H

#include <stddef.h>

#include <jansson.h>

#include "client/table.h"

/* The fields gnodes -o accepts; a row is a node's json_t object. */
extern const struct table_col	node_row_cols[];
extern const size_t		node_row_ncols;

/* gnodes' default columns. */
#define NODE_ROW_DEFAULT	"name,state,gpus,jobs,reason"

#endif
