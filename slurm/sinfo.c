/* sinfo (slurm-compat): nodes as Slurm's sinfo prints them: a line per
 * partition and node state (or per node and partition with -N), the
 * default partition marked *, -h, -p, -o with Slurm's field codes. The
 * partitions are gbatch.conf's (CONFIG_SHOW's), or gbatch's one, "gbatch",
 * of every node. gbatch's own view is gnodes. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/model.h"
#include "client/slurm-part.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "slurm/slurm-fmt.h"

#define SINFO_DEFAULT	"%9P %.5a %.10l %.6D %.6t %N"
#define SINFO_NODES	"%N %.6D %.9P %.6t"
#define SINFO_ITEMS	64
#define SINFO_FIELDS	"PalDtTNnGEcmFsrhgdwfzuH"
/* Slurm's -s, -l, -N -l and -R columns. */
#define SINFO_SUMMARY	"%9P %.5a %.10l %.16F  %N"
#define SINFO_LONG	"%9P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N"
#define SINFO_NODES_LONG	"%N %.6D %.9P %.11T %.4c %.8z %.6m %.8d %.6w %.8f %20E"
#define SINFO_REASONS	"%20E %9u %19H %N"

/* -O/--Format's names of the fields, as Slurm's. */
static const struct slurm_long_field sinfo_long_fields[] = {
	{ "PartitionName", 'P' }, { "Partition", 'P' },
	{ "Available", 'a' }, { "Time", 'l' }, { "Nodes", 'D' },
	{ "StateCompact", 't' }, { "StateLong", 'T' }, { "NodeList", 'N' },
	{ "NodeHost", 'n' }, { "Gres", 'G' }, { "Reason", 'E' },
	{ "CPUs", 'c' }, { "Memory", 'm' }, { "NodeAIOT", 'F' },
	{ "Size", 's' }, { "Root", 'r' }, { "OverSubscribe", 'h' },
	{ "Groups", 'g' }, { "Disk", 'd' }, { "Weight", 'w' },
	{ "Features", 'f' }, { "SocketCoreThread", 'z' }, { "User", 'u' },
	{ "Timestamp", 'H' },
};

enum {
	SINFO_OPT_HELP = 256,
};

/* How nodes are grouped into lines. */
enum sinfo_group {
	SINFO_BY_STATE,		/* the default: a line per state */
	SINFO_BY_NODE,		/* -N */
	SINFO_ALL,		/* -s: one line */
	SINFO_BY_REASON,	/* -R: drained and down nodes, per reason */
};

/* How lines print: the format's items, the letters of its fields, and
 * how nodes are grouped into lines. */
struct sinfo_fmt {
	const struct slurm_item	*items;
	int			 n;
	char			 shown[SINFO_ITEMS + 1];
	enum sinfo_group	 how;
};

static const struct option sinfo_longopts[] = {
	{ "Node", no_argument, NULL, 'N' },
	{ "noheader", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, 'o' },
	{ "Format", required_argument, NULL, 'O' },
	{ "long", no_argument, NULL, 'l' },
	{ "summarize", no_argument, NULL, 's' },
	{ "list-reasons", no_argument, NULL, 'R' },
	{ "states", required_argument, NULL, 't' },
	{ "nodes", required_argument, NULL, 'n' },
	{ "all", no_argument, NULL, 'a' },
	{ "partition", required_argument, NULL, 'p' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, SINFO_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
sinfo_usage(FILE *f)
{
	fprintf(f,
"usage: sinfo [options]\n"
"gbatch's nodes as Slurm's sinfo prints them (slurm-compat; gnodes is\n"
"gbatch's own): a line per partition and node state, the default\n"
"partition marked * (gbatch without partitions has one, gbatch).\n"
"\n"
"  -N, --Node             a line per node (and partition)\n"
"  -h, --noheader         no header line\n"
"  -n, --nodes NODE[,NODE]  these nodes\n"
"  -o, --format FORMAT    fields as %%[.][WIDTH]CODE: %%P partition, %%a\n"
"                         availability, %%l its time limit, %%D nodes, %%t state\n"
"                         (idle, mix, alloc, drain, down), %%T state in\n"
"                         full, %%N node list, %%n node names, %%G GPUs\n"
"                         (gpu:N), %%E reason, %%c CPUs, %%m memory (MB),\n"
"                         %%F nodes allocated/idle/other/total\n"
"                         (default \"%s\", with -N\n"
"                         \"%s\")\n"
"  -O, --Format NAME[:[.]WIDTH][,...]  fields by Slurm's names (at least\n"
"                         WIDTH wide, 20): PartitionName, Available, Time,\n"
"                         Nodes, StateCompact, StateLong, NodeList, Gres,\n"
"                         Reason, CPUs, Memory, NodeAIOT, ...\n"
"  -l, --long             Slurm's long columns, under the time of the call\n"
"  -s, --summarize        a line per partition: nodes\n"
"                         allocated/idle/other/total\n"
"  -R, --list-reasons     drained and down nodes with their reasons\n"
"  -t, --states STATE[,STATE]  nodes in these states: idle, mix(ed),\n"
"                         alloc(ated), drain(ed), down\n"
"  -p, --partition NAME[,NAME]  these partitions only\n"
"  -a, --all              accepted: every partition is shown anyway\n"
"      --timeout SECONDS  how long to wait for gbatchd (default 10)\n"
"      --help             this help\n"
"  -V, --version          print the version\n"
"\n"
"Exit status: 0 ok, 2 usage error, 3 cannot reach gbatchd.\n",
	    SINFO_DEFAULT, SINFO_NODES);
}

static const struct cmd sinfo_cmd = {
	.name = "sinfo",
	.usage = sinfo_usage,
	.shortopts = ":Nhn:o:O:lsRt:ap:V",
	.longopts = sinfo_longopts,
};

/* Slurm's names of a gbatch node state: compact, and in full. */
static const char *
sinfo_state(const char *s, bool full)
{
	static const struct {
		const char	*gbatch, *code, *name;
	} map[] = {
		{ "idle", "idle", "idle" },
		{ "mixed", "mix", "mixed" },
		{ "allocated", "alloc", "allocated" },
		{ "drained", "drain", "drained" },
		{ "down", "down", "down" },
		{ "reserved", "resv", "reserved" },
		{ "maint", "maint", "maint" },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcmp(s, map[i].gbatch) == 0)
			return (full ? map[i].name : map[i].code);
	}
	return ("unknown");
}

static const char *
sinfo_header(char c)
{
	switch (c) {
	case 'P': return ("PARTITION");
	case 'a': return ("AVAIL");
	case 'l': return ("TIMELIMIT");
	case 'D': return ("NODES");
	case 't': return ("STATE");
	case 'T': return ("STATE");
	case 'N': return ("NODELIST");
	case 'n': return ("HOSTNAMES");
	case 'G': return ("GRES");
	case 'E': return ("REASON");
	case 'c': return ("CPUS");
	case 'm': return ("MEMORY");
	case 'F': return ("NODES(A/I/O/T)");
	case 's': return ("JOB_SIZE");
	case 'r': return ("ROOT");
	case 'h': return ("OVERSUBS");
	case 'g': return ("GROUPS");
	case 'd': return ("TMP_DISK");
	case 'w': return ("WEIGHT");
	case 'f': return ("AVAIL_FEATURES");
	case 'z': return ("S:C:T");
	case 'u': return ("USER");
	case 'H': return ("TIMESTAMP");
	default: return ("");
	}
}

/* The fields whose value is the same for every gbatch node: what holds of
 * gbatch (any job size, no root-only partition, no oversubscription, all
 * groups, no scratch disk, one weight, no features), and Unknown for what
 * gbatch does not know (sockets, who drained a node and when). */
static const char *
sinfo_constant(char c)
{
	static const struct {
		char		 field;
		const char	*value;
	} consts[] = {
		{ 's', "1-infinite" }, { 'r', "no" }, { 'h', "NO" },
		{ 'g', "all" }, { 'd', "0" }, { 'w', "1" }, { 'f', "(null)" },
		{ 'z', "Unknown" }, { 'u', "Unknown" }, { 'H', "Unknown" },
	};
	size_t	i;

	for (i = 0; i < sizeof consts / sizeof consts[0]; i++) {
		if (consts[i].field == c)
			return (consts[i].value);
	}
	return ("");
}

/* %F: the nodes allocated (or mixed), idle, other (drained, down) and
 * in all. */
static void
sinfo_aiot(const struct model_node *const *rows, size_t n, char *buf,
    size_t len)
{
	size_t	i, a = 0, idle = 0, o = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(rows[i]->state, "allocated") == 0 ||
		    strcmp(rows[i]->state, "mixed") == 0)
			a++;
		else if (strcmp(rows[i]->state, "idle") == 0)
			idle++;
		else
			o++;
	}
	snprintf(buf, len, "%zu/%zu/%zu/%zu", a, idle, o, n);
}

/* -t's states, as gbatch names a node's: Slurm's names and codes,
 * upper or lower case, into the list arg. */
static int
sinfo_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	static const struct {
		const char	*slurm, *gbatch;
	} map[] = {
		{ "idle", "idle" }, { "mix", "mixed" }, { "mixed", "mixed" },
		{ "alloc", "allocated" }, { "allocated", "allocated" },
		{ "drain", "drained" }, { "drained", "drained" },
		{ "draining", "drained" }, { "down", "down" },
		{ "resv", "reserved" }, { "reserved", "reserved" },
		{ "maint", "maint" },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcasecmp(item, map[i].slurm) == 0) {
			json_array_append_new(arg, json_string(map[i].gbatch));
			return (0);
		}
	}
	snprintf(err, errlen, "--states: unknown state \"%s\"; expected idle, "
	    "mix, alloc, drain, down, resv or maint", item);
	return (-1);
}

/* Whether node r belongs in -R's list: drained or down, or with a
 * reason. */
static bool
sinfo_has_reason(const struct model_node *r)
{
	return (*r->reason != '\0' || strcmp(r->state, "drained") == 0 ||
	    strcmp(r->state, "down") == 0);
}

/* Whether a and b share a line when grouped by how: -s, all; -R, those
 * of one reason; by default, as Slurm's, those that agree on each field
 * of a node the format shows (of the letters in shown: its state, GPUs,
 * reason, CPUs and memory), so that "sinfo -o %P" has a line per
 * partition. */
static bool
sinfo_same(enum sinfo_group how, const char *shown,
    const struct model_node *a, const struct model_node *b)
{
	switch (how) {
	case SINFO_ALL:
		return (true);
	case SINFO_BY_REASON:
		return (strcmp(a->reason, b->reason) == 0);
	case SINFO_BY_STATE:
	case SINFO_BY_NODE:
		break;
	}
	return ((strpbrk(shown, "tT") == NULL || strcmp(a->state,
	    b->state) == 0) && (strchr(shown, 'G') == NULL ||
	    a->gpus_total == b->gpus_total) && (strchr(shown, 'E') == NULL ||
	    strcmp(a->reason, b->reason) == 0) && (strchr(shown, 'c') == NULL ||
	    a->cpus_total == b->cpus_total) && (strchr(shown, 'm') == NULL ||
	    a->mem_total == b->mem_total));
}

/* The value of field c for a line of partition p and the nodes rows[0..n),
 * which share their state; n is 0 for a partition none of whose nodes is
 * listed, as Slurm's "0 n/a" line. */
static void
sinfo_value(char c, const struct slurm_part *p,
    const struct model_node *const *rows, size_t n, char *buf, size_t len)
{
	size_t	i, at;

	buf[0] = '\0';
	switch (c) {
	case 'P':
		/* The default partition, as Slurm marks it. */
		snprintf(buf, len, "%s%s", p->name, p->is_default ? "*" : "");
		return;
	case 'a':
		snprintf(buf, len, "up");
		return;
	case 'l':
		if (p->max_time == 0)
			snprintf(buf, len, "infinite");
		else
			slurm_fmt_duration(p->max_time, true, buf, len);
		return;
	case 'D':
		snprintf(buf, len, "%zu", n);
		return;
	case 'F':
		sinfo_aiot(rows, n, buf, len);
		return;
	case 'N':
	case 'n':
		for (i = 0, at = 0; i < n && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
			    i > 0 ? "," : "", rows[i]->name);
		return;
	}
	if (n == 0) {
		snprintf(buf, len, "%s", c == 't' || c == 'T' ? "n/a" : c ==
		    'G' ? "(null)" : c == 'E' ? "none" : c == 'c' || c == 'm' ?
		    "0" : sinfo_constant(c));
		return;
	}
	switch (c) {
	case 't':
	case 'T':
		snprintf(buf, len, "%s", sinfo_state(rows[0]->state, c == 'T'));
		break;
	case 'G':
		snprintf(buf, len, "gpu:%lld", rows[0]->gpus_total);
		break;
	case 'E':
		snprintf(buf, len, "%s", *rows[0]->reason != '\0' ?
		    rows[0]->reason : "none");
		break;
	case 'c':
		snprintf(buf, len, "%lld", rows[0]->cpus_total >= 0 ?
		    rows[0]->cpus_total : 0);
		break;
	case 'm':
		snprintf(buf, len, "%lld", rows[0]->mem_total >= 0 ?
		    rows[0]->mem_total : 0);
		break;
	default:
		snprintf(buf, len, "%s", sinfo_constant(c));
		break;
	}
}

static void
sinfo_line(const struct sinfo_fmt *f, const struct slurm_part *p,
    const struct model_node *const *rows, size_t n)
{
	static struct slurm_line	line;
	char	buf[8192], safe[8400];
	int	k;

	for (k = 0; k < f->n; k++) {
		sinfo_value(f->items[k].field, p, rows, n, buf, sizeof buf);
		slurm_fmt_line_put(&line, &f->items[k], safe_text_str(buf,
		    safe, sizeof safe));
	}
	slurm_fmt_line_end(&line, stdout);
}

/* What the lines are made of: the nodes listed (-n, -t, -R), and each
 * node once per partition it is listed under. */
struct sinfo_list {
	const struct model_node	**node;
	const struct slurm_part	**part;
	size_t			  n;
};

static void
sinfo_list_add(struct sinfo_list *l, const struct model_node *n,
    const struct slurm_part *p)
{
	l->node[l->n] = n;
	l->part[l->n++] = p;
}

/* Whether node is listed under partition p: p is one -p selects (want),
 * and holds it. */
static bool
sinfo_listed(const struct slurm_parts *ps, const json_t *want,
    const struct model_node *node, const struct slurm_part *p)
{
	return (cmd_list_has(want, p->name) && slurm_part_node_in(ps,
	    node->partitions, p));
}

/* The entries of l, in the order Slurm's sinfo sorts its lines: by
 * partition in gbatch.conf's order (by node with -N, by_node, then
 * partition), each node of sel under each partition that holds it and
 * -p (want) selects. Where the format shows nothing of a partition (split
 * false), a node is listed once, under the first. */
static void
sinfo_list_build(struct sinfo_list *l, const struct slurm_parts *ps,
    const json_t *want, const struct model_node *const *sel, size_t nsel,
    bool split, bool by_node)
{
	size_t	i, k;

	l->n = 0;
	l->node = xcalloc(nsel * ps->n + 1, sizeof *l->node);
	l->part = xcalloc(nsel * ps->n + 1, sizeof *l->part);
	if (!split || by_node) {
		for (i = 0; i < nsel; i++) {
			for (k = 0; k < ps->n; k++) {
				if (!sinfo_listed(ps, want, sel[i], &ps->v[k]))
					continue;
				sinfo_list_add(l, sel[i], &ps->v[k]);
				if (!split)
					break;
			}
		}
		return;
	}
	for (k = 0; k < ps->n; k++) {
		for (i = 0; i < nsel; i++) {
			if (sinfo_listed(ps, want, sel[i], &ps->v[k]))
				sinfo_list_add(l, sel[i], &ps->v[k]);
		}
	}
}

static void
sinfo_list_free(struct sinfo_list *l)
{
	free(l->node);
	free(l->part);
}

/* Prints the lines of the entries l[from..to): one per entry (-N), or one
 * per group of those that share a line grouped by how, in the order
 * groups first show. */
static void
sinfo_print_run(const struct sinfo_list *l, size_t from, size_t to,
    const struct sinfo_fmt *f, const struct model_node **group, bool *done)
{
	size_t	k, j, ng;

	for (k = from; k < to; k++) {
		if (f->how == SINFO_BY_NODE) {
			sinfo_line(f, l->part[k], &l->node[k], 1);
			continue;
		}
		if (done[k])
			continue;
		for (j = k, ng = 0; j < to; j++) {
			if (!done[j] && sinfo_same(f->how, f->shown,
			    l->node[j], l->node[k])) {
				done[j] = true;
				group[ng++] = l->node[j];
			}
		}
		sinfo_line(f, l->part[k], group, ng);
	}
}

/* Prints the lines of l (sinfo_list_build's): where split (and not -N),
 * partition by partition, each with a line for each group of its nodes
 * and, where empty is true, as Slurm's, one for a partition -p selects
 * (want) none of whose nodes is listed; otherwise all of l as one run. */
static void
sinfo_print(const struct sinfo_list *l, const struct slurm_parts *ps,
    const json_t *want, const struct sinfo_fmt *f, bool split, bool empty)
{
	const struct model_node	**group;
	bool			 *done;
	size_t			  k, from = 0, to;

	group = xcalloc(l->n + 1, sizeof *group);
	done = xcalloc(l->n + 1, sizeof *done);
	if (!split || f->how == SINFO_BY_NODE)
		sinfo_print_run(l, 0, l->n, f, group, done);
	for (k = 0; split && f->how != SINFO_BY_NODE && k < ps->n; k++) {
		for (to = from; to < l->n && l->part[to] == &ps->v[k]; to++)
			;
		if (to > from)
			sinfo_print_run(l, from, to, f, group, done);
		else if (empty && cmd_list_has(want, ps->v[k].name))
			sinfo_line(f, &ps->v[k], NULL, 0);
		from = to;
	}
	free(group);
	free(done);
}

int
main(int argc, char **argv)
{
	struct slurm_item	  items[SINFO_ITEMS];
	struct sinfo_fmt	  f;
	struct model		  m;
	struct slurm_parts	  ps = { 0 };
	struct sinfo_list	  l = { 0 };
	const struct model_node	**sel = NULL;
	json_t			 *names = json_array(), *states = json_array();
	json_t			 *parts = json_array();
	const char		 *fmt = NULL, *topt = NULL;
	char			  err[1024], why[768];
	unsigned		  timeout;
	const char		 *long_fmt = NULL;
	enum sinfo_group	  how = SINFO_BY_STATE;
	bool			  header = true, per_node = false, split;
	bool			  dated = false, longer = false;
	int			  ch, n, i, r = EXIT_USAGE;
	size_t			  k, nsel = 0;

	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	while ((ch = cmd_getopt(&sinfo_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'N':
			per_node = true;
			break;
		case 'h':
			header = false;
			break;
		case 'n':
			if (cmd_split(optarg, "--nodes", cmd_add_string, names,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'o':
			fmt = optarg;
			break;
		case 'O':
			long_fmt = optarg;
			break;
		case 'l':
			longer = true;
			break;
		case 's':
			how = SINFO_ALL;
			break;
		case 'R':
			how = SINFO_BY_REASON;
			break;
		case 't':
			if (cmd_split(optarg, "--states", sinfo_add_state,
			    states, err, sizeof err) == -1)
				goto usage;
			break;
		case 'a':
			break;
		case 'p':
			if (cmd_split(optarg, "--partition", cmd_add_string,
			    parts, err, sizeof err) == -1)
				goto usage;
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"",
		    argv[optind]);
		goto usage;
	}
	if (per_node && how == SINFO_BY_STATE)
		how = SINFO_BY_NODE;
	if (fmt == NULL) {
		dated = longer;
		fmt = how == SINFO_ALL ? SINFO_SUMMARY : how ==
		    SINFO_BY_REASON ? SINFO_REASONS : how == SINFO_BY_NODE ?
		    (longer ? SINFO_NODES_LONG : SINFO_NODES) : longer ?
		    SINFO_LONG : SINFO_DEFAULT;
	}
	if ((n = long_fmt != NULL ? slurm_fmt_parse_long(long_fmt, "sinfo",
	    sinfo_long_fields, sizeof sinfo_long_fields /
	    sizeof sinfo_long_fields[0], items, SINFO_ITEMS, err,
	    sizeof err) : slurm_fmt_parse(fmt, "sinfo", SINFO_FIELDS, items,
	    SINFO_ITEMS, err, sizeof err)) == -1)
		goto usage;
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	model_set_timeout(&m, timeout);
	if ((r = model_refresh_nodes(&m, false)) != 0 ||
	    (r = model_fetch_parts(&m, &ps)) != 0) {
		fprintf(stderr, "sinfo: %s\n", m.err);
		goto out;
	}
	/* As Slurm's, a name that is no partition shows nothing; but a
	 * typo is not let pass unsaid. */
	if (slurm_part_check(&ps, parts, why, sizeof why) == -1) {
		snprintf(err, sizeof err, "--partition: %s", why);
		cmd_error(&sinfo_cmd, err);
	}
	sel = xcalloc(m.nodes.n + 1, sizeof *sel);
	for (k = 0; k < m.nodes.n; k++) {
		if (cmd_list_has(names, m.nodes.rows[k].name) &&
		    cmd_list_has(states, m.nodes.rows[k].state) &&
		    (how != SINFO_BY_REASON || sinfo_has_reason(
		    &m.nodes.rows[k])))
			sel[nsel++] = &m.nodes.rows[k];
	}
	f.items = items;
	f.n = n;
	f.how = how;
	for (i = 0; i < n; i++)
		f.shown[i] = items[i].field != 0 ? items[i].field : ' ';
	f.shown[n] = '\0';
	/* As Slurm's: a line for each partition where the format shows one
	 * (or its time limit), except in -R's list. */
	split = how != SINFO_BY_REASON && strpbrk(f.shown, "Pl") != NULL;
	sinfo_list_build(&l, &ps, parts, sel, nsel, split, how ==
	    SINFO_BY_NODE);
	if (dated && header)
		slurm_fmt_dated(stdout);
	if (header) {
		for (i = 0; i < n; i++)
			slurm_fmt_put(stdout, &items[i], sinfo_header(
			    items[i].field));
		putchar('\n');
	}
	/* Slurm's 0 n/a line, where the format shows the partition, for
	 * gbatch.conf's partitions: gbatch's one prints as it did before
	 * partitions, no line where it has no node listed. */
	sinfo_print(&l, &ps, parts, &f, split, ps.configured && how !=
	    SINFO_BY_NODE && strchr(f.shown, 'P') != NULL && how !=
	    SINFO_BY_REASON);
	r = EXIT_OK;
	goto out;
usage:
	r = cmd_usage_error(&sinfo_cmd, "%s", err);
out:
	free(sel);
	sinfo_list_free(&l);
	slurm_part_free(&ps);
	json_decref(names);
	json_decref(states);
	json_decref(parts);
	model_free(&m);
	return (r);
}
