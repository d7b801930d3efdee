/* replica-judge.h: whether a replica may be removed from the set (gctl
 * replica remove). A set commits only while a majority of its voters
 * answers, counted in the configuration that a change makes: removing a
 * replica that answers while another does not can leave a set that can
 * commit nothing, not even the change that would undo it. So a removal
 * goes ahead only when a majority of the voters left answers.
 *
 * Pure: the caller (replica.c, on the leader) says which voters answered
 * lately, the leader itself among them, and carries out the verdict.
 * tests/unit/replica-judge-test.c covers it. */
#ifndef GB_CTL_REPLICA_JUDGE_H
#define GB_CTL_REPLICA_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A voter of the set, and whether it answered the leader lately. */
struct replica_judge_voter {
	uint64_t	 id;
	bool		 answers;
};

/* Whether a replica that has been heard from last at heard_ms (-1:
 * never) answers at now_ms, when the leader writes to every replica at
 * least every election_ms / 10: it answered within two election
 * timeouts. */
bool	replica_judge_answers(int64_t heard_ms, int64_t now_ms,
	    int election_ms);
/* Whether the voters v (n of them) may lose replica removed: 0, or -1
 * with why (len bytes) naming what is wrong and what to do. A replica
 * that is no voter (a spare, or one being added) may always go. */
int	replica_judge_remove(const struct replica_judge_voter *v, size_t n,
	    uint64_t removed, char *why, size_t len);

#endif
