/* node-progress.c: a job's progress file, read as it grows
 * (node-progress.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-progress.h"

struct node_progress {
	char		*path;
	uint64_t	 id;
	off_t		 offset;	/* read up to */
	/* A line begun and not yet ended at offset (kept whole, or dropped
	 * as too long once past PROGRESS_MAX_LINE). */
	char		 part[PROGRESS_MAX_LINE + 1];
	size_t		 npart;
	bool		 overlong;	/* the line under way is too long */
	bool		 skip;		/* it began before what was read */
	bool		 said;		/* a bad line was logged this run */
};

static struct node_progress *
node_progress_new(const char *state_dir, uint64_t id)
{
	struct node_progress	*p = xcalloc(1, sizeof *p);

	p->path = xasprintf("%s/progress/%llu", state_dir,
	    (unsigned long long)id);
	p->id = id;
	return (p);
}

struct node_progress *
node_progress_open(const char *state_dir, uint64_t id, uid_t uid, gid_t gid,
    bool chown_it, char *err, size_t errlen)
{
	struct node_progress	*p = node_progress_new(state_dir, id);
	int			 fd;

	/* Ours, in our directory: a file a run before left is emptied. */
	(void)unlink(p->path);
	fd = open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd == -1 || (chown_it && fchown(fd, uid, gid) == -1)) {
		snprintf(err, errlen, "%s: cannot make the progress file: %s",
		    p->path, strerror(errno));
		if (fd != -1) {
			close(fd);
			(void)unlink(p->path);
		}
		node_progress_close(p, false);
		return (NULL);
	}
	close(fd);
	return (p);
}

struct node_progress *
node_progress_attach(const char *state_dir, uint64_t id)
{
	struct node_progress	*p = node_progress_new(state_dir, id);
	struct stat		 st;

	if (lstat(p->path, &st) == -1 || !S_ISREG(st.st_mode)) {
		node_progress_close(p, false);
		return (NULL);
	}
	return (p);
}

const char *
node_progress_path(const struct node_progress *p)
{
	return (p->path);
}

/* One whole line of the job's: the newest good report in *out (1), or
 * none (0), a bad one said once a run. */
static int
node_progress_line(struct node_progress *p, const char *line, size_t len,
    bool overlong, struct progress *out)
{
	char	err[256];

	if (len == 0 && !overlong)
		return (0);
	if (!overlong && progress_parse(line, len, out, err,
	    sizeof err) == 0)
		return (1);
	if (overlong)
		snprintf(err, sizeof err, "a line of more than %d bytes",
		    PROGRESS_MAX_LINE);
	if (!p->said)
		log_warn("job %llu: a line of GBATCH_PROGRESS ignored: %s "
		    "(further bad lines of this run are ignored unsaid)",
		    (unsigned long long)p->id, err);
	p->said = true;
	return (0);
}

/* Splits buf[0..n) into lines, the one under way kept in p->part. */
static int
node_progress_lines(struct node_progress *p, const char *buf, size_t n,
    struct progress *out)
{
	struct progress	 r;
	const char	*s = buf, *nl;
	size_t		 take;
	int		 got = 0;

	while (s < buf + n) {
		nl = memchr(s, '\n', (size_t)(buf + n - s));
		take = (size_t)((nl != NULL ? nl : buf + n) - s);
		if (p->npart + take > PROGRESS_MAX_LINE)
			p->overlong = true;
		else {
			memcpy(p->part + p->npart, s, take);
			p->npart += take;
		}
		if (nl == NULL)
			break;
		if (!p->skip && node_progress_line(p, p->part, p->npart,
		    p->overlong, &r) == 1) {
			*out = r;
			got = 1;
		}
		p->npart = 0;
		p->overlong = false;
		p->skip = false;
		s = nl + 1;
	}
	return (got);
}

int
node_progress_poll(struct node_progress *p, struct progress *out)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	int		 fd, got = 0;

	if (p == NULL)
		return (0);
	fd = open(p->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return (0);
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size == p->offset) {
		close(fd);
		return (0);
	}
	if (st.st_size < p->offset) {
		/* Emptied by the job: start again. */
		p->offset = 0;
		p->npart = 0;
		p->overlong = false;
		p->skip = false;
	}
	if (st.st_size - p->offset > NODE_PROGRESS_READ) {
		/* More than a heartbeat's worth: the newest lines alone,
		 * from a line's start. */
		p->offset = st.st_size - NODE_PROGRESS_READ;
		p->npart = 0;
		p->overlong = false;
		p->skip = true;
	}
	buf = xmalloc(NODE_PROGRESS_READ);
	n = pread(fd, buf, NODE_PROGRESS_READ, p->offset);
	close(fd);
	if (n > 0) {
		p->offset += n;
		got = node_progress_lines(p, buf, (size_t)n, out);
	}
	free(buf);
	return (got);
}

json_t *
node_progress_report(struct node_progress *p, uint64_t id)
{
	struct progress	 r;
	json_t		*o;

	if (node_progress_poll(p, &r) != 1)
		return (NULL);
	o = progress_to_json(&r);
	json_object_set_new(o, "job", json_integer((json_int_t)id));
	return (o);
}

void
node_progress_close(struct node_progress *p, bool remove)
{
	if (p == NULL)
		return;
	if (remove && unlink(p->path) == -1 && errno != ENOENT)
		log_warn("job %llu: %s: cannot remove: %s",
		    (unsigned long long)p->id, p->path, strerror(errno));
	free(p->path);
	free(p);
}
