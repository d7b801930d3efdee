/* node-relay.h: commands run on a node reach gbatchd through gnoded
 * (DESIGN.md "Who may do what"). gnoded listens on a Unix socket, learns
 * each command's uid and gid from the kernel (SO_PEERCRED) and passes its
 * frames, untouched, over its authenticated link to the controller, each
 * behind an envelope (RELAY) naming the command's channel and identity;
 * the controller's replies come back the same way (RELAY_REPLY). A command
 * never states its own identity. */
#ifndef GB_NODE_RELAY_H
#define GB_NODE_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <jansson.h>

struct dial;
struct node_relay;

/* Listens on path (mode 0666, the kernel's word on who connects decides);
 * replaces a socket file nobody answers on. Returns a new relay, or NULL
 * with err set. */
struct node_relay	*node_relay_create(struct event_base *, const char *path,
			     struct dial *, char *err, size_t errlen);
/* A RELAY_REPLY envelope from the controller (node-msg.h): the frame
 * after it is for the command on chan, or, with close, chan is ended. */
void			 node_relay_reply(struct node_relay *, uint32_t chan,
			     bool close);
/* The frame announced by the last envelope (the dial's raw callback). */
void			 node_relay_frame(struct node_relay *, struct evbuffer *);
/* The link to the controller went down: the commands' requests are lost,
 * so their connections are closed (they report gbatchd unreachable). */
void			 node_relay_link_down(struct node_relay *);
/* Closes every connection and the socket (and removes its file). */
void			 node_relay_free(struct node_relay *);

#endif
