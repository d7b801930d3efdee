/* update-words.h: the KEY=VALUE words of an update (scontrol update,
 * gctl update; keys as scontrol spells them), read into what they ask
 * (update-words.c): a node drained or resumed, or a change to jobs'
 * requests, JOB_UPDATE's set (docs/protocol.md). Pure: no connection,
 * tested alone (tests/unit/update-words-test.c). */
#ifndef GB_UPDATE_WORDS_H
#define GB_UPDATE_WORDS_H

#include <stddef.h>

#include <jansson.h>

/* What update's words ask; a key not given is NULL. Strings are borrowed
 * from the words. */
struct update_words {
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
int	update_words_parse(int argc, char **argv, struct update_words *u,
	    char *err, size_t errlen);
/* Frees what update_words_parse made; u may be zeroed. */
void	update_words_free(struct update_words *u);

#endif
