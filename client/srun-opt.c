/* srun-opt.c: srun's own options (srun-opt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/srun-opt.h"
#include "common/job-req.h"

/* What srun's own options do in gbatch. */
enum srun_opt_do {
	SRUN_ACCEPT,		/* what gbatch does anyway: taken, removed */
	SRUN_MPI,		/* --mpi: none is taken, the rest refused */
	SRUN_LABEL,		/* --label: noted (a step's, srun_step.h) */
	SRUN_UNBUFFERED,	/* --unbuffered: noted (a step's) */
	SRUN_KILL,		/* --kill-on-bad-exit[=0|1]: noted */
	SRUN_REFUSE,		/* refused with why */
};

static const struct {
	const char	*name;
	int		 short_opt;
	int		 has_arg;
	enum srun_opt_do what;
	const char	*says;
} srun_opts[] = {
	{ "cpu-bind", 0, required_argument, SRUN_ACCEPT, NULL },
	{ "cpu_bind", 0, required_argument, SRUN_ACCEPT, NULL },
	{ "kill-on-bad-exit", 'K', optional_argument, SRUN_KILL, NULL },
	{ "overlap", 0, no_argument, SRUN_ACCEPT, NULL },
	{ "exact", 0, no_argument, SRUN_ACCEPT, NULL },
	{ "whole", 0, no_argument, SRUN_ACCEPT, NULL },
	{ "unbuffered", 'u', no_argument, SRUN_UNBUFFERED, NULL },
	{ "mpi", 0, required_argument, SRUN_MPI, NULL },
	{ "label", 'l', no_argument, SRUN_LABEL, NULL },
	{ "multi-prog", 0, no_argument, SRUN_REFUSE, "gbatch runs the same "
	    "command in every task; branch on SLURM_PROCID in it" },
};
#define SRUN_NOPTS	(sizeof srun_opts / sizeof srun_opts[0])

/* Reads a count of 1 to max for what, into *out. */
static int
srun_opt_count(const char *what, const char *arg, unsigned max,
    unsigned *out, char *err, size_t errlen)
{
	char	*end;
	long	 v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v < 1 || v > (long)max) {
		snprintf(err, errlen, "%s: expected a whole number from 1 to "
		    "%u, got \"%s\"", what, max, arg);
		return (-1);
	}
	*out = (unsigned)v;
	return (0);
}

/* Whether jobspec's option word (without its dashes; a long name or a
 * letter) takes a value in the next word. */
static int
srun_opt_jobspec_value(const char *name, size_t len, int letter,
    const struct option *longopts, const char *shortopts)
{
	const char	*p;
	size_t		 i;

	if (letter != 0) {
		p = strchr(shortopts, letter);
		return (p != NULL && p[1] == ':' && p[2] != ':');
	}
	for (i = 0; longopts[i].name != NULL; i++) {
		if (strlen(longopts[i].name) == len &&
		    strncmp(longopts[i].name, name, len) == 0)
			return (longopts[i].has_arg == required_argument);
	}
	return (0);
}

/* The row of srun's own option named name (len bytes, a long name) or
 * letter (not 0: a short one), or -1. */
static int
srun_opt_row(const char *name, size_t len, int letter)
{
	size_t	k;

	for (k = 0; k < SRUN_NOPTS; k++) {
		if (letter != 0 ? srun_opts[k].short_opt == letter :
		    strlen(srun_opts[k].name) == len &&
		    strncmp(srun_opts[k].name, name, len) == 0)
			return ((int)k);
	}
	return (-1);
}

int
srun_opt_take(int *argc, char **argv, const struct option *longopts,
    const char *shortopts, bool step, struct srun_opt *o, char *err,
    size_t errlen)
{
	const char	*w, *eq, *val;
	size_t		 len;
	int		 i = 1, k, out = 1, letter, drop, skip;

	memset(o, 0, sizeof *o);
	while (i < *argc) {
		w = argv[i];
		if (strcmp(w, "--") == 0 || w[0] != '-' || w[1] == '\0')
			break;
		letter = w[1] != '-' ? (unsigned char)w[1] : 0;
		eq = letter == 0 ? strchr(w + 2, '=') : NULL;
		len = letter == 0 ? (eq != NULL ? (size_t)(eq - w - 2) :
		    strlen(w + 2)) : 1;
		/* The value: after '=', joined to a letter, or the next
		 * word for an option that requires one. */
		val = eq != NULL ? eq + 1 : letter != 0 && w[2] != '\0' ?
		    w + 2 : NULL;
		drop = 0;
		skip = 0;
		if ((k = srun_opt_row(w + 2, len, letter)) >= 0) {
			if (val == NULL && srun_opts[k].has_arg ==
			    required_argument) {
				if (i + 1 >= *argc) {
					snprintf(err, errlen, "--%s: expected a "
					    "value", srun_opts[k].name);
					return (-1);
				}
				val = argv[i + 1];
				skip = 1;
			}
			if (srun_opts[k].what == SRUN_REFUSE) {
				snprintf(err, errlen, "--%s: %s",
				    srun_opts[k].name, srun_opts[k].says);
				return (-1);
			}
			if (srun_opts[k].what == SRUN_MPI &&
			    strcmp(val, "none") != 0) {
				snprintf(err, errlen, "--mpi=%s: gbatch starts no "
				    "PMI server; each task gets RANK, WORLD_SIZE, "
				    "LOCAL_RANK, MASTER_ADDR and MASTER_PORT "
				    "(torch's env://): give --mpi=none or leave "
				    "it out", val);
				return (-1);
			}
			if (srun_opts[k].what == SRUN_LABEL)
				o->label = true;
			if (srun_opts[k].what == SRUN_UNBUFFERED)
				o->unbuffered = true;
			if (srun_opts[k].what == SRUN_KILL)
				o->kill_on_bad_exit = val == NULL ||
				    strcmp(val, "0") != 0;
			drop = 1;
		} else {
			if (val == NULL && srun_opt_jobspec_value(w + 2, len,
			    letter, longopts, shortopts) && i + 1 < *argc) {
				val = argv[i + 1];
				skip = 1;
			}
			if ((letter == 'n' || (letter == 0 && len == 6 &&
			    strncmp(w + 2, "ntasks", 6) == 0)) && val != NULL) {
				if (srun_opt_count("--ntasks", val,
				    JOB_REQ_MAX_TASKS, &o->ntasks, err,
				    errlen) == -1)
					return (-1);
				drop = step;
			}
			if ((letter == 'N' || (letter == 0 && len == 5 &&
			    strncmp(w + 2, "nodes", 5) == 0)) && val != NULL) {
				if (srun_opt_count("--nodes", val,
				    JOB_REQ_MAX_NODES, &o->nodes, err,
				    errlen) == -1)
					return (-1);
				drop = step;
			}
			if (step && letter == 0 && len == 15 &&
			    strncmp(w + 2, "ntasks-per-node", 15) == 0 &&
			    val != NULL) {
				if (srun_opt_count("--ntasks-per-node", val,
				    JOB_REQ_MAX_TASKS, &o->tasks_per_node, err,
				    errlen) == -1)
					return (-1);
				drop = 1;
			}
			if (step && val != NULL && (letter == 'o' ||
			    (letter == 0 && len == 6 &&
			    strncmp(w + 2, "output", 6) == 0))) {
				o->output = val;
				drop = 1;
			}
			if (step && val != NULL && (letter == 'e' ||
			    (letter == 0 && len == 5 &&
			    strncmp(w + 2, "error", 5) == 0))) {
				o->error = val;
				drop = 1;
			}
			if (step && letter == 0 && len == 13 &&
			    strncmp(w + 2, "gpus-per-task", 13) == 0 &&
			    val != NULL) {
				if (strcmp(val, "1") != 0) {
					snprintf(err, errlen, "--gpus-per-task=%s:"
					    " a step's task gets one GPU of its "
					    "node's (1), or all of them (leave it "
					    "out)", val);
					return (-1);
				}
				o->gpu_per_task = true;
				drop = 1;
			}
			if (step && letter == 0 && len == 6 &&
			    strncmp(w + 2, "export", 6) == 0 && val != NULL) {
				o->export = val;
				drop = 1;
			}
			if (step && val != NULL && (letter == 'c' ||
			    (letter == 0 && len == 13 &&
			    strncmp(w + 2, "cpus-per-task", 13) == 0))) {
				if (srun_opt_count("--cpus-per-task", val,
				    JOB_REQ_MAX_CPUS, &o->cpus_per_task, err,
				    errlen) == -1)
					return (-1);
				drop = 1;
			}
		}
		if (!drop) {
			argv[out++] = argv[i];
			if (skip)
				argv[out++] = argv[i + 1];
		}
		i += 1 + skip;
	}
	while (i < *argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	*argc = out;
	return (0);
}
