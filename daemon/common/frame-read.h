/* frame-read.h: cutting frames (common/frame.h) off a libevent input
 * buffer, for both daemons' connections. The connection owns the buffer
 * and decides what to do with each frame: decode it, or pass its bytes on
 * untouched (gnoded relaying a reply to a local client). */
#ifndef GB_DAEMON_FRAME_READ_H
#define GB_DAEMON_FRAME_READ_H

#include <stddef.h>

#include <event2/buffer.h>
#include <jansson.h>

/* Looks at the frame at the front of in, whose body may be at most max
 * bytes. Returns 1 when the whole frame is there (*len: its body length;
 * nothing is removed), 0 when more bytes are needed (*need: how many the
 * whole frame takes, so a caller can set a read watermark), -1 with err
 * set when the header can never start a valid frame. */
int	 frame_read_peek(struct evbuffer *in, size_t max, size_t *len,
	     size_t *need, char *err, size_t errlen);

/* Removes the frame frame_read_peek found (body length len) from in and
 * decodes it. Returns a new reference, or NULL with err set when the body
 * is not a JSON object (the frame is removed either way). */
json_t	*frame_read_take(struct evbuffer *in, size_t len, char *err,
	     size_t errlen);

#endif
