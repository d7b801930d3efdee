/* sacctmgr-words.c: sacctmgr's words read (sacctmgr-words.h). Slurm's
 * keywords are matched as its sacctmgr matches them: in any case, and a
 * word that is a prefix of at least a keyword's minimum length names it,
 * the first of the table's that fits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/assoc-words.h"
#include "client/sacctmgr-keys.h"
#include "client/sacctmgr-words.h"
#include "common/cmd.h"

/* The commands and entities: gbatch's, then Slurm's others (named in a
 * refusal). An entity row's verbs says which commands take it. */
#define SACCTMGR_WORDS_ALL	0xf
#define SACCTMGR_WORDS_BIT(v)	(1 << (v))
#define SACCTMGR_WORDS_NONE	(-1)

static const struct {
	const char	*word;
	size_t		 min;
	int		 verb;		/* SACCTMGR_WORDS_NONE: Slurm's */
} sacctmgr_words_verbs[] = {
	{ "add", 3, SACCTMGR_ADD }, { "create", 3, SACCTMGR_ADD },
	{ "modify", 1, SACCTMGR_MODIFY }, { "update", 1, SACCTMGR_MODIFY },
	{ "delete", 3, SACCTMGR_DELETE }, { "remove", 3, SACCTMGR_DELETE },
	{ "show", 3, SACCTMGR_SHOW }, { "list", 3, SACCTMGR_SHOW },
	{ "archive", 3, SACCTMGR_WORDS_NONE },
	{ "clear", 3, SACCTMGR_WORDS_NONE },
	{ "dump", 3, SACCTMGR_WORDS_NONE }, { "load", 2, SACCTMGR_WORDS_NONE },
	{ "ping", 4, SACCTMGR_WORDS_NONE },
	{ "reconfigure", 4, SACCTMGR_WORDS_NONE },
	{ "rollup", 2, SACCTMGR_WORDS_NONE },
	{ "shutdown", 4, SACCTMGR_WORDS_NONE },
};

static const struct {
	const char	*word;
	size_t		 min;
	int		 entity;	/* SACCTMGR_WORDS_NONE: Slurm's */
	int		 verbs;
} sacctmgr_words_entities[] = {
	{ "accounts", 1, SACCTMGR_ACCOUNT, SACCTMGR_WORDS_ALL &
	    ~SACCTMGR_WORDS_BIT(SACCTMGR_SHOW) },
	{ "accounts", 2, SACCTMGR_ACCOUNT, SACCTMGR_WORDS_ALL },
	{ "acct", 4, SACCTMGR_ACCOUNT, SACCTMGR_WORDS_ALL },
	{ "associations", 2, SACCTMGR_ASSOC,
	    SACCTMGR_WORDS_BIT(SACCTMGR_SHOW) },
	{ "users", 1, SACCTMGR_USER, SACCTMGR_WORDS_ALL },
	{ "clusters", 2, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "configuration", 2, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "coordinators", 2, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "events", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "federations", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "instances", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "jobs", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "lostjobs", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "orphanjobs", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "problems", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "qos", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "reservations", 4, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "resources", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "runawayjobs", 2, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "stats", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "transactions", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "tres", 2, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
	{ "wckeys", 1, SACCTMGR_WORDS_NONE, SACCTMGR_WORDS_ALL },
};

#define SACCTMGR_WORDS_SUPPORTED					\
	"gbatch's sacctmgr adds, modifies and deletes accounts and users, "	\
	"and shows accounts, users and associations"

/* What a KEY= word is to a command: the names it acts on, a user's
 * accounts, show assoc's users, a default account, show's format, or a
 * keyword that sets a member. */
enum sacctmgr_words_role {
	SACCTMGR_WORDS_R_NONE,
	SACCTMGR_WORDS_R_NAMES,
	SACCTMGR_WORDS_R_ACCOUNTS,
	SACCTMGR_WORDS_R_USERS,
	SACCTMGR_WORDS_R_DEFAULT,
	SACCTMGR_WORDS_R_FORMAT,
	SACCTMGR_WORDS_R_SET,
};

/* Where a word stands: before set (or in a command without it), or
 * after. */
struct sacctmgr_words_state {
	struct sacctmgr_words	*w;
	bool			 in_set;
	char			*err;
	size_t			 errlen;
};

/* The keywords a command takes where the state stands, for messages. */
static void
sacctmgr_words_accepted(const struct sacctmgr_words_state *s, char *buf,
    size_t len)
{
	const struct sacctmgr_words	*w = s->w;
	size_t				 used = 0;
	char				 keys[256];

	buf[0] = '\0';
#define SACCTMGR_WORDS_ADD(text)					\
	used += (size_t)snprintf(buf + used, used < len ? len - used : 0,  \
	    "%s%s", used > 0 ? ", " : "", (text))
	if (!s->in_set && w->verb != SACCTMGR_ADD) {
		if (w->entity != SACCTMGR_ASSOC)
			SACCTMGR_WORDS_ADD("Names");
		if (w->entity != SACCTMGR_ACCOUNT)
			SACCTMGR_WORDS_ADD("Accounts");
		if (w->entity == SACCTMGR_ASSOC)
			SACCTMGR_WORDS_ADD("Users");
		if (w->verb == SACCTMGR_SHOW) {
			SACCTMGR_WORDS_ADD("Format");
			SACCTMGR_WORDS_ADD(w->entity == SACCTMGR_ASSOC ?
			    "Tree" : "WithAssoc");
		}
		return;
	}
	if (w->verb == SACCTMGR_ADD) {
		SACCTMGR_WORDS_ADD("Names");
		if (w->entity == SACCTMGR_USER)
			SACCTMGR_WORDS_ADD("Accounts");
	}
	if (w->entity == SACCTMGR_USER)
		SACCTMGR_WORDS_ADD("DefaultAccount");
	SACCTMGR_WORDS_ADD(sacctmgr_keys_names(w->entity == SACCTMGR_USER ?
	    ASSOC_WORDS_USER : ASSOC_WORDS_ACCOUNT, keys, sizeof keys));
#undef SACCTMGR_WORDS_ADD
}

/* The role of key= in the command where the state stands, and for a
 * keyword that sets, its row (*k). */
static enum sacctmgr_words_role
sacctmgr_words_role(const struct sacctmgr_words_state *s, const char *key,
    const struct sacctmgr_key **k)
{
	const struct sacctmgr_words	*w = s->w;
	bool				 cond = !s->in_set &&
					    w->verb != SACCTMGR_ADD;

	if (sacctmgr_keys_is(key, "Names", 1) && w->entity !=
	    SACCTMGR_ASSOC && !s->in_set)
		return (SACCTMGR_WORDS_R_NAMES);
	if ((sacctmgr_keys_is(key, "Accounts", 2) ||
	    sacctmgr_keys_is(key, "Acct", 4)) && !s->in_set)
		return (w->entity == SACCTMGR_ACCOUNT ?
		    SACCTMGR_WORDS_R_NAMES : SACCTMGR_WORDS_R_ACCOUNTS);
	if (sacctmgr_keys_is(key, "Users", 1) && !s->in_set) {
		if (w->entity == SACCTMGR_USER)
			return (SACCTMGR_WORDS_R_NAMES);
		if (w->entity == SACCTMGR_ASSOC)
			return (SACCTMGR_WORDS_R_USERS);
	}
	if (w->verb == SACCTMGR_SHOW) {
		return (sacctmgr_keys_is(key, "Format", 1) ?
		    SACCTMGR_WORDS_R_FORMAT : SACCTMGR_WORDS_R_NONE);
	}
	if (cond || w->verb == SACCTMGR_DELETE)
		return (SACCTMGR_WORDS_R_NONE);
	if (w->entity == SACCTMGR_USER &&
	    sacctmgr_keys_is(key, "DefaultAccount", 8))
		return (SACCTMGR_WORDS_R_DEFAULT);
	return ((*k = sacctmgr_keys_find(key)) != NULL ?
	    SACCTMGR_WORDS_R_SET : SACCTMGR_WORDS_R_NONE);
}

/* A cmd_split() callback: item into the JSON array arr, once. */
static int
sacctmgr_words_add_name(const char *item, void *arr, char *err,
    size_t errlen)
{
	json_t	*s = json_string(item);
	size_t	 i;

	if (s == NULL) {
		snprintf(err, errlen, "expected names in UTF-8");
		return (-1);
	}
	for (i = 0; i < json_array_size(arr); i++) {
		if (json_equal(json_array_get(arr, i), s))
			break;
	}
	if (i == json_array_size(arr))
		json_array_append(arr, s);
	json_decref(s);
	return (0);
}

/* One KEY=VALUE word. */
static int
sacctmgr_words_pair(struct sacctmgr_words_state *s, const char *word,
    const char *eq)
{
	struct sacctmgr_words		*w = s->w;
	const struct sacctmgr_key	*k = NULL;
	const char			*val = eq + 1;
	char				 key[64], accepted[512];
	json_t				*arr;
	size_t				 len = (size_t)(eq - word);

	if (len == 0 || len >= sizeof key) {
		sacctmgr_words_accepted(s, accepted, sizeof accepted);
		snprintf(s->err, s->errlen, "\"%s\": expected KEY=VALUE, KEY "
		    "one of %s", word, accepted);
		return (-1);
	}
	memcpy(key, word, len);
	key[len] = '\0';
	switch (sacctmgr_words_role(s, key, &k)) {
	case SACCTMGR_WORDS_R_NAMES:
	case SACCTMGR_WORDS_R_ACCOUNTS:
	case SACCTMGR_WORDS_R_USERS:
		arr = sacctmgr_words_role(s, key, &k) == SACCTMGR_WORDS_R_NAMES ?
		    w->names : sacctmgr_words_role(s, key, &k) ==
		    SACCTMGR_WORDS_R_USERS ? w->users : w->accounts;
		return (cmd_split(val, key, sacctmgr_words_add_name, arr,
		    s->err, s->errlen));
	case SACCTMGR_WORDS_R_DEFAULT:
		if (*val == '\0' || w->def_account != NULL) {
			snprintf(s->err, s->errlen, "%s: expected one account's "
			    "name, once", key);
			return (-1);
		}
		w->def_account = val;
		return (0);
	case SACCTMGR_WORDS_R_FORMAT:
		if (*val == '\0' || w->format != NULL) {
			snprintf(s->err, s->errlen, "%s: expected a list of "
			    "fields, once", key);
			return (-1);
		}
		w->format = val;
		return (0);
	case SACCTMGR_WORDS_R_SET:
		return (sacctmgr_keys_put(w->set, k, w->entity ==
		    SACCTMGR_USER ? ASSOC_WORDS_USER : ASSOC_WORDS_ACCOUNT, key,
		    val, s->err, s->errlen));
	case SACCTMGR_WORDS_R_NONE:
		break;
	}
	sacctmgr_words_accepted(s, accepted, sizeof accepted);
	snprintf(s->err, s->errlen, "%s: unknown keyword%s; expected %s", key,
	    s->in_set ? " after set" : w->verb == SACCTMGR_MODIFY ?
	    " before set" : "", accepted);
	return (-1);
}

/* One word without '=': a flag of show's, or names. */
static int
sacctmgr_words_bare(struct sacctmgr_words_state *s, const char *word)
{
	struct sacctmgr_words	*w = s->w;
	char			 accepted[512];

	if (w->verb == SACCTMGR_SHOW && w->entity != SACCTMGR_ASSOC &&
	    sacctmgr_keys_is(word, "WithAssoc", 5)) {
		w->withassoc = true;
		return (0);
	}
	if (w->verb == SACCTMGR_SHOW && w->entity == SACCTMGR_ASSOC &&
	    sacctmgr_keys_is(word, "Tree", 4)) {
		w->tree = true;
		return (0);
	}
	if (!s->in_set && w->entity != SACCTMGR_ASSOC)
		return (cmd_split(word, "names", sacctmgr_words_add_name,
		    w->names, s->err, s->errlen));
	sacctmgr_words_accepted(s, accepted, sizeof accepted);
	snprintf(s->err, s->errlen, "\"%s\": expected KEY=VALUE, KEY one of %s",
	    word, accepted);
	return (-1);
}

/* The command and the entity: 0, or as sacctmgr_words_parse. */
static int
sacctmgr_words_head(int argc, char **argv, struct sacctmgr_words *w,
    char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < sizeof sacctmgr_words_verbs /
	    sizeof sacctmgr_words_verbs[0]; i++) {
		if (sacctmgr_keys_is(argv[0], sacctmgr_words_verbs[i].word,
		    sacctmgr_words_verbs[i].min))
			break;
	}
	if (i == sizeof sacctmgr_words_verbs / sizeof sacctmgr_words_verbs[0]) {
		snprintf(err, errlen, "\"%s\": expected a command: add (or "
		    "create), modify (or update), delete (or remove), show (or "
		    "list)", argv[0]);
		return (SACCTMGR_WORDS_USAGE);
	}
	if (sacctmgr_words_verbs[i].verb == SACCTMGR_WORDS_NONE) {
		snprintf(err, errlen, "%s: not supported; "
		    SACCTMGR_WORDS_SUPPORTED, sacctmgr_words_verbs[i].word);
		return (SACCTMGR_WORDS_UNSUPPORTED);
	}
	w->verb = (enum sacctmgr_verb)sacctmgr_words_verbs[i].verb;
	if (argc < 2) {
		snprintf(err, errlen, "%s: expected what: account or user%s",
		    argv[0], w->verb == SACCTMGR_SHOW ? ", or association" : "");
		return (SACCTMGR_WORDS_USAGE);
	}
	for (i = 0; i < sizeof sacctmgr_words_entities /
	    sizeof sacctmgr_words_entities[0]; i++) {
		if ((sacctmgr_words_entities[i].verbs &
		    SACCTMGR_WORDS_BIT(w->verb)) != 0 &&
		    sacctmgr_keys_is(argv[1], sacctmgr_words_entities[i].word,
		    sacctmgr_words_entities[i].min))
			break;
	}
	if (i == sizeof sacctmgr_words_entities /
	    sizeof sacctmgr_words_entities[0]) {
		snprintf(err, errlen, "%s: \"%s\": expected account or user%s",
		    argv[0], argv[1], w->verb == SACCTMGR_SHOW ?
		    ", or association" : "");
		return (SACCTMGR_WORDS_USAGE);
	}
	if (sacctmgr_words_entities[i].entity == SACCTMGR_WORDS_NONE) {
		snprintf(err, errlen, "%s %s: not supported; "
		    SACCTMGR_WORDS_SUPPORTED "%s", argv[0], argv[1],
		    strcmp(sacctmgr_words_entities[i].word, "qos") == 0 ?
		    " (gbatch's QOS are gbatch.conf's qos group: gctl show "
		    "config)" : "");
		return (SACCTMGR_WORDS_UNSUPPORTED);
	}
	w->entity = (enum sacctmgr_entity)sacctmgr_words_entities[i].entity;
	return (0);
}

/* What a command needs once all its words are read. */
static int
sacctmgr_words_check(struct sacctmgr_words *w, char *err, size_t errlen)
{
	const char	*what = w->entity == SACCTMGR_USER ? "user" : "account";
	static const char *const verbs[] = { "add", "modify", "delete",
	    "show" };
	size_t		 i;

	if (w->verb == SACCTMGR_SHOW)
		return (0);
	if (json_array_size(w->names) == 0) {
		snprintf(err, errlen, "%s %s: expected the %s's name (NAME, or "
		    "%sName=NAME)", verbs[w->verb], what, what,
		    w->verb == SACCTMGR_ADD ? "" : "where ");
		return (-1);
	}
	for (i = 0; w->verb == SACCTMGR_ADD && w->entity == SACCTMGR_ACCOUNT &&
	    i < json_array_size(w->names); i++) {
		if (strcasecmp(json_string_value(json_array_get(w->names, i)),
		    "root") != 0)
			continue;
		snprintf(err, errlen, "add account: root is the top of the tree, "
		    "which gbatch's top accounts hang from (Parent=root); "
		    "expected another name");
		return (-1);
	}
	if (w->verb == SACCTMGR_ADD && w->entity == SACCTMGR_USER &&
	    json_array_size(w->accounts) == 0) {
		if (w->def_account == NULL) {
			snprintf(err, errlen, "add user: expected Account=NAME "
			    "(or DefaultAccount=NAME)");
			return (-1);
		}
		json_array_append_new(w->accounts,
		    json_string(w->def_account));
	}
	if (w->verb == SACCTMGR_MODIFY && json_object_size(w->set) == 0 &&
	    w->def_account == NULL) {
		snprintf(err, errlen, "modify %s: nothing to set; expected set "
		    "KEY=VALUE", what);
		return (-1);
	}
	return (0);
}

int
sacctmgr_words_parse(int argc, char **argv, struct sacctmgr_words *w,
    char *err, size_t errlen)
{
	struct sacctmgr_words_state	 s = { w, false, err, errlen };
	const char			*eq;
	int				 i, r;

	memset(w, 0, sizeof *w);
	if (argc < 1) {
		snprintf(err, errlen, "expected a command: add, modify, delete "
		    "or show");
		return (SACCTMGR_WORDS_USAGE);
	}
	if ((r = sacctmgr_words_head(argc, argv, w, err, errlen)) != 0)
		return (r);
	w->names = json_array();
	w->accounts = json_array();
	w->users = json_array();
	w->set = json_object();
	for (i = 2; i < argc; i++) {
		if (sacctmgr_keys_is(argv[i], "where", 5)) {
			if (!s.in_set)
				continue;
			snprintf(err, errlen, "where: expected before set");
			goto bad;
		}
		if (sacctmgr_keys_is(argv[i], "set", 3)) {
			/* Slurm's add reads the words after set as before. */
			if (w->verb == SACCTMGR_ADD)
				continue;
			if (w->verb != SACCTMGR_MODIFY || s.in_set) {
				snprintf(err, errlen, "set: expected once, in "
				    "modify");
				goto bad;
			}
			s.in_set = true;
			continue;
		}
		r = (eq = strchr(argv[i], '=')) != NULL ?
		    sacctmgr_words_pair(&s, argv[i], eq) :
		    sacctmgr_words_bare(&s, argv[i]);
		if (r != 0)
			goto bad;
	}
	if (sacctmgr_words_check(w, err, errlen) == 0)
		return (0);
bad:
	sacctmgr_words_free(w);
	return (SACCTMGR_WORDS_USAGE);
}

void
sacctmgr_words_free(struct sacctmgr_words *w)
{
	json_decref(w->names);
	json_decref(w->accounts);
	json_decref(w->users);
	json_decref(w->set);
	memset(w, 0, sizeof *w);
}
