/* replica-judge.c: whether a replica may be removed (replica-judge.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "daemon/controller/replica-judge.h"

bool
replica_judge_answers(int64_t heard_ms, int64_t now_ms, int election_ms)
{
	return (heard_ms >= 0 && now_ms - heard_ms <= 2 * (int64_t)election_ms);
}

/* Appends ", ID" (the first without the comma) to buf, as room allows. */
static void
replica_judge_name(char *buf, size_t len, uint64_t id)
{
	size_t	at = strlen(buf);

	if (at < len)
		snprintf(buf + at, len - at, "%s%" PRIu64, at == 0 ? "" : ", ",
		    id);
}

int
replica_judge_remove(const struct replica_judge_voter *v, size_t n,
    uint64_t removed, char *why, size_t len)
{
	char	left[128] = "", silent[128] = "";
	size_t	i, nleft = 0, answering = 0;
	bool	voter = false;

	for (i = 0; i < n; i++) {
		if (v[i].id == removed) {
			voter = true;
			continue;
		}
		nleft++;
		replica_judge_name(left, sizeof left, v[i].id);
		if (v[i].answers)
			answering++;
		else
			replica_judge_name(silent, sizeof silent, v[i].id);
	}
	if (!voter)
		return (0);
	if (nleft == 0) {
		snprintf(why, len, "replica %" PRIu64 " is the set's only "
		    "voter: a set cannot be left without one (stop it, or "
		    "unset controller.replicas to run one gbatchd alone)",
		    removed);
		return (-1);
	}
	if (answering * 2 <= nleft) {
		snprintf(why, len, "removing replica %" PRIu64 " would leave "
		    "replica%s %s, which commit only while %zu of them answer, "
		    "and replica%s %s do%s not answer: the set could commit "
		    "nothing more. Start %s again first, or remove %s",
		    removed, nleft == 1 ? "" : "s", left, nleft / 2 + 1,
		    nleft - answering == 1 ? "" : "s", silent,
		    nleft - answering == 1 ? "es" : "", nleft - answering == 1 ?
		    "it" : "them", nleft - answering == 1 ? "it" : "them");
		return (-1);
	}
	return (0);
}
