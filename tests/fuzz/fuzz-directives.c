/* fuzz-directives.c: the #GSUB directive parser on any script text. It
 * must end (a script whose last line ended in \r once spun forever), never
 * crash, name the script line when it refuses, and, when it accepts,
 * leave options from which a job can always be built. */
#include <stdlib.h>
#include <string.h>

#include "client/jobspec.h"
#include "common/xmalloc.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char	 prog[] = "gsub", wrap[] = "--wrap", cmd[] = "true";
	static char	 path[] = "PATH=/usr/bin:/bin", home[] = "HOME=/",
			 user[] = "USER=fuzz";
	char		*argv[] = { prog, wrap, cmd, NULL };
	char		*env[] = { path, home, user, NULL };
	struct jobspec	*js;
	enum jobspec_action action;
	json_t		*job;
	char		*text, err[2048];
	int		 r;

	/* gsub refuses larger scripts before it parses them. */
	if (size > JOBSPEC_MAX_SCRIPT)
		return (0);
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';

	js = jobspec_create();
	if (jobspec_parse_args(js, 3, argv, &action, err, sizeof err) == -1)
		abort();
	err[0] = '\0';
	r = jobspec_parse_directives(js, text, "fuzz.sh", err, sizeof err);
	if (r != 0 && r != -1)
		abort();
	/* A refusal says where: "fuzz.sh:LINE: what". */
	if (r == -1 && strncmp(err, "fuzz.sh:", 8) != 0)
		abort();
	if (r == 0) {
		/* Every value a directive set was validated: the job builds. */
		if ((job = jobspec_build(js, env, "/", 022, err,
		    sizeof err)) == NULL)
			abort();
		json_decref(job);
	}
	jobspec_free(js);
	free(text);
	return (0);
}
