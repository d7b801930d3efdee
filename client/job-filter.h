/* job-filter.h: which jobs a listing shows, as gq's options and gtop's keys
 * (/, u) choose them. The controller applies what JOB_LIST can say (users,
 * states, ids: job_filter_request), and checks the user names, which the
 * commands cannot (they read no account database); job_filter_match()
 * applies the rest to the rows as they come (states together with ids, a
 * name substring). Messages name what was wrong, not the option: the
 * caller says which option or key it came from. */
#ifndef GB_JOB_FILTER_H
#define GB_JOB_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "client/job-row.h"
#include "common/job-state.h"

#define JOB_FILTER_MAX_USERS	64

struct job_filter {
	char		*users[JOB_FILTER_MAX_USERS];
	int		 nusers;
	/* --me: the user the controller names this uid (client_whoami),
	 * added to users by whoever holds the connection. */
	bool		 me;
	bool		 states_set;	/* else the controller's default */
	bool		 state[JOB_STATE_COUNT];
	json_t		*ids;		/* job ids, or NULL */
	char		*name;		/* a substring of the name, or NULL */
	/* Finished jobs that ended at this time or later only (seconds
	 * since the epoch; 0: all), asked of gbatchd (JOB_LIST ended_since). */
	int64_t		 ended_since;
	/* Jobs asked for by id that finished longer ago than gbatchd's
	 * controller.min_job_age are answered as missing (JOB_LIST
	 * forget_finished), as Slurm forgets them: squeue -j. */
	bool		 forget_finished;
	/* Jobs that may run in one of these partitions only (an array of
	 * names, slurm-part.h's matching); NULL: any. */
	json_t		*partitions;
};

void	job_filter_init(struct job_filter *);
/* Frees what the filter holds and leaves it as job_filter_init() does. */
void	job_filter_clear(struct job_filter *);

/* Adds a user by name (gbatchd says whether there is one). Returns 0, or
 * -1 with err. */
int	job_filter_add_user(struct job_filter *, const char *name, char *err,
	    size_t errlen);
/* Asks for this process's user (me: the model resolves it). */
void	job_filter_add_me(struct job_filter *);
/* Adds a state by name or short form, any case, or "all". Returns 0, or
 * -1 with err listing what is accepted. */
int	job_filter_add_state(struct job_filter *, const char *item,
	    char *err, size_t errlen);
/* Adds a job id. */
void	job_filter_add_id(struct job_filter *, uint64_t id);
/* Sets the name substring (NULL or "": none). */
void	job_filter_set_name(struct job_filter *, const char *substring);

/* Keeps the jobs whose partition list shares a name with list
 * (NAME[,NAME...]; NULL or "": any). */
void	job_filter_set_partitions(struct job_filter *, const char *list);
/* Adds to fields (JOB_LIST's, an array of names) those the filter reads
 * that the listing may not show: "partition". */
void	job_filter_wire_fields(const struct job_filter *, json_t *fields);

/* Whether the filter asks for a finished state. */
bool	job_filter_finished(const struct job_filter *);
/* Sets the JOB_LIST members of req that the controller filters by. */
void	job_filter_request(const struct job_filter *, json_t *req);
/* Whether a job of the reply passes what the controller did not apply. */
bool	job_filter_match(const struct job_filter *, const struct job_row *);
/* Whether the controller's reply needs no filtering here: every job it
 * sends passes. */
bool	job_filter_trivial(const struct job_filter *);

#endif
