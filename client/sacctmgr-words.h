/* sacctmgr-words.h: sacctmgr's command line as Slurm spells it (a
 * command, an entity, then names, where-conditions, set keywords and
 * show's options), read into what it asks of gbatch's accounts and users
 * (sacctmgr-words.c). Words are Slurm's, in any case and abbreviated as
 * far as Slurm lets them be; the keywords that set limits and shares are
 * sacctmgr-keys.h's. Pure: no connection, tested alone
 * (tests/unit/sacctmgr-words-test.c). */
#ifndef GB_SACCTMGR_WORDS_H
#define GB_SACCTMGR_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum sacctmgr_verb {
	SACCTMGR_ADD,
	SACCTMGR_MODIFY,
	SACCTMGR_DELETE,
	SACCTMGR_SHOW,
};

enum sacctmgr_entity {
	SACCTMGR_ACCOUNT,
	SACCTMGR_USER,
	SACCTMGR_ASSOC,		/* show only */
};

/* What the words ask. Arrays and objects are new (sacctmgr_words_free);
 * strings are borrowed from the words. */
struct sacctmgr_words {
	enum sacctmgr_verb	 verb;
	enum sacctmgr_entity	 entity;
	json_t			*names;		/* accounts' or users' names */
	json_t			*accounts;	/* a user's Account=; show
						   assoc's Accounts= */
	json_t			*users;		/* show assoc's Users= */
	const char		*def_account;	/* DefaultAccount= */
	json_t			*set;		/* ASSOC's members to set */
	const char		*format;	/* show's Format=; NULL: none */
	bool			 withassoc;	/* show account|user WithAssoc */
	bool			 tree;		/* show assoc Tree */
};

/* What sacctmgr_words_parse returns besides 0. */
#define SACCTMGR_WORDS_USAGE		(-1)	/* wrong words (exit 2) */
#define SACCTMGR_WORDS_UNSUPPORTED	(-2)	/* Slurm's, not gbatch's */

/* Reads argv[0..argc) (the words after sacctmgr's options) into w.
 * Returns 0; SACCTMGR_WORDS_UNSUPPORTED for a command or entity of
 * Slurm's that gbatch's sacctmgr does not do (QOS, clusters, ...); or
 * SACCTMGR_WORDS_USAGE for words it cannot read (an unknown keyword, a
 * value out of range or that gbatch cannot hold, a form without a name).
 * err then says what was wrong and what is accepted, and w is empty. */
int	sacctmgr_words_parse(int argc, char **argv, struct sacctmgr_words *w,
	    char *err, size_t errlen);
/* Frees what w holds; a zeroed w is fine. */
void	sacctmgr_words_free(struct sacctmgr_words *w);

#endif
