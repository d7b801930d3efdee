/* conf-file.c: one reader for gbatch.conf, driven by each daemon's tables
 * of keys (conf-file.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libconfig.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"

/* The groups of gbatch.conf. Both daemons read the one file, so each
 * accepts every group at the top and reads only its own (tls is both's). */
static const char *const conf_file_groups[] = {
	"controller", "node", "scheduler", "tls", "partitions", "qos", NULL,
};

/* Longest value quoted back in a message. */
#define CONF_FILE_QUOTE_MAX	64

void
conf_file_list_add(struct conf_file_list *l, const char *s)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(s);
}

void
conf_file_list_copy(struct conf_file_list *dst,
    const struct conf_file_list *src)
{
	size_t	i;

	memset(dst, 0, sizeof *dst);
	for (i = 0; i < src->n; i++)
		conf_file_list_add(dst, src->v[i]);
}

bool
conf_file_list_equal(const struct conf_file_list *a,
    const struct conf_file_list *b)
{
	size_t	i;

	if (a->n != b->n)
		return (false);
	for (i = 0; i < a->n; i++) {
		if (strcmp(a->v[i], b->v[i]) != 0)
			return (false);
	}
	return (true);
}

bool
conf_file_list_has(const struct conf_file_list *l, const char *s)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i], s) == 0)
			return (true);
	}
	return (false);
}

void
conf_file_list_clear(struct conf_file_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const char *
conf_file_path(const char *flag, bool *must_exist)
{
	const char	*env;

	*must_exist = true;
	if (flag != NULL)
		return (flag);
	if ((env = getenv("GBATCH_CONF")) != NULL && *env != '\0')
		return (env);
	*must_exist = false;
	return (CONF_FILE_DEFAULT);
}

void
conf_file_print_ok(FILE *f, const char *path, bool found)
{
	if (found)
		fprintf(f, "%s: OK\n", path);
	else
		fprintf(f, "no config file at %s; the defaults are valid\n",
		    path);
}

/* n names as a list for a message: a, b or c (each quoted if quote). The
 * names are the first member of n records stride bytes apart, so a table
 * of keys gives its names as an array of strings does. */
static void
conf_file_words(const void *names, size_t stride, size_t n, bool quote,
    char *buf, size_t len)
{
	const char	*name;
	size_t		 i, o = 0;
	int		 w;

	buf[0] = '\0';
	for (i = 0; i < n && o < len; i++) {
		memcpy(&name, (const char *)names + i * stride, sizeof name);
		w = snprintf(buf + o, len - o, "%s%s%s%s",
		    i == 0 ? "" : (i + 1 == n ? " or " : ", "),
		    quote ? "\"" : "", name, quote ? "\"" : "");
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* What was found instead, for "expected X, got Y": the value when it is a
 * scalar (a string quoted, made printable and cut), else its kind. */
static void
conf_file_got(const config_setting_t *s, char *buf, size_t len)
{
	const char	*v;
	size_t		 i, o;

	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		snprintf(buf, len, "%lld", config_setting_get_int64(s));
		break;
	case CONFIG_TYPE_FLOAT:
		snprintf(buf, len, "%g", config_setting_get_float(s));
		break;
	case CONFIG_TYPE_BOOL:
		snprintf(buf, len, "%s", config_setting_get_bool(s) ? "true" :
		    "false");
		break;
	case CONFIG_TYPE_STRING:
		v = config_setting_get_string(s);
		o = 0;
		if (len < 8)
			break;
		buf[o++] = '"';
		for (i = 0; v[i] != '\0' && o + 6 < len; i++) {
			if (i == CONF_FILE_QUOTE_MAX) {
				memcpy(buf + o, "...", 3);
				o += 3;
				break;
			}
			/* The file's text goes to a terminal. */
			buf[o++] = (v[i] >= 0x20 && v[i] < 0x7f) ? v[i] : '?';
		}
		buf[o++] = '"';
		buf[o] = '\0';
		break;
	case CONFIG_TYPE_GROUP:
		snprintf(buf, len, "a group");
		break;
	case CONFIG_TYPE_ARRAY:
	case CONFIG_TYPE_LIST:
		snprintf(buf, len, "%s", config_setting_length(s) == 0 ?
		    "an empty list" : "a list");
		break;
	default:
		snprintf(buf, len, "nothing");
		break;
	}
}

/* A non-empty string; what, when given, says what it is for. */
static int
conf_file_str(const config_setting_t *s, const char *what, const char **out,
    char *why, size_t len)
{
	const char	*v;
	char		 got[128];

	json_t		*utf8;

	if ((v = config_setting_get_string(s)) == NULL || *v == '\0') {
		conf_file_got(s, got, sizeof got);
		snprintf(why, len, "expected %s%sa non-empty string%s, got %s",
		    what != NULL ? what : "", what != NULL ? " (" : "",
		    what != NULL ? ")" : "", got);
		return (-1);
	}
	/* Every setting is shown as JSON (gctl show config, reloads), which
	 * carries UTF-8 only: a path with a Latin-1 byte once left gbatchd
	 * with settings it could not show. */
	if ((utf8 = json_string(v)) == NULL) {
		conf_file_got(s, got, sizeof got);
		snprintf(why, len, "expected %s%sUTF-8 text%s, got %s",
		    what != NULL ? what : "", what != NULL ? " (" : "",
		    what != NULL ? ")" : "", got);
		return (-1);
	}
	json_decref(utf8);
	*out = v;
	return (0);
}

int
conf_file_string(const config_setting_t *s, const char **out, char *why,
    size_t len)
{
	return (conf_file_str(s, NULL, out, why, len));
}

int
conf_file_whole(const config_setting_t *s, long long min, long long max,
    const char *what, long long *out, char *why, size_t len)
{
	long long	v;
	char		got[128];

	v = config_setting_get_int64(s);
	if ((config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64) || v < min ||
	    v > max) {
		conf_file_got(s, got, sizeof got);
		snprintf(why, len, "expected %s%sa whole number from %lld to "
		    "%lld, got %s", what != NULL ? what : "",
		    what != NULL ? ", " : "", min, max, got);
		return (-1);
	}
	*out = v;
	return (0);
}

int
conf_file_choice(const config_setting_t *s, const char *const *words,
    int *index, char *why, size_t len)
{
	const char	*v;
	char		 list[256], got[128];
	size_t		 n;

	v = config_setting_get_string(s);
	for (n = 0; words[n] != NULL; n++) {
		if (v != NULL && strcmp(v, words[n]) == 0) {
			*index = (int)n;
			return (0);
		}
	}
	conf_file_words(words, sizeof words[0], n, true, list, sizeof list);
	conf_file_got(s, got, sizeof got);
	snprintf(why, len, "expected %s, got %s", list, got);
	return (-1);
}

static int
conf_file_number(const config_setting_t *s, const struct conf_file_key *k,
    double *out, char *why, size_t len)
{
	double	d = 0;
	char	got[128];
	int	type = config_setting_type(s);

	if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64)
		d = (double)config_setting_get_int64(s);
	else if (type == CONFIG_TYPE_FLOAT)
		d = config_setting_get_float(s);
	if ((type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64 &&
	    type != CONFIG_TYPE_FLOAT) || !(d >= (double)k->min) ||
	    !(d <= (double)k->max)) {
		conf_file_got(s, got, sizeof got);
		snprintf(why, len, "expected %s%sa number from %lld to %lld, "
		    "got %s", k->what != NULL ? k->what : "",
		    k->what != NULL ? ", " : "", k->min, k->max, got);
		return (-1);
	}
	*out = d;
	return (0);
}

static int
conf_file_log_level(const config_setting_t *s, enum log_level *out,
    char *why, size_t len)
{
	const char	*words[LOG_LEVEL_DEBUG + 2];
	int		 i;

	for (i = 0; i <= LOG_LEVEL_DEBUG; i++)
		words[i] = log_level_name((enum log_level)i);
	words[i] = NULL;
	if (conf_file_choice(s, words, &i, why, len) == -1)
		return (-1);
	return (log_level_parse(words[i], out));
}

/* A string of the table, through the key's own check if it has one. what
 * is NULL for an element of a list (the key's what names the list's). */
static int
conf_file_valid(const config_setting_t *s, const struct conf_file_key *k,
    const char *what, const char **out, char *why, size_t len)
{
	if (conf_file_str(s, what, out, why, len) == -1)
		return (-1);
	if (k->valid != NULL && k->valid(*out, why, len) == -1)
		return (-1);
	return (0);
}

/* LIST and STRINGS: every element a valid string; the list replaces the
 * one in the settings only when all of it is. */
static int
conf_file_list(const config_setting_t *s, const struct conf_file_key *k,
    struct conf_file_list *out, char *why, size_t len)
{
	struct conf_file_list	 l = { NULL, 0 };
	const config_setting_t	*e;
	const char		*v;
	char			 got[128], detail[384];
	int			 i, n = -1;

	if (k->type == CONF_FILE_STRINGS &&
	    config_setting_type(s) == CONFIG_TYPE_STRING) {
		if (conf_file_valid(s, k, NULL, &v, why, len) == -1)
			return (-1);
		conf_file_list_clear(out);
		conf_file_list_add(out, v);
		return (0);
	}
	if (config_setting_type(s) == CONFIG_TYPE_LIST ||
	    config_setting_type(s) == CONFIG_TYPE_ARRAY)
		n = config_setting_length(s);
	if (n < k->min) {
		conf_file_got(s, got, sizeof got);
		snprintf(why, len, "expected %s%s%s%s%s, got %s",
		    k->type == CONF_FILE_LIST ? "a list of " : "", k->what,
		    k->type == CONF_FILE_STRINGS ? " or a list of them" : "",
		    k->example != NULL ? ", as " : "",
		    k->example != NULL ? k->example : "", got);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, (unsigned)i);
		if (conf_file_valid(e, k, NULL, &v, detail,
		    sizeof detail) == -1) {
			snprintf(why, len, "element %d: %s", i + 1, detail);
			conf_file_list_clear(&l);
			return (-1);
		}
		conf_file_list_add(&l, v);
	}
	conf_file_list_clear(out);
	*out = l;
	return (0);
}

/* Reads one key that is present in the group into settings. */
static int
conf_file_key_read(const config_setting_t *s, const struct conf_file_key *k,
    void *settings, char *why, size_t len)
{
	char		*at = (char *)settings + k->off;
	const char	*v;
	long long	 ll;
	double		 d;
	char		 got[128];

	switch (k->type) {
	case CONF_FILE_STRING:
		if (conf_file_valid(s, k, k->what, &v, why, len) == -1)
			return (-1);
		free(*(char **)(void *)at);
		*(char **)(void *)at = xstrdup(v);
		return (0);
	case CONF_FILE_INT:
		if (conf_file_whole(s, k->min, k->max, k->what, &ll, why,
		    len) == -1)
			return (-1);
		*(int *)(void *)at = (int)ll;
		return (0);
	case CONF_FILE_UINT:
		if (conf_file_whole(s, k->min, k->max, k->what, &ll, why,
		    len) == -1)
			return (-1);
		*(unsigned *)(void *)at = (unsigned)ll;
		return (0);
	case CONF_FILE_NUMBER:
		if (conf_file_number(s, k, &d, why, len) == -1)
			return (-1);
		*(double *)(void *)at = d;
		return (0);
	case CONF_FILE_BOOL:
		if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
			conf_file_got(s, got, sizeof got);
			snprintf(why, len, "expected true or false, got %s",
			    got);
			return (-1);
		}
		*(bool *)(void *)at = config_setting_get_bool(s) != 0;
		return (0);
	case CONF_FILE_LOG_LEVEL:
		return (conf_file_log_level(s, (enum log_level *)(void *)at,
		    why, len));
	case CONF_FILE_LIST:
	case CONF_FILE_STRINGS:
		return (conf_file_list(s, k,
		    (struct conf_file_list *)(void *)at, why, len));
	case CONF_FILE_CUSTOM:
		return (k->read(settings, s, why, len));
	}
	snprintf(why, len, "key of unknown type %d", (int)k->type);
	return (-1);
}

/* Refuses a member of g that the table does not name. */
static int
conf_file_known(const config_setting_t *g, const struct conf_file_group *grp,
    char *err, size_t errlen)
{
	const config_setting_t	*s;
	char			 list[512];
	size_t			 k;
	int			 i;

	for (i = 0; i < config_setting_length(g); i++) {
		s = config_setting_get_elem(g, (unsigned)i);
		for (k = 0; k < grp->nkeys; k++) {
			if (strcmp(config_setting_name(s),
			    grp->keys[k].name) == 0)
				break;
		}
		if (k < grp->nkeys)
			continue;
		conf_file_words(grp->keys, sizeof grp->keys[0], grp->nkeys,
		    false, list, sizeof list);
		snprintf(err, errlen, "line %d: %s.%s: unknown key; expected "
		    "%s", config_setting_source_line(s), grp->name,
		    config_setting_name(s), list);
		return (-1);
	}
	return (0);
}

/* A group of named groups: each member a group, read by grp->members. */
static int
conf_file_members_read(const config_setting_t *g,
    const struct conf_file_group *grp, void *settings, char *err,
    size_t errlen)
{
	const config_setting_t	*m;
	int			 i;

	for (i = 0; i < config_setting_length(g); i++) {
		m = config_setting_get_elem(g, (unsigned)i);
		if (!config_setting_is_group(m)) {
			snprintf(err, errlen, "line %d: %s.%s: expected a "
			    "group, as %s = { ... };",
			    config_setting_source_line(m), grp->name,
			    config_setting_name(m), config_setting_name(m));
			return (-1);
		}
		if (grp->members(settings, m, err, errlen) == -1)
			return (-1);
	}
	if (grp->check != NULL && grp->check(settings, g, err, errlen) == -1)
		return (-1);
	return (0);
}

int
conf_file_group_read(const config_setting_t *g,
    const struct conf_file_group *grp, void *settings, char *err,
    size_t errlen)
{
	const config_setting_t	*s;
	const struct conf_file_key *k;
	char			 why[512];
	size_t			 i;

	if (grp->members != NULL)
		return (conf_file_members_read(g, grp, settings, err,
		    errlen));
	if (conf_file_known(g, grp, err, errlen) == -1)
		return (-1);
	for (i = 0; i < grp->nkeys; i++) {
		k = &grp->keys[i];
		if ((s = config_setting_get_member(g, k->name)) == NULL)
			continue;
		if (conf_file_key_read(s, k, settings, why, sizeof why) == -1) {
			snprintf(err, errlen, "line %d: %s.%s: %s",
			    config_setting_source_line(s), grp->name, k->name,
			    why);
			return (-1);
		}
	}
	if (grp->check != NULL && grp->check(settings, g, err, errlen) == -1)
		return (-1);
	return (0);
}

/* The top level: groups of gbatch.conf only, each a group. */
static int
conf_file_top(const config_setting_t *root, char *err, size_t errlen)
{
	const config_setting_t	*s;
	const char		*name;
	char			 list[256];
	size_t			 k;
	int			 i;

	for (i = 0; i < config_setting_length(root); i++) {
		s = config_setting_get_elem(root, (unsigned)i);
		name = config_setting_name(s);
		for (k = 0; conf_file_groups[k] != NULL; k++) {
			if (strcmp(name, conf_file_groups[k]) == 0)
				break;
		}
		if (conf_file_groups[k] == NULL) {
			conf_file_words(conf_file_groups,
			    sizeof conf_file_groups[0], k, false, list,
			    sizeof list);
			snprintf(err, errlen, "line %d: %s: unknown top-level "
			    "setting; expected the group %s",
			    config_setting_source_line(s), name, list);
			return (-1);
		}
		if (!config_setting_is_group(s)) {
			snprintf(err, errlen, "line %d: %s: expected a group, as "
			    "%s = { ... };", config_setting_source_line(s), name,
			    name);
			return (-1);
		}
	}
	return (0);
}

int
conf_file_read(const char *path, bool must_exist,
    const struct conf_file_group *groups, size_t ngroups, void *settings,
    char *err, size_t errlen)
{
	config_t		 cf;
	const config_setting_t	*g;
	char			 detail[1024];
	size_t			 i;
	int			 rc = -1;

	if (*path == '\0') {
		snprintf(err, errlen, "expected the name of a configuration "
		    "file, got \"\"");
		return (-1);
	}
	if (access(path, F_OK) != 0) {
		if (errno == ENOENT && !must_exist)
			return (1);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	config_init(&cf);
	if (config_read_file(&cf, path) != CONFIG_TRUE) {
		if (config_error_type(&cf) == CONFIG_ERR_FILE_IO)
			snprintf(err, errlen, "%s: cannot read the file: %s",
			    path, strerror(errno));
		else
			snprintf(err, errlen, "%s:%d: %s", path,
			    config_error_line(&cf), config_error_text(&cf));
		goto fail;
	}
	if (conf_file_top(config_root_setting(&cf), detail,
	    sizeof detail) == -1)
		goto bad;
	for (i = 0; i < ngroups; i++) {
		g = config_setting_get_member(config_root_setting(&cf),
		    groups[i].name);
		if (g != NULL && conf_file_group_read(g, &groups[i], settings,
		    detail, sizeof detail) == -1)
			goto bad;
	}
	rc = 0;
	goto fail;
bad:
	snprintf(err, errlen, "%s: %s", path, detail);
fail:
	config_destroy(&cf);
	return (rc);
}
