/* ca-file.h: the files of the CA directory (ca.h) and its index, for
 * admin/ca.c. Each file is written whole under a temporary name and renamed
 * into place, so a crash leaves the old one or the new one. */
#ifndef GB_CA_FILE_H
#define GB_CA_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "admin/ca-entry.h"

/* Makes dir (mode 0700, parents 0755) or, when it exists, checks that
 * neither group nor others may enter it. */
int	ca_file_dir(const char *dir, char *err, size_t errlen);

/* Takes an exclusive lock on dir for one gctl at a time; returns its
 * descriptor for ca_file_unlock, or -1 with err. */
int	ca_file_lock(const char *dir, char *err, size_t errlen);
void	ca_file_unlock(int fd);

/* Whether dir/name exists; err set when it cannot be told. */
int	ca_file_exists(const char *dir, const char *name, bool *exists,
	    char *err, size_t errlen);

/* Writes dir/name with mode (0600 for keys: created so, never changed). */
int	ca_file_write_key(const char *dir, const char *name, EVP_PKEY *,
	    char *err, size_t errlen);
int	ca_file_write_cert(const char *dir, const char *name, X509 *,
	    char *err, size_t errlen);
int	ca_file_write_crl(const char *dir, const char *name, X509_CRL *,
	    char *err, size_t errlen);

/* Reads dir/name. */
EVP_PKEY *ca_file_read_key(const char *dir, const char *name, char *err,
	    size_t errlen);
X509	*ca_file_read_cert(const char *dir, const char *name, char *err,
	    size_t errlen);

/* The index: one line per certificate issued, "SERIAL ROLE NOT_AFTER
 * REVOKED NAME" (times in seconds since the epoch, REVOKED 0 when not).
 * A missing index is an empty one. */
int	ca_file_index_read(const char *dir, struct ca_entry **, size_t *,
	    char *err, size_t errlen);
int	ca_file_index_write(const char *dir, const struct ca_entry *, size_t,
	    char *err, size_t errlen);

#endif
