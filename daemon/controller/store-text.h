/* store-text.h: the job_texts rows (scripts and environments, kept once
 * for the jobs that share them) the store wrote lately, so that the next
 * job of the same user with the same script or environment points at the
 * same row. Compared byte for byte, never by a hash alone: a collision
 * would hand one user's environment to another's job. Rows exist only
 * once committed, so a failed commit forgets them all. The store holds
 * one (store.c). */
#ifndef GB_CTL_STORE_TEXT_H
#define GB_CTL_STORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#define STORE_TEXT_CACHE	16
/* Larger texts are stored each time rather than held in memory. */
#define STORE_TEXT_CACHE_MAX	(64U << 10)

struct store_text_cache {
	struct {
		char		*text;
		size_t		 len;
		uint32_t	 uid;
		int64_t		 id;
	}			 v[STORE_TEXT_CACHE];
	unsigned		 next;
};

/* The id of the job_texts row holding text for uid, inserted with insert
 * (its one parameter, the text) on db unless a recent one matches; -1 on
 * failure (logged). */
int64_t	store_text_id(struct store_text_cache *, sqlite3 *db,
	    sqlite3_stmt *insert, uint32_t uid, const char *text);
/* Forgets every text (frees them). */
void	store_text_clear(struct store_text_cache *);

#endif
