/* node-conf.c: the node group of gbatch.conf, read with libconfig. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/paths.h"
#include "common/xmalloc.h"
#include "daemon/node/node-conf.h"

void
node_conf_defaults(struct node_conf *conf)
{
	char	host[HOST_NAME_MAX + 1];

	memset(conf, 0, sizeof *conf);
	if (gethostname(host, sizeof host) == -1 || host[0] == '\0')
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	conf->name = xstrdup(host);
	conf->controller = xstrdup("127.0.0.1:6820");
	conf->state_dir = xstrdup(GB_PATH_NODE_STATE_DIR);
	conf->switch_name = xstrdup("");
	conf->gpus = 0;
	conf->gpu_source = NODE_GPU_AUTO;
	conf->heartbeat_interval = 5;
	conf->kill_wait = 30;
	conf->allow_root_jobs = false;
	conf->log_level = LOG_LEVEL_INFO;
}

void
node_conf_clear(struct node_conf *conf)
{
	free(conf->name);
	free(conf->controller);
	free(conf->state_dir);
	free(conf->switch_name);
	memset(conf, 0, sizeof *conf);
}

int
node_conf_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	unsigned long	 v;
	char		*end;

	if (s == NULL || *s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return (-1);
	*out = (unsigned)v;
	return (0);
}

int
node_conf_split_addr(const char *addr, char **host, char **port, char *err,
    size_t errlen)
{
	const char	*colon, *h, *he;
	unsigned	 p;

	if (addr[0] == '[') {
		h = addr + 1;
		if ((he = strchr(h, ']')) == NULL || he[1] != ':')
			goto fail;
		colon = he + 1;
	} else {
		h = addr;
		if ((colon = strrchr(addr, ':')) == NULL)
			goto fail;
		he = colon;
	}
	if (he == h || node_conf_parse_uint(colon + 1, 1, 65535, &p) == -1)
		goto fail;
	*host = xstrndup(h, (size_t)(he - h));
	*port = xstrdup(colon + 1);
	return (0);
fail:
	snprintf(err, errlen, "expected HOST:PORT with a port of 1-65535, "
	    "got \"%s\"", addr);
	return (-1);
}

static int
node_conf_string(config_setting_t *g, const char *key, char **out, char *err,
    size_t errlen)
{
	config_setting_t	*s;
	const char		*v;

	if ((s = config_setting_get_member(g, key)) == NULL)
		return (0);
	if ((v = config_setting_get_string(s)) == NULL || *v == '\0') {
		snprintf(err, errlen, "line %d: node.%s: expected a non-empty "
		    "string", config_setting_source_line(s), key);
		return (-1);
	}
	free(*out);
	*out = xstrdup(v);
	return (0);
}

static int
node_conf_int(config_setting_t *g, const char *key, unsigned min,
    unsigned max, unsigned *out, char *err, size_t errlen)
{
	config_setting_t	*s;
	long long		 v;

	if ((s = config_setting_get_member(g, key)) == NULL)
		return (0);
	v = config_setting_get_int64(s);
	if ((config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64) || v < min ||
	    v > max) {
		snprintf(err, errlen, "line %d: node.%s: expected a whole number "
		    "%u-%u", config_setting_source_line(s), key, min, max);
		return (-1);
	}
	*out = (unsigned)v;
	return (0);
}

bool
node_conf_label_ok(const char *s)
{
	size_t	n = strlen(s), i;

	if (n < 1 || n > 64)
		return (false);
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' &&
		    s[i] != '_' && s[i] != '.')
			return (false);
	}
	return (true);
}

/* A label key (node.switch) read already: its characters. */
static int
node_conf_label(config_setting_t *g, const char *key, const char *v,
    char *err, size_t errlen)
{
	config_setting_t	*s;

	if ((s = config_setting_get_member(g, key)) == NULL)
		return (0);
	if (!node_conf_label_ok(v)) {
		snprintf(err, errlen, "line %d: node.%s: expected 1-64 "
		    "letters, digits, '-', '_' or '.', got \"%s\"",
		    config_setting_source_line(s), key, v);
		return (-1);
	}
	return (0);
}

static int
node_conf_read(struct node_conf *conf, config_setting_t *g, char *err,
    size_t errlen)
{
	config_setting_t	*s;
	char			*str = NULL;
	int			 b;

	if (node_conf_string(g, "name", &conf->name, err, errlen) == -1 ||
	    node_conf_string(g, "controller", &conf->controller, err,
	    errlen) == -1 ||
	    node_conf_string(g, "state_dir", &conf->state_dir, err,
	    errlen) == -1 ||
	    node_conf_string(g, "switch", &conf->switch_name, err,
	    errlen) == -1 ||
	    node_conf_label(g, "switch", conf->switch_name, err, errlen) == -1 ||
	    node_conf_int(g, "gpus", 0, 64, &conf->gpus, err, errlen) == -1 ||
	    node_conf_int(g, "heartbeat_interval", 1, 3600,
	    &conf->heartbeat_interval, err, errlen) == -1 ||
	    node_conf_int(g, "kill_wait", 0, 86400, &conf->kill_wait, err,
	    errlen) == -1)
		return (-1);

	if (node_conf_string(g, "gpu_source", &str, err, errlen) == -1)
		return (-1);
	if (str != NULL) {
		if (strcmp(str, "auto") == 0)
			conf->gpu_source = NODE_GPU_AUTO;
		else if (strcmp(str, "nvml") == 0)
			conf->gpu_source = NODE_GPU_NVML;
		else if (strcmp(str, "simulated") == 0)
			conf->gpu_source = NODE_GPU_SIMULATED;
		else {
			snprintf(err, errlen, "node.gpu_source: expected auto, "
			    "nvml or simulated, got \"%s\"", str);
			free(str);
			return (-1);
		}
		free(str);
		str = NULL;
	}

	if ((s = config_setting_get_member(g, "allow_root_jobs")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
			snprintf(err, errlen, "line %d: node.allow_root_jobs: "
			    "expected true or false",
			    config_setting_source_line(s));
			return (-1);
		}
		b = config_setting_get_bool(s);
		conf->allow_root_jobs = b != 0;
	}

	if (node_conf_string(g, "log_level", &str, err, errlen) == -1)
		return (-1);
	if (str != NULL) {
		if (log_level_parse(str, &conf->log_level) == -1) {
			snprintf(err, errlen, "node.log_level: expected error, "
			    "warn, info or debug, got \"%s\"", str);
			free(str);
			return (-1);
		}
		free(str);
	}
	return (0);
}

int
node_conf_load(struct node_conf *conf, const char *path, char *err,
    size_t errlen)
{
	config_t		 cfg;
	config_setting_t	*g;
	const char		*file;
	int			 named = 1, rc = -1;
	char			 why[512];

	if ((file = path) == NULL && (file = getenv("GBATCH_CONF")) == NULL) {
		file = GB_PATH_CONF;
		named = 0;
	}
	if (!named && access(file, F_OK) == -1 && errno == ENOENT)
		return (0);

	config_init(&cfg);
	if (config_read_file(&cfg, file) != CONFIG_TRUE) {
		if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
			snprintf(err, errlen, "%s: cannot read: %s", file,
			    strerror(errno));
		else
			snprintf(err, errlen, "%s:%d: %s", file,
			    config_error_line(&cfg), config_error_text(&cfg));
		goto out;
	}
	if ((g = config_lookup(&cfg, "node")) != NULL) {
		if (!config_setting_is_group(g)) {
			snprintf(err, errlen, "%s: node: expected a group "
			    "{ ... }", file);
			goto out;
		}
		if (node_conf_read(conf, g, why, sizeof why) == -1) {
			snprintf(err, errlen, "%s: %s", file, why);
			goto out;
		}
	}
	rc = 0;
out:
	config_destroy(&cfg);
	return (rc);
}
