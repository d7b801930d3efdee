/* sinfo (slurm-compat): nodes as Slurm's sinfo prints them: one partition,
 * "gbatch", with a line per node state (or per node with -N), -h, -o with
 * Slurm's field codes. gbatch's own view is gnodes. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/model.h"
#include "client/slurm-opt.h"
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
"gbatch's own): one partition, gbatch, a line per node state.\n"
"\n"
"  -N, --Node             a line per node\n"
"  -h, --noheader         no header line\n"
"  -n, --nodes NODE[,NODE]  these nodes\n"
"  -o, --format FORMAT    fields as %%[.][WIDTH]CODE: %%P partition, %%a\n"
"                         availability, %%l time limit, %%D nodes, %%t state\n"
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
"  -s, --summarize        one line: nodes allocated/idle/other/total\n"
"  -R, --list-reasons     drained and down nodes with their reasons\n"
"  -t, --states STATE[,STATE]  nodes in these states: idle, mix(ed),\n"
"                         alloc(ated), drain(ed), down\n"
"  -a, --all              accepted: gbatch has one partition\n"
"  -p, --partition NAME[,NAME]  accepted for that one partition, gbatch;\n"
"                         another name is a usage error\n"
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
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcasecmp(item, map[i].slurm) == 0) {
			json_array_append_new(arg, json_string(map[i].gbatch));
			return (0);
		}
	}
	snprintf(err, errlen, "--states: unknown state \"%s\"; expected idle, "
	    "mix, alloc, drain or down", item);
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

/* Whether a and b share a line when grouped by how. */
static bool
sinfo_same(enum sinfo_group how, const struct model_node *a,
    const struct model_node *b)
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
	return (strcmp(a->state, b->state) == 0);
}

/* A line: the nodes in rows[0..n), which share their state. */
static void
sinfo_line(const struct slurm_item *items, int nitems,
    const struct model_node *const *rows, size_t n)
{
	static struct slurm_line	line;
	char	buf[8192], safe[8400];
	size_t	i, at;
	int	k;

	for (k = 0; k < nitems; k++) {
		buf[0] = '\0';
		switch (items[k].field) {
		case 'P':
			/* The default partition, as Slurm marks it. */
			snprintf(buf, sizeof buf, "%s*", SLURM_OPT_PARTITION);
			break;
		case 'a':
			snprintf(buf, sizeof buf, "up");
			break;
		case 'l':
			snprintf(buf, sizeof buf, "infinite");
			break;
		case 'D':
			snprintf(buf, sizeof buf, "%zu", n);
			break;
		case 't':
		case 'T':
			snprintf(buf, sizeof buf, "%s", sinfo_state(
			    rows[0]->state, items[k].field == 'T'));
			break;
		case 'N':
		case 'n':
			for (i = 0, at = 0; i < n && at < sizeof buf; i++)
				at += (size_t)snprintf(buf + at, sizeof buf -
				    at, "%s%s", i > 0 ? "," : "",
				    rows[i]->name);
			break;
		case 'G':
			snprintf(buf, sizeof buf, "gpu:%lld",
			    rows[0]->gpus_total);
			break;
		case 'E':
			snprintf(buf, sizeof buf, "%s", *rows[0]->reason !=
			    '\0' ? rows[0]->reason : "none");
			break;
		case 'c':
			if (rows[0]->cpus_total >= 0)
				snprintf(buf, sizeof buf, "%lld",
				    rows[0]->cpus_total);
			else
				snprintf(buf, sizeof buf, "0");
			break;
		case 'm':
			snprintf(buf, sizeof buf, "%lld", rows[0]->mem_total >= 0 ?
			    rows[0]->mem_total : 0);
			break;
		case 'F':
			sinfo_aiot(rows, n, buf, sizeof buf);
			break;
		default:
			snprintf(buf, sizeof buf, "%s", sinfo_constant(
			    items[k].field));
			break;
		}
		slurm_fmt_line_put(&line, &items[k], safe_text_str(buf, safe,
		    sizeof safe));
	}
	slurm_fmt_line_end(&line, stdout);
}

int
main(int argc, char **argv)
{
	struct slurm_item	  items[SINFO_ITEMS];
	struct model		  m;
	const struct model_node	**sel = NULL, **group = NULL;
	json_t			 *names = json_array(), *states = json_array();
	const char		 *fmt = NULL, *topt = NULL;
	char			  err[1024];
	unsigned		  timeout;
	const char		 *long_fmt = NULL;
	enum sinfo_group	  how = SINFO_BY_STATE;
	bool			  header = true, per_node = false, *done = NULL;
	bool			  dated = false, longer = false;
	int			  ch, n, i, r = EXIT_USAGE;
	size_t			  k, j, nsel = 0, ng;

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
			if (slurm_opt_partition(optarg, err, sizeof err) == -1)
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
	if ((r = model_refresh_nodes(&m, false)) != 0) {
		fprintf(stderr, "sinfo: %s\n", m.err);
		goto out;
	}
	sel = xcalloc(m.nodes.n + 1, sizeof *sel);
	group = xcalloc(m.nodes.n + 1, sizeof *group);
	done = xcalloc(m.nodes.n + 1, sizeof *done);
	for (k = 0; k < m.nodes.n; k++) {
		if (cmd_list_has(names, m.nodes.rows[k].name) &&
		    cmd_list_has(states, m.nodes.rows[k].state) &&
		    (how != SINFO_BY_REASON || sinfo_has_reason(
		    &m.nodes.rows[k])))
			sel[nsel++] = &m.nodes.rows[k];
	}
	if (dated && header)
		slurm_fmt_dated(stdout);
	if (header) {
		for (i = 0; i < n; i++)
			slurm_fmt_put(stdout, &items[i], sinfo_header(
			    items[i].field));
		putchar('\n');
	}
	/* A line per node, or per group in the order groups first show. */
	for (k = 0; k < nsel; k++) {
		if (how == SINFO_BY_NODE) {
			sinfo_line(items, n, &sel[k], 1);
			continue;
		}
		if (done[k])
			continue;
		for (j = k, ng = 0; j < nsel; j++) {
			if (!done[j] && sinfo_same(how, sel[j], sel[k])) {
				done[j] = true;
				group[ng++] = sel[j];
			}
		}
		sinfo_line(items, n, group, ng);
	}
	r = EXIT_OK;
	goto out;
usage:
	r = cmd_usage_error(&sinfo_cmd, "%s", err);
out:
	free(sel);
	free(group);
	free(done);
	json_decref(names);
	json_decref(states);
	model_free(&m);
	return (r);
}
