/* jobenv.h: the environment a job gets, as gsub --export describes it:
 * ALL (gsub's whole environment), NONE, or NAME[=VALUE] items, with or
 * without ALL. Whatever the list, a job gets a PATH; HOME, LOGNAME, SHELL
 * and USER, where the list does not give them, come from the user's
 * account on the node that runs the job (gsub's environment may lack them
 * or carry stale ones). Pure: the environment is an argument. */
#ifndef GB_JOBENV_H
#define GB_JOBENV_H

#include <stddef.h>

#include <jansson.h>

/* A job's PATH when gsub itself has none (sh's own default, near enough). */
#define JOBENV_DEFAULT_PATH	"/usr/local/bin:/usr/bin:/bin"

/* Checks an --export list. Returns 0, or -1 with err ("--export: ...")
 * naming the bad item and what is accepted. */
int	 jobenv_check(const char *list, char *err, size_t errlen);

/* Builds the job's environment (a new JSON object of strings) from a
 * checked list and env (NULL-terminated NAME=VALUE strings, as environ).
 * Variables that are not UTF-8 cannot travel in JSON and are left out. */
json_t	*jobenv_build(const char *list, char *const *env);

#endif
