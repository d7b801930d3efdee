/* jobenv.c: gsub --export: which variables a job gets. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jobenv.h"
#include "common/cmd.h"
#include "common/xmalloc.h"

static bool
jobenv_is_name(const char *s, size_t n)
{
	size_t	i;

	if (n == 0 || isdigit((unsigned char)s[0]))
		return (false);
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return (false);
	}
	return (true);
}

struct jobenv_seen {
	bool	all;
	bool	none;
};

static int
jobenv_check_item(const char *item, void *arg, char *err, size_t errlen)
{
	struct jobenv_seen	*seen = arg;
	const char		*eq = strchr(item, '=');
	size_t			 n = eq != NULL ? (size_t)(eq - item) :
				    strlen(item);
	json_t			*v;

	if (strcmp(item, "ALL") == 0)
		seen->all = true;
	else if (strcmp(item, "NONE") == 0)
		seen->none = true;
	else if (!jobenv_is_name(item, n)) {
		snprintf(err, errlen, "--export: \"%.*s\" is not a variable "
		    "name; expected ALL, NONE or NAME[=VALUE] items separated "
		    "by commas", (int)n, item);
		return (-1);
	} else if (eq != NULL) {
		/* jansson checks the encoding: JSON carries only UTF-8. */
		if ((v = json_string(eq + 1)) == NULL) {
			snprintf(err, errlen, "--export: the value of %.*s is "
			    "not printable text", (int)n, item);
			return (-1);
		}
		json_decref(v);
	}
	if (seen->all && seen->none) {
		snprintf(err, errlen, "--export: ALL and NONE exclude each "
		    "other");
		return (-1);
	}
	return (0);
}

int
jobenv_check(const char *list, char *err, size_t errlen)
{
	struct jobenv_seen	seen = { false, false };

	return (cmd_split(list, "--export", jobenv_check_item, &seen, err,
	    errlen));
}

/* Copies NAME=VALUE from env when its name is name (or any valid name
 * when name is NULL). */
static void
jobenv_copy(json_t *out, char *const *env, const char *name)
{
	const char	*eq;
	char		*key;
	json_t		*v;
	size_t		 n;

	for (; *env != NULL; env++) {
		if ((eq = strchr(*env, '=')) == NULL)
			continue;
		n = (size_t)(eq - *env);
		if (name != NULL && (strlen(name) != n ||
		    strncmp(*env, name, n) != 0))
			continue;
		if (!jobenv_is_name(*env, n))
			continue;
		if ((v = json_string(eq + 1)) == NULL)
			continue;
		key = xstrndup(*env, n);
		json_object_set_new(out, key, v);
		free(key);
		if (name != NULL)
			return;
	}
}

/* Every job gets a PATH, whatever --export says: without one a shell
 * script cannot find its programs. HOME, LOGNAME, SHELL and USER, where
 * the list leaves them out, are the node's to set from the user's account
 * there (node-spawn.c): the commands read no account database. */
static void
jobenv_essentials(json_t *out, char *const *env)
{
	if (json_object_get(out, "PATH") == NULL)
		jobenv_copy(out, env, "PATH");
	if (json_object_get(out, "PATH") == NULL)
		json_object_set_new(out, "PATH",
		    json_string(JOBENV_DEFAULT_PATH));
}

json_t *
jobenv_build(const char *list, char *const *env)
{
	json_t		*out = json_object();
	char		*copy, *item, *next, *eq;
	bool		 all = false;

	copy = xstrdup(list);
	for (item = copy; item != NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if (strcmp(item, "ALL") == 0)
			all = true;
	}
	free(copy);
	if (all)
		jobenv_copy(out, env, NULL);
	jobenv_essentials(out, env);

	/* Checked (jobenv_check): every item is ALL, NONE, NAME or
	 * NAME=VALUE. */
	copy = xstrdup(list);
	for (item = copy; item != NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if (strcmp(item, "ALL") == 0 || strcmp(item, "NONE") == 0)
			continue;
		if ((eq = strchr(item, '=')) != NULL) {
			*eq = '\0';
			json_object_set_new(out, item, json_string(eq + 1));
		} else if (!all)
			jobenv_copy(out, env, item);
	}
	free(copy);
	return (out);
}
