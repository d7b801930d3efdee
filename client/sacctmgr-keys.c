/* sacctmgr-keys.c: Slurm's association keywords and their values
 * (sacctmgr-keys.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/assoc-words.h"
#include "client/sacctmgr-keys.h"
#include "common/duration.h"
#include "common/job-req.h"

bool
sacctmgr_keys_is(const char *word, const char *full, size_t min)
{
	size_t	len = strlen(word);

	return (len >= min && len <= strlen(full) &&
	    strncasecmp(word, full, len) == 0);
}

/* How a keyword's value becomes its member's. */
enum sacctmgr_keys_conv {
	SACCTMGR_KEYS_TEXT,
	SACCTMGR_KEYS_PARENT,		/* root: the top */
	SACCTMGR_KEYS_SHARES,
	SACCTMGR_KEYS_COUNT,		/* -1: no limit; 0 refused */
	SACCTMGR_KEYS_TRES,		/* gres/gpu=N */
	SACCTMGR_KEYS_TRESMINS,	/* gres/gpu=MINUTES, to GPU-hours */
	SACCTMGR_KEYS_TIME,		/* -1 or UNLIMITED: no limit */
};

/* The keywords set takes, in the order Slurm tries them; the member of
 * each for an account and for a user's association, or why there is
 * none. */
static const struct sacctmgr_key {
	const char			*key;
	size_t				 min;
	const char			*shown;	/* listed as; NULL: not */
	enum sacctmgr_keys_conv	 conv;
	const char			*acct;
	const char			*user;
	const char			*why_not;
} sacctmgr_keys_table[] = {
	{ "Description", 3, "Description", SACCTMGR_KEYS_TEXT,
	    "description", NULL, "a user's association has no description; "
	    "its account has" },
	{ "Fairshare", 1, "Fairshare", SACCTMGR_KEYS_SHARES, "shares",
	    "shares", NULL },
	{ "Shares", 1, NULL, SACCTMGR_KEYS_SHARES, "shares", "shares",
	    NULL },
	{ "GrpJobs", 4, "GrpJobs", SACCTMGR_KEYS_COUNT, "max_jobs",
	    "max_jobs", NULL },
	{ "GrpSubmitJobs", 4, "GrpSubmitJobs", SACCTMGR_KEYS_COUNT,
	    "max_pending", "max_pending", NULL },
	{ "GrpTRES", 7, "GrpTRES", SACCTMGR_KEYS_TRES, "max_gpus",
	    "max_gpus", NULL },
	{ "GrpTRESMins", 8, "GrpTRESMins", SACCTMGR_KEYS_TRESMINS,
	    "gpu_hours", NULL, "gbatch keeps a GPU-hour budget on accounts "
	    "alone" },
	{ "MaxJobs", 4, "MaxJobs", SACCTMGR_KEYS_COUNT, NULL, "max_jobs",
	    "on an account Slurm's MaxJobs limits each of its users, which "
	    "gbatch sets on each user (modify user NAME set MaxJobs=N); an "
	    "account's own limit is GrpJobs" },
	{ "MaxSubmitJobs", 4, "MaxSubmitJobs", SACCTMGR_KEYS_COUNT, NULL,
	    "max_pending", "on an account Slurm's MaxSubmitJobs limits each "
	    "of its users, which gbatch sets on each user (modify user NAME "
	    "set MaxSubmitJobs=N); an account's own limit is GrpSubmitJobs" },
	{ "MaxWallDurationPerJob", 4, "MaxWall", SACCTMGR_KEYS_TIME,
	    "max_time", "max_time", NULL },
	{ "Parent", 2, "Parent", SACCTMGR_KEYS_PARENT, "parent", NULL,
	    "a user's association has no parent; its account has" },
};
#define SACCTMGR_KEYS_N						\
	(sizeof sacctmgr_keys_table / sizeof sacctmgr_keys_table[0])

/* A whole number for key from 1 to max, or -1 for no limit (0): Slurm's
 * 0 lets nothing run, which gbatch's 0 (no limit) would turn around. */
static int
sacctmgr_keys_count(const char *key, const char *val, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	unsigned long long	 n;
	char			*end;

	if (strcmp(val, "-1") == 0) {
		*out = 0;
		return (0);
	}
	errno = 0;
	n = strtoull(val, &end, 10);
	if (*val < '0' || *val > '9' || *end != '\0' || errno != 0 ||
	    n > max) {
		snprintf(err, errlen, "%s: expected a whole number from 1 to "
		    "%llu, or -1 for no limit, got \"%s\"", key,
		    (unsigned long long)max, val);
		return (-1);
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: 0 lets no job run in Slurm, a limit "
		    "gbatch cannot hold; expected 1 to %llu, or -1 for no "
		    "limit", key, (unsigned long long)max);
		return (-1);
	}
	*out = n;
	return (0);
}

/* GrpTRES's and GrpTRESMins's list: its gres/gpu=N, the one TRES gbatch
 * limits, as a count up to max. */
static int
sacctmgr_keys_tres(const char *key, const char *val, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	char	*copy, *item, *next, *eq;
	bool	 found = false;
	int	 r = -1;

	copy = strdup(val);
	if (copy == NULL)
		abort();
	for (item = copy; item != NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			snprintf(err, errlen, "%s: \"%s\": expected gres/gpu=N",
			    key, item);
			goto out;
		}
		*eq = '\0';
		if (strncasecmp(item, "gres/gpu:", 9) == 0) {
			snprintf(err, errlen, "%s: %s: gbatch limits GPUs of "
			    "every type together; expected gres/gpu=N", key,
			    item);
			goto out;
		}
		if (strcasecmp(item, "gres/gpu") != 0) {
			snprintf(err, errlen, "%s: %s: gbatch limits GPUs alone; "
			    "expected gres/gpu=N", key, item);
			goto out;
		}
		if (found) {
			snprintf(err, errlen, "%s: gres/gpu given twice", key);
			goto out;
		}
		found = true;
		if (sacctmgr_keys_count(key, eq + 1, max, out, err,
		    errlen) != 0)
			goto out;
	}
	r = 0;
out:
	free(copy);
	return (r);
}

int
sacctmgr_keys_put(json_t *set, const struct sacctmgr_key *k, int of,
    const char *key, const char *val, char *err, size_t errlen)
{
	const struct assoc_words_member	*m;
	const char			*member = of == ASSOC_WORDS_USER ?
					    k->user : k->acct;
	uint64_t			 v;
	char				 detail[256];

	if (member == NULL) {
		snprintf(err, errlen, "%s: %s", key, k->why_not);
		return (-1);
	}
	if (json_object_get(set, member) != NULL) {
		snprintf(err, errlen, "%s: the %s's %s is given twice; expected "
		    "it once", key, of == ASSOC_WORDS_USER ? "user" : "account",
		    member);
		return (-1);
	}
	m = assoc_words_find(member, of);
	switch (k->conv) {
	case SACCTMGR_KEYS_TEXT:
		if (assoc_words_put(set, m, val, detail, sizeof detail) != 0)
			goto bad;
		return (0);
	case SACCTMGR_KEYS_PARENT:
		if (*val == '\0') {
			snprintf(err, errlen, "%s: expected an account's name, or "
			    "root for the top", key);
			return (-1);
		}
		return (assoc_words_put(set, m, strcasecmp(val, "root") == 0 ?
		    "" : val, err, errlen));
	case SACCTMGR_KEYS_SHARES:
		if (of == ASSOC_WORDS_USER) {
			if (strcasecmp(val, "parent") == 0)
				return (0);
			snprintf(err, errlen, "%s: a user's association has no "
			    "share of its own in gbatch (its jobs count as its "
			    "account's, Slurm's Fairshare=parent); set its "
			    "account's", key);
			return (-1);
		}
		if (strcasecmp(val, "parent") == 0) {
			snprintf(err, errlen, "%s: a gbatch account has shares "
			    "of its own; expected a whole number from 1 to %llu",
			    key, ASSOC_WORDS_COUNT_MAX);
			return (-1);
		}
		if (assoc_words_put(set, m, val, detail, sizeof detail) != 0)
			goto bad;
		return (0);
	case SACCTMGR_KEYS_COUNT:
		if (sacctmgr_keys_count(key, val, ASSOC_WORDS_COUNT_MAX, &v,
		    err, errlen) != 0)
			return (-1);
		break;
	case SACCTMGR_KEYS_TRES:
		if (sacctmgr_keys_tres(key, val, ASSOC_WORDS_COUNT_MAX, &v,
		    err, errlen) != 0)
			return (-1);
		break;
	case SACCTMGR_KEYS_TRESMINS:
		if (sacctmgr_keys_tres(key, val, ASSOC_WORDS_COUNT_MAX *
		    60, &v, err, errlen) != 0)
			return (-1);
		/* GPU-minutes are whole GPU-seconds, which gbatchd keeps
		 * its budget in: exactly, as GPU-hours with a fraction. */
		if (assoc_words_put_budget(set, v * 60, detail,
		    sizeof detail) != 0)
			goto bad;
		return (0);
	case SACCTMGR_KEYS_TIME:
		if (strcmp(val, "-1") == 0 || strcasecmp(val, "UNLIMITED") ==
		    0 || strcasecmp(val, "INFINITE") == 0) {
			v = 0;
			break;
		}
		if (duration_parse(val, JOB_REQ_MAX_TIME, &v, detail,
		    sizeof detail) != 0)
			goto bad;
		if (v == 0) {
			snprintf(err, errlen, "%s: 0 lets no job run in Slurm, a "
			    "limit gbatch cannot hold; expected a time, or -1 "
			    "for no limit", key);
			return (-1);
		}
		break;
	}
	if (assoc_words_put_int(set, m, v, detail, sizeof detail) != 0)
		goto bad;
	return (0);
bad:
	/* assoc-words names the member; the user wrote the keyword. */
	snprintf(err, errlen, "%s: %s", key, strchr(detail, ':') != NULL ?
	    strchr(detail, ':') + 2 : detail);
	return (-1);
}

const struct sacctmgr_key *
sacctmgr_keys_find(const char *key)
{
	size_t	i;

	for (i = 0; i < SACCTMGR_KEYS_N; i++) {
		if (sacctmgr_keys_is(key, sacctmgr_keys_table[i].key,
		    sacctmgr_keys_table[i].min))
			return (&sacctmgr_keys_table[i]);
	}
	return (NULL);
}

char *
sacctmgr_keys_names(int of, char *buf, size_t len)
{
	const char	*member;
	size_t		 i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < SACCTMGR_KEYS_N && used < len; i++) {
		member = of == ASSOC_WORDS_USER ? sacctmgr_keys_table[i].user :
		    sacctmgr_keys_table[i].acct;
		if (member != NULL && sacctmgr_keys_table[i].shown != NULL)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			    used > 0 ? ", " : "", sacctmgr_keys_table[i].shown);
	}
	return (buf);
}

const char *
sacctmgr_keys_key(const char *member, int of)
{
	const struct sacctmgr_key	*k;
	const char			*m;
	size_t				 i;
	int				 pass;

	/* A user's own keywords (MaxJobs) before those it shares with an
	 * account (GrpJobs). */
	for (pass = of == ASSOC_WORDS_USER ? 0 : 1; pass < 2; pass++) {
		for (i = 0; i < SACCTMGR_KEYS_N; i++) {
			k = &sacctmgr_keys_table[i];
			m = of == ASSOC_WORDS_USER ? k->user : k->acct;
			if (m != NULL && k->shown != NULL && strcmp(m, member) ==
			    0 && (pass == 1 || k->acct == NULL))
				return (k->shown);
		}
	}
	return (NULL);
}
