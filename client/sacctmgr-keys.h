/* sacctmgr-keys.h: the keywords of Slurm's sacctmgr that set an
 * account's or a user's association's limits and shares (sacctmgr-keys.c),
 * each mapped to the member ASSOC sets (assoc-words.h) and its value
 * converted: Fairshare to shares, GrpJobs and a user's MaxJobs to
 * max_jobs, GrpSubmitJobs and a user's MaxSubmitJobs to max_pending,
 * GrpTRES's gres/gpu to max_gpus, MaxWall to max_time (seconds),
 * GrpTRESMins's GPU-minutes to gpu_hours (exactly: gbatchd keeps a
 * budget to the GPU-second, and a fraction of an hour goes as one), Parent
 * root to the top. Slurm's -1 clears a limit (gbatch's 0); Slurm's 0, a
 * limit that lets nothing run, gbatch cannot hold and is refused. Pure;
 * tested with sacctmgr-words (tests/unit/sacctmgr-words-test.c). */
#ifndef GB_SACCTMGR_KEYS_H
#define GB_SACCTMGR_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct sacctmgr_key;

/* Whether word is full or Slurm's abbreviation of it (a prefix of at
 * least min characters), in any case: sacctmgr's rule for every word it
 * reads, commands and entities too. */
bool	sacctmgr_keys_is(const char *word, const char *full, size_t min);

/* The keyword key names: Slurm's spelling, in any case, or its
 * abbreviation (sacctmgr_keys_is); NULL for none. Static. */
const struct sacctmgr_key *sacctmgr_keys_find(const char *key);

/* Reads val, the value a word gave keyword k as key (the user's
 * spelling, which messages name), into set: the member k sets on an
 * account (of ASSOC_WORDS_ACCOUNT) or a user's association
 * (ASSOC_WORDS_USER). Returns 0, or -1 with err: a keyword that kind has
 * not (saying why, and what to use), a value out of range or that gbatch
 * cannot hold, a member already set. */
int	sacctmgr_keys_put(json_t *set, const struct sacctmgr_key *k, int of,
	    const char *key, const char *val, char *err, size_t errlen);

/* The keywords of's kind takes, as a reader is told them
 * ("Description, Fairshare, ..."), into buf. Returns buf. */
char	*sacctmgr_keys_names(int of, char *buf, size_t len);

/* Slurm's keyword for a member of of's kind, as sacctmgr names a setting:
 * "GrpTRES" for max_gpus, "MaxJobs" for a user's max_jobs. Static; NULL
 * for a member Slurm has no keyword for. */
const char *sacctmgr_keys_key(const char *member, int of);

#endif
