/* sched-conf.c: policy and placement names, defaults and the checks that
 * gbatchd and gsim share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-conf.h"

static const char *const sched_policy_names[] = {
	[SCHED_FIFO] = "fifo",
	[SCHED_SRTF] = "srtf",
	[SCHED_DLAS] = "dlas",
	[SCHED_GITTINS] = "gittins",
};

static const char *const sched_placement_names[] = {
	[SCHED_PLACE_CONSOLIDATE] = "consolidate",
	[SCHED_PLACE_YARN] = "yarn",
	[SCHED_PLACE_SPREAD] = "spread",
	[SCHED_PLACE_RANDOM] = "random",
};

#define SCHED_NPOLICIES \
	(sizeof sched_policy_names / sizeof sched_policy_names[0])
#define SCHED_NPLACEMENTS \
	(sizeof sched_placement_names / sizeof sched_placement_names[0])

void
sched_conf_default(struct sched_conf *conf)
{
	memset(conf, 0, sizeof *conf);
	conf->policy = SCHED_DLAS;
	conf->strict = true;
	conf->nqueues = 2;
	conf->thresholds[0] = UINT64_C(3600) * 1000;
	conf->promote_knob = 0;
	conf->placement = SCHED_PLACE_CONSOLIDATE;
	conf->seed = 1;
	conf->elastic_interval = 300;
	conf->elastic_overhead = 60;
	conf->time_slice = 0;
	conf->slice_jobs = 4;
	conf->avoid_interference = true;
}

const char *
sched_conf_policy_name(enum sched_policy p)
{
	if ((unsigned)p >= SCHED_NPOLICIES)
		return ("unknown");
	return (sched_policy_names[p]);
}

const char *
sched_conf_placement_name(enum sched_placement p)
{
	if ((unsigned)p >= SCHED_NPLACEMENTS)
		return ("unknown");
	return (sched_placement_names[p]);
}

int
sched_conf_policy_parse(const char *s, enum sched_policy *out, char *err,
    size_t errlen)
{
	size_t	i;

	for (i = 0; i < SCHED_NPOLICIES; i++) {
		if (strcmp(s, sched_policy_names[i]) == 0) {
			*out = (enum sched_policy)i;
			return (0);
		}
	}
	snprintf(err, errlen, "expected a policy (fifo, srtf, dlas or "
	    "gittins), got \"%s\"", s);
	return (-1);
}

int
sched_conf_placement_parse(const char *s, enum sched_placement *out, char *err,
    size_t errlen)
{
	size_t	i;

	for (i = 0; i < SCHED_NPLACEMENTS; i++) {
		if (strcmp(s, sched_placement_names[i]) == 0) {
			*out = (enum sched_placement)i;
			return (0);
		}
	}
	snprintf(err, errlen, "expected a placement (consolidate, yarn, "
	    "spread or random), got \"%s\"", s);
	return (-1);
}

int
sched_conf_thresholds_parse(const char *s, struct sched_conf *conf, char *err,
    size_t errlen)
{
	uint64_t	 t[SCHED_MAX_QUEUES - 1];
	const char	*p = s;
	char		*end;
	double		 v;
	unsigned	 n = 0, i;

	for (;;) {
		if (n == SCHED_MAX_QUEUES - 1) {
			snprintf(err, errlen, "at most %d thresholds (%d "
			    "queues), got more in \"%s\"", SCHED_MAX_QUEUES - 1,
			    SCHED_MAX_QUEUES, s);
			return (-1);
		}
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno != 0 || !(v > 0) || v > 1e15 ||
		    (*end != ',' && *end != '\0')) {
			snprintf(err, errlen, "expected GPU-seconds above 0, "
			    "comma-separated and rising (as \"3250,7200\"), got "
			    "\"%s\"", s);
			return (-1);
		}
		t[n] = (uint64_t)(v * 1000 + 0.5);
		if (n > 0 && t[n] <= t[n - 1]) {
			snprintf(err, errlen, "thresholds must rise, got \"%s\"",
			    s);
			return (-1);
		}
		n++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	for (i = 0; i < n; i++)
		conf->thresholds[i] = t[i];
	conf->nqueues = n + 1;
	return (0);
}

void
sched_conf_set_queues(struct sched_conf *conf, unsigned k)
{
	uint64_t	t = UINT64_C(3600) * 1000;
	unsigned	i;

	conf->nqueues = k;
	for (i = 0; i + 1 < k; i++, t *= 10)
		conf->thresholds[i] = t;
}

int
sched_conf_check(const struct sched_conf *conf, char *err, size_t errlen)
{
	unsigned	i;

	if ((unsigned)conf->policy >= SCHED_NPOLICIES) {
		snprintf(err, errlen, "unknown policy %d", (int)conf->policy);
		return (-1);
	}
	if ((unsigned)conf->placement >= SCHED_NPLACEMENTS) {
		snprintf(err, errlen, "unknown placement %d",
		    (int)conf->placement);
		return (-1);
	}
	if (conf->nqueues < 1 || conf->nqueues > SCHED_MAX_QUEUES) {
		snprintf(err, errlen, "queues: expected 1-%d, got %u",
		    SCHED_MAX_QUEUES, conf->nqueues);
		return (-1);
	}
	for (i = 0; i + 1 < conf->nqueues; i++) {
		if (conf->thresholds[i] == 0 ||
		    (i > 0 && conf->thresholds[i] <= conf->thresholds[i - 1])) {
			snprintf(err, errlen, "thresholds: %u queues need %u "
			    "rising thresholds above 0", conf->nqueues,
			    conf->nqueues - 1);
			return (-1);
		}
	}
	if (!(conf->promote_knob >= 0) || conf->promote_knob > 1e9) {
		snprintf(err, errlen, "promote knob: expected 0 (off) or a "
		    "positive factor, got %g", conf->promote_knob);
		return (-1);
	}
	if (conf->policy == SCHED_GITTINS && conf->nsamples == 0) {
		snprintf(err, errlen, "gittins needs a distribution of job "
		    "GPU-times (samples), got none");
		return (-1);
	}
	return (0);
}
