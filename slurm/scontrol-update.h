/* scontrol-update.h: the KEY=VALUE words of scontrol update, read into
 * what they ask (scontrol-update.c): a node drained or resumed, or a
 * change to jobs' requests, JOB_UPDATE's set (docs/protocol.md). Pure: no
 * connection, tested alone (tests/unit/scontrol-update-test.c). */
#ifndef GB_SCONTROL_UPDATE_H
#define GB_SCONTROL_UPDATE_H

#include <stddef.h>

#include <jansson.h>

/* What update's words ask; a key not given is NULL. Strings are borrowed
 * from the words. */
struct scontrol_update {
	const char	*jobs;		/* JobId's: ID[,ID...] */
	json_t		*set;		/* with jobs: set's members, one or
					   more (a new object) */
	const char	*node;		/* NodeName's */
	const char	*state;		/* State's */
	const char	*reason;	/* Reason's */
};

/* Reads the argc words of argv (KEY=VALUE, each key once, in any case)
 * into u: JobId with one or more of TimeLimit, Name (or JobName),
 * Comment, Dependency and NumNodes, each value read as gsub reads the
 * same option (-t, -J, --comment, -d, -N) and Dependency= clearing it;
 * or NodeName with State and Reason (checked by the caller). Returns 0,
 * or -1 with err saying what is wrong and what is accepted (a usage
 * error); u is then empty. */
int	scontrol_update_parse(int argc, char **argv, struct scontrol_update *u,
	    char *err, size_t errlen);
/* Frees what scontrol_update_parse made; u may be zeroed. */
void	scontrol_update_free(struct scontrol_update *u);

#endif
