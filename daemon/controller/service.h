/* service.h: what gbatchd tells the service manager (systemd, Type=notify,
 * through daemon/common/notify.c): that it serves, reloads, stops, and a
 * status line of its nodes and jobs that `systemctl status` shows. Outside
 * systemd every call costs next to nothing. */
#ifndef GB_CTL_SERVICE_H
#define GB_CTL_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>

#include "daemon/controller/conf.h"

struct service;

/* Says READY=1 (the listeners are up) and keeps the status line current
 * from then on, every few seconds, until service_free: what it returns is
 * the caller's (gbatchd-main.c). c is read at each update. */
struct service *service_ready(struct event_base *, const struct conf *c);
/* A reload of file begins (RELOADING=1). */
void	service_reloading(const char *file);
/* It ended (READY=1): nchanged settings changed, or it failed for err. */
void	service_reloaded(struct service *, const char *file, bool ok,
	    size_t nchanged, const char *err);
/* A clean stop begins (STOPPING=1), for why. */
void	service_stopping(const char *why);
/* Stops the status line's updates and frees svc (NULL: nothing). */
void	service_free(struct service *svc);

#endif
