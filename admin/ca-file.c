/* ca-file.c: reading and writing the CA directory's files (ca-file.h). */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>

#include "admin/ca-file.h"
#include "admin/ca-name.h"
#include "common/xmalloc.h"

#define CA_FILE_INDEX	"index"
#define CA_FILE_LOCK	".lock"

static const char *
ca_file_reason(void)
{
	unsigned long	 e = ERR_peek_last_error();
	const char	*r;

	ERR_clear_error();
	if (e == 0 || (r = ERR_reason_error_string(e)) == NULL)
		return ("not a PEM file of the expected kind");
	return (r);
}

int
ca_file_dir(const char *dir, char *err, size_t errlen)
{
	struct stat	 st;
	char		*copy = xstrdup(dir), *p;

	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s: %s", copy, strerror(errno));
			free(copy);
			return (-1);
		}
		*p = '/';
	}
	free(copy);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return (-1);
	}
	if (stat(dir, &st) != 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return (-1);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return (-1);
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s: group or others may enter it (mode "
		    "%04o); it holds private keys: chmod 700 %s", dir,
		    (unsigned)(st.st_mode & 07777), dir);
		return (-1);
	}
	return (0);
}

int
ca_file_lock(const char *dir, char *err, size_t errlen)
{
	char	*path = xasprintf("%s/%s", dir, CA_FILE_LOCK);
	int	 fd;

	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1 ||
	    flock(fd, LOCK_EX) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		fd = -1;
	}
	free(path);
	return (fd);
}

void
ca_file_unlock(int fd)
{
	if (fd != -1)
		close(fd);
}

int
ca_file_exists(const char *dir, const char *name, bool *exists, char *err,
    size_t errlen)
{
	struct stat	 st;
	char		*path = xasprintf("%s/%s", dir, name);
	int		 rc = 0;

	*exists = lstat(path, &st) == 0;
	if (!*exists && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return (rc);
}

/* Writes what put() makes to dir/name through a temporary file made with
 * mode, exclusively. */
static int
ca_file_put(const char *dir, const char *name, mode_t mode,
    int (*put)(FILE *, const void *), const void *what, char *err,
    size_t errlen)
{
	char	*path = xasprintf("%s/%s", dir, name);
	char	*tmp = xasprintf("%s/.%s.tmp", dir, name);
	FILE	*f = NULL;
	int	 fd, rc = -1;

	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    mode)) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	/* A certificate is public: 0644 whatever the umask. A key keeps the
	 * mode it was made with. */
	if (mode != 0600 && fchmod(fd, mode) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	if ((f = fdopen(fd, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	if (put(f, what) != 1) {
		snprintf(err, errlen, "%s: %s", tmp, ca_file_reason());
		goto fail;
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (fclose(f) != 0) {
		f = NULL;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	f = NULL;
	if (rename(tmp, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	rc = 0;
fail:
	if (f != NULL)
		fclose(f);
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	free(path);
	return (rc);
}

static int
ca_file_put_key(FILE *f, const void *k)
{
	return (PEM_write_PrivateKey(f, (EVP_PKEY *)(uintptr_t)k, NULL, NULL,
	    0, NULL, NULL));
}

static int
ca_file_put_cert(FILE *f, const void *x)
{
	return (PEM_write_X509(f, (X509 *)(uintptr_t)x));
}

static int
ca_file_put_crl(FILE *f, const void *c)
{
	return (PEM_write_X509_CRL(f, (X509_CRL *)(uintptr_t)c));
}

int
ca_file_write_key(const char *dir, const char *name, EVP_PKEY *k, char *err,
    size_t errlen)
{
	return (ca_file_put(dir, name, 0600, ca_file_put_key, k, err,
	    errlen));
}

int
ca_file_write_cert(const char *dir, const char *name, X509 *x, char *err,
    size_t errlen)
{
	return (ca_file_put(dir, name, 0644, ca_file_put_cert, x, err,
	    errlen));
}

int
ca_file_write_crl(const char *dir, const char *name, X509_CRL *c, char *err,
    size_t errlen)
{
	return (ca_file_put(dir, name, 0644, ca_file_put_crl, c, err,
	    errlen));
}

static FILE *
ca_file_open(const char *dir, const char *name, char *err, size_t errlen)
{
	char	*path = xasprintf("%s/%s", dir, name);
	FILE	*f;

	if ((f = fopen(path, "re")) == NULL)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	free(path);
	return (f);
}

EVP_PKEY *
ca_file_read_key(const char *dir, const char *name, char *err, size_t errlen)
{
	EVP_PKEY	*k;
	FILE		*f;

	if ((f = ca_file_open(dir, name, err, errlen)) == NULL)
		return (NULL);
	if ((k = PEM_read_PrivateKey(f, NULL, NULL, NULL)) == NULL)
		snprintf(err, errlen, "%s/%s: %s", dir, name,
		    ca_file_reason());
	fclose(f);
	return (k);
}

X509 *
ca_file_read_cert(const char *dir, const char *name, char *err,
    size_t errlen)
{
	X509	*x;
	FILE	*f;

	if ((f = ca_file_open(dir, name, err, errlen)) == NULL)
		return (NULL);
	if ((x = PEM_read_X509(f, NULL, NULL, NULL)) == NULL)
		snprintf(err, errlen, "%s/%s: %s", dir, name,
		    ca_file_reason());
	fclose(f);
	return (x);
}

/* One index line into e; -1 when it is not one. */
static int
ca_file_index_line(char *line, struct ca_entry *e)
{
	unsigned long long	 serial;
	long long		 not_after, revoked;
	char			 role[16], name[CA_NAME_MAX + 2], why[128];
	int			 used = 0;

	if (sscanf(line, "%llu %15s %lld %lld %65s%n", &serial, role,
	    &not_after, &revoked, name, &used) != 5 ||
	    (line[used] != '\n' && line[used] != '\0'))
		return (-1);
	if (strcmp(role, ca_entry_role_name(CA_ROLE_CONTROLLER)) == 0)
		e->role = CA_ROLE_CONTROLLER;
	else if (strcmp(role, ca_entry_role_name(CA_ROLE_NODE)) == 0)
		e->role = CA_ROLE_NODE;
	else
		return (-1);
	if (ca_name_check(name, why, sizeof why) == -1)
		return (-1);
	e->serial = serial;
	e->not_after = (time_t)not_after;
	e->revoked = (time_t)revoked;
	/* ca_name_check kept it to CA_NAME_MAX. */
	memcpy(e->name, name, strlen(name) + 1);
	return (0);
}

int
ca_file_index_read(const char *dir, struct ca_entry **entries, size_t *n,
    char *err, size_t errlen)
{
	struct ca_entry	*v = NULL;
	FILE		*f;
	char		 line[256];
	size_t		 nv = 0, lineno = 0;

	*entries = NULL;
	*n = 0;
	if ((f = ca_file_open(dir, CA_FILE_INDEX, err, errlen)) == NULL)
		return (errno == ENOENT ? 0 : -1);
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		v = xreallocarray(v, nv + 1, sizeof *v);
		if (ca_file_index_line(line, &v[nv]) == -1) {
			snprintf(err, errlen, "%s/%s: line %zu: expected "
			    "SERIAL ROLE NOT_AFTER REVOKED NAME", dir,
			    CA_FILE_INDEX, lineno);
			free(v);
			fclose(f);
			return (-1);
		}
		nv++;
	}
	fclose(f);
	*entries = v;
	*n = nv;
	return (0);
}

/* The index as ca_file_put passes it. */
struct ca_file_index {
	const struct ca_entry	*v;
	size_t			 n;
};

static int
ca_file_put_index(FILE *f, const void *arg)
{
	const struct ca_file_index	*ix = arg;
	const struct ca_entry		*e;
	size_t				 i;

	for (i = 0; i < ix->n; i++) {
		e = &ix->v[i];
		if (fprintf(f, "%" PRIu64 " %s %lld %lld %s\n", e->serial,
		    ca_entry_role_name(e->role), (long long)e->not_after,
		    (long long)e->revoked, e->name) < 0)
			return (0);
	}
	return (1);
}

int
ca_file_index_write(const char *dir, const struct ca_entry *entries,
    size_t n, char *err, size_t errlen)
{
	struct ca_file_index	ix = { entries, n };

	return (ca_file_put(dir, CA_FILE_INDEX, 0644, ca_file_put_index, &ix,
	    err, errlen));
}
