/* keys.c: what a key does in gtop (keys.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "client/job-filter.h"
#include "common/label.h"
#include "tui/keys.h"

const char *const keys_help[] = {
	"j, k, Down, Up   move in the pane",
	"Tab              the next pane",
	"/                filter: user=NAME state=STATE[,...]",
	"                 partition=NAME[,...] and words of the job's name",
	"                 (Enter applies, an empty one clears)",
	"u                my jobs only, or everyone's again",
	"s                sort the queues: the scheduler's order, then by id,",
	"                 user, name, gpus, time, attained, and round again",
	"c                cancel the selected job (asks first)",
	"H, R             hold, release the selected job (asks first)",
	"Q                requeue the selected job (operators; asks first)",
	"D, U             drain, resume the node selected in the GPU pane",
	"                 (operators; asks first)",
	"Enter            the selected job: every field, its history, the",
	"                 end of its output (Esc closes; j/k scroll)",
	"w                the GPUs a row per node, or per switch when the",
	"                 nodes do not fit",
	"1, 2, 3          JCT and waits over the last hour, day, week",
	"the mouse        a click selects a pane's row (again: the job's",
	"                 detail), the wheel moves the selection",
	"?                this help (any key closes it)",
	"q                quit",
	NULL
};

static const char keys_normal[] =
    "q quit  ? help  Tab pane  j/k move  Enter job  / filter  u mine  "
    "s sort  c cancel  H/R hold/release  Q requeue  D/U drain/resume  "
    "1/2/3 JCT";

static const char *const keys_verbs[] = {
	[MODEL_CANCEL] = "cancel",
	[MODEL_HOLD] = "hold",
	[MODEL_RELEASE] = "release",
	[MODEL_REQUEUE] = "requeue",
	[MODEL_DRAIN] = "drain",
	[MODEL_RESUME] = "resume",
};

static const char *const keys_done[] = {
	[MODEL_CANCEL] = "cancelled",
	[MODEL_HOLD] = "held",
	[MODEL_RELEASE] = "released",
	[MODEL_REQUEUE] = "requeued",
	[MODEL_DRAIN] = "drained",
	[MODEL_RESUME] = "resumed",
};

const char *
keys_footer(const struct view *v, char *buf, size_t len)
{
	switch (v->mode) {
	case VIEW_CONFIRM:
		snprintf(buf, len, "%s %s %s? y/n", keys_verbs[v->action],
		    v->action_node ? "node" : "job", v->action_name);
		return (buf);
	case VIEW_FILTER:
		snprintf(buf, len, "filter: %s_   (user=NAME state=STATE "
		    "partition=NAME words; Enter applies, Esc leaves)",
		    v->input);
		return (buf);
	default:
		return (v->status[0] != '\0' ? v->status : keys_normal);
	}
}

/* Makes the model's filter from text and v->mine. Returns 0, or -1 with
 * err (the filter in force stays). */
static int
keys_filter(struct view *v, const char *text, char *err, size_t errlen)
{
	struct job_filter	 f;
	char			 copy[sizeof v->input], why[512], *w, *save;
	char			 name[sizeof v->input] = "", *val, *s, *ssave;

	job_filter_init(&f);
	snprintf(copy, sizeof copy, "%s", text);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if ((val = strchr(w, '=')) != NULL &&
		    (strncmp(w, "user=", 5) == 0 || strncmp(w, "u=", 2) == 0)) {
			if (job_filter_add_user(&f, val + 1, why,
			    sizeof why) == -1)
				goto bad;
		} else if (val != NULL && (strncmp(w, "state=", 6) == 0 ||
		    strncmp(w, "s=", 2) == 0)) {
			for (s = strtok_r(val + 1, ",", &ssave); s != NULL;
			    s = strtok_r(NULL, ",", &ssave)) {
				if (job_filter_add_state(&f, s, why,
				    sizeof why) == -1)
					goto bad;
			}
		} else if (val != NULL && (strncmp(w, "partition=", 10) == 0 ||
		    strncmp(w, "p=", 2) == 0)) {
			if (!label_list_ok(val + 1)) {
				snprintf(why, sizeof why, "partition: expected "
				    "partition names joined by ',', got \"%s\"",
				    val + 1);
				goto bad;
			}
			job_filter_set_partitions(&f, val + 1);
		} else {
			/* The name's words, as typed. */
			if (name[0] != '\0')
				strncat(name, " ", sizeof name - strlen(name) -
				    1);
			strncat(name, w, sizeof name - strlen(name) - 1);
		}
	}
	if (v->mine)
		job_filter_add_me(&f);
	job_filter_set_name(&f, name);
	job_filter_clear(&v->m->filter);
	v->m->filter = f;
	snprintf(v->filter, sizeof v->filter, "%s", text);
	v->sel[PANE_QUEUES] = v->top[PANE_QUEUES] = 0;
	return (0);
bad:
	snprintf(err, errlen, "%s", why);
	job_filter_clear(&f);
	return (-1);
}

/* Asks before acting on the selected job. */
static int
keys_ask(struct view *v, enum model_action a)
{
	const struct job_row	*row = pane_queues_selected(v);
	long long		 id;

	if (v->focus != PANE_QUEUES || row == NULL ||
	    jscan_int(&row->v[JF_ID], &id) == -1 || id <= 0) {
		snprintf(v->status, sizeof v->status, "select a job in the "
		    "queues pane first (Tab, j/k)");
		return (PANE_REDRAW);
	}
	v->mode = VIEW_CONFIRM;
	v->action = a;
	v->action_node = false;
	v->action_id = (uint64_t)id;
	/* An array's task is "42_7" to its user, not its own job id. */
	(void)job_row_jobid(row, v->action_name, sizeof v->action_name);
	return (PANE_REDRAW);
}

/* Asks before draining or resuming the node selected in the GPU pane. */
static int
keys_ask_node(struct view *v, enum model_action a)
{
	const struct model_nodes	*nodes = &v->m->nodes;
	int				 s = v->sel[PANE_GPUS];

	/* Not in the summary a row per switch: a row there is no node. */
	if (v->focus != PANE_GPUS || s < 0 || (size_t)s >= nodes->n ||
	    ((int)nodes->n > v->rows[PANE_GPUS] && !v->by_node)) {
		snprintf(v->status, sizeof v->status, "select a node in the "
		    "GPU pane first (Tab, j/k; w for a row per node)");
		return (PANE_REDRAW);
	}
	v->mode = VIEW_CONFIRM;
	v->action = a;
	v->action_node = true;
	v->action_id = 0;
	snprintf(v->action_name, sizeof v->action_name, "%s",
	    nodes->rows[s].name);
	return (PANE_REDRAW);
}

/* Opens the selected job's detail; the next refresh fetches it. */
static int
keys_detail(struct view *v)
{
	const struct job_row	*row = pane_queues_selected(v);
	long long		 id;

	if (v->focus != PANE_QUEUES || row == NULL ||
	    jscan_int(&row->v[JF_ID], &id) == -1 || id <= 0)
		return (0);
	v->mode = VIEW_DETAIL;
	v->detail_id = (uint64_t)id;
	v->detail_top = 0;
	/* Not the last job's detail while this one's is asked for. */
	v->m->job.n = 0;
	v->m->job.missing.type = JSCAN_NONE;
	return (PANE_REDRAW | PANE_REFRESH);
}

static int
keys_confirm(struct view *v, int ch)
{
	v->mode = VIEW_NORMAL;
	if (ch != 'y' && ch != 'Y') {
		snprintf(v->status, sizeof v->status, "%s %s: not %s",
		    v->action_node ? "node" : "job", v->action_name,
		    keys_done[v->action]);
		return (PANE_REDRAW);
	}
	if ((v->action_node ? model_node_action(v->m, v->action_name,
	    v->action, "drained from gtop") : model_job_action(v->m,
	    v->action_id, v->action)) != 0)
		snprintf(v->status, sizeof v->status, "%s %s: %s",
		    v->action_node ? "node" : "job", v->action_name, v->m->err);
	else
		snprintf(v->status, sizeof v->status, "%s %s %s",
		    v->action_node ? "node" : "job", v->action_name,
		    keys_done[v->action]);
	return (PANE_REDRAW | PANE_REFRESH);
}

static int
keys_input(struct view *v, int ch)
{
	size_t	n = strlen(v->input);
	char	err[512];

	switch (ch) {
	case KEYS_ESC:
		v->mode = VIEW_NORMAL;
		return (PANE_REDRAW);
	case KEYS_ENTER:
	case '\n':
		v->mode = VIEW_NORMAL;
		if (keys_filter(v, v->input, err, sizeof err) == -1) {
			snprintf(v->status, sizeof v->status, "filter: %s",
			    err);
			return (PANE_REDRAW);
		}
		return (PANE_REDRAW | PANE_REFRESH);
	case KEYS_BACKSPACE:
	case '\b':
		if (n > 0)
			v->input[n - 1] = '\0';
		return (PANE_REDRAW);
	default:
		if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof v->input) {
			v->input[n] = (char)ch;
			v->input[n + 1] = '\0';
		}
		return (PANE_REDRAW);
	}
}

int
keys_handle(struct view *v, int ch)
{
	const struct pane_ops	*p;
	char			 err[512];

	switch (v->mode) {
	case VIEW_CONFIRM:
		return (keys_confirm(v, ch));
	case VIEW_FILTER:
		return (keys_input(v, ch));
	case VIEW_HELP:
		v->mode = VIEW_NORMAL;
		return (PANE_REDRAW);
	case VIEW_DETAIL:
		if (ch == KEYS_ESC || ch == KEYS_ENTER || ch == '\n' ||
		    ch == KEYS_BACKSPACE) {
			v->mode = VIEW_NORMAL;
			return (PANE_REDRAW);
		}
		if (ch == 'q')
			return (PANE_QUIT);
		return (pane_detail.key(v, ch));
	default:
		break;
	}
	v->status[0] = '\0';
	switch (ch) {
	case 'q':
		return (PANE_QUIT);
	case '\t':
		v->focus = (enum pane_id)((v->focus + 1) % PANE_COUNT);
		return (PANE_REDRAW);
	case '?':
		v->mode = VIEW_HELP;
		return (PANE_REDRAW);
	case '/':
		v->mode = VIEW_FILTER;
		snprintf(v->input, sizeof v->input, "%s", v->filter);
		return (PANE_REDRAW);
	case 'u':
		v->mine = !v->mine;
		if (keys_filter(v, v->filter, err, sizeof err) == -1) {
			v->mine = !v->mine;
			snprintf(v->status, sizeof v->status, "%s", err);
			return (PANE_REDRAW);
		}
		return (PANE_REDRAW | PANE_REFRESH);
	case KEYS_ENTER:
	case '\n':
		return (keys_detail(v));
	case 'w':
		return (pane_gpus.key(v, ch));
	case 's':
		v->sort = (v->sort + 1) % PANE_QUEUES_NSORTS;
		snprintf(v->status, sizeof v->status, "queues by %s",
		    pane_queues_sorts[v->sort]);
		return (PANE_REDRAW);
	case '1':
	case '2':
	case '3':
		v->window = ch - '1';
		v->acct_stale = true;
		return (PANE_REDRAW | PANE_REFRESH);
	case 'c':
		return (keys_ask(v, MODEL_CANCEL));
	case 'H':
		return (keys_ask(v, MODEL_HOLD));
	case 'R':
		return (keys_ask(v, MODEL_RELEASE));
	case 'Q':
		return (keys_ask(v, MODEL_REQUEUE));
	case 'D':
		return (keys_ask_node(v, MODEL_DRAIN));
	case 'U':
		return (keys_ask_node(v, MODEL_RESUME));
	default:
		break;
	}
	p = v->focus == PANE_QUEUES ? &pane_queues : &pane_gpus;
	return (p->key(v, ch));
}

static bool
keys_inside(const struct rect *r, int y, int x)
{
	return (r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x &&
	    x < r->x + r->w);
}

int
keys_mouse(struct view *v, int y, int x, enum keys_button b)
{
	const struct layout	*l = &v->layout;
	enum pane_id		 p;
	int			 first, row;

	if (v->mode != VIEW_NORMAL || l->too_small)
		return (0);
	if (keys_inside(&l->queues, y, x)) {
		p = PANE_QUEUES;
		/* The title and the heading come before the rows. */
		first = l->queues.y + 2;
	} else if (keys_inside(&l->gpus, y, x)) {
		p = PANE_GPUS;
		first = l->gpus.y + 1;
	} else
		return (0);
	v->status[0] = '\0';
	if (b != KEYS_CLICK) {
		v->focus = p;
		return (keys_handle(v, b == KEYS_WHEEL_UP ? 'k' : 'j'));
	}
	if (y < first) {
		v->focus = p;
		return (PANE_REDRAW);
	}
	row = v->top[p] + (y - first);
	if (row >= v->items[p])
		return (PANE_REDRAW);
	/* A second click on the selected job: its detail. */
	if (p == PANE_QUEUES && v->focus == p && row == v->sel[p])
		return (keys_handle(v, KEYS_ENTER));
	v->focus = p;
	return (pane_move(v, p, row - v->sel[p], v->items[p]));
}
