/* metrics-http.h: controller.metrics_listen, an HTTP server (libevent's
 * evhttp) that answers GET /metrics with metrics.c's text. Plain HTTP and
 * no authentication: what it serves is aggregates only, and the admin
 * chooses where it listens. */
#ifndef GB_CTL_METRICS_HTTP_H
#define GB_CTL_METRICS_HTTP_H

#include <stddef.h>

struct event_base;
struct metrics_http;

/* Listens on "HOST:PORT" (resolving HOST blocks). Returns the server (its
 * caller, gbatchd.c, owns it), or NULL with err naming the address and
 * why it cannot be had. */
struct metrics_http *metrics_http_open(struct event_base *,
	    const char *hostport, char *err, size_t errlen);
/* Stops listening, drops open scrapes and frees mh (NULL: nothing). */
void	metrics_http_close(struct metrics_http *mh);

#endif
