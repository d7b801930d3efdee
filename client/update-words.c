/* update-words.c: an update's words (update-words.h). A job's
 * keys are Slurm's, their values gsub's: each key reads its value through
 * the gsub option that sets the same member of a request, so that
 * TimeLimit= takes what -t takes and NumNodes= what -N takes, with the
 * same bounds and the same words when they are wrong. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "client/jobspec.h"
#include "client/update-words.h"

/* A job's keys, and the gsub option whose forms each takes. */
static const struct {
	const char	*key;
	const char	*option;
} update_words_keys[] = {
	{ "TimeLimit", "time" },
	{ "Name", "job-name" },
	{ "JobName", "job-name" },
	{ "Comment", "comment" },
	{ "Dependency", "dependency" },
	{ "NumNodes", "nodes" },
	{ "Partition", "partition" },
	{ "QOS", "qos" },
	{ "Nice", "nice" },
	{ "Priority", "priority" },
	{ "Account", "account" },
	{ "StartTime", "begin" },
	{ "GPUs", "gpus" },
};
#define UPDATE_WORDS_NKEYS						\
	(sizeof update_words_keys / sizeof update_words_keys[0])

/* What a job takes, for messages. */
#define UPDATE_WORDS_JOB_KEYS					\
	"TimeLimit, Name (or JobName), Comment, Dependency, NumNodes, " \
	"Partition, QOS, Nice, Priority, Account, StartTime or GPUs"

/* The job's key k with value val, into u->set. */
static int
update_words_job(struct update_words *u, size_t k, const char *key,
    const char *val, char *err, size_t errlen)
{
	const char	*member;
	json_t		*v;
	char		 detail[512];

	/* A count alone: the job's GPU type stays what it asked. */
	if (strcmp(update_words_keys[k].option, "gpus") == 0 &&
	    strchr(val, ':') != NULL) {
		snprintf(err, errlen, "%s: expected a number of GPUs, got "
		    "\"%s\" (the job's GPU type stays)", key, val);
		return (-1);
	}
	/* Slurm's Dependency= with nothing waits for nothing. */
	if (strcmp(update_words_keys[k].option, "dependency") == 0 &&
	    *val == '\0') {
		member = "dependency";
		v = json_string("");
	} else if (jobspec_opt_value(update_words_keys[k].option, val,
	    &member, &v, detail, sizeof detail) == -1) {
		snprintf(err, errlen, "%s: %s", key, detail);
		return (-1);
	}
	if (json_object_get(u->set, member) != NULL) {
		json_decref(v);
		snprintf(err, errlen, "%s: the job's %s is given twice; expected "
		    "each key once", key, member);
		return (-1);
	}
	json_object_set_new(u->set, member, v);
	return (0);
}

/* The place of a key that names what is updated, or is a node's: JobId,
 * NodeName, State, Reason; NULL for another. */
static const char **
update_words_slot(struct update_words *u, const char *key)
{
	if (strcasecmp(key, "JobId") == 0)
		return (&u->jobs);
	if (strcasecmp(key, "NodeName") == 0)
		return (&u->node);
	if (strcasecmp(key, "State") == 0)
		return (&u->state);
	if (strcasecmp(key, "Reason") == 0)
		return (&u->reason);
	return (NULL);
}

/* Whether the keys read into u make one of update's forms. */
static int
update_words_form(const struct update_words *u, char *err,
    size_t errlen)
{
	bool	job = u->jobs != NULL || json_object_size(u->set) > 0;

	if (job && (u->node != NULL || u->state != NULL || u->reason != NULL))
		snprintf(err, errlen, "a job's keys and a node's exclude each "
		    "other; expected JobId=ID[,ID...] with %s, or "
		    "NodeName=NODE State=DRAIN|RESUME [Reason=TEXT]",
		    UPDATE_WORDS_JOB_KEYS);
	else if (job && u->jobs == NULL)
		snprintf(err, errlen, "expected JobId=ID[,ID...], the jobs "
		    "to change");
	else if (job && json_object_size(u->set) == 0)
		snprintf(err, errlen, "JobId=%s: expected what to change: %s",
		    u->jobs, UPDATE_WORDS_JOB_KEYS);
	else if (!job && (u->node == NULL || u->state == NULL))
		snprintf(err, errlen, "expected NodeName=NODE State=DRAIN|RESUME "
		    "[Reason=TEXT], or JobId=ID[,ID...] with %s",
		    UPDATE_WORDS_JOB_KEYS);
	else
		return (0);
	return (-1);
}

int
update_words_parse(int argc, char **argv, struct update_words *u,
    char *err, size_t errlen)
{
	const char	**slot, *eq;
	char		  key[32];
	size_t		  k;
	int		  i;

	memset(u, 0, sizeof *u);
	u->set = json_object();
	for (i = 0; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL) {
			snprintf(err, errlen, "expected KEY=VALUE, got \"%s\"",
			    argv[i]);
			goto fail;
		}
		snprintf(key, sizeof key, "%.*s", (int)(eq - argv[i]),
		    argv[i]);
		if ((slot = update_words_slot(u, key)) != NULL) {
			if (*slot != NULL) {
				snprintf(err, errlen, "%s is given twice; "
				    "expected each key once", key);
				goto fail;
			}
			*slot = eq + 1;
			continue;
		}
		for (k = 0; k < UPDATE_WORDS_NKEYS; k++) {
			if (strcasecmp(key, update_words_keys[k].key) == 0)
				break;
		}
		if (k == UPDATE_WORDS_NKEYS) {
			snprintf(err, errlen, "unknown key \"%s\"; a job takes "
			    "%s, a node State and Reason", key,
			    UPDATE_WORDS_JOB_KEYS);
			goto fail;
		}
		if (update_words_job(u, k, key, eq + 1, err, errlen) == -1)
			goto fail;
	}
	if (update_words_form(u, err, errlen) == -1)
		goto fail;
	return (0);
fail:
	update_words_free(u);
	return (-1);
}

void
update_words_free(struct update_words *u)
{
	json_decref(u->set);
	memset(u, 0, sizeof *u);
}
