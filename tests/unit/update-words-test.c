/* update-words-test.c: scontrol update's KEY=VALUE words read into
 * JOB_UPDATE's set (slurm/update-words.c): Slurm's keys in any case,
 * each value in gsub's forms and bounds (common/job-req.h), each key once,
 * a job's keys or a node's, and words that say what is accepted. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "client/update-words.h"
#include "tests/unit/tap.h"

/* Splits in on spaces into argv (kept in buf). Returns argc. */
static int
t_words(const char *in, char *buf, size_t len, char **argv, int max)
{
	int	argc = 0;

	snprintf(buf, len, "%s", in);
	for (argv[argc] = strtok(buf, " "); argv[argc] != NULL &&
	    argc < max - 1; argv[++argc] = strtok(NULL, " "))
		;
	return (argc);
}

/* in is read into jobs and set, set's members as JSON text (compact,
 * keys sorted). */
static void
t_job(const char *in, const char *jobs, const char *set)
{
	struct update_words	 u;
	char			 buf[512], *argv[16], err[512] = "", *got;
	int			 argc = t_words(in, buf, sizeof buf, argv, 16);

	if (update_words_parse(argc, argv, &u, err, sizeof err) != 0) {
		ok(0, "\"%s\" is read (%s)", in, err);
		return;
	}
	got = json_dumps(u.set, JSON_COMPACT | JSON_SORT_KEYS);
	ok(u.jobs != NULL && strcmp(u.jobs, jobs) == 0 && strcmp(got,
	    set) == 0 && u.node == NULL, "\"%s\": jobs %s, set %s (got %s, "
	    "%s)", in, jobs, set, u.jobs != NULL ? u.jobs : "none", got);
	free(got);
	update_words_free(&u);
}

/* in is refused with err holding part. */
static void
t_bad(const char *in, const char *part)
{
	struct update_words	 u;
	char			 buf[512], *argv[16], err[512] = "";
	int			 argc = t_words(in, buf, sizeof buf, argv, 16);
	int			 r;

	r = update_words_parse(argc, argv, &u, err, sizeof err);
	ok(r == -1 && strstr(err, part) != NULL && u.set == NULL,
	    "\"%s\" is refused saying \"%s\" (got %d, \"%s\")", in, part, r,
	    err);
	if (r == 0)
		update_words_free(&u);
}

int
main(void)
{
	struct update_words	 u;
	char			 buf[256], *argv[8], err[256];
	int			 argc;

	/* Each key, its value as gsub's option takes it. */
	t_job("JobId=5 TimeLimit=10", "5", "{\"time_limit\":600}");
	t_job("JobId=5 TimeLimit=1-00:30", "5", "{\"time_limit\":88200}");
	t_job("JobId=5 TimeLimit=UNLIMITED", "5", "{\"time_limit\":0}");
	t_job("JobId=5 Name=train", "5", "{\"name\":\"train\"}");
	t_job("JobId=5 JobName=train", "5", "{\"name\":\"train\"}");
	t_job("JobId=5 Comment=sweep-3", "5", "{\"comment\":\"sweep-3\"}");
	t_job("JobId=5 Comment=", "5", "{\"comment\":\"\"}");
	t_job("JobId=5 Dependency=afterok:3:4", "5",
	    "{\"dependency\":\"afterok:3:4\"}");
	t_job("JobId=5 Dependency=", "5", "{\"dependency\":\"\"}");
	t_job("JobId=5 NumNodes=2", "5", "{\"num_nodes\":2}");
	t_job("JobId=5 NumNodes=2-2", "5", "{\"num_nodes\":2}");
	t_job("JobId=5 Partition=gpu,long", "5",
	    "{\"partition\":\"gpu,long\"}");
	/* Several at once, keys in any case and any order, several jobs. */
	t_job("name=a COMMENT=b jobid=5,6_2 timelimit=10", "5,6_2",
	    "{\"comment\":\"b\",\"name\":\"a\",\"time_limit\":600}");

	/* Values as gsub refuses them, with the bounds of the request. */
	t_bad("JobId=5 TimeLimit=soon", "TimeLimit: ");
	t_bad("JobId=5 TimeLimit=soon", "\"soon\"");
	t_bad("JobId=5 TimeLimit=9000:00:00", "UNLIMITED for no limit");
	t_bad("JobId=5 TimeLimit=400-0", "TimeLimit: days: expected 0-365");
	t_bad("JobId=5 Name=", "Name: expected 1 to 256 printable");
	t_bad("JobId=5 NumNodes=0", "NumNodes: expected a whole number from "
	    "1 to 1024");
	t_bad("JobId=5 NumNodes=1025", "from 1 to 1024");
	t_bad("JobId=5 NumNodes=2-4", "is a range; gbatch gives a job an "
	    "exact number of nodes");
	t_bad("JobId=5 NumNodes=two", "got \"two\"");
	t_bad("JobId=5 Partition=gpu,", "Partition: expected partition names");
	t_bad("JobId=5 Dependency=afterok", "Dependency: afterok: expected");
	t_bad("JobId=5 Dependency=afterok:1,after:2?after:3",
	    "',' (all) and '?' (any)");
	/* Each key once; Name and JobName are one. */
	t_bad("JobId=5 Name=a JobName=b", "JobName: the job's name is given "
	    "twice");
	t_bad("JobId=5 JobId=6 Name=a", "JobId is given twice");
	/* Keys gbatch does not have, and forms that are not update's. */
	t_bad("JobId=5 Features=a", "unknown key \"Features\"; a job "
	    "takes TimeLimit, Name (or JobName), Comment, Dependency, "
	    "NumNodes, Partition, QOS, Nice, Priority, Account, "
	    "StartTime or GPUs, a node State and Reason");
	t_bad("JobId=5 GPUs=a100:2", "GPUs: expected a number of GPUs, got "
	    "\"a100:2\" (the job's GPU type stays)");
	t_bad("JobId=5 Nice=x", "Nice: expected a whole number from -10000 "
	    "to 10000, got \"x\"");
	t_bad("JobId=5 QOS=a,b", "QOS: expected 1 to 64 letters");
	t_bad("JobId=5 Name", "expected KEY=VALUE, got \"Name\"");
	t_bad("JobId=5", "JobId=5: expected what to change: TimeLimit");
	t_bad("Name=a", "expected JobId=ID[,ID...], the jobs to change");
	t_bad("JobId=5 Name=a NodeName=n1", "a job's keys and a node's "
	    "exclude each other");
	t_bad("NodeName=n1", "expected NodeName=NODE State=DRAIN|RESUME");
	t_bad("", "expected NodeName=NODE State=DRAIN|RESUME [Reason=TEXT], "
	    "or JobId=ID[,ID...] with");

	/* A node's form, its values for the caller to check. */
	argc = t_words("nodename=n1 State=drain Reason=disk", buf, sizeof buf,
	    argv, 8);
	ok(update_words_parse(argc, argv, &u, err, sizeof err) == 0 &&
	    u.jobs == NULL && strcmp(u.node, "n1") == 0 &&
	    strcmp(u.state, "drain") == 0 && strcmp(u.reason, "disk") == 0 &&
	    json_object_size(u.set) == 0, "a node's keys are read as given");
	update_words_free(&u);
	return (tap_done());
}
