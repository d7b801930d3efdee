/* node-conf.c: the node group of gbatch.conf, as a table of keys for
 * daemon/common/conf-file.c. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/job-req.h"
#include "common/label.h"
#include "common/paths.h"
#include "common/xmalloc.h"
#include "common/hostport.h"
#include "daemon/node/node-conf.h"
#include "daemon/node/node-cpus.h"

/* What a node name or switch label may be, for messages. */
#define NODE_CONF_LABEL_RULE	"1-64 letters, digits, '-', '_' or '.'"

void
node_conf_defaults(struct node_conf *conf)
{
	memset(conf, 0, sizeof *conf);
	conf_file_list_add(&conf->controllers, "127.0.0.1:6820");
	conf->state_dir = xstrdup(GB_PATH_NODE_STATE_DIR);
	conf->socket = xstrdup(GB_PATH_NODE_SOCKET);
	conf->switch_name = xstrdup("");
	conf->gpu_use_file = xstrdup("");
	conf->gpu_model = xstrdup("Simulated GPU");
	conf->gpus = 0;
	conf->gpu_source = NODE_GPU_AUTO;
	conf->heartbeat_interval = 5;
	conf->kill_wait = 30;
	conf->allow_root_jobs = false;
	conf->slurm_env = true;
	conf->clean_shm = true;
	conf->cgroups = true;
	conf->cgroup = xstrdup("gbatch");
	conf->job_pids_max = 16384;
	conf->gpu_device = xstrdup("/dev/nvidia%u");
	conf->mps_control = xstrdup("nvidia-cuda-mps-control");
	conf->log_level = LOG_LEVEL_INFO;
	tls_settings_defaults(&conf->tls);
}

unsigned
node_conf_cpus(const struct node_conf *conf)
{
	long	n;

	if (conf->cpus != 0)
		return (conf->cpus);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return (n > 0 && n <= 65536 ? (unsigned)n : 0);
}

unsigned
node_conf_memory_mb(const struct node_conf *conf)
{
	long	pages, size;
	uint64_t mb;

	if (conf->memory_mb != 0)
		return (conf->memory_mb);
	pages = sysconf(_SC_PHYS_PAGES);
	size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return (0);
	mb = (uint64_t)pages * (uint64_t)size / (1024 * 1024);
	return (mb > (1U << 31) ? 1U << 31 : (unsigned)mb);
}

void
node_conf_clear(struct node_conf *conf)
{
	free(conf->name);
	conf_file_list_clear(&conf->controllers);
	free(conf->state_dir);
	free(conf->socket);
	free(conf->switch_name);
	free(conf->gpu_use_file);
	free(conf->gpu_model);
	free(conf->gpu_device);
	free(conf->mps_control);
	conf_file_list_clear(&conf->gpu_cpus);
	free(conf->cgroup);
	tls_settings_clear(&conf->tls);
	tls_ctx_free(conf->tls_ctx);
	tls_conf_clear(&conf->tls_files);
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

bool
node_conf_label_ok(const char *s)
{
	return (label_ok(s));
}

int
node_conf_label_check(const char *s, char *why, size_t len)
{
	if (node_conf_label_ok(s))
		return (0);
	snprintf(why, len, "expected " NODE_CONF_LABEL_RULE ", got \"%s\"", s);
	return (-1);
}

int
node_conf_model_check(const char *s, char *why, size_t len)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && strchr(" -_.", *p) == NULL)
			break;
	}
	if (*s != '\0' && *p == '\0' && p - s <= 64)
		return (0);
	snprintf(why, len, "expected a GPU model name of 1 to 64 letters, "
	    "digits, spaces, '-', '_' or '.', e.g. \"NVIDIA A100\"");
	return (-1);
}

/* node.mps_control: "" (none), a program's name (looked for on PATH) or
 * an absolute path, of characters a file name safely has. */
static int
node_conf_mps_check(const char *s, char *why, size_t len)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && strchr("/-_.+", *p) == NULL)
			break;
	}
	if (*p == '\0' && (strchr(s, '/') == NULL || *s == '/') &&
	    p - s < 256)
		return (0);
	snprintf(why, len, "expected \"\" (no MPS), a program's name on PATH "
	    "or an absolute path of letters, digits and '/-_.+', e.g. "
	    "\"nvidia-cuda-mps-control\", got \"%s\"", s);
	return (-1);
}

/* node.controller: each must name a port to connect to. */
static int
node_conf_addr_check(const char *s, char *why, size_t len)
{
	return (hostport_check(s, 1, why, len));
}

static int
node_conf_gpu_source(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	static const char *const words[] = { "auto", "nvml", "simulated",
	    NULL };
	static const enum node_gpu_source sources[] = { NODE_GPU_AUTO,
	    NODE_GPU_NVML, NODE_GPU_SIMULATED };
	struct node_conf	*conf = settings;
	int			 i;

	if (conf_file_choice(s, words, &i, why, len) == -1)
		return (-1);
	conf->gpu_source = sources[i];
	return (0);
}

/* Whether gpus was written: a node that finds no GPU starts only when
 * someone said 0 (node-gpu.c). */
static int
node_conf_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct node_conf	*conf = settings;

	if (config_setting_get_member(g, "gpus") != NULL)
		conf->gpus_set = true;
	return (0);
}

/* A CPU list, "0-15,32-47", or "" for not known. */
static int
node_conf_cpus_check(const char *s, char *why, size_t len)
{
	cpu_set_t	set;

	if (node_cpus_parse(s, &set) == -1) {
		snprintf(why, len, "expected a CPU list such as \"0-15,32-47\" "
		    "or \"\", got \"%s\"", s);
		return (-1);
	}
	return (0);
}

static const struct conf_file_key node_conf_keys[] = {
	{ .name = "name", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, name), .what = "a node name",
	  .valid = node_conf_label_check },
	{ .name = "controller", .type = CONF_FILE_STRINGS,
	  .off = offsetof(struct node_conf, controllers), .min = 1,
	  .what = "HOST:PORT",
	  .example = "[ \"host1:6820\", \"host2:6820\" ]",
	  .valid = node_conf_addr_check },
	{ .name = "state_dir", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, state_dir), .what = "a directory" },
	{ .name = "socket", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, socket),
	  .what = "a socket path, or \"\" for none" },
	{ .name = "switch", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, switch_name), .what = "a label",
	  .valid = node_conf_label_check },
	{ .name = "gpu_model", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, gpu_model),
	  .what = "simulated GPUs' model name", .valid = node_conf_model_check },
	{ .name = "gpu_source", .type = CONF_FILE_CUSTOM,
	  .read = node_conf_gpu_source },
	{ .name = "gpu_use_file", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, gpu_use_file),
	  .what = "a file of simulated GPUs' use, or \"\" for none" },
	{ .name = "gpus", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, gpus), .min = 0, .max = 64,
	  .what = "the number of simulated GPUs" },
	{ .name = "cpus", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, cpus), .min = 0, .max = 65536,
	  .what = "CPUs jobs may have (0: those online)" },
	{ .name = "memory_mb", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, memory_mb), .min = 0,
	  .max = 1U << 31, .what = "MB jobs may have (0: the host's)" },
	{ .name = "gpu_shards", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, gpu_shards), .min = 0,
	  .max = JOB_REQ_MAX_SHARES,
	  .what = "shards each GPU is offered in (0 or 1: none)" },
	{ .name = "mps_control", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, mps_control),
	  .what = "the MPS control program, \"\" for none",
	  .valid = node_conf_mps_check },
	{ .name = "cgroups", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct node_conf, cgroups) },
	{ .name = "cgroup", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, cgroup),
	  .what = "a label, the start of the jobs' parent cgroup's name",
	  .valid = node_conf_label_check },
	{ .name = "job_pids_max", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, job_pids_max), .min = 0,
	  .max = 4194304, .what = "processes a job may have (0: any)" },
	{ .name = "gpu_device", .type = CONF_FILE_STRING,
	  .off = offsetof(struct node_conf, gpu_device),
	  .what = "a GPU device file, %u its minor number" },
	{ .name = "gpu_cpus", .type = CONF_FILE_LIST,
	  .off = offsetof(struct node_conf, gpu_cpus), .min = 0,
	  .what = "the CPUs near each GPU, by index",
	  .example = "[ \"0-15\", \"0-15\", \"16-31\", \"16-31\" ]",
	  .valid = node_conf_cpus_check },
	{ .name = "heartbeat_interval", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, heartbeat_interval), .min = 1,
	  .max = 3600, .what = "seconds" },
	{ .name = "kill_wait", .type = CONF_FILE_UINT,
	  .off = offsetof(struct node_conf, kill_wait), .min = 0,
	  .max = 86400, .what = "seconds" },
	{ .name = "allow_root_jobs", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct node_conf, allow_root_jobs) },
	{ .name = "slurm_env", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct node_conf, slurm_env) },
	{ .name = "clean_shm", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct node_conf, clean_shm) },
	{ .name = "log_level", .type = CONF_FILE_LOG_LEVEL,
	  .off = offsetof(struct node_conf, log_level) },
};

static const struct conf_file_group node_conf_group = {
	"node", node_conf_keys, sizeof node_conf_keys / sizeof node_conf_keys[0],
	node_conf_check, NULL,
};

int
node_conf_load(struct node_conf *conf, const char *path, bool must_exist,
    char *err, size_t errlen)
{
	int	rc;

	rc = conf_file_read(path, must_exist, &node_conf_group, 1, conf, err,
	    errlen);
	if (rc == 0 && tls_settings_load(&conf->tls, path, must_exist, err,
	    errlen) == -1)
		return (-1);
	return (rc);
}

int
node_conf_tls(struct node_conf *conf, char *err, size_t errlen)
{
	if (!conf->tls.enabled)
		return (0);
	if (tls_settings_files(&conf->tls, TLS_ROLE_NODE, conf->name,
	    &conf->tls_files, err, errlen) == -1)
		return (-1);
	conf->tls_ctx = tls_settings_ctx(&conf->tls_files, TLS_ROLE_NODE,
	    conf->name, err, errlen);
	return (conf->tls_ctx == NULL ? -1 : 0);
}

int
node_conf_tls_reload(struct node_conf *conf, char *err, size_t errlen)
{
	struct tls_conf	tc;

	if (conf->tls_ctx == NULL)
		return (0);
	/* The files again, not those of the start: a default crl.pem that
	 * was not there then counts from now on. */
	if (tls_settings_files(&conf->tls, TLS_ROLE_NODE, conf->name, &tc,
	    err, errlen) == -1)
		return (-1);
	if (tls_ctx_reload(conf->tls_ctx, &tc, err, errlen) == -1) {
		tls_conf_clear(&tc);
		return (-1);
	}
	tls_conf_clear(&conf->tls_files);
	conf->tls_files = tc;
	return (0);
}

/* node.gpu_device: a path with one %u (the GPU's minor number) and no
 * other % sequence but %%, since it is a format (""): none). */
static int
node_conf_device_check(const char *s, char *err, size_t errlen)
{
	const char	*p;
	int		 n = 0;

	for (p = s; (p = strchr(p, '%')) != NULL; p += 2) {
		if (p[1] == 'u')
			n++;
		else if (p[1] != '%')
			n = 2;
		if (p[1] == '\0')
			break;
	}
	if (*s != '\0' && (n != 1 || *s != '/')) {
		snprintf(err, errlen, "node.gpu_device: expected an absolute "
		    "path with one %%u for the GPU's minor number "
		    "(\"/dev/nvidia%%u\"), got \"%s\"", s);
		return (-1);
	}
	return (0);
}

int
node_conf_finish(struct node_conf *conf, char *err, size_t errlen)
{
	char	host[HOST_NAME_MAX + 1];
	size_t	i;

	if (node_conf_device_check(conf->gpu_device, err, errlen) == -1)
		return (-1);
	if (conf->name != NULL)
		return (0);
	if (gethostname(host, sizeof host) == -1) {
		snprintf(err, errlen, "node name: cannot read the host name "
		    "(%s); set node.name or give -n NAME", strerror(errno));
		return (-1);
	}
	host[sizeof host - 1] = '\0';
	if (!node_conf_label_ok(host)) {
		/* Shown as it is where it is printable: it goes to a
		 * terminal. */
		for (i = 0; host[i] != '\0'; i++) {
			if (!isprint((unsigned char)host[i]))
				host[i] = '?';
		}
		snprintf(err, errlen, "node name: the host name \"%s\" is not "
		    "a node name (" NODE_CONF_LABEL_RULE "); set node.name or "
		    "give -n NAME", host);
		return (-1);
	}
	conf->name = xstrdup(host);
	return (0);
}
