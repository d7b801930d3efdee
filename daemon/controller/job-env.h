/* job-env.h: a JOB_SUBMIT's environment as the text it arrived as, so
 * that gbatchd neither builds a JSON tree of it nor serialises it again
 * (job-env.c says why and what is checked). */
#ifndef GB_CTL_JOB_ENV_H
#define GB_CTL_JOB_ENV_H

#include <stddef.h>

/* Looks for job.env in a frame body of n bytes (not NUL-terminated).
 * Returns 1 with [*off, *off + *len) the env object's text when it is an
 * object of strings that passes every check the submit handler and the
 * frame decoder would make; 0 when it is absent, or anything else, or the
 * frame is not understood: then the caller decodes the frame whole as
 * usual. Never allocates; reads only body. */
int	job_env_find(const char *body, size_t n, size_t *off, size_t *len);

#endif
