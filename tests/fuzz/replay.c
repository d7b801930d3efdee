/* replay.c: runs a fuzz target over its corpus as a unit test, so every
 * input that once crashed or hung it (and the seeds) is tried again by
 * each make check, with the normal compiler and no libFuzzer. One TAP line
 * per input; a crash ends the run short of its plan, and an input that
 * takes longer than REPLAY_ALARM_S is reported and fails it.
 *
 * Usage: NAME.t [FILE|DIR...]. Without arguments it reads
 * SRCDIR/tests/fuzz/corpus/FUZZ_TARGET, the corpus of the target it is
 * linked with, SRCDIR being $GBATCH_SRCDIR or else the source tree it was
 * built from (FUZZ_TARGET and FUZZ_SRCDIR come from the build). */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "tests/fuzz/fuzz.h"

#define REPLAY_ALARM_S	10

static int		 replay_n;
static const char	*volatile replay_current;

static void
replay_alarm(int sig)
{
	const char	*msg = "not ok - input hangs (alarm): ";
	const char	*name = replay_current;

	(void)!write(STDOUT_FILENO, msg, strlen(msg));
	if (name != NULL)
		(void)!write(STDOUT_FILENO, name, strlen(name));
	(void)!write(STDOUT_FILENO, "\n", 1);
	_exit(1);
}

/* Reads a whole file. Returns a buffer the caller frees, or NULL. */
static uint8_t *
replay_read(const char *path, size_t *len)
{
	FILE	*f;
	uint8_t	*buf = NULL;
	size_t	 cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL)
		return (NULL);
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return (buf);
}

static int
replay_file(const char *path)
{
	uint8_t	*data;
	size_t	 len;

	if ((data = replay_read(path, &len)) == NULL) {
		printf("not ok %d - %s: %s\n", ++replay_n, path,
		    strerror(errno));
		return (-1);
	}
	fflush(stdout);
	replay_current = path;
	alarm(REPLAY_ALARM_S);
	LLVMFuzzerTestOneInput(data, len);
	alarm(0);
	replay_current = NULL;
	printf("ok %d - %s\n", ++replay_n, path);
	free(data);
	return (0);
}

/* Replays every file of dir in name order, so runs compare. */
static int
replay_dir(const char *dir)
{
	struct dirent	**names;
	char		 *path;
	int		  i, n, r = 0;

	if ((n = scandir(dir, &names, NULL, alphasort)) == -1) {
		printf("not ok %d - %s: %s\n", ++replay_n, dir,
		    strerror(errno));
		return (-1);
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			path = xasprintf("%s/%s", dir, names[i]->d_name);
			if (replay_file(path) == -1)
				r = -1;
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return (r);
}

static int
replay_path(const char *path)
{
	struct stat	sb;

	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return (replay_dir(path));
	return (replay_file(path));
}

int
main(int argc, char **argv)
{
	const char	*src;
	char		*dir;
	int		 i, r = 0;

	signal(SIGALRM, replay_alarm);
	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			if (replay_path(argv[i]) == -1)
				r = -1;
		}
	} else {
		src = getenv("GBATCH_SRCDIR");
		dir = xasprintf("%s/tests/fuzz/corpus/%s", src != NULL &&
		    *src != '\0' ? src : FUZZ_SRCDIR, FUZZ_TARGET);
		r = replay_dir(dir);
		free(dir);
	}
	/* An empty corpus would pass while testing nothing. */
	if (replay_n == 0)
		printf("not ok 1 - no input found\n");
	printf("1..%d\n", replay_n == 0 ? 1 : replay_n);
	return (r == -1 || replay_n == 0 ? 1 : 0);
}
