/* replica-seed.c: gbatchd --seed (see replica-seed.h).
 *
 * Every replica of a set must start from the same state: logs that hold
 * index 1 of term 1 mean the same store by it. So the seed is written once,
 * here, and the same raft.db is copied to every other replica before its
 * first start; the history named in it (a random name) lets a replica
 * refuse the links of one started otherwise (replica.c). */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <raft.h>

#include "common/xmalloc.h"
#include "daemon/common/unixsock.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/raft-disk.h"
#include "daemon/controller/replica-seed.h"
#include "daemon/controller/store.h"

/* The history's name: 16 random bytes, in hex. Seeded once and copied,
 * every replica of the set holds the same name; a second seed, even of
 * the same store, starts another set. */
#define SEED_NAME_BYTES	16

/* The files a store is made of, and what they become. */
static const char *const seed_files[] = STORE_FILES;
#define SEED_KEPT	".before-replicas"

/* Renames the store's files to their kept names (back = false) or back.
 * Returns 0, or -1 with err set (and what was renamed put back). */
static int
seed_keep(const char *dir, bool back, char *err, size_t errlen)
{
	char	*from, *to;
	size_t	 i, n = sizeof seed_files / sizeof seed_files[0];
	int	 rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		from = xasprintf("%s/%s%s", dir, seed_files[i], back ?
		    SEED_KEPT : "");
		to = xasprintf("%s/%s%s", dir, seed_files[i], back ? "" :
		    SEED_KEPT);
		if (rename(from, to) != 0 && errno != ENOENT) {
			snprintf(err, errlen, "cannot rename %s to %s: %s",
			    from, to, strerror(errno));
			rc = -1;
		}
		free(from);
		free(to);
	}
	if (rc != 0 && !back) {
		char	 e2[256];

		(void)seed_keep(dir, true, e2, sizeof e2);
	}
	return (rc);
}

/* Why dir cannot be seeded, or 0. */
static int
seed_refused(const struct conf *c, char *err, size_t errlen)
{
	struct stat	 sb;
	char		*path;
	int		 rc = 0;

	if (c->replicas.n == 0) {
		snprintf(err, errlen, "--seed makes the first state of a "
		    "replica set: list its replicas in controller.replicas "
		    "first (gbatch.conf(5))");
		return (-1);
	}
	if (unixsock_answers(c->socket)) {
		snprintf(err, errlen, "a gbatchd answers on %s: stop it "
		    "first, so that nothing it acknowledges after the seed "
		    "is lost", c->socket);
		return (-1);
	}
	path = xasprintf("%s/raft.db", c->state_dir);
	if (stat(path, &sb) == 0) {
		snprintf(err, errlen, "%s exists: this state_dir belongs to a "
		    "replica already, and a seed only starts a set", path);
		rc = -1;
	}
	free(path);
	path = xasprintf("%s/raft.db-log", c->state_dir);
	if (rc == 0 && stat(path, &sb) == 0) {
		snprintf(err, errlen, "%s exists, the log of an earlier "
		    "raft.db: remove it to seed a new set", path);
		rc = -1;
	}
	free(path);
	path = xasprintf("%s/" STORE_DB, c->state_dir);
	if (rc == 0 && stat(path, &sb) != 0) {
		snprintf(err, errlen, "no store to seed from: %s: %s", path,
		    strerror(errno));
		rc = -1;
	}
	free(path);
	return (rc);
}

static void
seed_name(char *name)
{
	unsigned char	b[SEED_NAME_BYTES];
	size_t		i;

	arc4random_buf(b, sizeof b);
	for (i = 0; i < sizeof b; i++)
		snprintf(name + 2 * i, 3, "%02x", b[i]);
}

int
replica_seed(const struct conf *c, char *msg, size_t msglen, char *err,
    size_t errlen)
{
	struct raft_configuration	 rc_conf;
	struct raft_disk		*d = NULL;
	char				 name[2 * SEED_NAME_BYTES + 1];
	char				*path = NULL, *others;
	void				*image;
	uint64_t			 next_id;
	size_t				 len, i;
	int				 rc = -1, rv;

	if (seed_refused(c, err, errlen) != 0)
		return (-1);
	if (store_open(c->state_dir, STORE_SYNC_FULL, NULL, err,
	    errlen) != 0)
		return (-1);
	next_id = store_job_peek_id();
	image = store_image(&len, err, errlen);
	store_close();
	if (image == NULL)
		return (-1);
	seed_name(name);
	if (seed_keep(c->state_dir, false, err, errlen) != 0)
		goto out;
	raft_configuration_init(&rc_conf);
	for (i = 0; i < c->replicas.n; i++)
		(void)raft_configuration_add(&rc_conf, (raft_id)i + 1,
		    c->replicas.v[i], RAFT_VOTER);
	path = xasprintf("%s/raft.db", c->state_dir);
	if ((d = raft_disk_open(path, err, errlen)) == NULL)
		rv = RAFT_IOERR;
	else if ((rv = raft_disk_seed(d, &rc_conf, image, len, name)) != 0)
		snprintf(err, errlen, "%s: %s", path, raft_disk_errmsg(d));
	raft_disk_close(d);
	raft_configuration_close(&rc_conf);
	if (rv != 0) {
		char	*log_dir = xasprintf("%s-log", path);
		char	 e2[256];

		/* Nothing changed: the store goes back where it was. */
		(void)unlink(path);
		(void)rmdir(log_dir);
		free(log_dir);
		(void)seed_keep(c->state_dir, true, e2, sizeof e2);
		goto out;
	}
	others = xstrdup("");
	for (i = 0; i < c->replicas.n; i++) {
		char	*o = xasprintf("%s%s%s", others, i > 0 ? ", " : "",
			    c->replicas.v[i]);

		free(others);
		others = o;
	}
	snprintf(msg, msglen, "seeded %s from %s/" STORE_DB " (%zu bytes, "
	    "next job id %" PRIu64 "); history %s.\nThe store is kept as "
	    "%s/" STORE_DB SEED_KEPT ".\nCopy %s into the state_dir of every "
	    "other replica of controller.replicas (%s) before its first "
	    "start, then start them all.", path, c->state_dir, len, next_id,
	    name, c->state_dir, path, others);
	free(others);
	rc = 0;
out:
	free(path);
	store_changeset_free(image);
	return (rc);
}
