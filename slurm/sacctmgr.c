/* sacctmgr (slurm-compat): Slurm's sacctmgr over gbatch's accounts and
 * users, the associations gctl account and gctl user manage: add, modify
 * and delete of accounts and users, show of accounts, users and
 * associations, with Slurm's words (sacctmgr-words.h) and columns
 * (sacctmgr-show.h). Changes go as ASSOC requests, all or none
 * (sacctmgr-plan.h); without -i, at a terminal, sacctmgr asks first, as
 * Slurm's does. */
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client/assoc-list.h"
#include "client/model.h"
#include "client/sacctmgr-words.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "slurm/sacctmgr-plan.h"
#include "slurm/sacctmgr-show.h"

/* How long a question waits for its answer, as Slurm's. */
#define SACCTMGR_ASK_SECONDS	30

static const struct option sacctmgr_longopts[] = {
	{ "immediate", no_argument, NULL, 'i' },
	{ "noheader", no_argument, NULL, 'n' },
	{ "parsable", no_argument, NULL, 'p' },
	{ "parsable2", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'Q' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
sacctmgr_usage(FILE *f)
{
	char	names[400];

	fprintf(f,
"usage: sacctmgr [options] COMMAND ENTITY [SPECS]\n"
"Slurm's sacctmgr over gbatch's accounts and users (slurm-compat; gctl\n"
"account and gctl user are gbatch's own). Changes are for operators.\n"
"\n"
"  add account NAME[,NAME] [Parent=ACCOUNT|root] [Description=TEXT]\n"
"      [Fairshare=N] [GrpJobs=N] [GrpSubmitJobs=N] [GrpTRES=gres/gpu=N]\n"
"      [GrpTRESMins=gres/gpu=MINUTES] [MaxWall=TIME]\n"
"  add user NAME[,NAME] Account=ACCOUNT[,ACCOUNT] [DefaultAccount=ACCOUNT]\n"
"      [GrpJobs|MaxJobs=N] [GrpSubmitJobs|MaxSubmitJobs=N]\n"
"      [GrpTRES=gres/gpu=N] [MaxWall=TIME]\n"
"  modify account [where] NAME|Name=NAME set KEY=VALUE...\n"
"  modify user [where] NAME|Name=NAME [Account=ACCOUNT] set KEY=VALUE...\n"
"      (and DefaultAccount=ACCOUNT)\n"
"  delete account NAME[,NAME]\n"
"  delete user NAME[,NAME] [where Account=ACCOUNT]\n"
"  show account [NAME[,NAME]] [WithAssoc] [Format=FIELD[%%WIDTH],...]\n"
"  show user [NAME[,NAME]] [WithAssoc] [Format=...]\n"
"  show association [where Account=A[,A] User=U[,U]] [Tree] [Format=...]\n"
"      (create, update, remove and list are the same; words in any case)\n"
"\n"
"A limit of -1 is none; Slurm's 0 (no job at all) gbatch cannot hold.\n"
"GrpTRESMins is GPU-minutes, stored as gbatch's monthly GPU-hours (90\n"
"are 1.5). Without -i, at a terminal, sacctmgr asks before it\n"
"changes anything; not at a terminal, it goes ahead.\n"
"\n"
"  -i, --immediate          commit changes without asking\n"
"  -n, --noheader           no header lines\n"
"  -p, --parsable           fields split by '|', a '|' after the last too\n"
"  -P, --parsable2          fields split by '|'\n"
"  -Q, --quiet              no report of the changes, only errors\n"
"      --timeout SECONDS    how long to wait for gbatchd (default 10)\n"
"  -h, --help               this help\n"
"  -V, --version            print the version\n"
"\n"
"Fields: %s\n"
"\n"
"Exit status: 0 ok (a change declined too), 1 refused, or a form of\n"
"Slurm's gbatch does not have (QOS, clusters, ...), 2 usage error, 3\n"
"cannot reach gbatchd, 4 not an operator.\n", sacctmgr_show_names(names,
	    sizeof names));
}

static const struct cmd sacctmgr_cmd = {
	.name = "sacctmgr",
	.usage = sacctmgr_usage,
	.shortopts = ":inpPQhV",
	.longopts = sacctmgr_longopts,
};

/* Slurm's question, at a terminal: true for y. A newline, n, end of input
 * or 30 s of silence say no. */
static bool
sacctmgr_ask(void)
{
	struct pollfd	pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char		line[64];

	printf("Would you like to commit changes? (You have %d seconds to "
	    "decide)\n", SACCTMGR_ASK_SECONDS);
	for (;;) {
		printf("(N/y): ");
		fflush(stdout);
		if (poll(&pfd, 1, SACCTMGR_ASK_SECONDS * 1000) <= 0) {
			printf("timeout\n");
			return (false);
		}
		if (fgets(line, sizeof line, stdin) == NULL)
			return (false);
		if (line[0] == 'y' || line[0] == 'Y')
			return (true);
		if (line[0] == 'n' || line[0] == 'N' || line[0] == '\n')
			return (false);
		printf("Y or N please\n");
	}
}

/* One more request whose reply the show needs; NULL when it failed (the
 * column is then empty, as Slurm's are for what it cannot get). */
static json_t *
sacctmgr_fetch(struct model *m, enum msg_type type)
{
	json_t	*req = proto_msg(type), *reply = NULL;

	if (model_request(m, req, &reply) != 0)
		reply = NULL;
	json_decref(req);
	return (reply);
}

static int
sacctmgr_show(struct model *m, const struct sacctmgr_words *w,
    int parsable, bool header)
{
	struct sacctmgr_show_col	 cols[SACCTMGR_SHOW_MAX_COLS];
	struct sacctmgr_show_ctx	 ctx = { NULL, NULL };
	struct assoc_list		 l;
	json_t				*ping = NULL, *conf = NULL;
	char				 err[512];
	int				 n, r;

	if ((n = sacctmgr_show_columns(w, cols, err, sizeof err)) == -1)
		return (cmd_usage_error(&sacctmgr_cmd, "%s", err));
	if ((r = model_fetch_assoc(m, &l)) != 0) {
		fprintf(stderr, "sacctmgr: %s\n", m->err);
		return (r);
	}
	if (sacctmgr_show_has(cols, n, SACCTMGR_SHOW_CLUSTER) &&
	    (ping = sacctmgr_fetch(m, MSG_PING)) != NULL)
		ctx.cluster = json_string_value(json_object_get(ping,
		    "cluster"));
	if (sacctmgr_show_has(cols, n, SACCTMGR_SHOW_ADMIN) &&
	    (conf = sacctmgr_fetch(m, MSG_CONFIG_SHOW)) != NULL)
		ctx.operators = json_object_get(json_object_get(
		    json_object_get(conf, "config"), "controller"), "operators");
	sacctmgr_show_print(stdout, w, &l, cols, n, &ctx, parsable, header);
	json_decref(ping);
	json_decref(conf);
	assoc_list_free(&l);
	return (EXIT_OK);
}

static int
sacctmgr_change(struct model *m, const struct sacctmgr_words *w,
    bool immediate, bool quiet)
{
	static const char *const verbs[] = { "add", "modify", "delete",
	    "show" }, *const ents[] = { "account", "user", "association" };
	struct sacctmgr_plan	 p;
	struct assoc_list	 l;
	const json_t		*hello;
	char			 err[1536];
	bool			 op;
	int			 r;

	if ((r = model_fetch_assoc(m, &l)) != 0) {
		fprintf(stderr, "sacctmgr: %s\n", m->err);
		return (r);
	}
	r = sacctmgr_plan_make(w, &l, &p, err, sizeof err);
	assoc_list_free(&l);
	if (r != 0) {
		fprintf(stderr, "sacctmgr: %s %s: %s\n", verbs[w->verb],
		    ents[w->entity], err);
		return (EXIT_REFUSED);
	}
	/* Not an operator: gbatchd refuses (and audits) the first change;
	 * there is nothing to report or to ask. */
	hello = m->c != NULL ? client_hello(m->c) : NULL;
	op = json_is_true(json_object_get(hello, "operator"));
	if (op && !quiet)
		fputs(p.report, stdout);
	if (op && !immediate && isatty(STDIN_FILENO) && !sacctmgr_ask()) {
		printf(" Changes Discarded\n");
		sacctmgr_plan_free(&p);
		return (EXIT_OK);
	}
	fflush(stdout);
	if ((r = sacctmgr_plan_run(&p, m, err, sizeof err)) != 0)
		fprintf(stderr, "sacctmgr: %s %s: %s\n", verbs[w->verb],
		    ents[w->entity], err);
	sacctmgr_plan_free(&p);
	return (r);
}

int
main(int argc, char **argv)
{
	struct sacctmgr_words	 w;
	struct model		 m;
	const char		*topt = NULL;
	char			 err[1024];
	unsigned		 timeout;
	bool			 immediate = false, header = true, quiet = false;
	int			 ch, parsable = 0, rc = EXIT_USAGE;

	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	while ((ch = cmd_getopt(&sacctmgr_cmd, argc, argv, &rc)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'i':
			immediate = true;
			break;
		case 'n':
			header = false;
			break;
		case 'p':
			parsable = 1;
			break;
		case 'P':
			parsable = 2;
			break;
		case 'Q':
			quiet = true;
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	/* Slurm's sacctmgr help and sacctmgr version. */
	if (argc == 1 && strcasecmp(argv[0], "help") == 0) {
		rc = cmd_help(&sacctmgr_cmd);
		goto out;
	}
	if (argc == 1 && strcasecmp(argv[0], "version") == 0) {
		rc = cmd_version(&sacctmgr_cmd);
		goto out;
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1) {
		rc = cmd_usage_error(&sacctmgr_cmd, "%s", err);
		goto out;
	}
	model_set_timeout(&m, timeout);
	switch (sacctmgr_words_parse(argc, argv, &w, err, sizeof err)) {
	case 0:
		break;
	case SACCTMGR_WORDS_UNSUPPORTED:
		cmd_error(&sacctmgr_cmd, err);
		rc = EXIT_REFUSED;
		goto out;
	default:
		rc = cmd_usage_error(&sacctmgr_cmd, "%s", err);
		goto out;
	}
	rc = w.verb == SACCTMGR_SHOW ? sacctmgr_show(&m, &w, parsable,
	    header) : sacctmgr_change(&m, &w, immediate, quiet);
	sacctmgr_words_free(&w);
out:
	model_free(&m);
	return (rc);
}
