/* conf-file.h: reading gbatch.conf (libconfig) for both daemons. Each
 * daemon describes its groups as tables of keys; one reader checks every
 * key against its table, so a typo stops the daemon at start with the file,
 * the line, the key and the keys accepted, and the messages for a wrong
 * type or value read the same in every group. See gbatch.conf(5). */
#ifndef GB_CONF_FILE_H
#define GB_CONF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/paths.h"

/* libconfig's setting type, without its header in every includer. */
struct config_setting_t;

/* Where the daemons look when no -f is given: $GBATCH_CONF, else this. */
#define CONF_FILE_DEFAULT	GB_PATH_CONF

/* A list of strings (controller.operators, node.controller). */
struct conf_file_list {
	char	**v;
	size_t	  n;
};

void	conf_file_list_add(struct conf_file_list *, const char *);
/* dst (empty before) becomes a copy of src. */
void	conf_file_list_copy(struct conf_file_list *dst,
	    const struct conf_file_list *src);
/* Whether a and b hold the same strings in the same order. */
bool	conf_file_list_equal(const struct conf_file_list *a,
	    const struct conf_file_list *b);
/* Whether s is one of l's strings. */
bool	conf_file_list_has(const struct conf_file_list *l, const char *s);
/* Frees the strings; the list is empty after, ready for reuse. */
void	conf_file_list_clear(struct conf_file_list *);

enum conf_file_type {
	CONF_FILE_STRING,	/* char *, not empty */
	CONF_FILE_INT,		/* int in [min, max] */
	CONF_FILE_UINT,		/* unsigned in [min, max] */
	CONF_FILE_NUMBER,	/* double in [min, max], whole or not */
	CONF_FILE_BOOL,		/* bool */
	CONF_FILE_LOG_LEVEL,	/* enum log_level, by name */
	CONF_FILE_LIST,		/* struct conf_file_list, from [ ... ] */
	CONF_FILE_STRINGS,	/* struct conf_file_list, one string or [ ... ] */
	CONF_FILE_CUSTOM,	/* read() does it */
};

/* One key of a group. The table's order is the order keys are read in and
 * the order the "expected ..." list of an unknown key names them. */
struct conf_file_key {
	const char		*name;		/* first: conf-file.c lists them */
	enum conf_file_type	 type;
	/* Where the value goes: offsetof() in the daemon's settings. */
	size_t			 off;
	/* INT, UINT, NUMBER: the range. LIST, STRINGS: min is the fewest
	 * elements. */
	long long		 min, max;
	/* What the value means, for messages: "seconds", "user names". */
	const char		*what;
	/* LIST, STRINGS: a value as written, for messages. Optional. */
	const char		*example;
	/* STRING, LIST, STRINGS: checks each string; -1 with why set (as
	 * "expected ..., got ..."). Optional. */
	int			(*valid)(const char *, char *why, size_t);
	/* CUSTOM: reads setting s into the settings. -1 with why set: what
	 * was expected, without the line or the key, which the reader adds. */
	int			(*read)(void *settings,
				    const struct config_setting_t *s, char *why,
				    size_t);
};

/* One group a daemon reads. */
struct conf_file_group {
	const char		*name;		/* "controller" */
	const struct conf_file_key *keys;
	size_t			 nkeys;
	/* Optional: runs after the keys were read, for rules that tie keys
	 * together. g is the group as written; err gets "line N: ..." from
	 * check itself. */
	int			(*check)(void *settings,
				    const struct config_setting_t *g, char *err,
				    size_t);
	/* Optional: a group of named groups (partitions = { gpu = { ... };
	 * };), read a member at a time by members, which reads m (a group,
	 * checked) with conf_file_group_read and a table of its own; keys
	 * is then unused. err gets "line N: ..." from members itself. */
	int			(*members)(void *settings,
				    const struct config_setting_t *m, char *err,
				    size_t);
};

/* The file a daemon reads: flag (-f) when given, else $GBATCH_CONF when
 * set and not empty, else CONF_FILE_DEFAULT. *must_exist says whether a
 * missing file is an error (a named one) or means the defaults. Returns
 * flag, the environment's string or the constant: never to be freed. */
const char *conf_file_path(const char *flag, bool *must_exist);

/* Reads path and the daemon's groups of it into settings, over what
 * settings holds. Every top-level setting must be one of the groups of
 * gbatch.conf (controller, node, scheduler; each daemon skips the others'
 * keys), every key of a group in groups must be in its table. Returns 0,
 * 1 when there is no file at path and none is required (settings
 * untouched), or -1 with err naming the file, the line and the key. */
int	conf_file_read(const char *path, bool must_exist,
	    const struct conf_file_group *groups, size_t ngroups,
	    void *settings, char *err, size_t errlen);

/* Reads group g as grp describes it into settings (grp->name names it in
 * messages: "partitions.gpu"). Returns 0, or -1 with err as "line N:
 * NAME.KEY: ...". */
int	conf_file_group_read(const struct config_setting_t *g,
	    const struct conf_file_group *grp, void *settings, char *err,
	    size_t errlen);

/* What --check-config prints when the settings are valid: "PATH: OK", or
 * that no file was found and the defaults are valid (found 0). */
void	conf_file_print_ok(FILE *, const char *path, bool found);

/* For CUSTOM readers, the messages the table's types give. Each returns 0,
 * or -1 with why saying what was expected and what was found. */
int	conf_file_string(const struct config_setting_t *, const char **,
	    char *why, size_t);
int	conf_file_whole(const struct config_setting_t *, long long min,
	    long long max, const char *what, long long *, char *why, size_t);
/* A string that must be one of words (NULL-terminated); *index is its
 * place in words. */
int	conf_file_choice(const struct config_setting_t *,
	    const char *const *words, int *index, char *why, size_t);

#endif
