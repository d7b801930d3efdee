/* assoc-usage.c: each account's use in the budget's month
 * (assoc-usage.h). Use is kept by account and QOS, sorted by both and
 * found by halving: there are as many accounts as a cluster has
 * projects, and a few QOS, and a run's start or end finds its own in a
 * few comparisons. */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/assoc-usage.h"

/* One account's own use in one QOS: its runs', not those of the
 * accounts below. */
struct assoc_usage_acc {
	char			*name;
	char			*qos;
	uint32_t		 weight;	/* its QOS's factor, thousandths */
	/* As run (budget.h): thousandths of GPU-seconds done, the rate
	 * of its runs under way in millionths a second, since from the
	 * month's start. */
	struct budget_use	 use;
	/* Thousandths of GPU-seconds charged for the runs ended, and for
	 * the part of those under way before the last fold. */
	uint64_t		 charged;
	uint32_t		 jobs;		/* runs under way */
};

struct assoc_usage {
	int64_t			 month;		/* its start */
	/* When the runs under way count from: the month's start, or the
	 * last change of a factor of theirs (a fold), if later. */
	int64_t			 from;
	struct assoc_usage_acc	*acc;
	size_t			 nacc;
	struct qoses		 qos;		/* the factors in force */
	/* A run started or ended, or the month turned, since the last
	 * judgment. */
	bool			 changed;
	/* The accounts that had spent their budget at the last judgment,
	 * sorted, and when that may next change by itself. */
	char			**spent;
	size_t			 nspent;
	int64_t			 next;
};

struct assoc_usage *
assoc_usage_create(int64_t now)
{
	struct assoc_usage	*u = xcalloc(1, sizeof *u);

	u->month = u->from = budget_month_start(now);
	u->changed = true;
	return (u);
}

static void
assoc_usage_spent_clear(struct assoc_usage *u)
{
	size_t	i;

	for (i = 0; i < u->nspent; i++)
		free(u->spent[i]);
	free(u->spent);
	u->spent = NULL;
	u->nspent = 0;
}

void
assoc_usage_free(struct assoc_usage *u)
{
	size_t	i;

	if (u == NULL)
		return;
	for (i = 0; i < u->nacc; i++) {
		free(u->acc[i].name);
		free(u->acc[i].qos);
	}
	free(u->acc);
	qos_clear(&u->qos);
	assoc_usage_spent_clear(u);
	free(u);
}

/* A run's use of ran (millionths of GPU-seconds) is done: as run and
 * charged at its QOS's factor, both in thousandths. */
static void
assoc_usage_done(struct assoc_usage_acc *a, uint64_t ran)
{
	a->use.done += ran / BUDGET_MILLI;
	a->charged += ran / BUDGET_MILLI * a->weight / BUDGET_MILLI;
}

/* A new month once now is past the one counted: nothing done in it yet,
 * and the runs under way count from its start. A clock stepped back
 * into an earlier month changes nothing (its figures are gone). */
static void
assoc_usage_roll(struct assoc_usage *u, int64_t now)
{
	int64_t	month = budget_month_start(now);
	size_t	i;

	if (month <= u->month)
		return;
	u->month = u->from = month;
	for (i = 0; i < u->nacc; i++) {
		u->acc[i].use.done = 0;
		u->acc[i].charged = 0;
		u->acc[i].use.since = 0;
	}
	u->changed = true;
}

/* What the runs under way used up to now is done, charged at the
 * factors they had, and they count from now on: as a month's turn does,
 * but keeping what was done. */
static void
assoc_usage_fold(struct assoc_usage *u, int64_t now)
{
	struct assoc_usage_acc	*a;
	int64_t			 ran;
	size_t			 i;

	if (now <= u->from)
		return;
	for (i = 0; i < u->nacc; i++) {
		a = &u->acc[i];
		ran = (int64_t)a->use.rate * (now - u->month) -
		    a->use.since;
		if (ran > 0)
			assoc_usage_done(a, (uint64_t)ran);
		a->use.since = (int64_t)a->use.rate * (now - u->month);
	}
	u->from = now;
}

void
assoc_usage_weigh(struct assoc_usage *u, const struct qoses *qs,
    int64_t now)
{
	struct assoc_usage_acc	*a;
	size_t			 i;
	bool			 running = false;

	assoc_usage_roll(u, now);
	for (i = 0; i < u->nacc; i++) {
		a = &u->acc[i];
		if (a->use.rate > 0 && qos_weight(qs, a->qos) != a->weight)
			running = true;
	}
	/* Only a change under way needs the runs' past cut off. */
	if (running)
		assoc_usage_fold(u, now);
	for (i = 0; i < u->nacc; i++)
		u->acc[i].weight = qos_weight(qs, u->acc[i].qos);
	qos_clear(&u->qos);
	qos_copy(&u->qos, qs);
	u->changed = true;
}

/* The index where (name, qos) is, or where it would go; *found says
 * which. */
static size_t
assoc_usage_find(const struct assoc_usage *u, const char *name,
    const char *qos, bool *found)
{
	size_t	lo = 0, hi = u->nacc, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(u->acc[mid].name, name)) == 0)
			c = strcmp(u->acc[mid].qos, qos);
		if (c == 0) {
			*found = true;
			return (mid);
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return (lo);
}

/* account's own figures in qos, made when it has none. */
static struct assoc_usage_acc *
assoc_usage_get(struct assoc_usage *u, const char *account, const char *qos)
{
	struct assoc_usage_acc	*a;
	bool			 found;
	size_t			 i = assoc_usage_find(u, account, qos, &found);

	if (found)
		return (&u->acc[i]);
	u->acc = xreallocarray(u->acc, u->nacc + 1, sizeof *u->acc);
	memmove(&u->acc[i + 1], &u->acc[i], (u->nacc - i) * sizeof *u->acc);
	a = &u->acc[i];
	memset(a, 0, sizeof *a);
	a->name = xstrdup(account);
	a->qos = xstrdup(qos);
	a->weight = qos_weight(&u->qos, qos);
	u->nacc++;
	return (a);
}

/* When a run's time starts counting now. */
static int64_t
assoc_usage_from(const struct assoc_usage *u, int64_t start)
{
	return (start > u->from ? start : u->from);
}

void
assoc_usage_add(struct assoc_usage *u, const char *account, const char *qos,
    uint64_t milli_s, int64_t now)
{
	struct assoc_usage_acc	*a;

	if (*account == '\0')
		return;
	assoc_usage_roll(u, now);
	a = assoc_usage_get(u, account, qos);
	a->use.done += milli_s;
	a->charged += milli_s * a->weight / BUDGET_MILLI;
	u->changed = true;
}

void
assoc_usage_run_start(struct assoc_usage *u, const char *account,
    const char *qos, uint32_t milli, int64_t start, int64_t now)
{
	struct assoc_usage_acc	*a;
	uint64_t		 rate = (uint64_t)milli * BUDGET_MILLI;

	if (*account == '\0')
		return;
	assoc_usage_roll(u, now);
	a = assoc_usage_get(u, account, qos);
	a->use.rate += rate;
	a->use.since += (int64_t)rate * (assoc_usage_from(u, start) -
	    u->month);
	a->jobs++;
	u->changed = true;
}

void
assoc_usage_run_end(struct assoc_usage *u, const char *account,
    const char *qos, uint32_t milli, int64_t start, int64_t end)
{
	struct assoc_usage_acc	*a;
	int64_t			 from;
	uint64_t		 rate = (uint64_t)milli * BUDGET_MILLI;

	if (*account == '\0')
		return;
	assoc_usage_roll(u, end);
	a = assoc_usage_get(u, account, qos);
	/* What run_start added, or since the month turned or a factor
	 * changed, its start (never clamped to now or end: the two must
	 * match, and a start a node's clock put past either adds nothing
	 * to done). */
	from = assoc_usage_from(u, start);
	if (a->use.rate >= rate && a->jobs > 0) {
		a->use.rate -= rate;
		a->use.since -= (int64_t)rate * (from - u->month);
		a->jobs--;
	}
	if (end > from)
		assoc_usage_done(a, rate * (uint64_t)(end - from));
	u->changed = true;
}

/* Takes back up to back from *done. */
static void
assoc_usage_take(uint64_t *done, uint64_t back)
{
	*done -= back < *done ? back : *done;
}

void
assoc_usage_run_reopen(struct assoc_usage *u, const char *account,
    const char *qos, uint32_t milli, int64_t start, int64_t stop,
    int64_t now)
{
	struct assoc_usage_acc	*a;
	int64_t			 from;
	uint64_t		 back;

	if (*account == '\0')
		return;
	assoc_usage_roll(u, now);
	a = assoc_usage_get(u, account, qos);
	from = assoc_usage_from(u, start);
	/* An end before the month, or before a fold, added nothing that
	 * counts from there. */
	if (stop > from) {
		back = (uint64_t)milli * (uint64_t)(stop - from);
		assoc_usage_take(&a->use.done, back);
		assoc_usage_take(&a->charged, back * a->weight / BUDGET_MILLI);
	}
	assoc_usage_run_start(u, account, qos, milli, start, now);
}

int64_t
assoc_usage_month(struct assoc_usage *u, int64_t now)
{
	assoc_usage_roll(u, now);
	return (u->month);
}

/* Adds e's figures to s. */
static void
assoc_usage_sum_add(struct assoc_usage_sum *s, const struct assoc_usage_acc *e)
{
	s->use.done += e->use.done;
	s->use.rate += e->use.rate;
	s->use.since += e->use.since;
	s->charged.done += e->charged;
	s->charged.rate += e->use.rate / BUDGET_MILLI * e->weight;
	s->charged.since += e->use.since / BUDGET_MILLI * (int64_t)e->weight;
	s->jobs += e->jobs;
}

void
assoc_usage_tree(struct assoc_usage *u, const struct assoc_tab *t,
    int64_t now, struct assoc_usage_sum *sums)
{
	const struct assoc_account	*a;
	const struct assoc_usage_acc	*e;
	size_t				 i, hops;

	assoc_usage_roll(u, now);
	memset(sums, 0, t->nacc * sizeof *sums);
	for (i = 0; i < t->nacc; i++)
		sums[i].use.origin = sums[i].charged.origin = u->month;
	for (i = 0; i < u->nacc; i++) {
		e = &u->acc[i];
		/* Up the tree; the bound only guards a hand-edited loop. */
		for (a = assoc_tab_account(t, e->name), hops = 0; a != NULL &&
		    hops <= t->nacc; hops++) {
			assoc_usage_sum_add(&sums[a - t->acc], e);
			a = *a->parent != '\0' ? assoc_tab_account(t, a->parent) :
			    NULL;
		}
	}
}

uint64_t
assoc_usage_charged(const struct assoc_usage_sum *s, int64_t now)
{
	return (budget_used(&s->charged, now));
}

bool
assoc_usage_is_spent(const struct assoc_usage_sum *s, uint64_t budget,
    int64_t now)
{
	return (budget_is_spent(budget * BUDGET_MILLI,
	    assoc_usage_charged(s, now)));
}

static int
assoc_usage_name_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Whether the sorted lists a and b hold the same names. */
static bool
assoc_usage_same(char **a, size_t na, char **b, size_t nb)
{
	size_t	i;

	if (na != nb)
		return (false);
	for (i = 0; i < na; i++) {
		if (strcmp(a[i], b[i]) != 0)
			return (false);
	}
	return (true);
}

bool
assoc_usage_judge(struct assoc_usage *u, const struct assoc_tab *t,
    int64_t now, bool force)
{
	struct assoc_usage_sum	*sums;
	char			**spent;
	size_t			 n = 0, i;
	int64_t			 at, next = BUDGET_NEVER;
	bool			 changed;

	assoc_usage_roll(u, now);
	if (!force && !u->changed && now < u->next)
		return (false);
	u->changed = false;
	sums = xcalloc(t->nacc + 1, sizeof *sums);
	spent = xcalloc(t->nacc + 1, sizeof *spent);
	assoc_usage_tree(u, t, now, sums);
	for (i = 0; i < t->nacc; i++) {
		if (t->acc[i].budget == 0)
			continue;
		if (assoc_usage_is_spent(&sums[i], t->acc[i].budget, now)) {
			spent[n++] = xstrdup(t->acc[i].name);
			continue;
		}
		at = budget_spent_at(t->acc[i].budget * BUDGET_MILLI,
		    &sums[i].charged, now);
		if (at < next)
			next = at;
	}
	/* The table is sorted by name, and so the list. */
	if (n > 0 && budget_month_next(now) < next)
		next = budget_month_next(now);
	changed = !assoc_usage_same(u->spent, u->nspent, spent, n);
	assoc_usage_spent_clear(u);
	u->spent = spent;
	u->nspent = n;
	u->next = next;
	free(sums);
	return (changed);
}

bool
assoc_usage_held(const struct assoc_usage *u, const struct assoc_tab *t,
    const char *account, const char **who)
{
	const struct assoc_account	*a;
	char				**hit;
	size_t				 hops;

	if (u->nspent == 0 || *account == '\0')
		return (false);
	for (a = assoc_tab_account(t, account), hops = 0; a != NULL &&
	    hops <= t->nacc; hops++) {
		if ((hit = bsearch(&a->name, u->spent, u->nspent,
		    sizeof *u->spent, assoc_usage_name_cmp)) != NULL) {
			if (who != NULL)
				*who = *hit;
			return (true);
		}
		a = *a->parent != '\0' ? assoc_tab_account(t, a->parent) :
		    NULL;
	}
	return (false);
}

int64_t
assoc_usage_next(const struct assoc_usage *u)
{
	return (u->next);
}
