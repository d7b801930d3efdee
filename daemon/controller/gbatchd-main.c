/* gbatchd-main.c: gbatchd's main(): options, daemonising, signals and the
 * loop; the controller itself starts and stops in gbatchd.c. */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#ifdef HAVE_MALLOPT
#include <malloc.h>
#endif
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/cmd.h"
#include "common/log.h"
#include "common/proto.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/logfile.h"
#include "daemon/common/notify.h"
#include "daemon/common/pidfile.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/replica-seed.h"
#include "daemon/controller/service.h"
#include "daemon/controller/store.h"

/* How the daemon reports: its log file (-L; NULL: syslog, or stderr in
 * the foreground), and the pipe to the parent that waits for it to be
 * ready (-1 once ready, or in the foreground). main() owns it. */
struct gbatchd_run {
	const char	*logfile;
	int		 ready_fd;
	struct service	*service;	/* once ready */
};

static const struct option gbatchd_longopts[] = {
	{ "check-config", no_argument, NULL, 'C' },
	{ "seed", no_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
gbatchd_usage(FILE *f)
{
	fprintf(f,
"usage: gbatchd [-CDv] [--seed] [-f FILE] [-s SOCKET] [-l HOST:PORT]\n"
"               [-d STATE_DIR] [-L LOGFILE] [-P PIDFILE]\n"
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
"  --seed         turn this controller's store (STATE_DIR/gbatch.db) into\n"
"                 the first state of the replica set in\n"
"                 controller.replicas (STATE_DIR/raft.db, to copy to\n"
"                 every other replica) and exit\n"
"  -h, --help     show this help and exit\n"
"  -V, --version  show the version and exit\n"
"\n"
"Exit status: 0 after a clean stop, 1 when start-up fails (or the\n"
"configuration is not valid), 2 on a usage error. See gbatchd(8).\n");
}

static const struct cmd gbatchd_cmd = {
	.name = "gbatchd",
	.usage = gbatchd_usage,
	.shortopts = ":CDf:s:l:d:L:P:vhV",
	.longopts = gbatchd_longopts,
	.protocol = true,
};

/* Reports a start-up failure where the user sees it: stderr, or through
 * the pipe to the parent that waits for the daemon to be ready. */
static void __attribute__((noreturn))
gbatchd_fatal(const struct gbatchd_run *run, const char *err)
{
	log_error("%s", err);
	if (run->ready_fd != -1)
		(void)write(run->ready_fd, err, strlen(err));
	else if (run->logfile != NULL || run->ready_fd == -1)
		fprintf(stderr, "gbatchd: %s\n", err);
	exit(EXIT_FAILURE);
}

/* Set in the environment of a replica that starts itself again. */
#define GBATCHD_RESTARTED	"GBATCHD_RESTARTED"

static void
gbatchd_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	const struct gbatchd_run	*run = arg;
	json_t	*changed, *restart, *notes;
	char	 err[1024];
	bool	 ok;

	switch (sig) {
	case SIGHUP:
		/* Log rotation and a reload, as most daemons do. */
		if (run->logfile != NULL && logfile_open(run->logfile) != 0)
			log_error("gbatchd: reopening %s: %s", run->logfile,
			    strerror(errno));
		changed = json_array();
		restart = json_array();
		notes = json_array();	/* logged as they are made */
		service_reloading(ctx_conf_file());
		ok = gbatchd_reconfigure(changed, restart, notes, err,
		    sizeof err) == 0;
		service_reloaded(run->service, ctx_conf_file(), ok,
		    json_array_size(changed), err);
		json_decref(changed);
		json_decref(restart);
		json_decref(notes);
		break;
	case SIGTERM:
		gbatchd_stop("SIGTERM");
		break;
	case SIGINT:
		gbatchd_stop("SIGINT");
		break;
	}
}

/* Forks; the parent waits until the child is ready or failed, so that
 * `gbatchd` returns 0 only when the daemon is serving. */
static void
gbatchd_daemonize(struct gbatchd_run *run)
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
	run->ready_fd = fds[1];
	setsid();
	if ((devnull = open("/dev/null", O_RDWR)) != -1) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		if (run->logfile == NULL)
			dup2(devnull, STDERR_FILENO);
		if (devnull > STDERR_FILENO)
			close(devnull);
	}
}

/* gbatchd runs for months: what a large listing or a burst of requests
 * borrowed goes back to the system. glibc otherwise raises the free heap
 * it keeps to twice the largest block freed (up to 64 MB): 4 MB for good
 * after one listing of 100,000 jobs.
 *
 * Fixing the trim threshold also fixes the mmap threshold, which glibc
 * would otherwise raise past the blocks it sees freed. Left at 128 KiB,
 * every connection's first read (a 64 KiB reserve, a 128 KiB evbuffer
 * chain) was an mmap and a munmap, with page faults between. Blocks up to
 * 1 MiB (a read, the listing of a few thousand jobs) come from the heap;
 * larger ones are mapped and given back when freed. */
static void
gbatchd_malloc_tune(void)
{
#ifdef HAVE_MALLOPT
	(void)mallopt(M_TRIM_THRESHOLD, 256 * 1024);
	(void)mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
#endif
}

int
main(int argc, char **argv)
{
	struct gbatchd_flags	 flags = { 0 };
	struct event_base	*base;
	struct gbatchd_run	 run = { NULL, -1, NULL };
	struct event		*sigs[3];
	const struct conf	*c;
	const char		*conf_path, *pidfile = NULL;
	char			 err[1024];
	bool			 foreground = false, check = false;
	bool			 seed = false;
	bool			 restarted;
	int			 ch, i, found, r;
	static const int	 signums[] = { SIGTERM, SIGINT, SIGHUP };

	gbatchd_malloc_tune();
	store_tune();
	conf_path = NULL;
	while ((ch = cmd_getopt(&gbatchd_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			return (r);
		case 'C': check = true; break;
		case 'S': seed = true; break;
		case 'D': foreground = true; break;
		case 'f': conf_path = optarg; break;
		case 's': flags.socket = optarg; break;
		case 'l': flags.listen = optarg; break;
		case 'd': flags.state_dir = optarg; break;
		case 'L': run.logfile = optarg; break;
		case 'P': pidfile = optarg; break;
		case 'v': flags.debug = true; break;
		}
	}
	if (optind != argc)
		return (cmd_usage_error(&gbatchd_cmd, "unexpected argument "
		    "\"%s\"; gbatchd takes options only", argv[optind]));
	flags.conf_path = conf_file_path(conf_path, &flags.conf_must_exist);
	if ((found = gbatchd_configure(&flags, err, sizeof err)) == -1) {
		fprintf(stderr, "gbatchd: %s\n", err);
		return (EXIT_FAILURE);
	}
	c = ctx_conf();
	if (check) {
		conf_file_print_ok(stdout, flags.conf_path, found == 0);
		gbatchd_unconfigure();
		return (EXIT_OK);
	}
	if (seed) {
		char	msg[2048];

		r = replica_seed(c, msg, sizeof msg, err, sizeof err);
		if (r == 0)
			printf("gbatchd: %s\n", msg);
		else
			fprintf(stderr, "gbatchd: --seed: %s\n", err);
		gbatchd_unconfigure();
		return (r == 0 ? EXIT_OK : EXIT_FAILURE);
	}

	if (run.logfile != NULL && logfile_open(run.logfile) != 0) {
		fprintf(stderr, "gbatchd: log file %s: %s\n", run.logfile,
		    strerror(errno));
		return (EXIT_FAILURE);
	}
	/* A replica starting itself again (gbatchd_restart) is already a
	 * daemon, with the same pid. */
	restarted = getenv(GBATCHD_RESTARTED) != NULL;
	(void)unsetenv(GBATCHD_RESTARTED);
	if (!foreground && !restarted)
		gbatchd_daemonize(&run);
	log_open("gbatchd", !foreground && run.logfile == NULL,
	    c->log_level);
	signal(SIGPIPE, SIG_IGN);

	if (found == 1)
		log_info("gbatchd: no configuration file (no -f, $GBATCH_CONF "
		    "not set, no %s); running on built-in defaults",
		    flags.conf_path);
	if (notify_open(err, sizeof err) != 0)
		log_warn("gbatchd: %s; not telling the service manager", err);
	if ((base = event_base_new()) == NULL)
		gbatchd_fatal(&run, "cannot create the event loop");
	if (gbatchd_open(base, err, sizeof err) != 0)
		gbatchd_fatal(&run, err);
	for (i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(base, signums[i], gbatchd_signal_cb,
		    &run);
		evsignal_add(sigs[i], NULL);
	}
	if (pidfile != NULL && pidfile_write(pidfile, err, sizeof err) != 0)
		gbatchd_fatal(&run, err);
	log_info("gbatchd %s: serving clients on %s, nodes on %s, store in "
	    "%s", PACKAGE_VERSION, c->socket, c->listen, c->state_dir);
	run.service = service_ready(base, c);
	if (run.ready_fd != -1) {
		close(run.ready_fd);
		run.ready_fd = -1;
	}

	event_base_dispatch(base);

	gbatchd_close();
	service_free(run.service);
	for (i = 0; i < 3; i++)
		event_free(sigs[i]);
	/* The connections gbatchd_close freed finish going: libevent runs a
	 * bufferevent's last release from its loop when a deferred callback
	 * of it is still queued (a TLS connection's can be), and
	 * event_base_free drops what is queued without running it, leaking
	 * the connection and its SSL. Their callbacks are gone already, and
	 * so is every other event. */
	(void)event_base_loop(base, EVLOOP_NONBLOCK);
	event_base_free(base);
	if (pidfile != NULL)
		unlink(pidfile);
	if (gbatchd_restarting()) {
		log_info("gbatchd: starting again");
		log_close();
		gbatchd_unconfigure();
		(void)setenv(GBATCHD_RESTARTED, "1", 1);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "gbatchd: cannot start again: %s\n",
		    strerror(errno));
		return (EXIT_FAILURE);
	}
	log_info("gbatchd: stopped");
	notify_close();
	log_close();
	gbatchd_unconfigure();
	return (EXIT_OK);
}
