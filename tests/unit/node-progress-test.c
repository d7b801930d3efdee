/* node-progress-test.c: a job's progress file as gnoded reads it
 * (daemon/node/node-progress.c), on real files in a temporary directory:
 * lines across reads, the newest good one, a bad one skipped, a long one,
 * more than a read's worth, a file the job emptied, and what gnoded will
 * not read (a link, a FIFO) without blocking. */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-progress.h"
#include "tests/unit/tap.h"

static char	t_dir[64];

/* Appends text to the job's file, as the job would. */
static void
t_append(const struct node_progress *p, const char *text)
{
	FILE	*f = fopen(node_progress_path(p), "a");

	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static void
test_lines(void)
{
	struct node_progress	*p;
	struct progress		 r;
	char			 err[256] = "", path[128];
	struct stat		 st;

	p = node_progress_open(t_dir, 7, getuid(), getgid(), false, err,
	    sizeof err);
	ok(p != NULL, "the file is made: %s", err);
	if (p == NULL)
		return;
	snprintf(path, sizeof path, "%s/progress/7", t_dir);
	is_str(node_progress_path(p), path, "as STATE/progress/ID");
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 &&
	    st.st_size == 0, "empty, mode 0600");
	is_int(node_progress_poll(p, &r), 0, "nothing yet");
	t_append(p, "step_time=1 sync_time=0.5 local_bsz=8\nstep_time=2 "
	    "sync_time=0.5 local_bsz=16\nstep_time=3 sync");
	is_int(node_progress_poll(p, &r), 1, "two lines and a half");
	ok(r.step_time == 2 && r.local_bsz == 16, "the newest whole one");
	is_int(node_progress_poll(p, &r), 0, "nothing more");
	t_append(p, "_time=0.5 local_bsz=32\n");
	is_int(node_progress_poll(p, &r), 1, "the half ended");
	ok(r.step_time == 3 && r.local_bsz == 32, "read whole");
	t_append(p, "step_time=x\nstep_time=4 sync_time=0 local_bsz=8\n"
	    "bad again\n");
	is_int(node_progress_poll(p, &r), 1, "a bad line is skipped");
	ok(r.step_time == 4, "the good one between is taken");
	/* A line of 600 bytes, then a good one: the long one is skipped. */
	{
		char	line[700];

		memset(line, 'x', 600);
		strcpy(line + 600, "\nstep_time=5 sync_time=0 local_bsz=8\n");
		t_append(p, line);
	}
	is_int(node_progress_poll(p, &r), 1, "past a line too long");
	ok(r.step_time == 5, "the next line taken");
	/* Emptied by the job: read again from the start. */
	truncate(path, 0);
	t_append(p, "step_time=6 sync_time=0 local_bsz=8\n");
	is_int(node_progress_poll(p, &r), 1, "emptied and written again");
	ok(r.step_time == 6, "read from its start");
	/* 100,000 lines at once: the newest 64 KiB alone, the last line
	 * the one taken. */
	{
		FILE	*f = fopen(path, "a");
		int	 i;

		for (i = 1; f != NULL && i <= 100000; i++)
			fprintf(f, "step_time=1 sync_time=0 local_bsz=8 "
			    "samples=%d\n", i);
		if (f != NULL)
			fclose(f);
	}
	is_int(node_progress_poll(p, &r), 1, "a flood of lines");
	ok(r.has_samples && r.samples == 100000, "the last of them");
	node_progress_close(p, true);
	ok(stat(path, &st) == -1, "removed with its run");
}

static void
test_refused(void)
{
	struct node_progress	*p;
	struct progress		 r;
	char			 err[256], path[128], other[128];

	p = node_progress_open(t_dir, 8, getuid(), getgid(), false, err,
	    sizeof err);
	ok(p != NULL, "made");
	if (p == NULL)
		return;
	snprintf(path, sizeof path, "%s/progress/8", t_dir);
	snprintf(other, sizeof other, "%s/other", t_dir);
	/* Swapped for a link to another file: not followed. */
	{
		FILE	*f = fopen(other, "w");

		if (f != NULL) {
			fputs("step_time=1 sync_time=0 local_bsz=8\n", f);
			fclose(f);
		}
	}
	unlink(path);
	ok(symlink(other, path) == 0, "swapped for a link");
	is_int(node_progress_poll(p, &r), 0, "a link is not read");
	/* A FIFO: not read, and the read does not block. */
	unlink(path);
	ok(mkfifo(path, 0600) == 0, "swapped for a FIFO");
	is_int(node_progress_poll(p, &r), 0, "a FIFO is not read");
	node_progress_close(p, true);
	/* A new run's file replaces what was there. */
	p = node_progress_open(t_dir, 8, getuid(), getgid(), false, err,
	    sizeof err);
	ok(p != NULL, "a new run's file is made over the FIFO: %s", err);
	node_progress_close(p, true);
	ok(node_progress_attach(t_dir, 99) == NULL, "none to attach to");
	unlink(other);
}

int
main(void)
{
	char	sub[96];

	snprintf(t_dir, sizeof t_dir, "/tmp/node-progress-test.XXXXXX");
	if (mkdtemp(t_dir) == NULL)
		return (1);
	snprintf(sub, sizeof sub, "%s/progress", t_dir);
	mkdir(sub, 0711);
	test_lines();
	test_refused();
	rmdir(sub);
	rmdir(t_dir);
	return (tap_done());
}
