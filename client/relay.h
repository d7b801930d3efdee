/* relay.h: grun's side of an interactive session (docs/protocol.md
 * "Interactive sessions"). Once gbatchd has the job (or the step), the
 * relay waits for it to start, saying why it waits, then copies standard
 * input to it and its output to standard output and error, forwards
 * signals and the terminal's size, and ends with the command's exit
 * status. With a terminal, that terminal is put in raw mode while the
 * command runs, as ssh does, and restored on every way out. */
#ifndef GB_RELAY_H
#define GB_RELAY_H

#include <stdbool.h>
#include <stdint.h>

struct client;

struct relay_opts {
	const char	*prog;		/* "grun", for messages */
	uint64_t	 job;
	uint32_t	 step;		/* 0: the job's own command */
	bool		 pty;		/* the remote end is a terminal */
	bool		 running;	/* a step: no queue to wait in */
	bool		 quiet;		/* -Q: no word about the queue */
	/* Put before each line of output ("3: ", srun --label); NULL:
	 * none. */
	const char	*label;
	/* Output is written a whole line at a time, in one write, so that
	 * another writer's lines on the same file (srun's other tasks) come
	 * before or after it, never inside; false: the bytes as they come
	 * (unless there is a label). */
	bool		 lines;
};

/* Relays the session of c (whose first call, the submit or the attach,
 * was answered) until it ends. Returns the exit status: the command's, 128
 * + the signal that killed it, 1 for a job that ended otherwise (with a
 * line on stderr saying how), EXIT_UNREACHABLE when the connection to
 * gbatchd was lost. */
int	relay_run(struct client *c, const struct relay_opts *);

/* The terminal's size (of fd), or 0 x 0 when fd is not a terminal. */
void	relay_winsize(int fd, unsigned *rows, unsigned *cols);

#endif
