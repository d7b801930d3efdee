/* store-text.c: the job_texts rows written lately (store-text.h). */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store-text.h"

void
store_text_clear(struct store_text_cache *c)
{
	unsigned	i;

	for (i = 0; i < STORE_TEXT_CACHE; i++)
		free(c->v[i].text);
	memset(c, 0, sizeof *c);
}

int64_t
store_text_id(struct store_text_cache *c, sqlite3 *db, sqlite3_stmt *insert,
    uint32_t uid, const char *text)
{
	size_t		len = strlen(text);
	unsigned	i, k;
	int		rc;

	for (i = 0; i < STORE_TEXT_CACHE; i++) {
		if (c->v[i].text != NULL && c->v[i].uid == uid &&
		    c->v[i].len == len && memcmp(c->v[i].text, text, len) == 0)
			return (c->v[i].id);
	}
	sqlite3_bind_text(insert, 1, text, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(insert);
	sqlite3_reset(insert);
	sqlite3_clear_bindings(insert);
	if (rc != SQLITE_DONE) {
		log_error("store: insert job text: %s", sqlite3_errmsg(db));
		return (-1);
	}
	if (len > STORE_TEXT_CACHE_MAX)
		return (sqlite3_last_insert_rowid(db));
	k = c->next++ % STORE_TEXT_CACHE;
	free(c->v[k].text);
	c->v[k].text = xmalloc(len + 1);
	memcpy(c->v[k].text, text, len + 1);
	c->v[k].len = len;
	c->v[k].uid = uid;
	c->v[k].id = sqlite3_last_insert_rowid(db);
	return (c->v[k].id);
}
