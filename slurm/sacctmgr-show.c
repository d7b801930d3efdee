/* sacctmgr-show.c: sacctmgr's show (sacctmgr-show.h). gbatch's
 * associations are an account's own and its users', without clusters,
 * partitions or QOS; the columns are Slurm's for what gbatch keeps:
 *
 * - an account's limits are Slurm's Grp ones (all of its and its
 *   subaccounts' jobs together): GrpJobs, GrpSubmit, GrpTRES; a user's
 *   association's limit is both its Grp and its Max (one user), so it
 *   shows in either column; MaxWall is a job's, for both;
 * - a user has no shares of its own (Share "parent", Slurm's word for it);
 * - Descr and Org: gbatch keeps no organization, and the description
 *   may be empty; they read as Slurm fills them in when not given (the
 *   account's name; the parent's, or for a top account its own);
 * - ParentName of a top account is root, the tree's top in Slurm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/assoc-words.h"
#include "client/sacctmgr-keys.h"
#include "common/cmd.h"
#include "common/safe-text.h"
#include "slurm/sacctmgr-show.h"
#include "slurm/slurm-fmt.h"

/* Slurm's names, in its order (alphabetical: the first that an
 * abbreviation fits is the field), each with the least of it that names
 * it, the header and the width. */
static const struct {
	const char			*name;
	size_t				 min;
	enum sacctmgr_show_field	 field;
	const char			*header;
	int				 width;
} sacctmgr_show_fields[] = {
	{ "Account", 3, SACCTMGR_SHOW_ACCOUNT, "Account", 10 },
	{ "Acct", 4, SACCTMGR_SHOW_ACCOUNT, "Account", 10 },
	{ "AdminLevel", 2, SACCTMGR_SHOW_ADMIN, "Admin", 9 },
	{ "Cluster", 2, SACCTMGR_SHOW_CLUSTER, "Cluster", 10 },
	{ "DefaultAccount", 8, SACCTMGR_SHOW_DEFACCT, "Def Acct", 10 },
	{ "Description", 3, SACCTMGR_SHOW_DESCR, "Descr", 20 },
	{ "GrpJobs", 4, SACCTMGR_SHOW_GRPJOBS, "GrpJobs", 7 },
	{ "GrpSubmitJobs", 4, SACCTMGR_SHOW_GRPSUBMIT, "GrpSubmit", 9 },
	{ "GrpTRES", 7, SACCTMGR_SHOW_GRPTRES, "GrpTRES", 13 },
	{ "GrpTRESMins", 7, SACCTMGR_SHOW_GRPTRESMINS, "GrpTRESMins", 13 },
	{ "MaxJobs", 4, SACCTMGR_SHOW_MAXJOBS, "MaxJobs", 7 },
	{ "MaxSubmitJobs", 4, SACCTMGR_SHOW_MAXSUBMIT, "MaxSubmit", 9 },
	{ "MaxWallDurationPerJob", 4, SACCTMGR_SHOW_MAXWALL, "MaxWall", 11 },
	{ "Organization", 1, SACCTMGR_SHOW_ORG, "Org", 20 },
	{ "ParentName", 7, SACCTMGR_SHOW_PARENT, "ParentName", 10 },
	{ "Share", 1, SACCTMGR_SHOW_SHARE, "Share", 9 },
	{ "FairShare", 2, SACCTMGR_SHOW_SHARE, "Share", 9 },
	{ "User", 1, SACCTMGR_SHOW_USER, "User", 10 },
};
#define SACCTMGR_SHOW_NNAMES						\
	(sizeof sacctmgr_show_fields / sizeof sacctmgr_show_fields[0])

/* The defaults: Slurm's, less the fields gbatch does not keep
 * (partitions, priorities, QOS, GrpWall, per-job TRES, CPUs, nodes). */
#define SACCTMGR_SHOW_ACCOUNTS	"Account,Descr,Org"
#define SACCTMGR_SHOW_ACCOUNTS_ASSOC					\
	"Account,Descr,Org,Cluster,ParentName,User,Share,GrpJobs,GrpTRES,"	\
	"GrpSubmit,GrpTRESMins,MaxJobs,MaxSubmit,MaxWall"
#define SACCTMGR_SHOW_USERS	"User,DefaultAccount,Admin"
#define SACCTMGR_SHOW_USERS_ASSOC					\
	"User,DefaultAccount,Admin,Cluster,Account,Share,GrpTRES,MaxJobs,"	\
	"MaxSubmit,MaxWall"
#define SACCTMGR_SHOW_ASSOCS						\
	"Cluster,Account,User,Share,GrpJobs,GrpTRES,GrpSubmit,GrpTRESMins,"	\
	"MaxJobs,MaxSubmit,MaxWall"

/* One line: an account's own (user NULL), a user's association, or, in
 * show user without WithAssoc, a user (name, no account). */
struct sacctmgr_show_line {
	const struct assoc_list_account	*acct;
	const struct assoc_list_user	*user;
	const char			*name;
	int				 indent;	/* -1: no tree */
};

char *
sacctmgr_show_names(char *buf, size_t len)
{
	size_t	i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < SACCTMGR_SHOW_NNAMES && used < len; i++) {
		/* Another name of the field above: not told. */
		if (i > 0 && sacctmgr_show_fields[i].field ==
		    sacctmgr_show_fields[i - 1].field)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    used > 0 ? "," : "", sacctmgr_show_fields[i].name);
	}
	return (buf);
}

/* A FIELD[%WIDTH] of Format=: a cmd_split() callback. */
static int
sacctmgr_show_add(const char *item, void *arg, char *err, size_t errlen)
{
	struct sacctmgr_show_col	*cols = arg;
	const char			*pct = strchr(item, '%');
	char				 name[64], names[400], *end;
	size_t				 i, n, k;
	long				 wd;

	for (k = 0; k < SACCTMGR_SHOW_MAX_COLS && cols[k].width != 0; k++)
		continue;
	n = pct != NULL ? (size_t)(pct - item) : strlen(item);
	if (k == SACCTMGR_SHOW_MAX_COLS || n >= sizeof name) {
		snprintf(err, errlen, "Format: \"%s\": expected at most %d "
		    "fields of Slurm's names", item, SACCTMGR_SHOW_MAX_COLS);
		return (-1);
	}
	memcpy(name, item, n);
	name[n] = '\0';
	for (i = 0; i < SACCTMGR_SHOW_NNAMES; i++) {
		if (sacctmgr_keys_is(name, sacctmgr_show_fields[i].name,
		    sacctmgr_show_fields[i].min))
			break;
	}
	if (i == SACCTMGR_SHOW_NNAMES) {
		snprintf(err, errlen, "Format: \"%s\" is not a field gbatch's "
		    "sacctmgr prints; expected one of %s", name,
		    sacctmgr_show_names(names, sizeof names));
		return (-1);
	}
	cols[k].field = sacctmgr_show_fields[i].field;
	cols[k].width = sacctmgr_show_fields[i].width;
	if (pct != NULL) {
		wd = strtol(pct + 1, &end, 10);
		if (*end != '\0' || end == pct + 1 || wd == 0 || wd < -1000 ||
		    wd > 1000) {
			snprintf(err, errlen, "Format: %s: expected a width of 1 "
			    "to 1000 after '%%' (negative: left-justified)", item);
			return (-1);
		}
		cols[k].width = (int)wd;
		cols[k].given = true;
	}
	return (0);
}

int
sacctmgr_show_columns(const struct sacctmgr_words *w,
    struct sacctmgr_show_col *cols, char *err, size_t errlen)
{
	const char	*list = w->format;
	int		 n;

	memset(cols, 0, SACCTMGR_SHOW_MAX_COLS * sizeof *cols);
	if (list == NULL && w->entity == SACCTMGR_ACCOUNT)
		list = w->withassoc ? SACCTMGR_SHOW_ACCOUNTS_ASSOC :
		    SACCTMGR_SHOW_ACCOUNTS;
	else if (list == NULL && w->entity == SACCTMGR_USER)
		list = w->withassoc ? SACCTMGR_SHOW_USERS_ASSOC :
		    SACCTMGR_SHOW_USERS;
	else if (list == NULL)
		list = SACCTMGR_SHOW_ASSOCS;
	if (cmd_split(list, "Format", sacctmgr_show_add, cols, err,
	    errlen) == -1)
		return (-1);
	/* Tree's accounts are indented, left-justified in 20, as Slurm's. */
	for (n = 0; n < SACCTMGR_SHOW_MAX_COLS && cols[n].width != 0; n++) {
		if (w->tree && cols[n].field == SACCTMGR_SHOW_ACCOUNT &&
		    !cols[n].given)
			cols[n].width = -20;
	}
	return (n);
}

bool
sacctmgr_show_has(const struct sacctmgr_show_col *cols, int n,
    enum sacctmgr_show_field field)
{
	int	i;

	for (i = 0; i < n; i++) {
		if (cols[i].field == field)
			return (true);
	}
	return (false);
}

/* Whether user is an operator: root, or one of ctx's. */
static bool
sacctmgr_show_is_operator(const struct sacctmgr_show_ctx *ctx,
    const char *user)
{
	size_t	i;

	if (strcmp(user, "root") == 0)
		return (true);
	for (i = 0; i < json_array_size(ctx->operators); i++) {
		if (strcmp(json_string_value(json_array_get(ctx->operators, i)),
		    user) == 0)
			return (true);
	}
	return (false);
}

/* Field f of line ln, into buf. */
static const char *
sacctmgr_show_cell(enum sacctmgr_show_field f,
    const struct sacctmgr_show_line *ln, const struct assoc_list *l,
    const struct sacctmgr_show_ctx *ctx, char *buf, size_t len)
{
	const struct assoc_list_account	*a = ln->acct;
	const struct assoc_list_user	*u = ln->user;
	const struct assoc_list_limits	*lim = u != NULL ? &u->lim :
					    a != NULL ? &a->lim : NULL;
	const char			*user = u != NULL ? u->user : ln->name;
	const char			*s;

	buf[0] = '\0';
	switch (f) {
	case SACCTMGR_SHOW_ACCOUNT:
		if (a != NULL)
			snprintf(buf, len, "%*s%s", ln->indent > 0 ?
			    ln->indent : 0, "", a->name);
		return (buf);
	case SACCTMGR_SHOW_ADMIN:
		return (user == NULL ? "" : sacctmgr_show_is_operator(ctx,
		    user) ? "Operator" : "None");
	case SACCTMGR_SHOW_CLUSTER:
		return (ctx->cluster != NULL ? ctx->cluster : "");
	case SACCTMGR_SHOW_DEFACCT:
		s = user != NULL ? assoc_list_default(l, user) : NULL;
		return (s != NULL ? s : "");
	case SACCTMGR_SHOW_DESCR:
		return (a == NULL ? "" : a->description[0] != '\0' ?
		    a->description : a->name);
	case SACCTMGR_SHOW_ORG:
		return (a == NULL ? "" : a->parent[0] != '\0' ? a->parent :
		    a->name);
	case SACCTMGR_SHOW_PARENT:
		return (a == NULL || u != NULL ? "" : a->parent[0] != '\0' ?
		    a->parent : "root");
	case SACCTMGR_SHOW_USER:
		return (user != NULL ? user : "");
	case SACCTMGR_SHOW_SHARE:
		if (u != NULL)
			return ("parent");
		return (a == NULL ? "" : slurm_fmt_member("shares",
		    a->shares, buf, len));
	case SACCTMGR_SHOW_GRPJOBS:
		return (lim == NULL ? "" : slurm_fmt_member("max_jobs",
		    lim->max_jobs, buf, len));
	case SACCTMGR_SHOW_GRPSUBMIT:
		return (lim == NULL ? "" : slurm_fmt_member("max_pending",
		    lim->max_pending, buf, len));
	case SACCTMGR_SHOW_GRPTRES:
		return (lim == NULL ? "" : slurm_fmt_member("max_gpus",
		    lim->max_gpus, buf, len));
	case SACCTMGR_SHOW_GRPTRESMINS:
		return (a == NULL || u != NULL ? "" :
		    slurm_fmt_member("gpu_hours", a->budget_s, buf, len));
	case SACCTMGR_SHOW_MAXJOBS:
		return (u == NULL ? "" : slurm_fmt_member("max_jobs",
		    u->lim.max_jobs, buf, len));
	case SACCTMGR_SHOW_MAXSUBMIT:
		return (u == NULL ? "" : slurm_fmt_member("max_pending",
		    u->lim.max_pending, buf, len));
	case SACCTMGR_SHOW_MAXWALL:
		return (lim == NULL ? "" : slurm_fmt_member("max_time",
		    lim->max_time, buf, len));
	case SACCTMGR_SHOW_NFIELDS:
		break;
	}
	return ("");
}

static void
sacctmgr_show_line(FILE *f, const struct sacctmgr_show_line *ln,
    const struct assoc_list *l, const struct sacctmgr_show_col *cols, int n,
    const struct sacctmgr_show_ctx *ctx, int parsable)
{
	char	buf[1100], safe[4400];
	int	i;

	for (i = 0; i < n; i++)
		slurm_fmt_field(f, cols[i].width, safe_text_str(
		    sacctmgr_show_cell(cols[i].field, ln, l, ctx, buf,
		    sizeof buf), safe, sizeof safe), parsable, i == n - 1);
	fputc('\n', f);
}

/* The tree's line of account a's own, or l->nrows (in a loop). */
static size_t
sacctmgr_show_row_of(const struct assoc_list *l,
    const struct assoc_list_account *a)
{
	size_t	i;

	for (i = 0; i < l->nrows; i++) {
		if (l->rows[i].acct == a && l->rows[i].user == NULL)
			break;
	}
	return (i);
}

/* show account: each account by name, with WithAssoc its users' lines
 * after its own. */
static void
sacctmgr_show_accounts(FILE *f, const struct sacctmgr_words *w,
    const struct assoc_list *l, const struct sacctmgr_show_col *cols, int n,
    const struct sacctmgr_show_ctx *ctx, int parsable)
{
	struct sacctmgr_show_line	 ln = { .indent = -1 };
	size_t				 i, r;

	for (i = 0; i < l->nacc; i++) {
		if (json_array_size(w->names) > 0 && !cmd_list_has(w->names,
		    l->acc[i].name))
			continue;
		ln.acct = &l->acc[i];
		ln.user = NULL;
		sacctmgr_show_line(f, &ln, l, cols, n, ctx, parsable);
		if (!w->withassoc)
			continue;
		for (r = sacctmgr_show_row_of(l, ln.acct) + 1; r < l->nrows &&
		    l->rows[r].user != NULL && l->rows[r].acct == ln.acct;
		    r++) {
			ln.user = l->rows[r].user;
			sacctmgr_show_line(f, &ln, l, cols, n, ctx, parsable);
		}
	}
}

/* show user: each user by name, or with WithAssoc each association. */
static void
sacctmgr_show_users(FILE *f, const struct sacctmgr_words *w,
    const struct assoc_list *l, const struct sacctmgr_show_col *cols, int n,
    const struct sacctmgr_show_ctx *ctx, int parsable)
{
	struct sacctmgr_show_line	 ln = { .indent = -1 };
	size_t				 i;

	for (i = 0; i < l->nusr; i++) {
		if (json_array_size(w->names) > 0 && !cmd_list_has(w->names,
		    l->usr[i].user))
			continue;
		if (w->withassoc) {
			ln.acct = assoc_list_account(l, l->usr[i].account);
			ln.user = &l->usr[i];
		} else if (i > 0 && strcmp(l->usr[i - 1].user,
		    l->usr[i].user) == 0)
			continue;
		ln.name = l->usr[i].user;
		sacctmgr_show_line(f, &ln, l, cols, n, ctx, parsable);
	}
}

/* show assoc: the tree's lines w's Accounts= and Users= select. */
static void
sacctmgr_show_assocs(FILE *f, const struct sacctmgr_words *w,
    const struct assoc_list *l, const struct sacctmgr_show_col *cols, int n,
    const struct sacctmgr_show_ctx *ctx, int parsable)
{
	struct sacctmgr_show_line	 ln;
	const struct assoc_list_row	*row;
	bool				*shown;
	int				*indent;
	size_t				 i;

	shown = calloc(l->nrows + 1, sizeof *shown);
	indent = calloc(l->nrows + 1, sizeof *indent);
	if (shown == NULL || indent == NULL)
		abort();
	for (i = 0; i < l->nrows; i++) {
		row = &l->rows[i];
		shown[i] = (json_array_size(w->accounts) == 0 ||
		    cmd_list_has(w->accounts, row->acct->name)) &&
		    (json_array_size(w->users) == 0 || (row->user != NULL &&
		    cmd_list_has(w->users, row->user->user)));
	}
	assoc_list_indent(l, shown, false, indent);
	for (i = 0; i < l->nrows; i++) {
		if (!shown[i])
			continue;
		ln.acct = l->rows[i].acct;
		ln.user = l->rows[i].user;
		ln.name = NULL;
		ln.indent = w->tree ? indent[i] : -1;
		sacctmgr_show_line(f, &ln, l, cols, n, ctx, parsable);
	}
	free(shown);
	free(indent);
}

void
sacctmgr_show_print(FILE *f, const struct sacctmgr_words *w,
    const struct assoc_list *l, const struct sacctmgr_show_col *cols, int n,
    const struct sacctmgr_show_ctx *ctx, int parsable, bool header)
{
	size_t	i;
	int	c;

	if (header) {
		for (c = 0; c < n; c++) {
			for (i = 0; i < SACCTMGR_SHOW_NNAMES &&
			    sacctmgr_show_fields[i].field != cols[c].field; i++)
				continue;
			slurm_fmt_field_name(f, cols[c].width,
			    sacctmgr_show_fields[i].header, parsable, c == n - 1);
		}
		fputc('\n', f);
		for (c = 0; !parsable && c < n; c++)
			slurm_fmt_field_rule(f, cols[c].width);
		if (!parsable)
			fputc('\n', f);
	}
	if (w->entity == SACCTMGR_ACCOUNT)
		sacctmgr_show_accounts(f, w, l, cols, n, ctx, parsable);
	else if (w->entity == SACCTMGR_USER)
		sacctmgr_show_users(f, w, l, cols, n, ctx, parsable);
	else
		sacctmgr_show_assocs(f, w, l, cols, n, ctx, parsable);
}
