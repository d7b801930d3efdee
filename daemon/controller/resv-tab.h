/* resv-tab.h: advance reservations (Slurm's scontrol create reservation,
 * gctl reservation) in memory, and their rules: named windows of time on
 * nodes for some users and accounts, a maintenance or not. What a
 * reservation may be (its name, times, nodes, users, flags), which two
 * may not overlap, who may use one, which nodes a reservation of N GPUs
 * takes, and how one reads on the wire. Pure: no clock (now is an
 * argument), no store, no node table (the caller hands what it needs);
 * tested alone (tests/unit/resv-tab-test.c). resv.c keeps the
 * controller's table in step with the store; the scheduling core reads
 * it (core-resv.c, policy/sched-window.h). */
#ifndef GB_CTL_RESV_TAB_H
#define GB_CTL_RESV_TAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Flags (Slurm's Flags=): a maintenance (MAINT), and IGNORE_JOBS, which
 * gbatch does always (a reservation is made whatever runs on its nodes;
 * jobs running there go on), kept so that it reads back as given. */
#define RESV_F_MAINT		0x1
#define RESV_F_IGNORE_JOBS	0x2

/* The longest a reservation may last: a year, as a job's time limit. */
#define RESV_MAX_DURATION	(INT64_C(365) * 86400)
/* The most users or accounts one may name, in bytes of their list. */
#define RESV_MAX_LIST		1024

struct resv {
	uint64_t	 id;		/* never reused: the core's window id */
	char		*name;
	int64_t		 start;		/* s since the epoch; [start, end) */
	int64_t		 end;
	char		*nodes;		/* a host list, compressed */
	char		**names;	/* its nodes, sorted */
	size_t		 nnames;
	char		*users;		/* names joined by ','; '' none */
	char		*accounts;	/* likewise */
	uint32_t	 flags;		/* RESV_F_* */
};

/* Sorted by start, then name: listings come out in that order. */
struct resv_tab {
	struct resv	*v;
	size_t		 n;
	uint64_t	 next_id;	/* the next one's id; 1 at first */
};

void	resv_tab_free(struct resv_tab *);
/* Frees what r holds (not r). */
void	resv_tab_entry_clear(struct resv *r);
/* A copy of src into dst. */
void	resv_tab_copy(struct resv *dst, const struct resv *src);

/* Lookups: borrowed until the table changes; NULL when none. */
const struct resv *resv_tab_find(const struct resv_tab *, const char *name);
const struct resv *resv_tab_find_id(const struct resv_tab *, uint64_t id);

/* Reads a host list ("n[1-4],gpu7") into r's nodes: names sorted, and
 * the list written compressed. Returns 0, or -1 with err naming what is
 * wrong and the forms accepted. */
int	resv_tab_set_nodes(struct resv *r, const char *text, char *err,
	    size_t errlen);
/* Whether node (its name) is one of r's. */
bool	resv_tab_has_node(const struct resv *r, const char *node);

/* Whether r may go in the table at now, in place of the reservation of
 * its id when it has one there: a name of 1 to LABEL_MAX letters, digits,
 * '.', '-' or '_' that no other has; a start before its end, which is
 * still to come, at most RESV_MAX_DURATION after the start; a node at
 * least; users or accounts (labels joined by ','); and, unless r or the
 * other is a maintenance, no node shared with another reservation over a
 * common time (Slurm's rule: reservations overlap only for maintenance).
 * Returns 0, or -1 with err naming what is wrong (and the reservation in
 * the way). */
int	resv_tab_check(const struct resv_tab *, const struct resv *r,
	    int64_t now, char *err, size_t errlen);
/* Puts a copy of r (checked) in the table, in place of the one of its
 * id; r's id 0 takes the table's next. Returns the copy's id. */
uint64_t resv_tab_put(struct resv_tab *, const struct resv *r);
/* Removes the reservation of name; whether there was one. */
bool	resv_tab_remove(struct resv_tab *, const char *name);

/* The name of a reservation user makes without one, as Slurm's:
 * "USER_N", N the table's next id. Returns buf. */
const char *resv_tab_name(const struct resv_tab *, const char *user,
	    char *buf, size_t len);

/* Whether r lets user's job charged to account ("" for none) use it: the
 * user is one of its users, or the account one of its accounts. */
bool	resv_tab_admits(const struct resv *r, const char *user,
	    const char *account);
/* Whether r is open at now: from its start to its end. */
bool	resv_tab_is_active(const struct resv *r, int64_t now);
/* The first reservation of the table open at now on node (a
 * maintenance first), or NULL. */
const struct resv *resv_tab_on_node(const struct resv_tab *,
	    const char *node, int64_t now);
/* The first reservation that has ended by now, or NULL. */
const struct resv *resv_tab_ended(const struct resv_tab *, int64_t now);

/* Reads Slurm's Flags= (words joined by ',', any case) into *flags:
 * MAINT and IGNORE_JOBS are taken; Slurm's other flags are refused with
 * why (err), as are unknown words. Returns 0, or -1. */
int	resv_tab_flags_parse(const char *s, uint32_t *flags, char *err,
	    size_t errlen);
/* flags as Slurm writes them ("MAINT,IGNORE_JOBS"), "" for none. Returns
 * buf. */
const char *resv_tab_flags_text(uint32_t flags, char *buf, size_t len);

/* A node a reservation of N GPUs may take: its name, its GPUs, whether
 * it may (up, not drained, in no reservation that r may not overlap). */
struct resv_node {
	const char	*name;
	uint32_t	 gpus;
	bool		 usable;
};

/* Chooses whole nodes of nodes[0..n) that hold gpus GPUs in all, the
 * fewest: the smallest node that holds them alone; else the largest
 * nodes until they do, the last of them the smallest that is enough
 * (ties by order in nodes). Writes their indexes into out (room for n).
 * Returns their count, or 0 with err saying how many GPUs the usable
 * nodes hold. */
size_t	resv_tab_pick(const struct resv_node *nodes, size_t n, uint32_t gpus,
	    size_t *out, char *err, size_t errlen);

/* r as the RESV_LIST reply lists it (docs/protocol.md): its name, times
 * (start_time, end_time, duration in seconds), nodes (the list, their
 * count), users, accounts and flags (arrays of words), and its state at
 * now (ACTIVE or INACTIVE). A new reference. */
json_t	*resv_tab_json(const struct resv *r, int64_t now);

#endif
