/* metrics-http.h: controller.metrics_listen, an HTTP server (libevent's
 * evhttp) that answers GET /metrics with metrics.c's text. Plain HTTP and
 * no authentication: what it serves is aggregates only, and the admin
 * chooses where it listens. */
#ifndef GB_CTL_METRICS_HTTP_H
#define GB_CTL_METRICS_HTTP_H

#include <stddef.h>

struct event_base;

/* Listens on "HOST:PORT" (resolving HOST blocks). Returns 0, or -1 with
 * err naming the address and why it cannot be had. */
int	metrics_http_open(struct event_base *, const char *hostport, char *err,
	    size_t errlen);
/* Stops listening and drops open scrapes; nothing to do when not open. */
void	metrics_http_close(void);

#endif
