/* sinfo (slurm-compat): nodes as Slurm's sinfo prints them: one partition,
 * "gbatch", with a line per node state (or per node with -N), -h, -o with
 * Slurm's field codes. gbatch's own view is gnodes. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define SINFO_FIELDS	"PalDtTNnGEc"

enum {
	SINFO_OPT_HELP = 256,
};

static const struct option sinfo_longopts[] = {
	{ "Node", no_argument, NULL, 'N' },
	{ "noheader", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, 'o' },
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
"                         (gpu:N), %%E reason, %%c CPUs (0: gbatch allots\n"
"                         GPUs) (default \"%s\", with -N\n"
"                         \"%s\")\n"
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
	.shortopts = ":Nhn:o:ap:V",
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
	default: return ("");
	}
}

/* A line: the nodes in rows[0..n), which share their state. */
static void
sinfo_line(const struct slurm_item *items, int nitems,
    const struct model_node *const *rows, size_t n)
{
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
			snprintf(buf, sizeof buf, "0");
			break;
		}
		slurm_fmt_put(stdout, &items[k], safe_text_str(buf, safe,
		    sizeof safe));
	}
	putchar('\n');
}

int
main(int argc, char **argv)
{
	struct slurm_item	  items[SINFO_ITEMS];
	struct model		  m;
	const struct model_node	**sel = NULL, **group = NULL;
	json_t			 *names = json_array();
	const char		 *fmt = NULL, *topt = NULL;
	char			  err[1024];
	unsigned		  timeout;
	bool			  header = true, per_node = false, *done = NULL;
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
	if (fmt == NULL)
		fmt = per_node ? SINFO_NODES : SINFO_DEFAULT;
	if ((n = slurm_fmt_parse(fmt, "sinfo", SINFO_FIELDS, items,
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
		if (cmd_list_has(names, m.nodes.rows[k].name))
			sel[nsel++] = &m.nodes.rows[k];
	}
	if (header) {
		for (i = 0; i < n; i++)
			slurm_fmt_put(stdout, &items[i], sinfo_header(
			    items[i].field));
		putchar('\n');
	}
	/* A line per node, or per state in the order states first show. */
	for (k = 0; k < nsel; k++) {
		if (per_node) {
			sinfo_line(items, n, &sel[k], 1);
			continue;
		}
		if (done[k])
			continue;
		for (j = k, ng = 0; j < nsel; j++) {
			if (!done[j] && strcmp(sel[j]->state,
			    sel[k]->state) == 0) {
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
	model_free(&m);
	return (r);
}
