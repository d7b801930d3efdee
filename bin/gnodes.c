/* gnodes: nodes, their GPUs and which job holds each (sinfo's
 * counterpart). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/client.h"
#include "client/cmd.h"
#include "client/table.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

enum {
	GNODES_OPT_JSON = 256,
	GNODES_OPT_HELP,
};

static const struct option gnodes_longopts[] = {
	{ "noheader", no_argument, NULL, 'h' },
	{ "nodes", required_argument, NULL, 'N' },
	{ "format", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, GNODES_OPT_JSON },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, GNODES_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char *
gnodes_str(const void *row, const char *key)
{
	const char	*s = json_string_value(json_object_get(row, key));

	return (s != NULL ? s : "");
}

static const char *
gnodes_int(const void *row, const char *key, char *buf, size_t len)
{
	json_t	*v = json_object_get(row, key);

	if (!json_is_integer(v))
		return ("");
	snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	return (buf);
}

static const char *
gnodes_get_name(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "name"));
}

static const char *
gnodes_get_state(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "state"));
}

static const char *
gnodes_get_reason(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "reason"));
}

static const char *
gnodes_get_addr(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "addr"));
}

static const char *
gnodes_get_switch(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "switch"));
}

static const char *
gnodes_get_source(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_str(row, "gpu_source"));
}

static const char *
gnodes_get_total(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_int(row, "gpus_total", buf, len));
}

static const char *
gnodes_get_alloc(const void *row, const void *ctx, char *buf, size_t len)
{
	return (gnodes_int(row, "gpus_alloc", buf, len));
}

/* "1/4": allocated of total, the figure an admin looks for first. */
static const char *
gnodes_get_gpus(const void *row, const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%lld/%lld", (long long)json_integer_value(
	    json_object_get(row, "gpus_alloc")), (long long)json_integer_value(
	    json_object_get(row, "gpus_total")));
	return (buf);
}

/* "0:42 1:42 2:- 3:-": each GPU index and the job holding it. */
static const char *
gnodes_get_jobs(const void *row, const void *ctx, char *buf, size_t len)
{
	json_t	*gpu, *job;
	size_t	 i, n = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(row, "gpus"), i, gpu) {
		if (n >= len)
			break;
		job = json_object_get(gpu, "job");
		if (json_is_integer(job))
			n += (size_t)snprintf(buf + n, len - n, "%s%lld:%lld",
			    n > 0 ? " " : "", (long long)json_integer_value(
			    json_object_get(gpu, "index")),
			    (long long)json_integer_value(job));
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%lld:-",
			    n > 0 ? " " : "", (long long)json_integer_value(
			    json_object_get(gpu, "index")));
	}
	return (buf);
}

static const char *
gnodes_get_last_seen(const void *row, const void *ctx, char *buf, size_t len)
{
	json_t		*v = json_object_get(row, "last_seen");
	time_t		 t;
	struct tm	 tm;

	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return ("");
	t = (time_t)json_integer_value(v);
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return ("");
	return (buf);
}

static const struct table_col gnodes_cols[] = {
	{ "name", "NODE", false, gnodes_get_name },
	{ "state", "STATE", false, gnodes_get_state },
	{ "gpus", "GPUS", true, gnodes_get_gpus },
	{ "jobs", "GPU:JOB", false, gnodes_get_jobs },
	{ "reason", "REASON", false, gnodes_get_reason },
	{ "gpus_total", "TOTAL", true, gnodes_get_total },
	{ "gpus_alloc", "ALLOC", true, gnodes_get_alloc },
	{ "addr", "ADDR", false, gnodes_get_addr },
	{ "gpu_source", "SOURCE", false, gnodes_get_source },
	{ "switch", "SWITCH", false, gnodes_get_switch },
	{ "last_seen", "LAST_SEEN", false, gnodes_get_last_seen },
};
#define GNODES_DEFAULT	"name,state,gpus,jobs,reason"

static void
gnodes_usage(void)
{
	char	*fields = table_field_names(gnodes_cols,
		    sizeof gnodes_cols / sizeof gnodes_cols[0]);

	printf(
"usage: gnodes [options]\n"
"List nodes: state, GPUs allocated/total, and the job on each GPU\n"
"(GPU:JOB, - for a free GPU).\n"
"\n"
"  -N, --nodes NAME[,NAME]   only these nodes\n"
"  -o, --format FIELD[:WIDTH][,...]  columns (default: " GNODES_DEFAULT ")\n"
"  -h, --noheader            no header line (as sinfo -h)\n"
"      --json                print the controller's reply as JSON\n"
"      --timeout SECONDS     how long to wait for gbatchd (default 10, or\n"
"                            GBATCH_TIMEOUT; 0 waits for ever)\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"Fields: %s\n"
"\n"
"Exit status: 0 ok, 1 unknown node, 2 usage error, 3 cannot reach gbatchd.\n",
	    fields);
	free(fields);
}

static bool
gnodes_wanted(const json_t *names, const char *name)
{
	json_t	*n;
	size_t	 i;

	if (names == NULL)
		return (true);
	json_array_foreach(names, i, n) {
		if (strcmp(json_string_value(n), name) == 0)
			return (true);
	}
	return (false);
}

static int
gnodes_add_name(const char *item, void *arg, char *err, size_t errlen)
{
	json_array_append_new(arg, json_string(item));
	return (0);
}

int
main(int argc, char **argv)
{
	struct client	*c = NULL;
	struct table	*t;
	json_t		*req = NULL, *reply = NULL, *names = NULL, *node, *n;
	json_t		*keep;
	const char	*name, *topt = NULL;
	char		 err[1024], serr[768], safe[1024];
	unsigned	 timeout;
	bool		 noheader = false, json = false;
	size_t		 i, k;
	int		 ch, r = EXIT_USAGE;

	t = table_create(gnodes_cols, sizeof gnodes_cols /
	    sizeof gnodes_cols[0], GNODES_DEFAULT);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hN:o:V", gnodes_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			noheader = true;
			break;
		case 'N':
			if (names == NULL)
				names = json_array();
			if (cmd_split(optarg, "--nodes", gnodes_add_name, names,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'o':
			if (table_select(t, optarg, serr, sizeof serr) == -1) {
				snprintf(err, sizeof err, "--format: %s", serr);
				goto usage;
			}
			break;
		case GNODES_OPT_JSON:
			json = true;
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		case GNODES_OPT_HELP:
			gnodes_usage();
			r = EXIT_OK;
			goto out;
		case 'V':
			cmd_version("gnodes");
			r = EXIT_OK;
			goto out;
		default:
			cmd_option_error(ch, argv, gnodes_longopts, err,
			    sizeof err);
			goto usage;
		}
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"; select "
		    "nodes with -N NAME", argv[optind]);
		goto usage;
	}

	if ((r = client_open(timeout, &c, err, sizeof err)) != 0) {
		fprintf(stderr, "gnodes: %s\n", err);
		goto out;
	}
	req = proto_msg(MSG_NODE_LIST);
	if ((r = client_call(c, req, &reply, err, sizeof err)) != 0) {
		fprintf(stderr, "gnodes: %s\n", err);
		goto out;
	}
	keep = json_array();
	json_array_foreach(json_object_get(reply, "nodes"), i, node) {
		name = json_string_value(json_object_get(node, "name"));
		if (name != NULL && gnodes_wanted(names, name)) {
			json_array_append(keep, node);
			table_add(t, node, NULL);
		}
	}
	json_object_set_new(reply, "nodes", keep);
	if (json)
		cmd_json_print(reply, JSON_INDENT(2));
	else
		table_print(t, stdout, !noheader);
	r = EXIT_OK;
	json_array_foreach(names, i, n) {
		json_array_foreach(keep, k, node) {
			if (json_equal(json_object_get(node, "name"), n))
				break;
		}
		if (k == json_array_size(keep)) {
			fprintf(stderr, "gnodes: node %s: not found\n",
			    safe_text_str(json_string_value(n), safe,
			    sizeof safe));
			r = EXIT_REFUSED;
		}
	}
	goto out;

usage:
	fprintf(stderr, "gnodes: %s\nTry 'gnodes --help' for more "
	    "information.\n", err);
out:
	client_free(c);
	table_free(t);
	json_decref(req);
	json_decref(reply);
	json_decref(names);
	return (r);
}
