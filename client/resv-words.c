/* resv-words.c: a reservation's words (resv-words.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/resv-words.h"
#include "client/when.h"
#include "common/duration.h"
#include "common/hostlist.h"
#include "common/label.h"
#include "common/proto.h"
#include "common/safe-text.h"

/* The longest a reservation may last (gbatchd's RESV_MAX_DURATION). */
#define RESV_WORDS_MAX_DURATION	(UINT64_C(365) * 86400)
/* The most GPUs a reservation may hold (gbatchd's bound). */
#define RESV_WORDS_MAX_GPUS	65536

/* Each key's member of set, and its name in messages. */
static const char *const resv_words_members[] = {
	[RESV_WORDS_NAME] = "name",
	[RESV_WORDS_START] = "start_time",
	[RESV_WORDS_END] = "end_time",
	[RESV_WORDS_DURATION] = "duration",
	[RESV_WORDS_NODES] = "nodes",
	[RESV_WORDS_GPUS] = "gpus",
	[RESV_WORDS_USERS] = "users",
	[RESV_WORDS_ACCOUNTS] = "accounts",
	[RESV_WORDS_FLAGS] = "flags",
};

/* The key given already that key may not go with, or -1. */
static int
resv_words_clash(const json_t *set, enum resv_words_key key)
{
	if (key == RESV_WORDS_END && json_object_get(set, "duration") != NULL)
		return (RESV_WORDS_DURATION);
	if (key == RESV_WORDS_DURATION &&
	    json_object_get(set, "end_time") != NULL)
		return (RESV_WORDS_END);
	if (key == RESV_WORDS_NODES && json_object_get(set, "gpus") != NULL)
		return (RESV_WORDS_GPUS);
	if (key == RESV_WORDS_GPUS && json_object_get(set, "nodes") != NULL)
		return (RESV_WORDS_NODES);
	return (-1);
}

/* names joined by ',': labels, none negated (Slurm's -NAME). */
static int
resv_words_names(const char *what, const char *val, char *err,
    size_t errlen)
{
	char	safe[128];

	if (*val == '-' || strstr(val, ",-") != NULL) {
		snprintf(err, errlen, "%s: Slurm's -NAME (all but NAME) is not "
		    "taken; name those the reservation is for", what);
		return (-1);
	}
	if (strlen(val) > 1024 || !label_list_ok(val)) {
		snprintf(err, errlen, "%s: expected names joined by ',' (each 1 "
		    "to %d letters, digits, '.', '-' or '_'), got \"%s\"", what,
		    LABEL_MAX, safe_text_str(val, safe, sizeof safe));
		return (-1);
	}
	return (0);
}

int
resv_words_put(json_t *set, const char **name, enum resv_words_key key,
    const char *val, time_t now, char *err, size_t errlen)
{
	const char	*member = resv_words_members[key];
	char		 e[256], safe[128], **names, *end;
	uint64_t	 secs;
	unsigned long	 n;
	size_t		 nn;
	time_t		 t;
	int		 other;

	if ((key == RESV_WORDS_NAME && *name != NULL) ||
	    (key != RESV_WORDS_NAME && json_object_get(set, member) != NULL)) {
		snprintf(err, errlen, "%s: given twice; expected each once",
		    member);
		return (-1);
	}
	if ((other = resv_words_clash(set, key)) != -1) {
		snprintf(err, errlen, "%s: %s is given already; expected one of "
		    "them", member, resv_words_members[other]);
		return (-1);
	}
	switch (key) {
	case RESV_WORDS_NAME:
		if (!label_ok(val)) {
			snprintf(err, errlen, "name: expected 1 to %d letters, "
			    "digits, '.', '-' or '_', got \"%s\"", LABEL_MAX,
			    safe_text_str(val, safe, sizeof safe));
			return (-1);
		}
		*name = val;
		return (0);
	case RESV_WORDS_START:
	case RESV_WORDS_END:
		if (when_parse_next(val, now, &t, e, sizeof e) != 0) {
			snprintf(err, errlen, "%s: %s", member, e);
			return (-1);
		}
		if (t < 0) {
			snprintf(err, errlen, "%s: before 1970", member);
			return (-1);
		}
		json_object_set_new(set, member, json_integer(t));
		return (0);
	case RESV_WORDS_DURATION:
		if (duration_parse(val, RESV_WORDS_MAX_DURATION, &secs, e,
		    sizeof e) != 0) {
			snprintf(err, errlen, "duration: %s", e);
			return (-1);
		}
		if (secs == 0) {
			snprintf(err, errlen, "duration: a reservation ends; "
			    "expected minutes or [D-]H:M[:S] of 365 days at "
			    "most, got \"%s\"", safe_text_str(val, safe,
			    sizeof safe));
			return (-1);
		}
		json_object_set_new(set, member, json_integer((json_int_t)secs));
		return (0);
	case RESV_WORDS_NODES:
		if (hostlist_expand(val, &names, &nn, e, sizeof e) != 0) {
			snprintf(err, errlen, "nodes: %s", e);
			return (-1);
		}
		hostlist_free(names, nn);
		if (nn == 0) {
			snprintf(err, errlen, "nodes: expected a host list, as "
			    "\"n[1-4],gpu7\"");
			return (-1);
		}
		break;
	case RESV_WORDS_GPUS:
		errno = 0;
		n = strtoul(val, &end, 10);
		if (*val < '0' || *val > '9' || *end != '\0' || errno != 0 ||
		    n < 1 || n > RESV_WORDS_MAX_GPUS) {
			snprintf(err, errlen, "gpus: expected a number of GPUs "
			    "from 1 to %d, got \"%s\"", RESV_WORDS_MAX_GPUS,
			    safe_text_str(val, safe, sizeof safe));
			return (-1);
		}
		json_object_set_new(set, member, json_integer((json_int_t)n));
		return (0);
	case RESV_WORDS_USERS:
	case RESV_WORDS_ACCOUNTS:
		if (resv_words_names(member, val, err, errlen) != 0)
			return (-1);
		break;
	case RESV_WORDS_FLAGS:
		if (*val == '\0' || strlen(val) > 256) {
			snprintf(err, errlen, "flags: expected MAINT or "
			    "IGNORE_JOBS, joined by ','");
			return (-1);
		}
		break;
	}
	json_object_set_new(set, member, json_string(val));
	return (0);
}

/* Slurm's reservation keywords: the key each is, or why gbatch does not
 * take it (key -1). */
static const struct {
	const char	*word;
	int		 key;
	const char	*why;
} resv_words_slurm_keys[] = {
	{ "ReservationName", RESV_WORDS_NAME, NULL },
	{ "Reservation", RESV_WORDS_NAME, NULL },
	{ "StartTime", RESV_WORDS_START, NULL },
	{ "EndTime", RESV_WORDS_END, NULL },
	{ "Duration", RESV_WORDS_DURATION, NULL },
	{ "Nodes", RESV_WORDS_NODES, NULL },
	{ "NodeList", RESV_WORDS_NODES, NULL },
	{ "Users", RESV_WORDS_USERS, NULL },
	{ "Accounts", RESV_WORDS_ACCOUNTS, NULL },
	{ "Flags", RESV_WORDS_FLAGS, NULL },
	{ "NodeCnt", -1, "gbatch reserves nodes by name (Nodes=) or by GPUs "
	    "(TRES=gres/gpu=N)" },
	{ "CoreCnt", -1, "a reservation holds whole nodes" },
	{ "PartitionName", -1, "a reservation names its nodes; give Nodes=" },
	{ "Partition", -1, "a reservation names its nodes; give Nodes=" },
	{ "Features", -1, "gbatch has no node features; give Nodes=" },
	{ "Licenses", -1, "gbatch has no licenses" },
	{ "BurstBuffer", -1, "gbatch has no burst buffers" },
	{ "Watts", -1, "gbatch does not reserve power" },
	{ "Groups", -1, "give Users= or Accounts=" },
	{ "MaxStartDelay", -1, "a reservation's nodes are its jobs' alone" },
	{ "Comment", -1, "a reservation has no comment" },
	{ "QOS", -1, "give Users= or Accounts=" },
	{ "AllowedPartitions", -1, "give Users= or Accounts=" },
};
#define RESV_WORDS_NSLURM						\
	(sizeof resv_words_slurm_keys / sizeof resv_words_slurm_keys[0])

/* TRES=gres/gpu=N (Slurm's way to reserve GPUs): N. */
static int
resv_words_tres(const char *val, const char **gpus, char *err, size_t errlen)
{
	char	safe[128];

	if (strncasecmp(val, "gres/gpu=", 9) == 0 && strchr(val + 9, ',') ==
	    NULL) {
		*gpus = val + 9;
		return (0);
	}
	snprintf(err, errlen, "TRES: expected gres/gpu=N (whole nodes holding "
	    "N GPUs), got \"%s\"", safe_text_str(val, safe, sizeof safe));
	return (-1);
}

int
resv_words_slurm(int argc, char **argv, time_t now, const char **name,
    json_t *set, char *err, size_t errlen)
{
	const char	*eq, *val;
	char		 key[32], safe[128];
	size_t		 len, k;
	int		 i;

	*name = NULL;
	for (i = 0; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL || eq == argv[i] ||
		    (len = (size_t)(eq - argv[i])) >= sizeof key) {
			snprintf(err, errlen, "\"%s\": expected KEY=VALUE, as "
			    "StartTime=now Duration=60 Nodes=n1 Users=root",
			    safe_text_str(argv[i], safe, sizeof safe));
			return (-1);
		}
		memcpy(key, argv[i], len);
		key[len] = '\0';
		val = eq + 1;
		if (strcasecmp(key, "TRES") == 0) {
			if (resv_words_tres(val, &val, err, errlen) != 0 ||
			    resv_words_put(set, name, RESV_WORDS_GPUS, val,
			    now, err, errlen) != 0)
				return (-1);
			continue;
		}
		for (k = 0; k < RESV_WORDS_NSLURM; k++) {
			if (strcasecmp(key, resv_words_slurm_keys[k].word) == 0)
				break;
		}
		if (k == RESV_WORDS_NSLURM) {
			snprintf(err, errlen, "%s: unknown key; expected "
			    "ReservationName, StartTime, EndTime, Duration, "
			    "Nodes, TRES=gres/gpu=N, Users, Accounts or Flags",
			    safe_text_str(key, safe, sizeof safe));
			return (-1);
		}
		if (resv_words_slurm_keys[k].key < 0) {
			snprintf(err, errlen, "%s: not taken by gbatch (%s)",
			    resv_words_slurm_keys[k].word,
			    resv_words_slurm_keys[k].why);
			return (-1);
		}
		if (resv_words_put(set, name,
		    (enum resv_words_key)resv_words_slurm_keys[k].key, val,
		    now, err, errlen) != 0)
			return (-1);
	}
	return (0);
}

json_t *
resv_words_request(const char *action, const char *name, json_t *set)
{
	json_t	*req = proto_msg(MSG_RESV);

	json_object_set_new(req, "action", json_string(action));
	if (name != NULL)
		json_object_set_new(req, "name", json_string(name));
	if (set != NULL && json_object_size(set) > 0)
		json_object_set(req, "set", set);
	json_decref(set);
	return (req);
}
