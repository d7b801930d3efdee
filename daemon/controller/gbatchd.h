/* gbatchd.h: what the controller's modules share from main(): the settings,
 * the clock and the way to stop. */
#ifndef GB_CTL_GBATCHD_H
#define GB_CTL_GBATCHD_H

#include <stdint.h>

#include <jansson.h>
#include <openssl/types.h>

#include "daemon/controller/conf.h"

#define GBATCHD_SERVER	"gbatchd " PACKAGE_VERSION

/* The settings in force (read-only after start-up). */
const struct conf	*gbatchd_conf(void);
/* The configuration file read at start and by reloads. */
const char		*gbatchd_conf_file(void);
/* Reads the file again and applies what can change without a restart
 * (conf_apply), then reschedules under the new settings. Returns 0, or -1
 * with err (the file's fault; nothing changed). */
int			 gbatchd_reconfigure(json_t *changed, json_t *restart,
			     char *err, size_t errlen);
/* Wall-clock seconds, as every time in the store and the protocol. */
int64_t			 gbatchd_now(void);
/* The same clock in milliseconds: the scheduling core's. */
int64_t			 gbatchd_now_ms(void);
/* When gbatchd started (seconds). */
int64_t			 gbatchd_started(void);
/* Asks the loop to stop once replies are written (SHUTDOWN, SIGTERM). */
void			 gbatchd_stop(const char *why);
/* Leaves the loop if stopping and everything is written. */
void			 gbatchd_check_stop(void);


/* The TLS context for the nodes' TCP connections (daemon/common/tls.h),
 * made and checked at start from the tls group; SIGHUP reads the CRL into
 * it again. Borrowed: gbatchd frees it at exit. */
SSL_CTX	*gbatchd_tls_ctx(void);

#endif
