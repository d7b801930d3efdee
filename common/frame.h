/* frame.h: the wire format. A frame is a 4-byte big-endian length followed
 * by that many bytes holding one JSON object (docs/protocol.md). The decoder
 * works on plain bytes so the client (no libevent) and the daemons
 * (bufferevents) share it. */
#ifndef GB_FRAME_H
#define GB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define FRAME_HEADER		4
/* Largest frame a daemon accepts from a peer. */
#define FRAME_MAX_REQUEST	(1U << 20)
/* Largest frame a client accepts from the controller (job listings). */
#define FRAME_MAX_REPLY		(256U << 20)

/* Encodes msg as a frame. Returns a buffer the caller frees and sets *len,
 * or NULL if msg cannot be encoded (not an object, or larger than max). */
uint8_t	*frame_pack(const json_t *msg, size_t max, size_t *len);

/* Reads the header at hdr (FRAME_HEADER bytes). Returns the body length,
 * or -1 with err set when it is zero or larger than max. */
long	 frame_header(const uint8_t *hdr, size_t max, char *err, size_t errlen);

/* Decodes a frame body of n bytes. Returns a new reference to a JSON object
 * or NULL with err set (not JSON, or not an object). */
json_t	*frame_body(const uint8_t *body, size_t n, char *err, size_t errlen);

/* Decodes the first frame in buf (len bytes). Returns 1 with *msg (a new
 * reference) and *used set when a whole frame was there, 0 when more bytes
 * are needed, -1 with err set when the bytes can never become a valid frame.
 * Never blocks. */
int	 frame_parse(const uint8_t *buf, size_t len, size_t max, size_t *used,
	     json_t **msg, char *err, size_t errlen);

#endif
