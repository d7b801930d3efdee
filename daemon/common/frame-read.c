/* frame-read.c: frames off an evbuffer. */
#include <stdint.h>

#include "common/frame.h"
#include "daemon/common/frame-read.h"

int
frame_read_peek(struct evbuffer *in, size_t max, size_t *len, size_t *need,
    char *err, size_t errlen)
{
	uint8_t	hdr[FRAME_HEADER];
	long	n;

	*need = FRAME_HEADER;
	if (evbuffer_copyout(in, hdr, sizeof hdr) < (ev_ssize_t)sizeof hdr)
		return (0);
	if ((n = frame_header(hdr, max, err, errlen)) == -1)
		return (-1);
	*need = FRAME_HEADER + (size_t)n;
	if (evbuffer_get_length(in) < *need)
		return (0);
	*len = (size_t)n;
	return (1);
}

json_t *
frame_read_take(struct evbuffer *in, size_t len, char *err, size_t errlen)
{
	uint8_t	*data;
	json_t	*msg;

	data = evbuffer_pullup(in, (ev_ssize_t)(FRAME_HEADER + len));
	msg = frame_body(data + FRAME_HEADER, len, err, errlen);
	evbuffer_drain(in, FRAME_HEADER + len);
	return (msg);
}
