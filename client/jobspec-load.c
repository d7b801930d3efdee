/* jobspec-load.c: the script a job runs, read and checked, and its
 * directives applied (jobspec.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/jobspec-int.h"
#include "common/xmalloc.h"

/* gsub's options that make no sense for a job run in the foreground. */
static int
jobspec_load_grun(const struct jobspec *js, char *err, size_t errlen)
{
	const char	*opt = NULL, *why = NULL;

	if (JOBSPEC_SET(js, JOBSPEC_F_ARRAY)) {
		opt = "array";
		why = "a job array cannot be interactive; submit it with gsub";
	} else if (JOBSPEC_SET(js, JOBSPEC_F_HOLD)) {
		opt = "hold";
		why = "grun waits for its job to start; gsub -H holds a job";
	} else if (JOBSPEC_SET(js, JOBSPEC_F_WAIT)) {
		opt = "wait";
		why = "grun always waits for its command";
	} else if (JOBSPEC_SET(js, JOBSPEC_F_PARSABLE)) {
		opt = "parsable";
		why = "grun prints the command's output, not a job id";
	} else if (JOBSPEC_SET(js, JOBSPEC_F_TEST_ONLY)) {
		opt = "test-only";
		why = "gsub --test-only says where and when a job would start";
	}
	if (opt == NULL)
		return (0);
	snprintf(err, errlen, "--%s: %s", opt, why);
	return (-1);
}

int
jobspec_load_script(struct jobspec *js, char *err, size_t errlen)
{
	struct stat	 sb;
	const char	*path, *name;
	char		*text = NULL;
	ssize_t		 n;
	size_t		 len = 0;
	bool		 in;
	int		 fd;

	if (JOBSPEC_SET(js, JOBSPEC_F_WRAP))
		return (jobspec_check(js, err, errlen));
	if (js->command) {
		if (js->argc == 0) {
			snprintf(err, errlen, "no command given; expected "
			    "grun [options] COMMAND [ARGS...]");
			return (-1);
		}
		if (JOBSPEC_SET(js, JOBSPEC_F_OUTPUT) ||
		    JOBSPEC_SET(js, JOBSPEC_F_ERROR)) {
			snprintf(err, errlen, "--%s: grun relays the command's "
			    "output to you; gsub writes files",
			    JOBSPEC_SET(js, JOBSPEC_F_OUTPUT) ? "output" :
			    "error");
			return (-1);
		}
		if (jobspec_load_grun(js, err, errlen) == -1)
			return (-1);
		return (jobspec_check(js, err, errlen));
	}
	/* As sbatch: no script means standard input, unless that is the
	 * user's terminal, where it would only wait for them. */
	if (js->script_path == NULL) {
		if (isatty(STDIN_FILENO)) {
			snprintf(err, errlen, "no script given; expected a "
			    "script path, - for standard input, or --wrap "
			    "\"command\"");
			return (-1);
		}
		js->script_path = xstrdup("-");
	}
	path = js->script_path;
	in = strcmp(path, "-") == 0;
	name = in ? JOBSPEC_STDIN_NAME : path;
	if (in)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: cannot read the script: %s", name,
		    strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) == -1) {
		snprintf(err, errlen, "%s: cannot read the script: %s", name,
		    strerror(errno));
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a script", name);
		goto fail;
	}
	text = xmalloc(JOBSPEC_MAX_SCRIPT + 1);
	for (;;) {
		n = read(fd, text + len, JOBSPEC_MAX_SCRIPT + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(err, errlen, "%s: cannot read the script: %s",
			    name, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > JOBSPEC_MAX_SCRIPT) {
			snprintf(err, errlen, "%s: the script is larger than "
			    "%u KiB; keep data in files the script reads", name,
			    JOBSPEC_MAX_SCRIPT / 1024);
			goto fail;
		}
	}
	if (!in)
		close(fd);
	fd = -1;
	text[len] = '\0';
	if (len == 0) {
		snprintf(err, errlen, "%s: the script is empty", name);
		goto fail;
	}
	if (memchr(text, '\0', len) != NULL || !jobspec_is_text(text)) {
		snprintf(err, errlen, "%s: not a text script (binary data); "
		    "give a script, or run a program with --wrap \"command\"",
		    name);
		goto fail;
	}
	if (len < 2 || text[0] != '#' || text[1] != '!') {
		snprintf(err, errlen, "%s: the first line must name an "
		    "interpreter, e.g. #!/bin/sh", name);
		goto fail;
	}
	js->script = text;
	if (jobspec_parse_directives(js, text, name, err, errlen) == -1)
		return (-1);
	return (jobspec_check(js, err, errlen));

fail:
	if (fd != -1 && !in)
		close(fd);
	free(text);
	return (-1);
}
