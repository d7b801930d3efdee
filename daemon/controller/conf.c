/* conf.c: the controller and scheduler groups of gbatch.conf. Every key is checked here so
 * a typo stops gbatchd at start with the line that holds it, instead of
 * surfacing later as odd behaviour. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/paths.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"

void
conf_set(char **slot, const char *value)
{
	free(*slot);
	*slot = xstrdup(value);
}

void
conf_defaults(struct conf *c)
{
	memset(c, 0, sizeof *c);
	c->socket = xstrdup(GB_PATH_SOCKET);
	c->listen = xstrdup("0.0.0.0:6820");
	c->state_dir = xstrdup(GB_PATH_STATE_DIR);
	c->node_timeout = 30;
	c->log_level = LOG_LEVEL_INFO;
	c->sync_full = true;
	sched_conf_default(&c->sched);
	c->ckpt_grace = CONF_CKPT_GRACE;
	c->max_ckpt_grace = CONF_MAX_CKPT_GRACE;
}

/* Reads an optional string key; -1 with err when it is not a string. */
static int
conf_string(const config_setting_t *g, const char *key, char **slot,
    char *err, size_t errlen)
{
	config_setting_t	*s;
	const char		*v;

	if ((s = config_setting_get_member(g, key)) == NULL)
		return (0);
	if ((v = config_setting_get_string(s)) == NULL || *v == '\0') {
		snprintf(err, errlen, "line %d: %s.%s: expected a non-empty "
		    "string", config_setting_source_line(s),
		    config_setting_name(g), key);
		return (-1);
	}
	conf_set(slot, v);
	return (0);
}

static int
conf_operators(struct conf *c, const config_setting_t *g, char *err,
    size_t errlen)
{
	config_setting_t	*s, *e;
	const char		*v;
	int			 i, n;

	if ((s = config_setting_get_member(g, "operators")) == NULL)
		return (0);
	if (!config_setting_is_aggregate(s)) {
		snprintf(err, errlen, "line %d: controller.operators: expected "
		    "a list of user names, as [ \"alice\", \"bob\" ]",
		    config_setting_source_line(s));
		return (-1);
	}
	n = config_setting_length(s);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, (unsigned)i);
		if ((v = config_setting_get_string(e)) == NULL || *v == '\0') {
			snprintf(err, errlen, "line %d: controller.operators: "
			    "element %d is not a user name (a string)",
			    config_setting_source_line(s), i + 1);
			return (-1);
		}
		c->operators = xreallocarray(c->operators, c->noperators + 1,
		    sizeof *c->operators);
		c->operators[c->noperators++] = xstrdup(v);
	}
	return (0);
}

static int
conf_group(struct conf *c, const config_setting_t *g, char *err,
    size_t errlen)
{
	config_setting_t	*s;
	char			*v = NULL;
	int			 line;

	if (conf_string(g, "socket", &c->socket, err, errlen) != 0 ||
	    conf_string(g, "listen", &c->listen, err, errlen) != 0 ||
	    conf_string(g, "state_dir", &c->state_dir, err, errlen) != 0)
		return (-1);
	if ((s = config_setting_get_member(g, "node_timeout")) != NULL) {
		line = config_setting_source_line(s);
		if (config_setting_type(s) != CONFIG_TYPE_INT ||
		    config_setting_get_int(s) < 1 ||
		    config_setting_get_int(s) > 86400) {
			snprintf(err, errlen, "line %d: controller.node_timeout: "
			    "expected seconds, a whole number from 1 to 86400",
			    line);
			return (-1);
		}
		c->node_timeout = config_setting_get_int(s);
	}
	if (conf_operators(c, g, err, errlen) != 0)
		return (-1);
	if ((s = config_setting_get_member(g, "allow_root_jobs")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
			snprintf(err, errlen, "line %d: controller."
			    "allow_root_jobs: expected true or false",
			    config_setting_source_line(s));
			return (-1);
		}
		c->allow_root_jobs = config_setting_get_bool(s);
	}
	if (conf_string(g, "log_level", &v, err, errlen) != 0)
		return (-1);
	if (v != NULL && log_level_parse(v, &c->log_level) != 0) {
		snprintf(err, errlen, "line %d: controller.log_level: expected "
		    "\"error\", \"warn\", \"info\" or \"debug\", got \"%s\"",
		    config_setting_source_line(config_setting_get_member(g,
		    "log_level")), v);
		free(v);
		return (-1);
	}
	free(v);
	v = NULL;
	if (conf_string(g, "sync", &v, err, errlen) != 0)
		return (-1);
	if (v != NULL) {
		if (strcmp(v, "full") == 0)
			c->sync_full = true;
		else if (strcmp(v, "normal") == 0)
			c->sync_full = false;
		else {
			snprintf(err, errlen, "line %d: controller.sync: "
			    "expected \"full\" or \"normal\", got \"%s\"",
			    config_setting_source_line(
			    config_setting_get_member(g, "sync")), v);
			free(v);
			return (-1);
		}
		free(v);
	}
	return (0);
}

/* Reads a number setting (whole or not). */
static int
conf_number(const config_setting_t *s, double *out)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		*out = (double)config_setting_get_int64(s);
		return (0);
	case CONFIG_TYPE_FLOAT:
		*out = config_setting_get_float(s);
		return (0);
	default:
		return (-1);
	}
}

/* Reads an optional whole number in [min, max]. */
static int
conf_int(const config_setting_t *g, const char *key, int min, int max,
    const char *what, int *out, char *err, size_t errlen)
{
	config_setting_t	*s;
	double			 d;

	if ((s = config_setting_get_member(g, key)) == NULL)
		return (0);
	if (conf_number(s, &d) != 0 || d != (double)(long long)d || d < min ||
	    d > max) {
		snprintf(err, errlen, "line %d: %s.%s: expected %s, a whole "
		    "number from %d to %d", config_setting_source_line(s),
		    config_setting_name(g), key, what, min, max);
		return (-1);
	}
	*out = (int)d;
	return (0);
}

static const char *const conf_sched_keys[] = {
	"policy", "queues", "thresholds", "promote_knob", "placement",
	"strict", "ckpt_grace", "max_ckpt_grace",
};

/* scheduler.thresholds: a list of GPU-seconds, rising. */
static int
conf_thresholds(struct sched_conf *sc, const config_setting_t *s, char *err,
    size_t errlen)
{
	config_setting_t	*e;
	double			 d;
	uint64_t		 t;
	int			 i, n;

	n = config_setting_is_aggregate(s) ? config_setting_length(s) : -1;
	if (n < 0 || n > SCHED_MAX_QUEUES - 1) {
		snprintf(err, errlen, "line %d: scheduler.thresholds: expected "
		    "a list of up to %d GPU-second values, rising, as "
		    "[ 3600 ] or [ 3250, 7200, 18000 ]",
		    config_setting_source_line(s), SCHED_MAX_QUEUES - 1);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, (unsigned)i);
		if (conf_number(e, &d) != 0 || !(d > 0) || d > 1e15 ||
		    (t = (uint64_t)(d * 1000 + 0.5)) == 0 ||
		    (i > 0 && t <= sc->thresholds[i - 1])) {
			snprintf(err, errlen, "line %d: scheduler.thresholds: "
			    "element %d: expected GPU-seconds above 0 and "
			    "above the one before", config_setting_source_line(
			    s), i + 1);
			return (-1);
		}
		sc->thresholds[i] = t;
	}
	sc->nqueues = (unsigned)n + 1;
	return (0);
}

static int
conf_scheduler(struct conf *c, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct sched_conf	*sc = &c->sched;
	config_setting_t	*s;
	char			*v = NULL, why[256];
	size_t			 k;
	int			 i, queues = 0, line;

	for (i = 0; i < config_setting_length(g); i++) {
		s = config_setting_get_elem(g, (unsigned)i);
		for (k = 0; k < sizeof conf_sched_keys /
		    sizeof conf_sched_keys[0]; k++) {
			if (strcmp(config_setting_name(s), conf_sched_keys[k]) ==
			    0)
				break;
		}
		if (k == sizeof conf_sched_keys / sizeof conf_sched_keys[0]) {
			snprintf(err, errlen, "line %d: scheduler.%s: unknown "
			    "key; expected policy, queues, thresholds, "
			    "promote_knob, placement, strict, ckpt_grace or "
			    "max_ckpt_grace", config_setting_source_line(s),
			    config_setting_name(s));
			return (-1);
		}
	}
	if (conf_string(g, "policy", &v, err, errlen) != 0)
		return (-1);
	if (v != NULL) {
		line = config_setting_source_line(config_setting_get_member(g,
		    "policy"));
		if (sched_policy_parse(v, &sc->policy, why, sizeof why) != 0 ||
		    sc->policy == SCHED_SRTF) {
			if (sc->policy == SCHED_SRTF)
				snprintf(why, sizeof why, "srtf needs every "
				    "job's run time in advance: it is gsim's "
				    "oracle, not a live policy; expected fifo, "
				    "dlas or gittins");
			snprintf(err, errlen, "line %d: scheduler.policy: %s",
			    line, why);
			free(v);
			return (-1);
		}
		free(v);
		v = NULL;
	}
	if (conf_string(g, "placement", &v, err, errlen) != 0)
		return (-1);
	if (v != NULL) {
		if (sched_placement_parse(v, &sc->placement, why,
		    sizeof why) != 0) {
			snprintf(err, errlen, "line %d: scheduler.placement: %s",
			    config_setting_source_line(
			    config_setting_get_member(g, "placement")), why);
			free(v);
			return (-1);
		}
		free(v);
	}
	if ((s = config_setting_get_member(g, "strict")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
			snprintf(err, errlen, "line %d: scheduler.strict: "
			    "expected true or false",
			    config_setting_source_line(s));
			return (-1);
		}
		sc->strict = config_setting_get_bool(s);
	}
	if ((s = config_setting_get_member(g, "promote_knob")) != NULL &&
	    (conf_number(s, &sc->promote_knob) != 0 ||
	    !(sc->promote_knob >= 0) || sc->promote_knob > 1e9)) {
		snprintf(err, errlen, "line %d: scheduler.promote_knob: "
		    "expected 0 (never promote) or a positive number",
		    config_setting_source_line(s));
		return (-1);
	}
	if (conf_int(g, "queues", 1, SCHED_MAX_QUEUES, "the number of "
	    "queues", &queues, err, errlen) != 0)
		return (-1);
	if ((s = config_setting_get_member(g, "thresholds")) != NULL) {
		if (conf_thresholds(sc, s, err, errlen) != 0)
			return (-1);
		if (queues != 0 && (unsigned)queues != sc->nqueues) {
			snprintf(err, errlen, "line %d: scheduler.thresholds: "
			    "%u values make %u queues, but scheduler.queues "
			    "is %d", config_setting_source_line(s),
			    sc->nqueues - 1, sc->nqueues, queues);
			return (-1);
		}
	} else if (queues != 0)
		sched_conf_set_queues(sc, (unsigned)queues);
	if (conf_int(g, "max_ckpt_grace", 1, 86400, "seconds",
	    &c->max_ckpt_grace, err, errlen) != 0 ||
	    conf_int(g, "ckpt_grace", 1, 86400, "seconds", &c->ckpt_grace,
	    err, errlen) != 0)
		return (-1);
	if (c->ckpt_grace > c->max_ckpt_grace) {
		snprintf(err, errlen, "scheduler.ckpt_grace (%d s) is above "
		    "scheduler.max_ckpt_grace (%d s)", c->ckpt_grace,
		    c->max_ckpt_grace);
		return (-1);
	}
	return (0);
}

int
conf_load(struct conf *c, const char *path, bool must_exist, char *err,
    size_t errlen)
{
	config_t		 cf;
	config_setting_t	*g;
	char			 detail[512];
	int			 rc = -1;

	if (access(path, F_OK) != 0) {
		if (errno == ENOENT && !must_exist)
			return (0);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	config_init(&cf);
	if (config_read_file(&cf, path) != CONFIG_TRUE) {
		if (config_error_type(&cf) == CONFIG_ERR_FILE_IO)
			snprintf(err, errlen, "%s: cannot read the file", path);
		else
			snprintf(err, errlen, "%s:%d: %s", path,
			    config_error_line(&cf), config_error_text(&cf));
		goto fail;
	}
	if ((g = config_lookup(&cf, "controller")) != NULL) {
		if (!config_setting_is_group(g)) {
			snprintf(err, errlen, "%s:%d: controller: expected a "
			    "group, as controller = { ... };", path,
			    config_setting_source_line(g));
			goto fail;
		}
		if (conf_group(c, g, detail, sizeof detail) != 0) {
			snprintf(err, errlen, "%s: %s", path, detail);
			goto fail;
		}
	}
	if ((g = config_lookup(&cf, "scheduler")) != NULL) {
		if (!config_setting_is_group(g)) {
			snprintf(err, errlen, "%s:%d: scheduler: expected a "
			    "group, as scheduler = { policy = \"dlas\"; };",
			    path, config_setting_source_line(g));
			goto fail;
		}
		if (conf_scheduler(c, g, detail, sizeof detail) != 0) {
			snprintf(err, errlen, "%s: %s", path, detail);
			goto fail;
		}
	}
	rc = 0;
fail:
	config_destroy(&cf);
	return (rc);
}

bool
conf_is_operator(const struct conf *c, uid_t uid, const char *user)
{
	size_t	i;

	if (uid == 0)
		return (true);
	for (i = 0; i < c->noperators; i++) {
		if (user != NULL && strcmp(c->operators[i], user) == 0)
			return (true);
	}
	return (false);
}

void
conf_clear(struct conf *c)
{
	size_t	i;

	free(c->socket);
	free(c->listen);
	free(c->state_dir);
	for (i = 0; i < c->noperators; i++)
		free(c->operators[i]);
	free(c->operators);
	memset(c, 0, sizeof *c);
}
