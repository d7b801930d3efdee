/* req.h: the request table, in the manner of tmux's command table: each
 * req-<name>.c defines one entry; req.c only lists them and dispatches. */
#ifndef GB_CTL_REQ_H
#define GB_CTL_REQ_H

#include <stdbool.h>

#include <jansson.h>

struct assoc_tab;
struct jtext;
struct metrics_request;
struct peer;

/* Who may send a message. */
#define REQ_CLIENT	0x1
#define REQ_NODE	0x2
#define REQ_REPLICA	0x4	/* another replica (replica.h) */

/* A frame of a streamed reply (JOB_LIST, JOB_ACCT) ends at this many jobs
 * or once past this many bytes. It then fits in a socket's buffer (Linux:
 * 208 kB by default), reaches the client whole before gbatchd writes the
 * next, and each side works on one frame while the other does the next.
 * With 4,096 jobs a frame (320 kB), a frame's tail waited for the next to
 * be written, and gq for it (10,000 jobs: 8.0 -> 6.6 ms). */
#define REQ_STREAM_JOBS		1024
#define REQ_STREAM_BYTES	(128U << 10)

struct req_entry {
	int		  type;		/* enum msg_type */
	const char	 *name;
	int		  roles;	/* REQ_CLIENT | REQ_NODE */
	bool		  operator;	/* clients: operators only */
	bool		  reply;	/* the sender expects a reply */
	/* Handles msg from peer. Sends the reply itself (peer_send) when
	 * reply is set. May close the peer. */
	void		(*handler)(struct peer *, const json_t *msg);
	/* A replica that follows handles it too (the rest are refused with
	 * the leader's address). */
	bool		  follower;
};

/* Checks msg's type against the table and peer's role, then runs its
 * handler. Closes the peer on a protocol violation. */
void	req_dispatch(struct peer *, const json_t *msg);

/* The requests handled so far, one entry per type of the table, into
 * out (room for max). Returns how many entries were written. */
size_t	req_stats(struct metrics_request *out, size_t max);

/* Frees the buffer req-job-list.c keeps for the next listing (at exit,
 * once no frame refers to it). */
void	req_job_list_free(void);
/* Ends the accounting replies still being streamed (at exit). */
void	req_job_acct_free(void);

/* Helpers for handlers. */
/* Replies to msg with ok false; code and message as in proto.h. */
void	req_error(struct peer *, const json_t *msg, const char *code,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Replies to msg that this replica follows, naming the leader
 * (PROTO_E_NOT_LEADER). */
void	req_not_leader(struct peer *, const json_t *msg);
/* A reply written as text (jtext.h), for the long listings: begins b
 * (made by jtext_init) with room for the frame header and the reply's
 * head, {"re":TYPE,"seq":SEQ,"ok":true; the caller appends its members,
 * each after a comma, and the closing brace. */
void	req_text_begin(struct jtext *, const json_t *msg);
/* Writes the frame header of b's reply. */
void	req_text_end(struct jtext *);
/* req_text_end, then queues b's frame to p, which takes the buffer (freed
 * once written). */
void	req_text_send(struct peer *, struct jtext *);
/* Reads an optional unsigned integer member. Returns 0 (absent: *out
 * untouched), or -1 with err set when it is not one. */
int	req_get_uint(const json_t *obj, const char *key, unsigned long long max,
	    unsigned long long *out, char *err, size_t errlen);
/* Whether v, an element of a request's "ids", names jobs: a job id (a
 * whole number >= 1), or an array's tasks as users write them ("42_7",
 * "42_[3-5]"). */
int	req_is_job_id(const json_t *v);
/* Whether name is a user: one the account database knows, or one with
 * jobs in the store (a user since removed keeps their history). The
 * commands read no account database, so this is where "no such user" is
 * said. */
bool	req_user_exists(const char *name);
/* Reads an optional member key, an array of 1 to max user names, into
 * users (borrowed from obj) and *n (0 when absent or null); each must
 * pass req_user_exists. Returns 0, or -1 with err. */
int	req_get_users(const json_t *obj, const char *key, const char **users,
	    size_t max, size_t *n, char *err, size_t errlen);

#endif
