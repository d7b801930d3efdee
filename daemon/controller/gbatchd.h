/* gbatchd.h: what the controller's modules share from main(): the settings,
 * the clock and the way to stop. */
#ifndef GB_CTL_GBATCHD_H
#define GB_CTL_GBATCHD_H

#include <stdint.h>

#include "daemon/controller/conf.h"

#define GBATCHD_SERVER	"gbatchd " PACKAGE_VERSION

/* The settings in force (read-only after start-up). */
const struct conf	*gbatchd_conf(void);
/* Wall-clock seconds, as every time in the store and the protocol. */
int64_t			 gbatchd_now(void);
/* When gbatchd started (seconds). */
int64_t			 gbatchd_started(void);
/* Asks the loop to stop once replies are written (SHUTDOWN, SIGTERM). */
void			 gbatchd_stop(const char *why);
/* Leaves the loop if stopping and everything is written. */
void			 gbatchd_check_stop(void);

#endif
