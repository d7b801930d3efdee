/* gnodes: nodes, their GPUs and which job holds each (sinfo's
 * counterpart). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/model.h"
#include "client/node-row.h"
#include "client/slurm-part.h"
#include "client/table.h"
#include "common/cmd.h"
#include "common/label.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

enum {
	GNODES_OPT_JSON = 256,
	GNODES_OPT_GSIM,
	GNODES_OPT_HELP,
};

static const struct option gnodes_longopts[] = {
	{ "noheader", no_argument, NULL, 'h' },
	{ "nodes", required_argument, NULL, 'N' },
	{ "partition", required_argument, NULL, 'p' },
	{ "format", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, GNODES_OPT_JSON },
	{ "gsim", no_argument, NULL, GNODES_OPT_GSIM },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, GNODES_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};


static void
gnodes_usage(FILE *f)
{
	char	*fields = table_field_names(node_row_cols, node_row_ncols);

	fprintf(f,
"usage: gnodes [options]\n"
"List nodes: state, GPUs allocated/total, and the jobs on each GPU\n"
"(GPU:JOB, - for a free GPU; GPU:JOB,JOB where jobs share it).\n"
"\n"
"  -N, --nodes NAME[,NAME]   only these nodes\n"
"  -p, --partition NAME[,NAME]  only the nodes of these partitions\n"
"  -o, --format FIELD[:WIDTH][,...]  columns (default: " NODE_ROW_DEFAULT ")\n"
"  -h, --noheader            no header line (as sinfo -h)\n"
"      --json                print the controller's reply as JSON\n"
"      --gsim                print the cluster's shape for gsim -c:\n"
"                            NODESxGPUS, or SWITCHESxNODESxGPUS when every\n"
"                            node has a switch and each switch as many nodes\n"
"      --timeout SECONDS     how long to wait for gbatchd (default 10, or\n"
"                            GBATCH_TIMEOUT; 0 waits for ever)\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"Fields: %s\n"
"\n"
"Exit status: 0 ok, 1 unknown node or partition (or, with --gsim, no\n"
"nodes or nodes of different GPU counts), 2 usage error, 3 cannot reach\n"
"gbatchd.\n",
	    fields);
	free(fields);
}

static const struct cmd gnodes_cmd = {
	.name = "gnodes",
	.usage = gnodes_usage,
	.shortopts = ":hN:p:o:V",
	.longopts = gnodes_longopts,
};

/* The shape of nodes for gsim's -c, into out: "NODESxGPUS", or
 * "SWITCHESxNODESxGPUS" when every node names its switch and the switches
 * hold as many nodes each, which is all gsim's model of a cluster can
 * say. Nodes of different sizes have no shape there: returns -1 with the
 * reason in err. Uneven or partial switch labels lose only the topology:
 * the flat shape, and *note says why (else it is ""). */
static int
gnodes_gsim_shape(const struct model_node *const *nodes, size_t n, char *out,
    size_t outlen, char *note, size_t notelen, char *err, size_t errlen)
{
	json_t		*per_switch, *v;
	const char	*name, *sw, *first_name = NULL, *label;
	char		 s1[256], s2[256];
	json_int_t	 gpus, first_gpus = 0, k = -1;
	size_t		 i, labelled = 0;

	note[0] = '\0';
	if (n == 0) {
		snprintf(err, errlen, "--gsim: no nodes to describe");
		return (-1);
	}
	per_switch = json_object();
	for (i = 0; i < n; i++) {
		name = nodes[i]->name;
		gpus = nodes[i]->gpus_total;
		if (first_name == NULL) {
			first_name = name;
			first_gpus = gpus;
		} else if (gpus != first_gpus) {
			snprintf(err, errlen, "--gsim: node %s has %lld GPUs and "
			    "node %s %lld; gsim simulates nodes of one size "
			    "(select some with -N)", safe_text_str(name, s1,
			    sizeof s1), (long long)gpus, safe_text_str(first_name,
			    s2, sizeof s2), (long long)first_gpus);
			json_decref(per_switch);
			return (-1);
		}
		sw = nodes[i]->sw;
		if (*sw != '\0') {
			labelled++;
			v = json_object_get(per_switch, sw);
			json_object_set_new(per_switch, sw, json_integer(
			    json_integer_value(v) + 1));
		}
	}
	if (first_gpus < 1 || first_gpus > 64) {
		snprintf(err, errlen, "--gsim: nodes of %lld GPUs; gsim "
		    "simulates 1 to 64 per node", (long long)first_gpus);
		json_decref(per_switch);
		return (-1);
	}
	json_object_foreach(per_switch, label, v) {
		if (k == -1)
			k = json_integer_value(v);
		else if (json_integer_value(v) != k)
			k = -2;
	}
	if (labelled == n && json_object_size(per_switch) > 1 && k > 0)
		snprintf(out, outlen, "%zux%lldx%lld",
		    json_object_size(per_switch), (long long)k,
		    (long long)first_gpus);
	else {
		snprintf(out, outlen, "%zux%lld", n, (long long)first_gpus);
		if (labelled > 0 && labelled < n)
			snprintf(note, notelen, "%zu of %zu nodes name no "
			    "switch; the shape has none", n - labelled, n);
		else if (labelled == n && k == -2)
			snprintf(note, notelen, "the switches hold different "
			    "numbers of nodes; the shape has no switches");
	}
	json_decref(per_switch);
	return (0);
}

/* Whether node n is in one of the partitions of want (NULL: any). */
static bool
gnodes_in_parts(const struct slurm_parts *ps, const json_t *want,
    const struct model_node *n)
{
	const struct slurm_part	*p;
	json_t			*v;
	size_t			 i;

	if (want == NULL)
		return (true);
	json_array_foreach(want, i, v) {
		if ((p = slurm_part_find(ps, json_string_value(v))) != NULL &&
		    slurm_part_node_in(ps, n->partitions, p))
			return (true);
	}
	return (false);
}

int
main(int argc, char **argv)
{
	struct model		  m;
	struct table		 *t;
	const struct model_node	**sel = NULL;
	json_t			 *names = NULL, *node, *n, *keep = NULL;
	json_t			 *parts = NULL;
	struct slurm_parts	  ps;
	json_t			 *reply = NULL;
	const char		 *name, *topt = NULL;
	char			  err[1024], serr[768], safe[1024], shape[64];
	char			  note[256];
	unsigned		  timeout;
	bool			  noheader = false, json = false, gsim = false;
	bool			  format = false;
	size_t			  i, k, nsel = 0;
	int		 ch, r = EXIT_USAGE;

	model_init(&m, CMD_TIMEOUT_DEFAULT);
	memset(&ps, 0, sizeof ps);
	t = table_create(node_row_cols, node_row_ncols,
	    NODE_ROW_DEFAULT);
	while ((ch = cmd_getopt(&gnodes_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'h':
			noheader = true;
			break;
		case 'N':
			if (names == NULL)
				names = json_array();
			if (cmd_split(optarg, "--nodes", cmd_add_string, names,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'p':
			if (parts == NULL)
				parts = json_array();
			if (!label_list_ok(optarg)) {
				snprintf(err, sizeof err, "--partition: expected "
				    "partition names joined by ',', got \"%s\"",
				    optarg);
				goto usage;
			}
			if (cmd_split(optarg, "--partition", cmd_add_string,
			    parts, err, sizeof err) == -1)
				goto usage;
			break;
		case 'o':
			if (table_select(t, optarg, serr, sizeof serr) == -1) {
				snprintf(err, sizeof err, "--format: %s", serr);
				goto usage;
			}
			format = true;
			break;
		case GNODES_OPT_JSON:
			json = true;
			break;
		case GNODES_OPT_GSIM:
			gsim = true;
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"; select "
		    "nodes with -N NAME", argv[optind]);
		goto usage;
	}
	if (gsim && (json || format || noheader)) {
		snprintf(err, sizeof err, "--gsim prints one line, the shape; "
		    "it takes no --json, --format or --noheader");
		goto usage;
	}

	model_set_timeout(&m, timeout);
	if ((r = model_refresh_nodes(&m, false)) != 0 || (parts != NULL &&
	    (r = model_fetch_parts(&m, &ps)) != 0)) {
		fprintf(stderr, "gnodes: %s\n", m.err);
		goto out;
	}
	if (parts != NULL && slurm_part_check(&ps, parts, serr,
	    sizeof serr) == -1) {
		fprintf(stderr, "gnodes: --partition: %s\n", serr);
		r = EXIT_REFUSED;
		goto out;
	}
	sel = xcalloc(m.nodes.n + 1, sizeof *sel);
	for (i = 0; i < m.nodes.n; i++) {
		if (cmd_list_has(names, m.nodes.rows[i].name) &&
		    gnodes_in_parts(&ps, parts, &m.nodes.rows[i])) {
			sel[nsel++] = &m.nodes.rows[i];
			table_add(t, &m.nodes.rows[i], NULL);
		}
	}
	r = EXIT_OK;
	if (gsim) {
		if (gnodes_gsim_shape(sel, nsel, shape, sizeof shape, note,
		    sizeof note, err, sizeof err) != 0) {
			fprintf(stderr, "gnodes: %s\n", err);
			r = EXIT_REFUSED;
			goto out;
		}
		if (note[0] != '\0')
			fprintf(stderr, "gnodes: --gsim: %s\n", note);
		printf("%s\n", shape);
	} else if (json) {
		/* The controller's reply, with the nodes asked for. */
		reply = model_nodes_json(&m.nodes);
		keep = json_array();
		json_array_foreach(json_object_get(reply, "nodes"), i, node) {
			name = json_string_value(json_object_get(node, "name"));
			if (name != NULL && cmd_list_has(names, name))
				json_array_append(keep, node);
		}
		json_object_set(reply, "nodes", keep);
		cmd_json_print(reply, JSON_INDENT(2));
	}
	else
		table_print(t, stdout, !noheader);
	json_array_foreach(names, i, n) {
		for (k = 0; k < nsel; k++) {
			if (strcmp(sel[k]->name, json_string_value(n)) == 0)
				break;
		}
		if (k == nsel) {
			fprintf(stderr, "gnodes: node %s: not found\n",
			    safe_text_str(json_string_value(n), safe,
			    sizeof safe));
			r = EXIT_REFUSED;
		}
	}
	goto out;

usage:
	r = cmd_usage_error(&gnodes_cmd, "%s", err);
out:
	model_free(&m);
	table_free(t);
	free(sel);
	json_decref(keep);
	json_decref(reply);
	json_decref(names);
	json_decref(parts);
	slurm_part_free(&ps);
	return (r);
}
