/* jobenv.h: the environment a job gets, as gsub --export describes it:
 * ALL (gsub's whole environment), NONE, or NAME[=VALUE] items, with or
 * without ALL. Whatever the list, a job gets HOME, LOGNAME, PATH, SHELL and
 * USER; who the user is comes from their account, not from gsub's
 * environment. Pure: the environment and the account are arguments. */
#ifndef GB_JOBENV_H
#define GB_JOBENV_H

#include <stddef.h>

#include <jansson.h>

struct passwd;

/* A job's PATH when gsub itself has none (sh's own default, near enough). */
#define JOBENV_DEFAULT_PATH	"/usr/local/bin:/usr/bin:/bin"

/* Checks an --export list. Returns 0, or -1 with err ("--export: ...")
 * naming the bad item and what is accepted. */
int	 jobenv_check(const char *list, char *err, size_t errlen);

/* Builds the job's environment (a new JSON object of strings) from a
 * checked list, env (NULL-terminated NAME=VALUE strings, as environ) and
 * pw (the user's account; NULL when there is none, and then the
 * environment is all there is). Variables that are not UTF-8 cannot travel
 * in JSON and are left out. */
json_t	*jobenv_build(const char *list, char *const *env,
	    const struct passwd *pw);

#endif
