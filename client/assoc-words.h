/* assoc-words.h: the members of an account and of a user's association,
 * as ASSOC sets them (docs/protocol.md, 108): what each is called on the
 * wire, whose it is and what it takes, in one table (assoc-words.c) that
 * gctl account and gctl user (their KEY=VALUE words) and sacctmgr (Slurm's
 * keywords, converted) both read; and the ASSOC request of a change. Pure:
 * no connection, tested alone (tests/unit/assoc-words-test.c). */
#ifndef GB_ASSOC_WORDS_H
#define GB_ASSOC_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* What a member takes. */
enum assoc_words_kind {
	ASSOC_WORDS_COUNT,	/* a whole number, 0: no limit */
	ASSOC_WORDS_SHARES,	/* a whole number, 1 or more */
	ASSOC_WORDS_TIME,	/* seconds; read in gsub -t's forms */
	ASSOC_WORDS_TEXT,
	ASSOC_WORDS_YESNO,	/* a boolean; read as yes or no */
	ASSOC_WORDS_HOURS,	/* GPU-hours, with a fraction or not; 0: none */
};

/* Whose a member is: an account's, a user's association's, or both. */
#define ASSOC_WORDS_ACCOUNT	0x1
#define ASSOC_WORDS_USER	0x2

/* The most a count or a share may be, as gbatchd takes it. */
#define ASSOC_WORDS_COUNT_MAX	1000000000ULL

struct assoc_words_member {
	const char		*name;	/* "max_gpus", as ASSOC's set names it */
	enum assoc_words_kind	 kind;
	int			 of;	/* ASSOC_WORDS_ACCOUNT | _USER */
};

/* The member of that name (any case) that of's kind of thing has
 * (ASSOC_WORDS_ACCOUNT or ASSOC_WORDS_USER), or NULL. Borrowed, static. */
const struct assoc_words_member *assoc_words_find(const char *name, int of);

/* Writes the names of of's members into buf as a reader is told them:
 * "parent, shares, ... or gpu_hours". Returns buf. */
char	*assoc_words_names(int of, char *buf, size_t len);

/* Reads val as m takes it into set under m's name: a count from 0 to
 * ASSOC_WORDS_COUNT_MAX, a share from 1, a time in gsub -t's forms (to
 * seconds, at most a job's longest limit), "yes" or "no" (any case),
 * GPU-hours as digits with a decimal fraction or not ("500", "0.25";
 * gbatchd keeps them to the GPU-second and refuses less than one), or any
 * text. Returns 0, or -1 with err naming m, what it takes and what came;
 * also when set has m already (each member once). */
int	assoc_words_put(json_t *set, const struct assoc_words_member *m,
	    const char *val, char *err, size_t errlen);
/* The same for a number already read (a count, a share or seconds),
 * checked against m's bounds. */
int	assoc_words_put_int(json_t *set, const struct assoc_words_member *m,
	    uint64_t v, char *err, size_t errlen);

/* Puts a budget of gpu_seconds into set's gpu_hours, as the wire takes
 * it: a whole number of hours as one, else a fraction that gbatchd rounds
 * back to the same GPU-second. Returns 0, or -1 with err when set has it
 * already or it is over ASSOC_WORDS_COUNT_MAX hours. */
int	assoc_words_put_budget(json_t *set, uint64_t gpu_seconds, char *err,
	    size_t errlen);

/* The ASSOC request of action ("account_add", ..., "user_delete") on
 * name, with account (a user's; or NULL) and set (taken over; NULL or
 * empty: none). A new request. */
json_t	*assoc_words_request(const char *action, const char *name,
	    const char *account, json_t *set);

#endif
