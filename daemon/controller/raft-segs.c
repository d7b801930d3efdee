/* raft-segs.c: C-raft's log entries in segment files. See raft-segs.h.
 *
 * A segment's name is its sequence number, 16 hex digits, so the
 * directory's order is the log's. Only the last segment is written; it is
 * allocated whole when made (posix_fallocate), so a sync after an append
 * flushes the record and no change of the file's size. Integers are
 * little-endian on disk whatever the host. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/controller/raft-segs.h"

/* The segment header: what it is and the format's version. */
static const char rseg_magic[16] = "gbatch-raftlog1\n";
#define RSEG_HDR	16
#define RSEG_REC	32	/* a record's header */
#define RSEG_PAD(n)	(((n) + 7) & ~(uint64_t)7)
/* No entry of ours comes near this; a larger length is a bad record. */
#define RSEG_MAX_DATA	(1u << 30)

struct rseg_seg {
	unsigned long long	 seq;
	uint64_t		 end;	/* where the next record goes */
	uint64_t		 size;	/* as allocated */
	raft_index		 first;	/* its first entry from start on; 0: none */
	raft_index		 last;	/* its last record's index, any */
};

struct raft_segs {
	char		*dir;
	int		 dirfd;
	int		 fd;		/* the last segment's; -1 if none */
	int		 dirty;		/* written since the last sync */
	raft_index	 start;
	raft_index	 first, last;	/* the entries from start; 0, 0: none */
	struct rseg_seg	*segs;
	size_t		 n_segs;
	unsigned long long next_seq;
	uint8_t		*buf;		/* records being appended */
	size_t		 buf_cap;
	uint32_t	 crc[256];
	char		 errmsg[RAFT_ERRMSG_BUF_SIZE];
};

/* What one pass over a segment's records found. */
struct rseg_scan {
	struct raft_entry	*e;	/* the entries collected */
	size_t			 n, cap;
	uint8_t			*batch;
	size_t			 len, batch_cap;
};

/* CRC-32C (Castagnoli), reflected: the table of l's checksums. */
static void
rseg_crc_init(struct raft_segs *l)
{
	uint32_t	c;
	unsigned	i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		l->crc[i] = c;
	}
}

static uint32_t
rseg_crc(const struct raft_segs *l, const uint8_t *p, size_t n)
{
	uint32_t	crc = 0xffffffffu;

	while (n-- > 0)
		crc = l->crc[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return (~crc);
}

static void
rseg_put32(uint8_t *p, uint32_t v)
{
	int	i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void
rseg_put64(uint8_t *p, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t
rseg_get32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static uint64_t
rseg_get64(const uint8_t *p)
{
	return ((uint64_t)rseg_get32(p) | (uint64_t)rseg_get32(p + 4) << 32);
}

static int __attribute__((format(printf, 3, 4)))
rseg_fail(struct raft_segs *l, int rv, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(l->errmsg, sizeof l->errmsg, fmt, ap);
	va_end(ap);
	return (rv);
}

/* The code and message for a failed system call on what. */
static int
rseg_errno(struct raft_segs *l, const char *what, unsigned long long seq)
{
	int	e = errno;

	return (rseg_fail(l, e == ENOSPC || e == EDQUOT ? RAFT_NOSPACE :
	    RAFT_IOERR, "%s %s/%016llx: %s", what, l->dir, seq,
	    strerror(e)));
}

static int
rseg_open_seg(struct raft_segs *l, unsigned long long seq, int flags)
{
	char	name[17];

	snprintf(name, sizeof name, "%016llx", seq);
	return (openat(l->dirfd, name, flags | O_CLOEXEC, 0600));
}

static int
rseg_unlink_seg(struct raft_segs *l, unsigned long long seq)
{
	char	name[17];

	snprintf(name, sizeof name, "%016llx", seq);
	if (unlinkat(l->dirfd, name, 0) != 0 && errno != ENOENT)
		return (rseg_errno(l, "remove", seq));
	return (0);
}

static int
rseg_sync_dir(struct raft_segs *l)
{
	if (fsync(l->dirfd) != 0) {
		rseg_fail(l, RAFT_IOERR, "sync %s: %s", l->dir, strerror(errno));
		return (RAFT_IOERR);
	}
	return (0);
}

static int
rseg_pwrite(struct raft_segs *l, int fd, unsigned long long seq,
    const void *p, size_t n, uint64_t off)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = pwrite(fd, p, n, (off_t)off)) < 0) {
			if (errno == EINTR)
				continue;
			return (rseg_errno(l, "write", seq));
		}
		p = (const uint8_t *)p + w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return (0);
}

/* Reads segment seq whole into *out (its length in *len). */
static int
rseg_read_seg(struct raft_segs *l, unsigned long long seq, uint8_t **out,
    uint64_t *len)
{
	struct stat	 sb;
	uint8_t		*p;
	ssize_t		 r;
	uint64_t	 got = 0;
	int		 fd;

	*out = NULL;
	*len = 0;
	if ((fd = rseg_open_seg(l, seq, O_RDONLY)) == -1)
		return (rseg_errno(l, "open", seq));
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return (rseg_errno(l, "stat", seq));
	}
	p = xmalloc((size_t)sb.st_size + 1);
	while (got < (uint64_t)sb.st_size) {
		r = pread(fd, p + got, (size_t)sb.st_size - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			free(p);
			close(fd);
			return (rseg_errno(l, "read", seq));
		}
		got += (uint64_t)r;
	}
	close(fd);
	*out = p;
	*len = got;
	return (0);
}

/* Adds the record's entry to s's collection. */
static void
rseg_collect(struct rseg_scan *s, raft_term term, unsigned short type,
    const uint8_t *data, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap > 0 ? 2 * s->cap : 256;
		s->e = xreallocarray(s->e, s->cap, sizeof *s->e);
	}
	if (s->len + len > s->batch_cap) {
		while (s->len + len > s->batch_cap)
			s->batch_cap = s->batch_cap > 0 ? 2 * s->batch_cap :
			    64 * 1024;
		s->batch = xrealloc(s->batch, s->batch_cap);
	}
	memset(&s->e[s->n], 0, sizeof s->e[s->n]);
	s->e[s->n].term = term;
	s->e[s->n].type = type;
	/* An offset until the batch stops moving. */
	s->e[s->n].buf.base = (void *)(uintptr_t)s->len;
	s->e[s->n].buf.len = len;
	if (len > 0)
		memcpy(s->batch + s->len, data, len);
	s->len += len;
	s->n++;
}

/* Reads the records of segment g (data, len bytes), the last segment if
 * last: sets g->end, g->first and g->last, and l->first and l->last. A
 * bad record ends the last segment (cleared from there, so the next
 * append never lands before stale bytes) and is RAFT_CORRUPT elsewhere. */
static int
rseg_scan_seg(struct raft_segs *l, struct rseg_seg *g, const uint8_t *data,
    uint64_t len, int last, struct rseg_scan *s)
{
	static const uint8_t	zero[RSEG_REC];
	const uint8_t		*r;
	uint64_t		 off = RSEG_HDR, dlen, high;
	raft_index		 idx;
	raft_term		 term;
	unsigned		 type;
	const char		*bad = NULL;
	uint8_t			*zeros;
	int			 fd, rv;

	g->first = g->last = 0;
	while (off + RSEG_REC <= len) {
		r = data + off;
		if (memcmp(r, zero, RSEG_REC) == 0)
			break;
		dlen = rseg_get32(r + 4);
		idx = rseg_get64(r + 8);
		term = rseg_get64(r + 16);
		type = r[24];
		if (dlen > RSEG_MAX_DATA || off + RSEG_REC + RSEG_PAD(dlen) >
		    len)
			bad = "runs past the segment's end";
		else if (rseg_get32(r) != rseg_crc(l, r + 4, RSEG_REC - 4 +
		    dlen))
			bad = "fails its checksum";
		else if (idx == 0 || term == 0 || type < RAFT_COMMAND ||
		    type > RAFT_CHANGE)
			bad = "holds no entry";
		if (bad != NULL)
			break;
		if (idx >= l->start) {
			if (l->last == 0 ? idx != l->start : idx != l->last + 1)
				return (rseg_fail(l, RAFT_CORRUPT, "segment "
				    "%016llx holds entry %llu where %llu was "
				    "expected", g->seq, idx, l->last == 0 ?
				    l->start : l->last + 1));
			if (l->first == 0)
				l->first = idx;
			if (g->first == 0)
				g->first = idx;
			l->last = idx;
			if (s != NULL)
				rseg_collect(s, term, (unsigned short)type,
				    r + RSEG_REC, (size_t)dlen);
		}
		g->last = idx;
		off += RSEG_REC + RSEG_PAD(dlen);
	}
	g->end = off;
	if (bad == NULL)
		return (0);
	if (!last)
		return (rseg_fail(l, RAFT_CORRUPT, "segment %016llx: the "
		    "record at byte %llu %s", g->seq, (unsigned long long)off,
		    bad));
	/* Torn by a crash before its sync: never acknowledged. Clear it
	 * and whatever of the batch reached the disk after it. */
	for (high = len; high > off && data[high - 1] == 0; high--)
		;
	zeros = xcalloc(1, (size_t)(high - off));
	if ((fd = rseg_open_seg(l, g->seq, O_WRONLY)) == -1) {
		free(zeros);
		return (rseg_errno(l, "open", g->seq));
	}
	rv = rseg_pwrite(l, fd, g->seq, zeros, (size_t)(high - off), off);
	if (rv == 0 && fdatasync(fd) != 0)
		rv = rseg_errno(l, "sync", g->seq);
	close(fd);
	free(zeros);
	return (rv);
}

static int
rseg_seq_cmp(const void *a, const void *b)
{
	unsigned long long	x = ((const struct rseg_seg *)a)->seq;
	unsigned long long	y = ((const struct rseg_seg *)b)->seq;

	return (x < y ? -1 : x > y);
}

/* The segments in the directory, in order, into l->segs. */
static int
rseg_list(struct raft_segs *l)
{
	struct dirent	*de;
	DIR		*dp;
	char		*end;
	unsigned long long seq;
	size_t		 cap = 0;
	int		 fd;

	l->n_segs = 0;
	if ((fd = dup(l->dirfd)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return (rseg_fail(l, RAFT_IOERR, "read %s: %s", l->dir,
		    strerror(errno)));
	}
	rewinddir(dp);
	while ((de = readdir(dp)) != NULL) {
		if (strlen(de->d_name) != 16)
			continue;
		errno = 0;
		seq = strtoull(de->d_name, &end, 16);
		if (*end != '\0' || errno != 0 || seq == 0)
			continue;
		if (l->n_segs == cap) {
			cap = cap > 0 ? 2 * cap : 16;
			l->segs = xreallocarray(l->segs, cap, sizeof *l->segs);
		}
		memset(&l->segs[l->n_segs], 0, sizeof *l->segs);
		l->segs[l->n_segs++].seq = seq;
	}
	closedir(dp);
	if (l->n_segs > 1)
		qsort(l->segs, l->n_segs, sizeof *l->segs, rseg_seq_cmp);
	return (0);
}

/* Reads the whole log: which segments there are, where each ends and
 * which entries from start on they hold, collecting them into s if asked.
 * A last segment that a crash left without its header is removed. */
static int
rseg_scan(struct raft_segs *l, struct rseg_scan *s)
{
	struct rseg_seg	*g;
	uint8_t		*data;
	uint64_t	 len;
	size_t		 i;
	int		 rv, last;

	l->first = l->last = 0;
	if ((rv = rseg_list(l)) != 0)
		return (rv);
	for (i = 0; i < l->n_segs; i++) {
		g = &l->segs[i];
		last = i + 1 == l->n_segs;
		if ((rv = rseg_read_seg(l, g->seq, &data, &len)) != 0)
			return (rv);
		g->size = len;
		if (len < RSEG_HDR || memcmp(data, rseg_magic, RSEG_HDR) != 0) {
			free(data);
			if (!last)
				return (rseg_fail(l, RAFT_CORRUPT, "%s/%016llx "
				    "is not a raft log segment", l->dir,
				    g->seq));
			/* Made, never written: the crash came first. */
			if ((rv = rseg_unlink_seg(l, g->seq)) != 0 ||
			    (rv = rseg_sync_dir(l)) != 0)
				return (rv);
			l->n_segs--;
			break;
		}
		rv = rseg_scan_seg(l, g, data, len, last, s);
		free(data);
		if (rv != 0)
			return (rv);
	}
	if (l->n_segs > 0 && l->segs[l->n_segs - 1].seq >= l->next_seq)
		l->next_seq = l->segs[l->n_segs - 1].seq + 1;
	return (0);
}

/* Opens the last segment for appends. */
static int
rseg_open_last(struct raft_segs *l)
{
	if (l->fd != -1)
		close(l->fd);
	l->fd = -1;
	if (l->n_segs == 0)
		return (0);
	if ((l->fd = rseg_open_seg(l, l->segs[l->n_segs - 1].seq,
	    O_RDWR)) == -1)
		return (rseg_errno(l, "open", l->segs[l->n_segs - 1].seq));
	return (0);
}

struct raft_segs *
raft_segs_open(const char *dir, raft_index start, char *err, size_t errlen)
{
	struct raft_segs	*l;

	l = xcalloc(1, sizeof *l);
	rseg_crc_init(l);
	l->dir = xstrdup(dir);
	l->fd = l->dirfd = -1;
	l->start = start > 0 ? start : 1;
	l->next_seq = 1;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		goto fail;
	}
	if ((l->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		goto fail;
	}
	if (rseg_scan(l, NULL) != 0 || rseg_open_last(l) != 0) {
		snprintf(err, errlen, "%s", l->errmsg);
		goto fail;
	}
	return (l);
fail:
	raft_segs_close(l);
	return (NULL);
}

void
raft_segs_close(struct raft_segs *l)
{
	if (l == NULL)
		return;
	if (l->fd != -1)
		close(l->fd);
	if (l->dirfd != -1)
		close(l->dirfd);
	free(l->segs);
	free(l->buf);
	free(l->dir);
	free(l);
}

const char *
raft_segs_errmsg(const struct raft_segs *l)
{
	return (l->errmsg);
}

raft_index
raft_segs_last(const struct raft_segs *l)
{
	return (l->last);
}

int
raft_segs_load(struct raft_segs *l, struct raft_entry **entries, size_t *n)
{
	struct rseg_scan	 s;
	struct raft_entry	*e = NULL;
	uint8_t			*batch = NULL;
	size_t			 i;
	int			 rv;

	*entries = NULL;
	*n = 0;
	memset(&s, 0, sizeof s);
	if ((rv = rseg_scan(l, &s)) != 0 || (rv = rseg_open_last(l)) != 0)
		goto out;
	if (s.n == 0)
		goto out;
	/* Into memory that C-raft frees with raft_free. */
	e = raft_malloc(s.n * sizeof *e);
	batch = raft_malloc(s.len > 0 ? s.len : 1);
	if (e == NULL || batch == NULL) {
		raft_free(e);
		raft_free(batch);
		rv = rseg_fail(l, RAFT_NOMEM, "load %zu entries: out of "
		    "memory", s.n);
		goto out;
	}
	if (s.len > 0)
		memcpy(batch, s.batch, s.len);
	for (i = 0; i < s.n; i++) {
		e[i] = s.e[i];
		e[i].buf.base = batch + (uintptr_t)s.e[i].buf.base;
		e[i].batch = batch;
	}
	*entries = e;
	*n = s.n;
out:
	free(s.e);
	free(s.batch);
	return (rv);
}

/* Makes segment seq after the last, of size bytes, and appends there
 * from now on. The one before is synced first: a crash can then tear
 * only the last segment. */
static int
rseg_new_seg(struct raft_segs *l, uint64_t size)
{
	struct rseg_seg	*g;
	unsigned long long seq = l->next_seq;
	int		 fd, rv;

	if ((rv = raft_segs_sync(l)) != 0)
		return (rv);
	if ((fd = rseg_open_seg(l, seq, O_RDWR | O_CREAT | O_EXCL)) == -1)
		return (rseg_errno(l, "create", seq));
	if ((rv = posix_fallocate(fd, 0, (off_t)size)) != 0) {
		errno = rv;
		rv = rseg_errno(l, "allocate", seq);
	} else if ((rv = rseg_pwrite(l, fd, seq, rseg_magic, RSEG_HDR,
	    0)) == 0 && fdatasync(fd) != 0)
		rv = rseg_errno(l, "sync", seq);
	if (rv == 0)
		rv = rseg_sync_dir(l);
	if (rv != 0) {
		close(fd);
		(void)rseg_unlink_seg(l, seq);
		return (rv);
	}
	if (l->fd != -1)
		close(l->fd);
	l->fd = fd;
	l->next_seq = seq + 1;
	l->segs = xreallocarray(l->segs, l->n_segs + 1, sizeof *l->segs);
	g = &l->segs[l->n_segs++];
	memset(g, 0, sizeof *g);
	g->seq = seq;
	g->size = size;
	g->end = RSEG_HDR;
	return (0);
}

/* Writes the records in l->buf (used bytes) at the last segment's end. */
static int
rseg_flush(struct raft_segs *l, size_t used)
{
	struct rseg_seg	*g;
	int		 rv;

	if (used == 0)
		return (0);
	g = &l->segs[l->n_segs - 1];
	if ((rv = rseg_pwrite(l, l->fd, g->seq, l->buf, used, g->end)) != 0)
		return (rv);
	g->end += used;
	l->dirty = 1;
	return (0);
}

int
raft_segs_append(struct raft_segs *l, raft_index index,
    const struct raft_entry *e, unsigned n)
{
	struct rseg_seg	*g;
	uint64_t	 rec, room;
	size_t		 used = 0;
	unsigned	 i;
	uint8_t		*r;
	int		 rv;

	if (index != (l->last == 0 ? l->start : l->last + 1))
		return (rseg_fail(l, RAFT_INVALID, "append at %llu: the log "
		    "goes on at %llu", index, l->last == 0 ? l->start :
		    l->last + 1));
	for (i = 0; i < n; i++) {
		if (e[i].term == 0 || e[i].type < RAFT_COMMAND ||
		    e[i].type > RAFT_CHANGE || e[i].buf.len > RSEG_MAX_DATA)
			return (rseg_fail(l, RAFT_INVALID, "entry %llu: term "
			    "%llu, type %u, %zu bytes", index + i, e[i].term,
			    e[i].type, e[i].buf.len));
		rec = RSEG_REC + RSEG_PAD(e[i].buf.len);
		g = l->n_segs > 0 ? &l->segs[l->n_segs - 1] : NULL;
		room = g != NULL ? g->size - g->end - used : 0;
		if (g == NULL || room < rec) {
			if ((rv = rseg_flush(l, used)) != 0 ||
			    (rv = rseg_new_seg(l, rec + RSEG_HDR >
			    RAFT_SEGS_SIZE ? rec + RSEG_HDR :
			    RAFT_SEGS_SIZE)) != 0)
				return (rv);
			used = 0;
			g = &l->segs[l->n_segs - 1];
		}
		if (used + rec > l->buf_cap) {
			l->buf_cap = used + rec > 2 * l->buf_cap ?
			    (size_t)(used + rec) : 2 * l->buf_cap;
			l->buf = xrealloc(l->buf, l->buf_cap);
		}
		r = l->buf + used;
		memset(r, 0, (size_t)rec);
		rseg_put32(r + 4, (uint32_t)e[i].buf.len);
		rseg_put64(r + 8, index + i);
		rseg_put64(r + 16, e[i].term);
		r[24] = (uint8_t)e[i].type;
		if (e[i].buf.len > 0)
			memcpy(r + RSEG_REC, e[i].buf.base, e[i].buf.len);
		rseg_put32(r, rseg_crc(l, r + 4, RSEG_REC - 4 +
		    e[i].buf.len));
		used += (size_t)rec;
		if (g->first == 0)
			g->first = index + i;
		g->last = index + i;
		if (l->first == 0)
			l->first = index + i;
		l->last = index + i;
	}
	return (rseg_flush(l, used));
}

int
raft_segs_sync(struct raft_segs *l)
{
	if (!l->dirty)
		return (0);
	if (fdatasync(l->fd) != 0)
		return (rseg_errno(l, "sync", l->segs[l->n_segs - 1].seq));
	l->dirty = 0;
	return (0);
}

/* Removes the segments from the last back to (not) keep, durably. */
static int
rseg_drop_tail(struct raft_segs *l, size_t keep)
{
	int	rv;

	if (l->n_segs <= keep)
		return (0);
	if (l->fd != -1)
		close(l->fd);
	l->fd = -1;
	l->dirty = 0;
	while (l->n_segs > keep)
		if ((rv = rseg_unlink_seg(l, l->segs[--l->n_segs].seq)) != 0)
			return (rv);
	return (rseg_sync_dir(l));
}

int
raft_segs_truncate(struct raft_segs *l, raft_index index)
{
	struct rseg_seg	*g;
	uint8_t		*data, *zeros;
	uint64_t	 len, off;
	size_t		 k;
	int		 rv;

	if (l->last == 0 || index > l->last)
		return (0);
	if (index < l->first)
		index = l->first;
	/* The last segment holding entries before index (or, when none
	 * stay, the one holding index); those after it go first, from the
	 * last back, so that a crash leaves a log that ends early, never
	 * one with a hole. */
	for (k = l->n_segs; k > 0; k--)
		if (l->segs[k - 1].first != 0 && l->segs[k - 1].first < index)
			break;
	for (k = k > 0 ? k : l->n_segs; k > 0; k--)
		if (l->segs[k - 1].first != 0 && l->segs[k - 1].first <= index)
			break;
	if (k == 0)
		return (rseg_fail(l, RAFT_CORRUPT, "no segment holds entry "
		    "%llu", index));
	if ((rv = raft_segs_sync(l)) != 0 || (rv = rseg_drop_tail(l, k)) != 0)
		return (rv);
	g = &l->segs[k - 1];
	if ((rv = rseg_read_seg(l, g->seq, &data, &len)) != 0)
		return (rv);
	/* Its records before index are whole: find where index begins. */
	for (off = RSEG_HDR; off + RSEG_REC <= g->end &&
	    rseg_get64(data + off + 8) != index; off += RSEG_REC +
	    RSEG_PAD(rseg_get32(data + off + 4)))
		;
	free(data);
	/* Not there: index began the segment after, now gone. */
	if (off + RSEG_REC > g->end && g->last + 1 != index)
		return (rseg_fail(l, RAFT_CORRUPT, "segment %016llx lost "
		    "entry %llu", g->seq, index));
	if (off > g->end)
		off = g->end;
	if ((rv = rseg_open_last(l)) != 0)
		return (rv);
	zeros = xcalloc(1, (size_t)(g->end - off));
	rv = rseg_pwrite(l, l->fd, g->seq, zeros, (size_t)(g->end - off), off);
	free(zeros);
	if (rv == 0 && fdatasync(l->fd) != 0)
		rv = rseg_errno(l, "sync", g->seq);
	if (rv != 0)
		return (rv);
	g->end = off;
	g->last = index - 1;
	if (g->first == index)
		g->first = 0;
	l->last = index - 1;
	if (l->first == index)
		l->first = l->last = 0;
	return (0);
}

int
raft_segs_forget(struct raft_segs *l, raft_index start)
{
	size_t	i, gone;
	int	rv = 0;

	if (start <= l->start)
		return (0);
	l->start = start;
	if (l->last != 0 && start > l->last)
		l->first = l->last = 0;
	else if (l->first != 0 && start > l->first)
		l->first = start;
	/* From the oldest: a crash leaves the newer ones. The last is
	 * kept whatever it holds: appends go there. */
	for (gone = 0; gone + 1 < l->n_segs && l->segs[gone].last < start;
	    gone++)
		if ((rv = rseg_unlink_seg(l, l->segs[gone].seq)) != 0)
			break;
	for (i = 0; i < l->n_segs; i++)
		if (l->segs[i].first != 0 && l->segs[i].first < start)
			l->segs[i].first = l->segs[i].last >= start ? start : 0;
	if (gone > 0) {
		memmove(l->segs, l->segs + gone, (l->n_segs - gone) *
		    sizeof *l->segs);
		l->n_segs -= gone;
	}
	if (rv == 0 && gone > 0)
		rv = rseg_sync_dir(l);
	return (rv);
}

int
raft_segs_reset(struct raft_segs *l, raft_index start)
{
	int	rv;

	if ((rv = rseg_drop_tail(l, 0)) != 0)
		return (rv);
	l->start = start > 0 ? start : 1;
	l->first = l->last = 0;
	return (0);
}
