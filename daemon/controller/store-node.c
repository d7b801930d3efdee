/* store-node.c: the nodes table (each node's GPUs, drain and last word)
 * and node_events (DOWN, UP, DRAINED, RESUMED), store.h. */
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "common/log.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store.h"

int
store_node_save(const struct store_node *n)
{
	sqlite3_stmt	*st = store_stmt(STORE_NODE_SAVE);

	if (store_begin() != 0)
		return (-1);
	store_bind_text(st, 1, n->name);
	sqlite3_bind_int64(st, 2, n->gpus);
	sqlite3_bind_int(st, 3, n->drained);
	store_bind_text(st, 4, n->reason != NULL ? n->reason : "");
	sqlite3_bind_int64(st, 5, n->last_seen);
	return (store_step_done(st, "save node"));
}

int
store_node_event(const char *node, int64_t when, const char *state,
    const char *detail)
{
	sqlite3_stmt	*st = store_stmt(STORE_NODE_EVENT);

	if (store_begin() != 0)
		return (-1);
	store_bind_text(st, store_param(st, ":node"), node);
	sqlite3_bind_int64(st, store_param(st, ":time"), when);
	store_bind_text(st, store_param(st, ":state"), state);
	store_bind_text(st, store_param(st, ":detail"), detail != NULL ?
	    detail : "");
	return (store_step_done(st, "insert node event"));
}

int
store_node_each(store_node_cb cb, void *arg)
{
	sqlite3_stmt		*st = store_stmt(STORE_NODE_ALL);
	struct store_node	 n;
	int			 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n.name = store_column_text(st, 0);
		n.gpus = (uint32_t)sqlite3_column_int64(st, 1);
		n.drained = sqlite3_column_int(st, 2) != 0;
		n.reason = store_column_text(st, 3);
		n.last_seen = sqlite3_column_int64(st, 4);
		cb(&n, arg);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading nodes: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}
