/* gtop: the dashboard admins keep open (htop's and nvtop's counterpart for
 * the cluster): the header, the queues and the GPUs, refreshed every few
 * seconds through client/'s model. Keys: arrows or j/k move, Tab changes
 * pane, q quits. --once prints one frame as text and exits. */
#include <sys/ioctl.h>

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/model.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "tui/keys.h"
#include "tui/screen.h"
#include "tui/ui.h"

#define GTOP_DELAY_DEFAULT	2
#define GTOP_DELAY_MAX		3600
/* --once without a terminal or COLUMNS: as wide as this. */
#define GTOP_ONCE_WIDTH		120

#define GTOP_IDLE_DEFAULT	300
#define GTOP_IDLE_MAX		86400

enum {
	GTOP_OPT_ONCE = 256,
	GTOP_OPT_IDLE,
	GTOP_OPT_NO_COLOR,
	GTOP_OPT_HELP,
};

static const struct option gtop_longopts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "once", no_argument, NULL, GTOP_OPT_ONCE },
	{ "no-color", no_argument, NULL, GTOP_OPT_NO_COLOR },
	{ "idle-after", required_argument, NULL, GTOP_OPT_IDLE },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, GTOP_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static volatile sig_atomic_t	gtop_quit;

static void
gtop_usage(FILE *f)
{
	fprintf(f,
"usage: gtop [options]\n"
"The cluster at a glance: nodes, a GPU meter, the jobs by queue level and\n"
"a cell per GPU showing the job that holds it, refreshed every few\n"
"seconds. When gbatchd stops answering, the header says so and gtop keeps\n"
"trying.\n"
"\n"
"  -d, --delay SECONDS       between refreshes (default %d, 1 to %d)\n"
"      --once                print one frame as text and exit (for scripts\n"
"                            and mail); as wide as the terminal, or\n"
"                            $COLUMNS, or %d, and as tall as it needs\n"
"      --no-color            no colours (also when NO_COLOR is set)\n"
"      --idle-after SECONDS  flag a GPU its job has held under 5%% busy\n"
"                            this long (default %d, 1 to %d)\n"
"      --timeout SECONDS     how long each refresh waits for gbatchd\n"
"                            (default 10, or GBATCH_TIMEOUT; 0 for ever)\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"Keys: q quits, ? lists the others: Tab, j/k, Enter shows a job, /\n"
"filters, u my jobs, c cancels, H and R hold and release, Q requeues,\n"
"D and U drain and resume the node selected in the GPU pane (each asks\n"
"first), 1 2 3 the JCT window (hour, day, week).\n"
"\n"
"Exit status: 0 ok, 2 usage error, 3 (with --once) cannot reach gbatchd,\n"
"4 (with --once) permission denied.\n", GTOP_DELAY_DEFAULT, GTOP_DELAY_MAX,
	    GTOP_ONCE_WIDTH, GTOP_IDLE_DEFAULT, GTOP_IDLE_MAX);
}

static const struct cmd gtop_cmd = {
	.name = "gtop",
	.usage = gtop_usage,
	.shortopts = ":d:V",
	.longopts = gtop_longopts,
};

static void
gtop_signal(int sig)
{
	(void)sig;
	gtop_quit = 1;
}

/* The reports (JCT, waits) cost more than a listing: asked this often. */
#define GTOP_ACCT_EVERY	30

/* Midnight today, local time. */
static int64_t
gtop_midnight(time_t now)
{
	struct tm	tm;

	if (localtime_r(&now, &tm) == NULL)
		return (now - now % 86400);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return ((int64_t)mktime(&tm));
}

/* Asks for the cluster reports when they are old or the window changed. */
static int
gtop_refresh_acct(struct view *v)
{
	struct model	*m = v->m;
	time_t		 now = time(NULL);
	int		 r;

	if (!v->acct_stale && m->acct[MODEL_ACCT_WINDOW] != NULL &&
	    now - m->acct_at[MODEL_ACCT_WINDOW] < GTOP_ACCT_EVERY)
		return (0);
	v->acct_stale = false;
	if ((r = model_refresh_ping(m)) != 0 ||
	    (r = model_refresh_assoc(m)) != 0 ||
	    (r = model_refresh_acct(m, MODEL_ACCT_WINDOW, now -
	    pane_jct_windows[v->window], PANE_JCT_BINS)) != 0 ||
	    (r = model_refresh_acct(m, MODEL_ACCT_HOUR, now - 3600, 0)) != 0)
		return (r);
	return (model_refresh_acct(m, MODEL_ACCT_TODAY, gtop_midnight(now),
	    0));
}

/* Asks the controller for what the panes show. Returns the model's
 * status. */
static int
gtop_refresh(struct view *v)
{
	int	r;

	if ((r = model_refresh_jobs(v->m, pane_queues_fields())) != 0)
		return (r);
	if (v->mode == VIEW_DETAIL &&
	    (r = model_refresh_job(v->m, v->detail_id)) != 0)
		return (r);
	if ((r = gtop_refresh_acct(v)) != 0)
		return (r);
	return (model_refresh_nodes(v->m, true));
}

/* The width --once draws at. */
static int
gtop_once_width(void)
{
	struct winsize	 ws;
	const char	*cols = getenv("COLUMNS");
	long		 n;
	char		*end;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return (ws.ws_col);
	if (cols != NULL) {
		errno = 0;
		n = strtol(cols, &end, 10);
		if (errno == 0 && *end == '\0' && n > 0 && n <= 1000)
			return ((int)n);
	}
	return (GTOP_ONCE_WIDTH);
}

static int
gtop_once(struct view *v)
{
	struct grid	*g;
	char		*line;
	size_t		 len;
	int		 r, w = gtop_once_width(), h, y, last = 0;
	bool		 blank = false;

	r = gtop_refresh(v);
	v->now = time(NULL);
	h = screen_full_height(v, w);
	g = grid_new(h, w);
	screen_draw(g, v);
	len = (size_t)w * 5 + 1;
	line = malloc(len);
	if (line == NULL) {
		grid_free(g);
		return (EXIT_USAGE);
	}
	/* Rows after the last one with text are left out, and a run of
	 * empty rows (a pane's room its rows do not fill: the frame is
	 * sized so that every pane fits) prints as one. */
	for (y = 0; y < h; y++) {
		if (grid_row(g, y, line, len)[0] != '\0')
			last = y + 1;
	}
	for (y = 0; y < last; y++) {
		if (grid_row(g, y, line, len)[0] == '\0' && blank)
			continue;
		blank = line[0] == '\0';
		printf("%s\n", line);
	}
	free(line);
	grid_free(g);
	if (r != 0)
		fprintf(stderr, "gtop: %s\n", v->m->err);
	return (r);
}

static void
gtop_run(struct view *v, bool mono)
{
	struct sigaction	 sa;
	struct grid		*g = NULL;
	time_t			 next = 0;
	int			 h, w, ch, flags, my, mx, mb;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = gtop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ui_start(mono);
	while (!gtop_quit) {
		v->now = time(NULL);
		if (v->now >= next) {
			(void)gtop_refresh(v);
			v->now = time(NULL);
			next = v->now + (time_t)v->interval;
		}
		ui_size(&h, &w);
		if (g == NULL || g->h != h || g->w != w) {
			grid_free(g);
			g = grid_new(h, w);
		}
		screen_draw(g, v);
		ui_show(g);
		ch = ui_key((int)(next - time(NULL)) * 1000);
		if (ch == -1 || ch == UI_RESIZE)
			continue;
		if (ch == UI_MOUSE) {
			ui_mouse(&my, &mx, &mb);
			flags = keys_mouse(v, my, mx, mb == 1 ? KEYS_WHEEL_UP :
			    mb == 2 ? KEYS_WHEEL_DOWN : KEYS_CLICK);
		} else
			flags = keys_handle(v, ch);
		if (flags & PANE_QUIT)
			break;
		if (flags & PANE_REFRESH)
			next = 0;
	}
	ui_stop();
	grid_free(g);
}

int
main(int argc, char **argv)
{
	struct model	 m;
	struct view	 v;
	const char	*timeout_arg = NULL;
	char		 err[1024], *end;
	unsigned	 timeout;
	long		 n;
	bool		 once = false, mono = false;
	int		 ch, r = EXIT_USAGE;

	setlocale(LC_ALL, "");
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	memset(&v, 0, sizeof v);
	v.m = &m;
	/* Block elements only where the terminal's charset has them. */
	v.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	v.interval = GTOP_DELAY_DEFAULT;
	v.idle_after = GTOP_IDLE_DEFAULT;
	while ((ch = cmd_getopt(&gtop_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'd':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || end == optarg ||
			    n < 1 || n > GTOP_DELAY_MAX) {
				snprintf(err, sizeof err, "--delay: expected "
				    "whole seconds from 1 to %d, got \"%s\"",
				    GTOP_DELAY_MAX, optarg);
				goto usage;
			}
			v.interval = (unsigned)n;
			break;
		case GTOP_OPT_ONCE:
			once = true;
			break;
		case GTOP_OPT_IDLE:
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || end == optarg ||
			    n < 1 || n > GTOP_IDLE_MAX) {
				snprintf(err, sizeof err, "--idle-after: expected "
				    "whole seconds from 1 to %d, got \"%s\"",
				    GTOP_IDLE_MAX, optarg);
				goto usage;
			}
			v.idle_after = (unsigned)n;
			break;
		case GTOP_OPT_NO_COLOR:
			mono = true;
			break;
		case CMD_OPT_TIMEOUT:
			timeout_arg = optarg;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"; gtop "
		    "takes options only", argv[optind]);
		goto usage;
	}
	if (cmd_timeout(timeout_arg, &timeout, err, sizeof err) == -1)
		goto usage;
	model_set_timeout(&m, timeout);
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR") != '\0')
		mono = true;
	if (once) {
		v.interval = 0;
		v.once = true;
		r = gtop_once(&v);
		goto out;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, sizeof err, "gtop needs a terminal; use --once "
		    "for a frame as text");
		goto usage;
	}
	gtop_run(&v, mono);
	r = EXIT_OK;
	goto out;

usage:
	r = cmd_usage_error(&gtop_cmd, "%s", err);
out:
	model_free(&m);
	return (r);
}
