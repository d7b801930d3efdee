/* store-resv.c: the reservations table (store-resv.h). Read once at start
 * and written when an operator changes a reservation or one ends, a few
 * times a day: each statement is prepared when it runs, as accounts'
 * are (store-assoc.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/hostlist.h"
#include "common/log.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-resv.h"

/* Prepares sql on the write connection: NULL after logging. */
static sqlite3_stmt *
store_resv_prepare(const char *sql)
{
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(store_handle(), sql, -1, &st, NULL) !=
	    SQLITE_OK) {
		log_error("store: preparing \"%s\": %s", sql,
		    sqlite3_errmsg(store_handle()));
		return (NULL);
	}
	return (st);
}

int
store_resv_load(struct resv_tab *t)
{
	struct resv	 r;
	sqlite3_stmt	*st;
	char		 err[256];
	int64_t		 seq;
	int		 rc;

	if ((st = store_resv_prepare("SELECT id, name, start_time, end_time,"
	    " nodes, users, accounts, flags FROM reservations ORDER BY"
	    " start_time, name")) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&r, 0, sizeof r);
		r.id = (uint64_t)sqlite3_column_int64(st, 0);
		r.name = (char *)store_column_text(st, 1);
		r.start = sqlite3_column_int64(st, 2);
		r.end = sqlite3_column_int64(st, 3);
		r.users = (char *)store_column_text(st, 5);
		r.accounts = (char *)store_column_text(st, 6);
		r.flags = (uint32_t)sqlite3_column_int64(st, 7);
		if (resv_tab_set_nodes(&r, store_column_text(st, 4), err,
		    sizeof err) != 0) {
			/* Written by this code: never, unless edited. */
			log_error("store: reservation %s: %s; left out",
			    r.name, err);
			continue;
		}
		resv_tab_put(t, &r);
		free(r.nodes);
		hostlist_free(r.names, r.nnames);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading reservations: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	/* AUTOINCREMENT's record of the highest id ever given. */
	seq = store_int("SELECT COALESCE((SELECT seq FROM sqlite_sequence"
	    " WHERE name = 'reservations'), 0)");
	if (seq >= 0 && (uint64_t)seq + 1 > t->next_id)
		t->next_id = (uint64_t)seq + 1;
	return (0);
}

int
store_resv_save(const struct resv *r)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (store_begin() != 0 || (st = store_resv_prepare("INSERT OR REPLACE"
	    " INTO reservations (id, name, start_time, end_time, nodes, users,"
	    " accounts, flags) VALUES (:id, :name, :start, :end, :nodes,"
	    " :users, :accounts, :flags)")) == NULL)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":id"), (sqlite3_int64)r->id);
	store_bind_text(st, store_param(st, ":name"), r->name);
	sqlite3_bind_int64(st, store_param(st, ":start"), r->start);
	sqlite3_bind_int64(st, store_param(st, ":end"), r->end);
	store_bind_text(st, store_param(st, ":nodes"), r->nodes);
	store_bind_text(st, store_param(st, ":users"), r->users);
	store_bind_text(st, store_param(st, ":accounts"), r->accounts);
	sqlite3_bind_int64(st, store_param(st, ":flags"), r->flags);
	rc = store_step_done(st, "save reservation");
	sqlite3_finalize(st);
	return (rc);
}

int
store_resv_delete(uint64_t id)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (store_begin() != 0 || (st = store_resv_prepare("DELETE FROM"
	    " reservations WHERE id = :id")) == NULL)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":id"), (sqlite3_int64)id);
	rc = store_step_done(st, "delete reservation");
	sqlite3_finalize(st);
	return (rc);
}
