/* replica-judge-test.c: whether a replica may be removed (replica-judge.c).
 * A replica answers when heard from within two election timeouts. A
 * removal goes ahead when a majority of the voters left answers, the
 * leader among them; a replica that is no voter may always go; the only
 * voter may not. */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/replica-judge.h"
#include "tests/unit/tap.h"

static void
test_answers(void)
{
	ok(replica_judge_answers(1000, 2400, 700), "heard 1.4 s ago, "
	    "election timeout 700 ms: answers");
	ok(!replica_judge_answers(1000, 2401, 700), "1 ms later: it does not");
	ok(!replica_judge_answers(-1, 2400, 700), "never heard: it does not");
	ok(replica_judge_answers(5000, 5000, 100), "heard now: answers");
}

static void
test_remove(void)
{
	struct replica_judge_voter	three[] = {
		{ 1, true }, { 2, true }, { 3, true }
	};
	struct replica_judge_voter	one_away[] = {
		{ 1, true }, { 2, true }, { 3, false }
	};
	struct replica_judge_voter	five[] = {
		{ 1, true }, { 2, true }, { 3, true }, { 4, false }, { 5, false }
	};
	struct replica_judge_voter	alone[] = { { 7, true } };
	char				why[512] = "";

	is_int(replica_judge_remove(three, 3, 2, why, sizeof why), 0,
	    "three answer: a follower may go");
	is_int(replica_judge_remove(three, 3, 1, why, sizeof why), 0,
	    "and so may the leader");
	is_int(replica_judge_remove(one_away, 3, 3, why, sizeof why), 0,
	    "the one that does not answer may go: two answer of two left");
	is_int(replica_judge_remove(one_away, 3, 2, why, sizeof why), -1,
	    "one that answers may not while another is away");
	is_str(why, "removing replica 2 would leave replicas 1, 3, which "
	    "commit only while 2 of them answer, and replica 3 does not "
	    "answer: the set could commit nothing more. Start it again first, "
	    "or remove it", "saying which and what to do");
	is_int(replica_judge_remove(one_away, 3, 1, why, sizeof why), -1,
	    "nor the leader");
	is_int(replica_judge_remove(five, 5, 3, why, sizeof why), -1,
	    "five, two away: removing a third that answers leaves 2 of 4");
	ok(strstr(why, "replicas 4, 5 do not answer") != NULL &&
	    strstr(why, "3 of them answer") != NULL &&
	    strstr(why, "Start them again first, or remove them") != NULL,
	    "naming both that are away");
	is_int(replica_judge_remove(five, 5, 5, why, sizeof why), 0,
	    "removing one of those away leaves 3 of 4 answering");
	is_int(replica_judge_remove(three, 3, 9, why, sizeof why), 0,
	    "a replica that is no voter may always go");
	is_int(replica_judge_remove(one_away, 2, 3, why, sizeof why), 0,
	    "nor is it counted when it is not among the voters");
	is_int(replica_judge_remove(alone, 1, 7, why, sizeof why), -1,
	    "the only voter may not go");
	is_str(why, "replica 7 is the set's only voter: a set cannot be left "
	    "without one (stop it, or unset controller.replicas to run one "
	    "gbatchd alone)", "saying why");
}

int
main(void)
{
	test_answers();
	test_remove();
	return (tap_done());
}
