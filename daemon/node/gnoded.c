/* gnoded.c: the node daemon's main(): options, configuration, daemon
 * setup, then the event loop. See gnoded(8). */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/cmd.h"
#include "common/job-req.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "common/hostport.h"
#include "daemon/common/logfile.h"
#include "daemon/common/notify.h"
#include "daemon/common/pidfile.h"
#include "daemon/node/node-conf.h"
#include "daemon/node/node-confine.h"
#include "daemon/node/node-gpu.h"
#include "daemon/node/node-record.h"
#include "daemon/node/node-session.h"
#include "daemon/node/node-user.h"

struct gnoded_opts {
	int		 foreground;
	int		 verbose;
	int		 check;
	const char	*conf_file;
	const char	*name;
	const char	*switch_name;
	const char	*gpu_use;
	const char	*gpu_model;
	/* Every -c, split at commas: replaces node.controller. */
	struct conf_file_list controllers;
	const char	*state_dir;
	const char	*socket;
	const char	*gpus;
	const char	*cpus;
	const char	*memory_mb;
	const char	*gpu_shards;
	const char	*gpu_device;
	const char	*log_file;
	const char	*pid_file;
};

static void
gnoded_usage(FILE *f)
{
	fprintf(f,
"usage: gnoded [-CD] [-f FILE] [-n NAME] [-c HOST:PORT[,...]] [-d STATE_DIR]\n"
"              [-u SOCKET] [-g GPUS] [-L LOGFILE] [-P PIDFILE] [-v] [-h] [-V]\n"
"\n"
"The gbatch node daemon: registers this host's GPUs with gbatchd and runs\n"
"the jobs it is given, each under its own shepherd process.\n"
"\n"
"  -D, --foreground        stay in the foreground, log to stderr (or -L)\n"
"  -f, --config FILE       configuration file (default $GBATCH_CONF, else\n"
"                          " GB_PATH_CONF ")\n"
"  -n, --name NAME         node name (default: the host name)\n"
"  -c, --controller H:P    gbatchd's node address (default 127.0.0.1:6820);\n"
"                          several (-c again, or H:P,H:P) are tried in turn\n"
"  -d, --state-dir DIR     job records (default " GB_PATH_NODE_STATE_DIR
    ")\n"
"  -u, --socket PATH       socket for commands on this host, relayed to\n"
"                          gbatchd (\"\" for none; default\n"
"                          " GB_PATH_NODE_SOCKET ")\n"
"  -g, --gpus N            offer N simulated GPUs instead of NVML's\n"
"  -s, --switch LABEL      the node's switch or rack, for placement\n"
"  -G, --gpu-use FILE      simulated GPUs' use, read at each heartbeat:\n"
"                          lines \"INDEX UTIL%% MEM_USED_MB\" (node.gpu_use_file)\n"
"      --gpu-model NAME    simulated GPUs' model (node.gpu_model; default\n"
"                          \"Simulated GPU\")\n"
"      --cpus N            CPUs jobs may have (node.cpus; default: online)\n"
"      --memory-mb MB      memory jobs may have (node.memory_mb; default:\n"
"                          the host's)\n"
"      --gpu-shards N      offer each GPU in N shards, for jobs that take\n"
"                          some (node.gpu_shards; default 1: none)\n"
"      --gpu-device PATTERN a GPU's device file, %%u its minor number\n"
"                          (node.gpu_device; default /dev/nvidia%%u)\n"
"  -L, --log-file FILE     log to FILE instead of stderr or syslog\n"
"  -P, --pid-file FILE     write the daemon's pid to FILE\n"
"  -v, --verbose           log debug messages\n"
"  -C, --check-config      check the configuration (file and flags, not the\n"
"                          GPUs) and exit: 0 valid, 1 not\n"
"  -h, --help              show this help and exit\n"
"  -V, --version           show the version and exit\n"
"\n"
"SIGTERM or SIGINT stops gnoded; running jobs keep running and are\n"
"re-attached when it starts again. SIGHUP reopens the -L file (for log\n"
"rotation) and rereads the CA and CRL (after gctl cert revoke); nothing\n"
"else changes.\n");
}

static const struct option gnoded_longopts[] = {
	{ "check-config", no_argument, NULL, 'C' },
	{ "foreground", no_argument, NULL, 'D' },
	{ "config", required_argument, NULL, 'f' },
	{ "name", required_argument, NULL, 'n' },
	{ "controller", required_argument, NULL, 'c' },
	{ "state-dir", required_argument, NULL, 'd' },
	{ "socket", required_argument, NULL, 'u' },
	{ "gpus", required_argument, NULL, 'g' },
	{ "switch", required_argument, NULL, 's' },
	{ "gpu-use", required_argument, NULL, 'G' },
	{ "gpu-model", required_argument, NULL, 'M' },
	{ "cpus", required_argument, NULL, 'R' },
	{ "memory-mb", required_argument, NULL, 'm' },
	{ "gpu-shards", required_argument, NULL, 'S' },
	{ "gpu-device", required_argument, NULL, 'E' },
	{ "log-file", required_argument, NULL, 'L' },
	{ "pid-file", required_argument, NULL, 'P' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd gnoded_cmd = {
	.name = "gnoded",
	.usage = gnoded_usage,
	.shortopts = ":CDf:n:c:d:u:g:s:G:M:R:m:S:E:L:P:vhV",
	.longopts = gnoded_longopts,
	.protocol = true,
};

/* Reads the options into o. Returns 0, or CMD_OPT_EXIT when gnoded is to
 * end with *status: it has printed its help or version, or said what was
 * wrong with the options. */
static int
gnoded_parse(int argc, char **argv, struct gnoded_opts *o, int *status)
{
	char	*list, *one, *rest;
	int	 ch;

	memset(o, 0, sizeof *o);
	while ((ch = cmd_getopt(&gnoded_cmd, argc, argv, status)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (CMD_OPT_EXIT);
		case 'C':
			o->check = 1;
			break;
		case 'D':
			o->foreground = 1;
			break;
		case 'f':
			o->conf_file = optarg;
			break;
		case 'n':
			o->name = optarg;
			break;
		case 'c':
			rest = list = xstrdup(optarg);
			while ((one = strsep(&rest, ",")) != NULL)
				conf_file_list_add(&o->controllers, one);
			free(list);
			break;
		case 'u':
			o->socket = optarg;
			break;
		case 'd':
			o->state_dir = optarg;
			break;
		case 'g':
			o->gpus = optarg;
			break;
		case 'G':
			o->gpu_use = optarg;
			break;
		case 'M':
			o->gpu_model = optarg;
			break;
		case 'R':
			o->cpus = optarg;
			break;
		case 'm':
			o->memory_mb = optarg;
			break;
		case 'S':
			o->gpu_shards = optarg;
			break;
		case 'E':
			o->gpu_device = optarg;
			break;
		case 's':
			o->switch_name = optarg;
			break;
		case 'L':
			o->log_file = optarg;
			break;
		case 'P':
			o->pid_file = optarg;
			break;
		case 'v':
			o->verbose = 1;
			break;
		}
	}
	if (optind != argc) {
		*status = cmd_usage_error(&gnoded_cmd, "unexpected argument "
		    "\"%s\"; gnoded takes options only", argv[optind]);
		return (CMD_OPT_EXIT);
	}
	return (0);
}

/* A gnoded that is not root cannot switch ids, so it runs only its own
 * user's jobs (node_jobs_check refuses the others). Says so into buf, for
 * the log and --check-config; returns 0 when running as root. */
static int
gnoded_not_root(char *buf, size_t len)
{
	struct passwd	*pw;
	uid_t		 uid = geteuid();
	char		 num[32];

	if (uid == 0)
		return (0);
	snprintf(num, sizeof num, "uid %lu", (unsigned long)uid);
	pw = getpwuid(uid);
	snprintf(buf, len, "not running as root (%s%s%s): runs jobs only for "
	    "%s", num, pw != NULL ? ", " : "", pw != NULL ? pw->pw_name : "",
	    pw != NULL ? pw->pw_name : num);
	return (1);
}

/* Applies the file, then the flags, to conf. Returns 0, 1 when there was
 * no file (the defaults stand), or -1 after saying what is wrong. */
static int
gnoded_configure(const struct gnoded_opts *o, struct node_conf *conf)
{
	const char	*path;
	char		 err[1024];
	bool		 must_exist;
	size_t		 i;
	int		 rc;

	node_conf_defaults(conf);
	path = conf_file_path(o->conf_file, &must_exist);
	if ((rc = node_conf_load(conf, path, must_exist, err,
	    sizeof err)) == -1) {
		fprintf(stderr, "gnoded: %s\n", err);
		return (-1);
	}
	if (o->name != NULL) {
		if (node_conf_label_check(o->name, err, sizeof err) == -1) {
			fprintf(stderr, "gnoded: -n: %s\n", err);
			return (-1);
		}
		free(conf->name);
		conf->name = xstrdup(o->name);
	}
	if (o->gpu_use != NULL) {
		free(conf->gpu_use_file);
		conf->gpu_use_file = xstrdup(o->gpu_use);
	}
	if (o->gpu_model != NULL) {
		if (node_conf_model_check(o->gpu_model, err,
		    sizeof err) == -1) {
			fprintf(stderr, "gnoded: --gpu-model: %s\n", err);
			return (-1);
		}
		free(conf->gpu_model);
		conf->gpu_model = xstrdup(o->gpu_model);
	}
	if (o->switch_name != NULL) {
		if (node_conf_label_check(o->switch_name, err,
		    sizeof err) == -1) {
			fprintf(stderr, "gnoded: --switch: %s\n", err);
			return (-1);
		}
		free(conf->switch_name);
		conf->switch_name = xstrdup(o->switch_name);
	}
	if (o->controllers.n > 0) {
		conf_file_list_clear(&conf->controllers);
		for (i = 0; i < o->controllers.n; i++) {
			if (hostport_check(o->controllers.v[i], 1, err,
			    sizeof err) == -1) {
				fprintf(stderr, "gnoded: -c: %s\n", err);
				return (-1);
			}
			conf_file_list_add(&conf->controllers,
			    o->controllers.v[i]);
		}
	}
	if (o->state_dir != NULL) {
		if (*o->state_dir == '\0') {
			fprintf(stderr, "gnoded: -d: expected a directory\n");
			return (-1);
		}
		free(conf->state_dir);
		conf->state_dir = xstrdup(o->state_dir);
	}
	if (o->socket != NULL) {
		free(conf->socket);
		conf->socket = xstrdup(o->socket);
	}
	if (o->gpus != NULL) {
		if (node_conf_parse_uint(o->gpus, 0, 64, &conf->gpus) == -1) {
			fprintf(stderr, "gnoded: -g: expected a whole number "
			    "0-64, got \"%s\"\n", o->gpus);
			return (-1);
		}
		conf->gpus_set = true;
		conf->gpu_source = NODE_GPU_SIMULATED;
	}
	if (o->cpus != NULL && node_conf_parse_uint(o->cpus, 1, 65536,
	    &conf->cpus) == -1) {
		fprintf(stderr, "gnoded: --cpus: expected a whole number "
		    "1-65536, got \"%s\"\n", o->cpus);
		return (-1);
	}
	if (o->memory_mb != NULL && node_conf_parse_uint(o->memory_mb, 1,
	    1U << 31, &conf->memory_mb) == -1) {
		fprintf(stderr, "gnoded: --memory-mb: expected a whole number "
		    "of MB 1-2147483648, got \"%s\"\n", o->memory_mb);
		return (-1);
	}
	if (o->gpu_shards != NULL && node_conf_parse_uint(o->gpu_shards, 1,
	    JOB_REQ_MAX_SHARES, &conf->gpu_shards) == -1) {
		fprintf(stderr, "gnoded: --gpu-shards: expected a whole number "
		    "1-%d, got \"%s\"\n", JOB_REQ_MAX_SHARES, o->gpu_shards);
		return (-1);
	}
	if (o->gpu_device != NULL) {
		free(conf->gpu_device);
		conf->gpu_device = xstrdup(o->gpu_device);
	}
	if (o->verbose)
		conf->log_level = LOG_LEVEL_DEBUG;
	if (node_conf_finish(conf, err, sizeof err) == -1) {
		fprintf(stderr, "gnoded: %s\n", err);
		return (-1);
	}
	/* Not a usage error: the files are wrong, not the flags. */
	if (node_conf_tls(conf, err, sizeof err) == -1) {
		fprintf(stderr, "gnoded: %s\n", err);
		return (-2);
	}
	if (o->check) {
		conf_file_print_ok(stdout, path, rc == 0);
		if (gnoded_not_root(err, sizeof err))
			printf("gnoded: %s\n", err);
	}
	return (rc);
}

static int
gnoded_daemonize(void)
{
	pid_t	pid;
	int	fd;

	if ((pid = fork()) == -1)
		return (-1);
	if (pid != 0)
		_exit(0);
	if (setsid() == -1)
		return (-1);
	if ((pid = fork()) == -1)
		return (-1);
	if (pid != 0)
		_exit(0);
	if (chdir("/") == -1)
		return (-1);
	if ((fd = open("/dev/null", O_RDWR)) == -1)
		return (-1);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	return (0);
}

/* One gnoded per state directory: two would both claim the same jobs. The
 * lock dies with the process, so a kill -9 never leaves it stale. */
static int
gnoded_lock(const char *state_dir)
{
	char	*path;
	int	 fd;

	path = xasprintf("%s/gnoded.lock", state_dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd == -1) {
		fprintf(stderr, "gnoded: %s: %s\n", path, strerror(errno));
		free(path);
		return (-1);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		fprintf(stderr, "gnoded: %s: %s\n", path, errno == EWOULDBLOCK ?
		    "another gnoded uses this state directory" :
		    strerror(errno));
		close(fd);
		free(path);
		return (-1);
	}
	free(path);
	return (fd);
}

static void
gnoded_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct event_base	*base = arg;

	log_info("signal %d: stopping; jobs keep running", (int)sig);
	notify_send(NOTIFY_STOPPING, "stopping (signal %d); jobs keep running",
	    (int)sig);
	event_base_loopbreak(base);
}

/* What SIGHUP acts on. */
struct gnoded_hup {
	const char		*log_file;	/* or NULL */
	struct node_conf	*conf;
	struct node_session	*session;	/* once it is made */
};

/* SIGHUP: logrotate moved the -L file away; write to a new one. And gctl
 * cert revoke may have revoked a controller's certificate: read the CRL
 * again, so the next connection refuses it, and judge the one that is up
 * now by it (closed when revoked). Nothing else is read again:
 * the node's settings change with a restart, which running jobs survive. */
static void
gnoded_hup_cb(evutil_socket_t sig, short what, void *arg)
{
	struct gnoded_hup	*hup = arg;
	char			 err[1024];

	if (hup->log_file != NULL) {
		if (logfile_open(hup->log_file) != 0)
			log_error("reopening %s: %s", hup->log_file,
			    strerror(errno));
		else
			log_info("reopened the log file %s", hup->log_file);
	}
	if (hup->conf->tls_ctx == NULL)
		return;
	if (node_conf_tls_reload(hup->conf, err, sizeof err) == -1)
		log_error("node %s: tls: %s; the CA and CRL in force are "
		    "unchanged", hup->conf->name, err);
	else {
		log_info("node %s: reread the CA certificate %s and %s%s",
		    hup->conf->name, hup->conf->tls_files.ca,
		    hup->conf->tls_files.crl != NULL ? "the CRL " : "no CRL",
		    hup->conf->tls_files.crl != NULL ?
		    hup->conf->tls_files.crl : "");
		if (hup->session != NULL)
			node_session_recheck(hup->session);
	}
}

int
main(int argc, char **argv)
{
	struct gnoded_opts	 o;
	struct node_conf	 conf;
	struct node_gpus	*gpus = NULL;
	struct node_session	*session = NULL;
	struct gnoded_hup	 hup;
	struct event_base	*base = NULL;
	struct event		*ev_term = NULL, *ev_int = NULL, *ev_hup = NULL;
	char			 err[1024];
	int			 lockfd = -1, logfd = -1, rc = 1, configured;

	if (gnoded_parse(argc, argv, &o, &rc) == CMD_OPT_EXIT)
		return (rc);
	configured = gnoded_configure(&o, &conf);
	conf_file_list_clear(&o.controllers);
	if (configured < 0 || o.check) {
		node_conf_clear(&conf);
		if (configured == -2)
			return (EXIT_FAILURE);
		if (configured == -1)
			return (o.check ? EXIT_FAILURE : EXIT_USAGE);
		return (EXIT_OK);
	}
	if (node_record_init(conf.state_dir, err, sizeof err) == -1) {
		fprintf(stderr, "gnoded: state_dir: %s\n", err);
		goto out;
	}
	if ((lockfd = gnoded_lock(conf.state_dir)) == -1)
		goto out;
	if (o.log_file != NULL) {
		logfd = open(o.log_file, O_WRONLY | O_CREAT | O_APPEND |
		    O_CLOEXEC, 0640);
		if (logfd == -1) {
			fprintf(stderr, "gnoded: -L %s: %s\n", o.log_file,
			    strerror(errno));
			goto out;
		}
	}
	if (!o.foreground && gnoded_daemonize() == -1) {
		fprintf(stderr, "gnoded: cannot become a daemon: %s\n",
		    strerror(errno));
		goto out;
	}
	if (o.log_file != NULL) {
		dup2(logfd, 2);
		close(logfd);
		setvbuf(stderr, NULL, _IOLBF, 0);
	}
	conf.log_syslog = !o.foreground && o.log_file == NULL;
	log_open("gnoded", conf.log_syslog, conf.log_level);
	signal(SIGPIPE, SIG_IGN);
	/* Until the loop handles it: a rotation must not kill gnoded. */
	signal(SIGHUP, SIG_IGN);
	if (o.conf_file == NULL && (getenv("GBATCH_CONF") == NULL ||
	    *getenv("GBATCH_CONF") == '\0') && access(GB_PATH_CONF, F_OK) != 0 &&
	    errno == ENOENT)
		log_info("node %s: no configuration file (no -f, $GBATCH_CONF "
		    "not set, no %s); running on built-in defaults", conf.name,
		    GB_PATH_CONF);
	if (notify_open(err, sizeof err) != 0)
		log_warn("node %s: %s; not telling the service manager",
		    conf.name, err);

	if ((gpus = node_gpu_discover(&conf, err, sizeof err)) == NULL) {
		log_error("node %s: %s", conf.name, err);
		if (o.foreground && o.log_file != NULL)
			fprintf(stderr, "gnoded: %s\n", err);
		goto out;
	}
	node_confine_setup(&conf, gpus);
	if (o.pid_file != NULL && pidfile_write(o.pid_file, err,
	    sizeof err) == -1) {
		log_error("%s", err);
		goto out;
	}

	base = event_base_new();
	if (base == NULL) {
		log_error("cannot create the event loop");
		goto out;
	}
	ev_term = evsignal_new(base, SIGTERM, gnoded_signal_cb, base);
	ev_int = evsignal_new(base, SIGINT, gnoded_signal_cb, base);
	hup.log_file = o.log_file;
	hup.conf = &conf;
	hup.session = NULL;
	ev_hup = evsignal_new(base, SIGHUP, gnoded_hup_cb, &hup);
	event_add(ev_term, NULL);
	event_add(ev_int, NULL);
	event_add(ev_hup, NULL);
	if ((session = node_session_create(base, &conf, gpus, err,
	    sizeof err)) == NULL) {
		log_error("node %s: %s", conf.name, err);
		goto out;
	}
	hup.session = session;
	log_info("node %s: gnoded %s started, %zu controller%s (%s%s), state "
	    "%s", conf.name, PACKAGE_VERSION, conf.controllers.n,
	    conf.controllers.n == 1 ? "" : "s", conf.controllers.v[0],
	    conf.controllers.n == 1 ? "" : ", ...", conf.state_dir);
	if (gnoded_not_root(err, sizeof err))
		log_info("node %s: %s", conf.name, err);
	node_user_warm();
	notify_send(NOTIFY_READY, "node %s: %zu GPU%s, controller %s%s, "
	    "state %s", conf.name, node_gpu_count(gpus),
	    node_gpu_count(gpus) == 1 ? "" : "s", conf.controllers.v[0],
	    conf.controllers.n == 1 ? "" : " ...", conf.state_dir);
	event_base_dispatch(base);
	rc = 0;
out:
	node_session_free(session);
	if (ev_term != NULL)
		event_free(ev_term);
	if (ev_int != NULL)
		event_free(ev_int);
	if (ev_hup != NULL)
		event_free(ev_hup);
	if (base != NULL)
		event_base_free(base);
	node_gpu_free(gpus);
	/* The jobs' cgroups stay: jobs outlive gnoded. Their parent goes
	 * when none is left in it. */
	node_cgroup_sys_close(conf.cgroup_sys);
	conf.cgroup_sys = NULL;
	if (o.pid_file != NULL && rc == 0)
		unlink(o.pid_file);
	if (lockfd != -1)
		close(lockfd);
	node_conf_clear(&conf);
	notify_close();
	log_close();
	return (rc);
}
