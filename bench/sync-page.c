/* sync-page.c (bench): writes one 4 KiB page at the start of FILE
 * (creating it) and waits for fdatasync, then exits.
 *   sync-page FILE
 * It is bench/cmd-speed's ceiling for a command whose answer must be on
 * disk first (gsub, gcancel): a process that does nothing but make one
 * page durable, in the store's file system. It is linked as /bin/true is
 * (dynamically, libc only), so its loop's rate beside /bin/true's is what
 * one durable page costs a call on this machine. A command that answers
 * only after its commit reached the disk beats this loop only by starting
 * faster than a dynamically linked program does.
 * Exit status: 0; 1, with a message, when FILE cannot be written; 2 for
 * a usage error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SYNC_PAGE_SIZE	4096

int
main(int argc, char **argv)
{
	static char	page[SYNC_PAGE_SIZE];
	int		fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sync-page FILE\n");
		return (2);
	}
	memset(page, 'g', sizeof page);
	if ((fd = open(argv[1], O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) == -1 ||
	    pwrite(fd, page, sizeof page, 0) != (ssize_t)sizeof page ||
	    fdatasync(fd) != 0) {
		fprintf(stderr, "sync-page: %s: %s\n", argv[1],
		    strerror(errno));
		return (1);
	}
	(void)close(fd);
	return (0);
}
