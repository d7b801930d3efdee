/* resv-list.h: RESV_LIST's reply (docs/protocol.md, 111) as the commands
 * read it: each reservation's name, window, nodes, GPUs, users, accounts,
 * flags and state, and the times as Slurm's scontrol writes them. Pure:
 * the caller asks gbatchd and hands the reply over; tested alone
 * (tests/unit/resv-words-test.c). */
#ifndef GB_RESV_LIST_H
#define GB_RESV_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

struct resv_list_entry {
	const char	*name;		/* borrowed from the reply */
	const char	*nodes;		/* a host list */
	const char	*state;		/* ACTIVE or INACTIVE */
	int64_t		 start;		/* s since the epoch */
	int64_t		 end;
	int64_t		 duration;	/* s */
	int64_t		 node_count;
	int64_t		 gpus;
	char		*users;		/* names joined by ',' ('' none) */
	char		*accounts;
	char		*flags;		/* "MAINT,IGNORE_JOBS" ('' none) */
};

struct resv_list {
	json_t			*reply;
	struct resv_list_entry	*v;
	size_t			 n;
	int64_t			 now;	/* gbatchd's, at the listing */
};

/* Reads reply (taken over) into l. Returns 0, or -1 with err when it is
 * not a RESV_LIST reply (l empty). */
int	resv_list_read(struct resv_list *l, json_t *reply, char *err,
	    size_t errlen);
void	resv_list_free(struct resv_list *l);

/* t (s since the epoch) in local time as Slurm writes it,
 * 2026-12-01T10:00:00. Returns buf. */
const char *resv_list_time(int64_t t, char *buf, size_t len);

#endif
