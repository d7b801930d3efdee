/* proto.c: reply construction and code-to-exit-status mapping. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/proto.h"

int
proto_exit_status(const char *code)
{
	if (code == NULL)
		return (EXIT_UNREACHABLE);
	if (strcmp(code, PROTO_E_PERMISSION) == 0)
		return (EXIT_PERMISSION);
	if (strcmp(code, PROTO_E_INVALID) == 0 ||
	    strcmp(code, PROTO_E_NOT_FOUND) == 0 ||
	    strcmp(code, PROTO_E_UNSATISFIABLE) == 0)
		return (EXIT_REFUSED);
	return (EXIT_UNREACHABLE);
}

json_t *
proto_msg(enum msg_type type)
{
	return (json_pack("{s:i}", "type", (int)type));
}

int
proto_type(const json_t *msg)
{
	json_t	*t;

	t = json_object_get(msg, "type");
	if (!json_is_integer(t))
		return (-1);
	return ((int)json_integer_value(t));
}

json_t *
proto_reply_ok(const json_t *req)
{
	json_t	*reply, *seq;

	reply = json_pack("{s:i,s:b}", "re", proto_type(req), "ok", 1);
	if ((seq = json_object_get(req, "seq")) != NULL)
		json_object_set(reply, "seq", seq);
	return (reply);
}

json_t *
proto_reply_error(const json_t *req, const char *code, const char *fmt, ...)
{
	json_t	*reply;
	va_list	 ap;
	char	 msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	reply = proto_reply_ok(req);
	json_object_set_new(reply, "ok", json_false());
	json_object_set_new(reply, "code", json_string(code));
	json_object_set_new(reply, "message", json_string(msg));
	return (reply);
}

size_t
proto_io_head(char *buf, uint64_t job, uint32_t step, int fd,
    size_t text_len)
{
	size_t	head, body;

	head = (size_t)snprintf(buf + 4, PROTO_IO_HEAD_MAX - 4,
	    "{\"type\":%d,\"job\":%llu,\"step\":%u,\"fd\":%d,\"data\":\"",
	    MSG_IO, (unsigned long long)job, step, fd);
	body = head + text_len + sizeof PROTO_IO_TAIL - 1;
	buf[0] = (char)(body >> 24);
	buf[1] = (char)(body >> 16);
	buf[2] = (char)(body >> 8);
	buf[3] = (char)body;
	return (4 + head);
}
