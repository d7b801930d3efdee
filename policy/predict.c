/* predict.c: durations learned from history (see predict.h).
 *
 * The rules go from the most specific evidence to the broadest. A job run
 * again under a name like its last (the same script, a new date or run
 * number) is the best evidence there is: in deep-learning clusters most
 * jobs recur, and Helios (Hu et al., SC'21) predicts them from the same
 * user's similarly named jobs. Failing that, a user's jobs of one GPU
 * count are mostly one project's; failing that, GPU count alone still
 * orders durations (large jobs run longer, in the Philly and Helios
 * traces).
 *
 * The minimums: one run of a name is trusted, as a rerun of the same
 * script says more than any number of the user's other jobs, and the
 * median grows robust as its runs come. A user's GPU count needs two:
 * Tsafrir et al. (2007) predict a job by the mean of the user's last two,
 * and one job alone may be a test or a crash. The cluster-wide rule mixes
 * everyone's work and needs five, whose median survives two outliers;
 * with fewer, "unknown" is more honest than noise.
 *
 * The statistic is the median of the key's last PREDICT_WINDOW runs.
 * Durations are heavy-tailed (most runs end within minutes, a few take
 * days) and a key's runs hold crashes and runaways: a mean follows one
 * of them far, a median ignores up to half the window, and it minimizes
 * the absolute error, not the squared one a long run would dominate. Of
 * two runs it is their mean, Tsafrir's predictor. The window is also the
 * recency: when a user's runs change (more epochs), the median follows
 * after half a window, 8 runs; a longer window would be steadier and
 * slower. Run time and GPU-time take their medians apart: for one GPU
 * count GPU-time is GPUs x run time and the median keeps that, across
 * counts (a name run on 4 and on 8 GPUs) each is the middle of its own.
 *
 * Keys live in one hash table of chains, found by a 64-bit FNV-1a of
 * their parts and told apart by their text when hashes collide. Memory is
 * bounded: a key holds at most PREDICT_WINDOW runs (its ring grows to
 * that), and past max_keys the key learned from longest ago goes
 * (a name not run for longest; a user's and a GPU count's keys are
 * learned by each of their jobs and stay). While no key has overflowed
 * its window and none has gone, a guess does not depend on the order the
 * runs were learned in. */
#include <stdlib.h>
#include <string.h>

#include "policy/predict.h"
#include "policy/predict-int.h"

_Static_assert(PREDICT_WINDOW <= UINT8_MAX, "a key counts its runs in bytes");

#define PREDICT_BUCKETS_MIN	64

struct predict_run {
	uint64_t	run_ms, gpu_ms;
};

/* One key of one rule: the user, name key and GPU count the rule goes by
 * ("" and 0 where it does not), and the key's last runs, oldest at
 * runs[oldest] (0 until the window is full). */
struct predict_key {
	struct predict_key	*chain;		/* next in its bucket */
	struct predict_key	*newer, *older;	/* in the order learned */
	uint64_t		 hash;
	struct predict_run	*runs;
	uint32_t		 gpus;
	uint8_t			 how;		/* enum predict_how */
	uint8_t			 n, cap, oldest;
	const char		*name;		/* in user[], after the user */
	char			 user[];	/* user, NUL, name, NUL */
};

struct predict {
	struct predict_key	**buckets;
	size_t			 nbuckets;	/* a power of two */
	size_t			 count, max;
	struct predict_key	*newest, *oldest;
	predict_hash_cb		 hash;
};

static const size_t predict_min[] = {
	[PREDICT_BY_NAME] = PREDICT_MIN_BY_NAME,
	[PREDICT_BY_USER_GPUS] = PREDICT_MIN_BY_USER_GPUS,
	[PREDICT_BY_GPUS] = PREDICT_MIN_BY_GPUS,
};

static uint64_t
predict_fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char	*s = data;
	size_t			 i;

	for (i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return (h);
}

/* FNV-1a over the key's parts, each string with its NUL so that "ab","c"
 * and "a","bc" differ. */
static uint64_t
predict_hash(enum predict_how how, uint32_t gpus, const char *user,
    const char *name)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	unsigned char	b = (unsigned char)how;

	h = predict_fnv(h, &b, 1);
	h = predict_fnv(h, &gpus, sizeof gpus);
	h = predict_fnv(h, user, strlen(user) + 1);
	return (predict_fnv(h, name, strlen(name) + 1));
}

struct predict *
predict_create_hashed(size_t max_keys, predict_hash_cb hash)
{
	struct predict	*p;

	if ((p = calloc(1, sizeof *p)) == NULL ||
	    (p->buckets = calloc(PREDICT_BUCKETS_MIN,
	    sizeof *p->buckets)) == NULL)
		abort();
	p->nbuckets = PREDICT_BUCKETS_MIN;
	p->max = max_keys < 3 ? 3 : max_keys;
	p->hash = hash;
	return (p);
}

struct predict *
predict_create(size_t max_keys)
{
	return (predict_create_hashed(max_keys, predict_hash));
}

void
predict_free(struct predict *p)
{
	struct predict_key	*k, *older;

	if (p == NULL)
		return;
	for (k = p->newest; k != NULL; k = older) {
		older = k->older;
		free(k->runs);
		free(k);
	}
	free(p->buckets);
	free(p);
}

/* The parts of j that rule how goes by; key is j's name key. */
static void
predict_parts(enum predict_how how, const struct predict_job *j,
    const char *key, const char **user, const char **name, uint32_t *gpus)
{
	*user = how == PREDICT_BY_GPUS || j->user == NULL ? "" : j->user;
	*name = how == PREDICT_BY_NAME ? key : "";
	*gpus = how == PREDICT_BY_NAME ? 0 : j->gpus;
}

static struct predict_key *
predict_find(const struct predict *p, enum predict_how how, uint64_t hash,
    const char *user, const char *name, uint32_t gpus)
{
	struct predict_key	*k;

	for (k = p->buckets[hash & (p->nbuckets - 1)]; k != NULL;
	    k = k->chain)
		if (k->hash == hash && k->how == how && k->gpus == gpus &&
		    strcmp(k->user, user) == 0 && strcmp(k->name, name) == 0)
			return (k);
	return (NULL);
}

static void
predict_unlist(struct predict *p, struct predict_key *k)
{
	if (k->newer != NULL)
		k->newer->older = k->older;
	else
		p->newest = k->older;
	if (k->older != NULL)
		k->older->newer = k->newer;
	else
		p->oldest = k->newer;
	k->newer = k->older = NULL;
}

static void
predict_list(struct predict *p, struct predict_key *k)
{
	k->older = p->newest;
	if (p->newest != NULL)
		p->newest->newer = k;
	else
		p->oldest = k;
	p->newest = k;
}

/* Drops the key learned from longest ago. */
static void
predict_evict(struct predict *p)
{
	struct predict_key	*k = p->oldest, **at;

	at = &p->buckets[k->hash & (p->nbuckets - 1)];
	while (*at != k)
		at = &(*at)->chain;
	*at = k->chain;
	predict_unlist(p, k);
	p->count--;
	free(k->runs);
	free(k);
}

/* Doubles the buckets once there are as many keys, so chains stay short. */
static void
predict_grow(struct predict *p)
{
	struct predict_key	**b, *k, *next;
	size_t			 i, n = p->nbuckets * 2;

	if ((b = calloc(n, sizeof *b)) == NULL)
		abort();
	for (i = 0; i < p->nbuckets; i++)
		for (k = p->buckets[i]; k != NULL; k = next) {
			next = k->chain;
			k->chain = b[k->hash & (n - 1)];
			b[k->hash & (n - 1)] = k;
		}
	free(p->buckets);
	p->buckets = b;
	p->nbuckets = n;
}

/* The key of rule how for j, made if new, and now the newest learned. */
static struct predict_key *
predict_touch(struct predict *p, enum predict_how how,
    const struct predict_job *j, const char *key)
{
	struct predict_key	*k;
	const char		*user, *name;
	uint32_t		 gpus;
	uint64_t		 hash;
	size_t			 ulen, nlen;

	predict_parts(how, j, key, &user, &name, &gpus);
	hash = p->hash(how, gpus, user, name);
	if ((k = predict_find(p, how, hash, user, name, gpus)) != NULL) {
		predict_unlist(p, k);
		predict_list(p, k);
		return (k);
	}
	if (p->count >= p->max)
		predict_evict(p);
	if (p->count >= p->nbuckets)
		predict_grow(p);
	ulen = strlen(user);
	nlen = strlen(name);
	if ((k = calloc(1, sizeof *k + ulen + nlen + 2)) == NULL)
		abort();
	memcpy(k->user, user, ulen + 1);
	memcpy(k->user + ulen + 1, name, nlen + 1);
	k->name = k->user + ulen + 1;
	k->hash = hash;
	k->how = (uint8_t)how;
	k->gpus = gpus;
	k->chain = p->buckets[hash & (p->nbuckets - 1)];
	p->buckets[hash & (p->nbuckets - 1)] = k;
	p->count++;
	predict_list(p, k);
	return (k);
}

/* Appends a run, the ring growing by doubling up to the window; a full
 * window's oldest run gives way. */
static void
predict_add(struct predict_key *k, uint64_t run_ms, uint64_t gpu_ms)
{
	struct predict_run	*r;
	size_t			 cap;

	if (k->n == PREDICT_WINDOW) {
		r = &k->runs[k->oldest];
		k->oldest = (uint8_t)((k->oldest + 1) % PREDICT_WINDOW);
	} else {
		if (k->n == k->cap) {
			cap = k->cap == 0 ? 2 : k->cap * 2;
			if (cap > PREDICT_WINDOW)
				cap = PREDICT_WINDOW;
			if ((k->runs = realloc(k->runs,
			    cap * sizeof *k->runs)) == NULL)
				abort();
			k->cap = (uint8_t)cap;
		}
		r = &k->runs[k->n++];
	}
	r->run_ms = run_ms;
	r->gpu_ms = gpu_ms;
}

void
predict_learn(struct predict *p, const struct predict_job *j,
    uint64_t run_ms, uint64_t gpu_ms)
{
	char	key[PREDICT_KEY_MAX + 1];

	predict_name_key(j->name, key, sizeof key);
	if (key[0] != '\0')
		predict_add(predict_touch(p, PREDICT_BY_NAME, j, key), run_ms,
		    gpu_ms);
	predict_add(predict_touch(p, PREDICT_BY_USER_GPUS, j, key), run_ms,
	    gpu_ms);
	predict_add(predict_touch(p, PREDICT_BY_GPUS, j, key), run_ms,
	    gpu_ms);
}

/* The key of the first rule with its minimum of runs for j, or NULL. A
 * job without a name key finds no name rule's key: none is learned. */
static const struct predict_key *
predict_pick(const struct predict *p, const struct predict_job *j)
{
	const struct predict_key	*k;
	char				 key[PREDICT_KEY_MAX + 1];
	const char			*user, *name;
	uint32_t			 gpus;
	int				 how;

	predict_name_key(j->name, key, sizeof key);
	for (how = PREDICT_BY_NAME; how <= PREDICT_BY_GPUS; how++) {
		predict_parts(how, j, key, &user, &name, &gpus);
		k = predict_find(p, how, p->hash(how, gpus, user, name), user,
		    name, gpus);
		if (k != NULL && k->n >= predict_min[how])
			return (k);
	}
	return (NULL);
}

/* The median of v[0..n), n > 0, sorting v; of an even count, the mean of
 * the middle two, rounded down. */
static uint64_t
predict_median(uint64_t *v, size_t n)
{
	size_t		i, m;
	uint64_t	x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (m = i; m > 0 && v[m - 1] > x; m--)
			v[m] = v[m - 1];
		v[m] = x;
	}
	if (n % 2 == 1)
		return (v[n / 2]);
	return (v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2);
}

bool
predict_guess(const struct predict *p, const struct predict_job *j,
    struct predict_guess *out)
{
	const struct predict_key	*k;
	uint64_t			 run[PREDICT_WINDOW];
	uint64_t			 gpu[PREDICT_WINDOW];
	size_t				 i;

	memset(out, 0, sizeof *out);
	out->how = PREDICT_NONE;
	if ((k = predict_pick(p, j)) == NULL)
		return (false);
	for (i = 0; i < k->n; i++) {
		run[i] = k->runs[i].run_ms;
		gpu[i] = k->runs[i].gpu_ms;
	}
	out->run_ms = predict_median(run, k->n);
	out->gpu_ms = predict_median(gpu, k->n);
	out->how = (enum predict_how)k->how;
	out->samples = k->n;
	return (true);
}

size_t
predict_similar(const struct predict *p, const struct predict_job *j,
    uint64_t *out, size_t max)
{
	const struct predict_key	*k;
	size_t				 i, m, skip;

	if ((k = predict_pick(p, j)) == NULL)
		return (0);
	m = k->n < max ? k->n : max;
	skip = k->n - m;
	for (i = 0; i < m; i++)
		out[i] = k->runs[(k->oldest + skip + i) % k->n].gpu_ms;
	return (m);
}

const char *
predict_how_name(enum predict_how how)
{
	switch (how) {
	case PREDICT_BY_NAME:
		return ("user's similar name");
	case PREDICT_BY_USER_GPUS:
		return ("user's jobs of this GPU count");
	case PREDICT_BY_GPUS:
		return ("jobs of this GPU count");
	case PREDICT_NONE:
		break;
	}
	return ("none");
}
