/* resv-words.h: what an advance reservation is told (RESV's "set",
 * docs/protocol.md, 110), as gctl reservation's options and scontrol's
 * Slurm keywords write it: one reader for both, each value checked here
 * against what gbatchd takes, so a typo is a usage error (2), not a round
 * trip; and the RESV request. Pure: no connection, no clock (now is an
 * argument); tested alone (tests/unit/resv-words-test.c). */
#ifndef GB_RESV_WORDS_H
#define GB_RESV_WORDS_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

/* What may be said of a reservation. */
enum resv_words_key {
	RESV_WORDS_NAME,	/* the name; kept apart from set */
	RESV_WORDS_START,	/* start_time */
	RESV_WORDS_END,		/* end_time */
	RESV_WORDS_DURATION,	/* duration */
	RESV_WORDS_NODES,	/* nodes: a host list */
	RESV_WORDS_GPUS,	/* gpus: whole nodes holding that many */
	RESV_WORDS_USERS,	/* users: names joined by ',' */
	RESV_WORDS_ACCOUNTS,	/* accounts, likewise */
	RESV_WORDS_FLAGS,	/* flags: MAINT, IGNORE_JOBS */
};

/* Reads val as key takes it into set (the name into *name, borrowed from
 * val): a time as gsub --begin takes it (now, now+1hour, 2026-12-01T10:00,
 * 22:00 the next one, @EPOCH), a duration as Slurm writes one (minutes,
 * [D-]H:M[:S]; not UNLIMITED: a reservation ends), a host list, a whole
 * number of GPUs, names joined by ',', flags (checked by gbatchd).
 * Each key once; an end and a duration, nodes and GPUs, not both.
 * Returns 0, or -1 with err naming the key, what it takes and what
 * came. */
int	resv_words_put(json_t *set, const char **name, enum resv_words_key key,
	    const char *val, time_t now, char *err, size_t errlen);

/* Reads scontrol's create or update words, argv[0..argc) of KEY=VALUE
 * with Slurm's keys in any case (ReservationName, StartTime, EndTime,
 * Duration, Nodes, TRES=gres/gpu=N, Users, Accounts, Flags), into *name
 * and set. Slurm's keys gbatch does not take (PartitionName, NodeCnt,
 * CoreCnt, Licenses, ...) are refused with why, unknown ones with those
 * taken. Returns 0, or -1 with err. */
int	resv_words_slurm(int argc, char **argv, time_t now, const char **name,
	    json_t *set, char *err, size_t errlen);

/* The RESV request of action ("create", "update", "delete") on name
 * (NULL for create: gbatchd makes one, USER_N), with set (taken over;
 * NULL: none). A new request. */
json_t	*resv_words_request(const char *action, const char *name,
	    json_t *set);

#endif
