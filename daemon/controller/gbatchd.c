/* gbatchd.c: the controller's main(): options, settings, start-up in order
 * (store, memory, listeners), the loop, and a clean stop. */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/paths.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/dirmode.h"
#include "daemon/common/hostport.h"
#include "daemon/common/logfile.h"
#include "daemon/common/notify.h"
#include "daemon/common/pidfile.h"
#include "daemon/common/tls-conf.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/job.h"
#include "daemon/controller/listener.h"
#include "daemon/controller/node-health.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer-limit.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/recover.h"
#include "daemon/controller/req.h"
#include "daemon/controller/schedule.h"
#include "daemon/controller/service.h"
#include "daemon/controller/store.h"

/* Longest a stop waits for replies to drain to slow peers. */
#define GBATCHD_STOP_WAIT	3

static struct conf		 gbatchd_settings;
static struct event_base	*gbatchd_base;
static int64_t			 gbatchd_start;
static bool			 gbatchd_stopping;
static struct event		*gbatchd_stop_ev;
static const char		*gbatchd_logfile;
/* What a reload reads again, and the flags that stay over the file. */
static const char		*gbatchd_conf_path;
static bool			 gbatchd_conf_must_exist, gbatchd_debug;
static const char		*gbatchd_opt_socket, *gbatchd_opt_listen;
static const char		*gbatchd_opt_dir;
static int			 gbatchd_ready_fd = -1;

static const struct option gbatchd_longopts[] = {
	{ "check-config", no_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
gbatchd_usage(FILE *f)
{
	fprintf(f,
"usage: gbatchd [-CDv] [-f FILE] [-s SOCKET] [-l HOST:PORT] [-d STATE_DIR]\n"
"               [-L LOGFILE] [-P PIDFILE]\n"
"The gbatch controller: keeps the job queue, schedules jobs onto node\n"
"daemons (gnoded) and answers the commands (gsub, gq, gcancel, ...).\n"
"\n"
"  -D             stay in the foreground and log to stderr (or -L)\n"
"  -f FILE        configuration file (default $GBATCH_CONF, else\n"
"                 " GB_PATH_CONF ")\n"
"  -s SOCKET      Unix socket for commands (controller.socket)\n"
"  -l HOST:PORT   TCP address for node daemons (controller.listen)\n"
"  -d STATE_DIR   directory of the job database (controller.state_dir)\n"
"  -L LOGFILE     log to this file instead of stderr or syslog\n"
"  -P PIDFILE     write the daemon's process id here\n"
"  -v             log debug messages\n"
"  -C, --check-config\n"
"                 check the configuration (file and flags) and exit\n"
"  -h, --help     show this help and exit\n"
"  -V, --version  show the version and exit\n"
"\n"
"Exit status: 0 after a clean stop, 1 when start-up fails (or the\n"
"configuration is not valid), 2 on a usage error. See gbatchd(8).\n");
}

const struct conf *gbatchd_conf(void) { return (&gbatchd_settings); }

/* The TLS context and the files it was made from (tls-conf.h). */
static SSL_CTX		*gbatchd_tls;
static struct tls_conf	 gbatchd_tls_files;

SSL_CTX *
gbatchd_tls_ctx(void)
{
	return (gbatchd_tls);
}

/* Resolves the tls group's files and makes the context; -1 with err. */
static int
gbatchd_tls_open(const struct conf *c, char *err, size_t errlen)
{
	if (!c->tls.enabled)
		return (0);
	if (tls_settings_files(&c->tls, TLS_ROLE_CONTROLLER, NULL,
	    &gbatchd_tls_files, err, errlen) == -1)
		return (-1);
	gbatchd_tls = tls_settings_ctx(&gbatchd_tls_files, TLS_ROLE_CONTROLLER,
	    NULL, err, errlen);
	return (gbatchd_tls == NULL ? -1 : 0);
}
int64_t gbatchd_started(void) { return (gbatchd_start); }

int64_t
gbatchd_now(void)
{
	return ((int64_t)time(NULL));
}

int64_t
gbatchd_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Reports a start-up failure where the user sees it: stderr, or through
 * the pipe to the parent that waits for the daemon to be ready. */
static void __attribute__((noreturn))
gbatchd_fatal(const char *err)
{
	log_error("%s", err);
	if (gbatchd_ready_fd != -1)
		(void)write(gbatchd_ready_fd, err, strlen(err));
	else if (gbatchd_logfile != NULL || gbatchd_ready_fd == -1)
		fprintf(stderr, "gbatchd: %s\n", err);
	exit(EXIT_FAILURE);
}

static void
gbatchd_stop_cb(evutil_socket_t fd, short what, void *arg)
{
	log_warn("gbatchd: peers did not read their replies within %d s",
	    GBATCHD_STOP_WAIT);
	event_base_loopbreak(gbatchd_base);
}

void
gbatchd_stop(const char *why)
{
	struct timeval	tv = { GBATCHD_STOP_WAIT, 0 };

	if (gbatchd_stopping)
		return;
	gbatchd_stopping = true;
	log_info("gbatchd: stopping (%s); running jobs keep running", why);
	service_stopping(why);
	req_stopping = true;
	listener_disable();
	peer_stop_reading_all();
	gbatchd_stop_ev = evtimer_new(gbatchd_base, gbatchd_stop_cb, NULL);
	evtimer_add(gbatchd_stop_ev, &tv);
	commit_want();
}

void
gbatchd_check_stop(void)
{
	if (gbatchd_stopping && !commit_pending() && peer_all_flushed())
		event_base_loopbreak(gbatchd_base);
}

/* The file's settings with the command line's over them. Returns 0, 1
 * when there was no file (defaults stand), or -1 with err set. */
static int
gbatchd_read_conf(struct conf *c, char *err, size_t errlen)
{
	char	why[256];
	int	rc;

	conf_defaults(c);
	if ((rc = conf_load(c, gbatchd_conf_path, gbatchd_conf_must_exist, err,
	    errlen)) == -1)
		return (-1);
	if (gbatchd_opt_socket != NULL)
		conf_set(&c->socket, gbatchd_opt_socket);
	if (gbatchd_opt_listen != NULL) {
		if (hostport_check(gbatchd_opt_listen, 0, why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "-l: %s", why);
			return (-1);
		}
		conf_set(&c->listen, gbatchd_opt_listen);
	}
	if (gbatchd_opt_dir != NULL)
		conf_set(&c->state_dir, gbatchd_opt_dir);
	if (gbatchd_debug)
		c->log_level = LOG_LEVEL_DEBUG;
	return (rc);
}

const char *
gbatchd_conf_file(void)
{
	return (gbatchd_conf_path);
}

int
gbatchd_reconfigure(json_t *changed, json_t *restart, char *err,
    size_t errlen)
{
	struct conf	fresh;
	char		why[1024];

	if (gbatchd_read_conf(&fresh, why, sizeof why) == -1) {
		conf_clear(&fresh);
		snprintf(err, errlen, "%s; the settings in force are unchanged",
		    why);
		log_error("gbatchd: reconfigure: %s", err);
		return (-1);
	}
	/* gctl cert revoke wrote a new CRL: refuse its certificates from
	 * the next handshake on. */
	if (gbatchd_tls != NULL && tls_ctx_reload(gbatchd_tls,
	    &gbatchd_tls_files, why, sizeof why) == -1) {
		conf_clear(&fresh);
		snprintf(err, errlen, "tls: %s; the settings in force are "
		    "unchanged", why);
		log_error("gbatchd: reconfigure: %s", err);
		return (-1);
	}
	conf_apply(&gbatchd_settings, &fresh, changed, restart);
	conf_clear(&fresh);
	log_set_level(gbatchd_settings.log_level);
	/* A reload reopens the audit log: after a rotation, or at its new
	 * path. Failing that, the old file stays in use. */
	if (audit_open(&gbatchd_settings, why, sizeof why) != 0)
		log_error("gbatchd: %s; still writing the audit log where it "
		    "was", why);
	schedule_reconfigure();
	log_info("gbatchd: reloaded %s: %zu setting%s changed%s",
	    gbatchd_conf_path, json_array_size(changed),
	    json_array_size(changed) == 1 ? "" : "s",
	    json_array_size(restart) > 0 ? "; some take effect at the next "
	    "start" : "");
	return (0);
}

static void
gbatchd_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	json_t	*changed, *restart;
	char	 err[1024];
	bool	 ok;

	switch (sig) {
	case SIGHUP:
		/* Log rotation and a reload, as most daemons do. */
		if (gbatchd_logfile != NULL &&
		    logfile_open(gbatchd_logfile) != 0)
			log_error("gbatchd: reopening %s: %s", gbatchd_logfile,
			    strerror(errno));
		changed = json_array();
		restart = json_array();
		service_reloading(gbatchd_conf_path);
		ok = gbatchd_reconfigure(changed, restart, err, sizeof err) == 0;
		service_reloaded(gbatchd_conf_path, ok, json_array_size(changed),
		    err);
		json_decref(changed);
		json_decref(restart);
		break;
	case SIGTERM:
		gbatchd_stop("SIGTERM");
		break;
	case SIGINT:
		gbatchd_stop("SIGINT");
		break;
	}
}

/* mkdir -p path, mode 0755: the state directory, the socket's directory.
 * The error names the directory that could not be made and the setting
 * (what) whose value (from) chose it. */
static int
gbatchd_mkdirs(const char *path, const char *what, const char *from,
    char *err, size_t errlen)
{
	char	*copy = xstrdup(path), *p;

	for (p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "directory %s is missing and "
			    "cannot be created (%s); %s is \"%s\"", copy,
			    strerror(errno), what, from);
			free(copy);
			return (-1);
		}
		if (p[0] == '\0' && path[p - copy] == '\0')
			break;
		*p = '/';
	}
	free(copy);
	return (0);
}

/* Forks; the parent waits until the child is ready or failed, so that
 * `gbatchd` returns 0 only when the daemon is serving. */
static void
gbatchd_daemonize(void)
{
	char	buf[1024];
	ssize_t	n;
	size_t	got = 0;
	int	fds[2], devnull;
	pid_t	pid;

	if (pipe(fds) != 0) {
		fprintf(stderr, "gbatchd: pipe: %s\n", strerror(errno));
		exit(EXIT_FAILURE);
	}
	if ((pid = fork()) == -1) {
		fprintf(stderr, "gbatchd: fork: %s\n", strerror(errno));
		exit(EXIT_FAILURE);
	}
	if (pid != 0) {
		close(fds[1]);
		while (got < sizeof buf - 1 && (n = read(fds[0], buf + got,
		    sizeof buf - 1 - got)) != 0) {
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1)
				break;
			got += (size_t)n;
		}
		if (got == 0)
			_exit(EXIT_SUCCESS);
		buf[got] = '\0';
		fprintf(stderr, "gbatchd: %s\n", buf);
		_exit(EXIT_FAILURE);
	}
	close(fds[0]);
	gbatchd_ready_fd = fds[1];
	setsid();
	if ((devnull = open("/dev/null", O_RDWR)) != -1) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		if (gbatchd_logfile == NULL)
			dup2(devnull, STDERR_FILENO);
		if (devnull > STDERR_FILENO)
			close(devnull);
	}
}

int
main(int argc, char **argv)
{
	struct conf	*c = &gbatchd_settings;
	struct event	*sigs[3];
	const char	*conf_path, *pidfile = NULL;
	char		 err[1024], *addr_file, *sockdir, *p;
	bool		 foreground = false, check = false, must_exist;
	int		 ch, i, found;
	static const int signums[] = { SIGTERM, SIGINT, SIGHUP };

	conf_path = NULL;
	while ((ch = getopt_long(argc, argv, ":CDf:s:l:d:L:P:vhV",
	    gbatchd_longopts, NULL)) != -1) {
		switch (ch) {
		case 'C': check = true; break;
		case 'D': foreground = true; break;
		case 'f': conf_path = optarg; break;
		case 's': gbatchd_opt_socket = optarg; break;
		case 'l': gbatchd_opt_listen = optarg; break;
		case 'd': gbatchd_opt_dir = optarg; break;
		case 'L': gbatchd_logfile = optarg; break;
		case 'P': pidfile = optarg; break;
		case 'v': gbatchd_debug = true; break;
		case 'h':
			gbatchd_usage(stdout);
			return (EXIT_OK);
		case 'V':
			printf("gbatchd (gbatch) %s, protocol %d\n", PACKAGE_VERSION,
			    PROTO_VERSION);
			return (EXIT_OK);
		case ':':
			fprintf(stderr, "gbatchd: option -%c needs a value\n",
			    optopt);
			gbatchd_usage(stderr);
			return (EXIT_USAGE);
		default:
			if (optopt != 0)
				fprintf(stderr, "gbatchd: unknown option -%c\n",
				    optopt);
			else
				fprintf(stderr, "gbatchd: unknown option %s\n",
				    argv[optind - 1]);
			gbatchd_usage(stderr);
			return (EXIT_USAGE);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "gbatchd: unexpected argument \"%s\"; gbatchd "
		    "takes options only\n", argv[optind]);
		gbatchd_usage(stderr);
		return (EXIT_USAGE);
	}
	gbatchd_conf_path = conf_file_path(conf_path, &must_exist);
	gbatchd_conf_must_exist = must_exist;
	if ((found = gbatchd_read_conf(c, err, sizeof err)) == -1) {
		fprintf(stderr, "gbatchd: %s\n", err);
		conf_clear(c);
		return (EXIT_FAILURE);
	}
	if (gbatchd_tls_open(c, err, sizeof err) == -1) {
		fprintf(stderr, "gbatchd: %s\n", err);
		tls_conf_clear(&gbatchd_tls_files);
		conf_clear(c);
		return (EXIT_FAILURE);
	}
	if (check) {
		conf_file_print_ok(stdout, gbatchd_conf_path, found == 0);
		tls_ctx_free(gbatchd_tls);
		tls_conf_clear(&gbatchd_tls_files);
		conf_clear(c);
		return (EXIT_OK);
	}

	if (gbatchd_logfile != NULL && logfile_open(gbatchd_logfile) != 0) {
		fprintf(stderr, "gbatchd: log file %s: %s\n", gbatchd_logfile,
		    strerror(errno));
		return (EXIT_FAILURE);
	}
	if (!foreground)
		gbatchd_daemonize();
	log_open("gbatchd", !foreground && gbatchd_logfile == NULL,
	    c->log_level);
	signal(SIGPIPE, SIG_IGN);
	gbatchd_start = gbatchd_now();

	if (found == 1)
		log_info("gbatchd: no configuration file (no -f, $GBATCH_CONF "
		    "not set, no %s); running on built-in defaults",
		    gbatchd_conf_path);
	if (notify_open(err, sizeof err) != 0)
		log_warn("gbatchd: %s; not telling the service manager", err);
	if (gbatchd_mkdirs(c->state_dir, "controller.state_dir (or -d)",
	    c->state_dir, err, sizeof err) != 0 ||
	    dirmode_limit(c->state_dir, DIRMODE_STATE, err, sizeof err) != 0)
		gbatchd_fatal(err);
	sockdir = xstrdup(c->socket);
	if ((p = strrchr(sockdir, '/')) != NULL && p != sockdir) {
		*p = '\0';
		if (gbatchd_mkdirs(sockdir, "controller.socket (or -s)",
		    c->socket, err, sizeof err) != 0)
			gbatchd_fatal(err);
	}
	free(sockdir);
	if ((gbatchd_base = event_base_new()) == NULL)
		gbatchd_fatal("cannot create the event loop");
	commit_init(gbatchd_base);
	if (audit_open(c, err, sizeof err) != 0)
		gbatchd_fatal(err);
	if (store_open(c->state_dir, c->sync_full, commit_want, err,
	    sizeof err) != 0)
		gbatchd_fatal(err);
	if (recover_load() != 0)
		gbatchd_fatal("cannot read the job database; see the log");
	if (listener_unix(gbatchd_base, c->socket, err, sizeof err) != 0)
		gbatchd_fatal(err);
	addr_file = xasprintf("%s/gbatchd.addr", c->state_dir);
	if (listener_tcp(gbatchd_base, c->listen, addr_file, gbatchd_tls, err,
	    sizeof err) != 0)
		gbatchd_fatal(err);
	node_health_init(gbatchd_base);
	schedule_init(gbatchd_base);
	peer_limit_init(gbatchd_base);
	for (i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(gbatchd_base, signums[i],
		    gbatchd_signal_cb, NULL);
		evsignal_add(sigs[i], NULL);
	}
	if (pidfile != NULL && pidfile_write(pidfile, err, sizeof err) != 0)
		gbatchd_fatal(err);
	log_info("gbatchd %s: serving clients on %s, nodes on %s, store in "
	    "%s", PACKAGE_VERSION, c->socket, c->listen, c->state_dir);
	service_ready(gbatchd_base, c);
	if (gbatchd_ready_fd != -1) {
		close(gbatchd_ready_fd);
		gbatchd_ready_fd = -1;
	}
	schedule_mark_dirty();

	event_base_dispatch(gbatchd_base);

	commit_run();
	listener_free();
	peer_free_all();
	peer_limit_free();
	commit_free();
	/* After the last frame that could refer to it is gone. */
	req_job_list_free();
	node_health_free();
	store_close();
	audit_close();
	for (i = 0; i < 3; i++)
		event_free(sigs[i]);
	if (gbatchd_stop_ev != NULL)
		event_free(gbatchd_stop_ev);
	service_free();
	schedule_free();
	job_free_all();
	node_free_all();
	event_base_free(gbatchd_base);
	if (pidfile != NULL)
		unlink(pidfile);
	/* The address file stays: the next start takes its port again. */
	free(addr_file);
	log_info("gbatchd: stopped");
	notify_close();
	log_close();
	tls_ctx_free(gbatchd_tls);
	tls_conf_clear(&gbatchd_tls_files);
	conf_clear(c);
	return (EXIT_OK);
}
