/* sshare (slurm-compat): the account tree and its users' associations as
 * Slurm's sshare prints them under fair tree (its default): the root,
 * then each account, its users and the accounts below it, indented. What
 * gbatch has today is printed: an account's shares (RawShares) and its
 * share of its siblings' (NormShares); a user's association has no share
 * of its own (RawShares "parent", its account's NormShares). An account's
 * usage is what ASSOC_LIST gives with it, the GPU-seconds it and the
 * accounts below it used this month, as its budget counts them: Slurm's
 * RawUsage where usage is reset monthly and does not decay
 * (PriorityUsageResetPeriod=MONTHLY, no PriorityDecayHalfLife), GPUs its
 * one TRES. With gbatchd's scheduler.fairshare on, the figures are fair
 * share's instead, for accounts and users alike: each association's own
 * shares (1 a user), its usage decayed with the half-life, its fair-share
 * factor as Fair Tree ranks it. */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/assoc-list.h"
#include "client/model.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "slurm/slurm-fmt.h"

/* The columns, Slurm's names and widths (Account left-justified). */
enum sshare_field {
	SSHARE_ACCOUNT,
	SSHARE_USER,
	SSHARE_RAWSHARES,
	SSHARE_NORMSHARES,
	SSHARE_RAWUSAGE,
	SSHARE_NORMUSAGE,
	SSHARE_EFFECTVUSAGE,
	SSHARE_FAIRSHARE,
	SSHARE_LEVELFS,
	SSHARE_GRPTRESMINS,
	SSHARE_TRESRUNMINS,
};

static const struct {
	const char	*name;
	int		 width;
} sshare_fields[] = {
	[SSHARE_ACCOUNT] = { "Account", -20 },
	[SSHARE_USER] = { "User", 10 },
	[SSHARE_RAWSHARES] = { "RawShares", 10 },
	[SSHARE_NORMSHARES] = { "NormShares", 11 },
	[SSHARE_RAWUSAGE] = { "RawUsage", 11 },
	[SSHARE_NORMUSAGE] = { "NormUsage", 11 },
	[SSHARE_EFFECTVUSAGE] = { "EffectvUsage", 13 },
	[SSHARE_FAIRSHARE] = { "FairShare", 10 },
	[SSHARE_LEVELFS] = { "LevelFS", 10 },
	[SSHARE_GRPTRESMINS] = { "GrpTRESMins", 30 },
	[SSHARE_TRESRUNMINS] = { "TRESRunMins", 30 },
};

/* Slurm's columns, without and with -l. */
static const enum sshare_field sshare_short[] = {
	SSHARE_ACCOUNT, SSHARE_USER, SSHARE_RAWSHARES, SSHARE_NORMSHARES,
	SSHARE_RAWUSAGE, SSHARE_EFFECTVUSAGE, SSHARE_FAIRSHARE,
};
static const enum sshare_field sshare_long[] = {
	SSHARE_ACCOUNT, SSHARE_USER, SSHARE_RAWSHARES, SSHARE_NORMSHARES,
	SSHARE_RAWUSAGE, SSHARE_NORMUSAGE, SSHARE_EFFECTVUSAGE,
	SSHARE_FAIRSHARE, SSHARE_LEVELFS, SSHARE_GRPTRESMINS,
	SSHARE_TRESRUNMINS,
};

static const struct option sshare_longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "accounts", required_argument, NULL, 'A' },
	{ "users", required_argument, NULL, 'u' },
	{ "long", no_argument, NULL, 'l' },
	{ "noheader", no_argument, NULL, 'n' },
	{ "parsable", no_argument, NULL, 'p' },
	{ "parsable2", no_argument, NULL, 'P' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 0x100 },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
sshare_usage(FILE *f)
{
	fprintf(f,
"usage: sshare [options]\n"
"gbatch's accounts and their users' associations as Slurm's sshare prints\n"
"them (slurm-compat): the tree from root, each account's shares, its share\n"
"of its siblings' and the GPU-seconds it and the accounts below it used\n"
"this month. With gbatch.conf's scheduler.fairshare on, fair share's\n"
"figures as Slurm's Fair Tree has them: each account's and user's own\n"
"shares, usage decayed with fairshare_half_life, a user's FairShare\n"
"factor. Without -a or -u, the accounts and the caller's own\n"
"associations.\n"
"\n"
"  -a, --all                every user's associations\n"
"  -A, --accounts ACCOUNT[,ACCOUNT]  only these accounts' lines\n"
"  -u, --users USER[,USER]  these users' associations\n"
"  -l, --long               NormUsage, LevelFS, GrpTRESMins and\n"
"                           TRESRunMins too\n"
"  -n, --noheader           no header lines (-h too)\n"
"  -p, --parsable           fields split by '|', a '|' after the last too\n"
"  -P, --parsable2          fields split by '|'\n"
"      --timeout SECONDS    how long to wait for gbatchd (default 10)\n"
"      --help               this help\n"
"  -V, --version            print the version\n"
"\n"
"Exit status: 0 ok, 2 usage error, 3 cannot reach gbatchd.\n");
}

static const struct cmd sshare_cmd = {
	.name = "sshare",
	.usage = sshare_usage,
	.shortopts = ":aA:u:lnhpPV",
	.longopts = sshare_longopts,
};

/* One line: the root's (acct NULL), an account's, or an association's. */
struct sshare_line {
	const struct assoc_list		*l;
	const struct assoc_list_account	*acct;
	const struct assoc_list_user	*user;
	uint64_t			 root_used;	/* the top accounts' */
	uint64_t			 up_used;	/* the parent's, or root's */
	int				 indent;
};

static const char *
sshare_real(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%f", v);
	return (buf);
}

/* part over whole, 0 when the whole is 0. */
/* An account's usage as its budget counts it: GPU-seconds with each run's
 * QOS usage factor applied (Slurm's RawUsage has its UsageFactor too). */
static uint64_t
sshare_used(const struct assoc_list_account *a)
{
	return (a->used_charged_s > 0 ? (uint64_t)(a->used_charged_s + 0.5) :
	    0);
}

static double
sshare_ratio(uint64_t part, uint64_t whole)
{
	return (whole == 0 ? 0.0 : (double)part / (double)whole);
}

/* Field f of line ln into buf, from fair share's figures (gbatchd's
 * scheduler.fairshare on): usage decayed, users with shares of their own
 * and a fair-share factor, as Slurm's sshare under Fair Tree. */
static const char *
sshare_fs_cell(enum sshare_field f, const struct sshare_line *ln,
    const struct assoc_list_fs *fs, char *buf, size_t len)
{
	bool	root = ln->acct == NULL, user = ln->user != NULL;

	switch (f) {
	case SSHARE_RAWSHARES:
		if (root)
			return ("");
		snprintf(buf, len, "%llu", (unsigned long long)fs->shares);
		return (buf);
	case SSHARE_NORMSHARES:
		return (sshare_real(root ? 1.0 : fs->norm_shares, buf, len));
	case SSHARE_RAWUSAGE:
		snprintf(buf, len, "%.0f", fs->raw_usage);
		return (buf);
	case SSHARE_NORMUSAGE:
		return (sshare_real(fs->norm_usage, buf, len));
	case SSHARE_EFFECTVUSAGE:
		return (sshare_real(fs->effective_usage, buf, len));
	case SSHARE_FAIRSHARE:
		return (user ? sshare_real(fs->factor, buf, len) : "");
	case SSHARE_LEVELFS:
		return (root ? "" : sshare_real(fs->level_fs, buf, len));
	default:
		return (NULL);
	}
}

/* Field f of line ln into buf. */
static const char *
sshare_cell(enum sshare_field f, const struct sshare_line *ln, char *buf,
    size_t len)
{
	const struct assoc_list_account	*a = ln->acct;
	bool				 root = a == NULL, user = ln->user != NULL;
	uint64_t			 used = root ? ln->root_used :
					    sshare_used(a);
	const struct assoc_list_fs	*fs;
	const char			*s;
	double				 norm, efctv;

	if (ln->l->nfs > 0 && (fs = assoc_list_fairshare(ln->l, root ? "" :
	    a->name, user ? ln->user->user : NULL)) != NULL &&
	    (s = sshare_fs_cell(f, ln, fs, buf, len)) != NULL)
		return (s);
	norm = root ? 0.0 : assoc_list_norm_shares(ln->l, a);
	/* Fair tree's: an account's usage over its parent's; the root's 1. */
	efctv = root ? 1.0 : sshare_ratio(sshare_used(a), ln->up_used);
	switch (f) {
	case SSHARE_ACCOUNT:
		snprintf(buf, len, "%*s%s", ln->indent, "", root ? "root" :
		    a->name);
		return (buf);
	case SSHARE_USER:
		return (user ? ln->user->user : "");
	case SSHARE_RAWSHARES:
		if (root)
			return ("");
		if (user)
			return ("parent");
		return (slurm_fmt_member("shares", a->shares, buf, len));
	case SSHARE_NORMSHARES:
		return (sshare_real(norm, buf, len));
	case SSHARE_RAWUSAGE:
		if (user)
			return ("");
		snprintf(buf, len, "%llu", (unsigned long long)used);
		return (buf);
	case SSHARE_NORMUSAGE:
		return (user ? "" : sshare_real(sshare_ratio(used,
		    ln->root_used), buf, len));
	case SSHARE_EFFECTVUSAGE:
		return (user ? "" : sshare_real(efctv, buf, len));
	case SSHARE_FAIRSHARE:
		return ("");
	case SSHARE_LEVELFS:
		/* An account's shares over its usage (fair tree's level
		 * fair share): none for the root and for users without
		 * shares of their own. */
		if (root || user)
			return ("");
		return (sshare_real(norm == 0 ? 0.0 : efctv == 0 ? INFINITY :
		    norm / efctv, buf, len));
	case SSHARE_GRPTRESMINS:
		if (root || user)
			return ("");
		return (slurm_fmt_member("gpu_hours", a->budget_s, buf,
		    len));
	case SSHARE_TRESRUNMINS:
		return ("");
	}
	return ("");
}

static void
sshare_print(const struct sshare_line *ln, const enum sshare_field *cols,
    size_t n, int parsable)
{
	char	buf[1100], safe[4400];
	size_t	i;

	for (i = 0; i < n; i++)
		slurm_fmt_field(stdout, sshare_fields[cols[i]].width,
		    safe_text_str(sshare_cell(cols[i], ln, buf, sizeof buf),
		    safe, sizeof safe), parsable, i == n - 1);
	putchar('\n');
}

/* Prints the lines -A and the users select, in the tree's order. */
static void
sshare_lines(const struct assoc_list *l, const json_t *accounts,
    const json_t *users, bool all, const enum sshare_field *cols, size_t n,
    int parsable)
{
	struct sshare_line		 ln = { .l = l };
	const struct assoc_list_row	*row;
	bool				*shown, root;
	int				*indent;
	size_t				 i;

	shown = xcalloc(l->nrows + 1, sizeof *shown);
	indent = xcalloc(l->nrows + 1, sizeof *indent);
	root = json_array_size(accounts) == 0 || cmd_list_has(accounts,
	    "root");
	for (i = 0; i < l->nrows; i++) {
		row = &l->rows[i];
		shown[i] = (json_array_size(accounts) == 0 ||
		    cmd_list_has(accounts, row->acct->name)) &&
		    (row->user == NULL || all || cmd_list_has(users,
		    row->user->user));
	}
	assoc_list_indent(l, shown, root, indent);
	for (i = 0; i < l->nrows; i++) {
		if (l->rows[i].up == ASSOC_LIST_TOP)
			ln.root_used += sshare_used(l->rows[i].acct);
	}
	if (root)
		sshare_print(&ln, cols, n, parsable);
	for (i = 0; i < l->nrows; i++) {
		if (!shown[i])
			continue;
		row = &l->rows[i];
		ln.acct = row->acct;
		ln.user = row->user;
		ln.up_used = row->up == ASSOC_LIST_TOP ? ln.root_used :
		    sshare_used(l->rows[row->up].acct);
		ln.indent = indent[i];
		sshare_print(&ln, cols, n, parsable);
	}
	free(shown);
	free(indent);
}

int
main(int argc, char **argv)
{
	struct model			 m;
	struct assoc_list		 l;
	struct client			*c;
	const enum sshare_field		*cols = sshare_short;
	json_t				*accounts = json_array();
	json_t				*users = json_array();
	const char			*topt = NULL, *me;
	char				 err[1024];
	unsigned			 timeout;
	bool				 all = false, header = true;
	size_t				 n = sizeof sshare_short /
					    sizeof sshare_short[0], i;
	int				 ch, parsable = 0, rc = EXIT_USAGE;

	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	while ((ch = cmd_getopt(&sshare_cmd, argc, argv, &rc)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'a':
			all = true;
			break;
		case 'A':
			if (cmd_split(optarg, "--accounts", cmd_add_string,
			    accounts, err, sizeof err) == -1)
				goto usage;
			break;
		case 'u':
			if (cmd_split(optarg, "--users", cmd_add_string, users,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'l':
			cols = sshare_long;
			n = sizeof sshare_long / sizeof sshare_long[0];
			break;
		case 'n':
		case 'h':
			header = false;
			break;
		case 'p':
			parsable = 1;
			break;
		case 'P':
			parsable = 2;
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
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	model_set_timeout(&m, timeout);
	if ((rc = model_fetch_assoc(&m, &l)) != 0) {
		fprintf(stderr, "sshare: %s\n", m.err);
		goto out;
	}
	/* Without -a or -u, the caller's own, as Slurm's. */
	if (!all && json_array_size(users) == 0 && ((rc = model_client(&m,
	    &c)) != 0 || (rc = client_whoami(c, &me, m.err, sizeof m.err)) !=
	    0)) {
		fprintf(stderr, "sshare: %s\n", m.err);
		assoc_list_free(&l);
		goto out;
	}
	if (!all && json_array_size(users) == 0)
		json_array_append_new(users, json_string(me));
	if (header) {
		for (i = 0; i < n; i++)
			slurm_fmt_field_name(stdout, sshare_fields[cols[i]].width,
			    sshare_fields[cols[i]].name, parsable, i == n - 1);
		putchar('\n');
		for (i = 0; !parsable && i < n; i++)
			slurm_fmt_field_rule(stdout, sshare_fields[cols[i]].width);
		if (!parsable)
			putchar('\n');
	}
	sshare_lines(&l, accounts, users, all, cols, n, parsable);
	assoc_list_free(&l);
	rc = EXIT_OK;
	goto out;
usage:
	rc = cmd_usage_error(&sshare_cmd, "%s", err);
out:
	json_decref(accounts);
	json_decref(users);
	model_free(&m);
	return (rc);
}
