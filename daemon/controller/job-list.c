/* job-list.c: the JOB_LIST record writer (docs/protocol.md, 201). The
 * strings come from jansson (submit) or the store, so they are valid UTF-8
 * and only need JSON escaping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-list.h"
#include "daemon/controller/store.h"

static void
job_list_reserve(struct job_list_buf *b, size_t n)
{
	if (b->len + n <= b->size)
		return;
	b->size = b->size == 0 ? 65536 : b->size;
	while (b->len + n > b->size)
		b->size *= 2;
	b->buf = xrealloc(b->buf, b->size);
}

void
job_list_add(struct job_list_buf *b, const char *s, size_t n)
{
	job_list_reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

#define JOB_LIST_LIT(b, s)	job_list_add(b, s, sizeof s - 1)

void
job_list_int(struct job_list_buf *b, int64_t v)
{
	char		tmp[24];
	size_t		i = sizeof tmp;
	uint64_t	u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--i] = '-';
	job_list_add(b, tmp + i, sizeof tmp - i);
}

void
job_list_string(struct job_list_buf *b, const char *s)
{
	const char	*run;
	char		 esc[8];

	if (s == NULL)
		s = "";
	JOB_LIST_LIT(b, "\"");
	for (run = s; *s != '\0'; s++) {
		if ((unsigned char)*s >= 0x20 && *s != '"' && *s != '\\')
			continue;
		job_list_add(b, run, (size_t)(s - run));
		switch (*s) {
		case '"':
			JOB_LIST_LIT(b, "\\\"");
			break;
		case '\\':
			JOB_LIST_LIT(b, "\\\\");
			break;
		case '\n':
			JOB_LIST_LIT(b, "\\n");
			break;
		case '\t':
			JOB_LIST_LIT(b, "\\t");
			break;
		default:
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned char)*s);
			job_list_add(b, esc, 6);
			break;
		}
		run = s + 1;
	}
	job_list_add(b, run, (size_t)(s - run));
	JOB_LIST_LIT(b, "\"");
}

void
job_list_row(struct job_list_buf *b, const struct store_job *r, int64_t now)
{
	int64_t		elapsed = 0;
	unsigned	i;
	int		first = 1;

	if (r->start_time != 0) {
		if (r->end_time != 0)
			elapsed = r->end_time - r->start_time;
		else if (r->state == JOB_RUNNING || r->state == JOB_PREEMPTING)
			elapsed = now - r->start_time;
		if (elapsed < 0)
			elapsed = 0;
	}
	JOB_LIST_LIT(b, "{\"id\":");
	job_list_int(b, (int64_t)r->id);
	JOB_LIST_LIT(b, ",\"name\":");
	job_list_string(b, r->name);
	JOB_LIST_LIT(b, ",\"user\":");
	job_list_string(b, r->user);
	JOB_LIST_LIT(b, ",\"uid\":");
	job_list_int(b, r->uid);
	JOB_LIST_LIT(b, ",\"state\":");
	job_list_string(b, job_state_name(r->state));
	JOB_LIST_LIT(b, ",\"reason\":");
	job_list_string(b, r->reason != NULL && *r->reason != '\0' ?
	    r->reason : "None");
	JOB_LIST_LIT(b, ",\"gpus\":");
	job_list_int(b, r->gpus);
	JOB_LIST_LIT(b, ",\"alloc\":[");
	if (r->node != NULL && r->gpu_mask != 0) {
		JOB_LIST_LIT(b, "{\"node\":");
		job_list_string(b, r->node);
		JOB_LIST_LIT(b, ",\"gpus\":[");
		for (i = 0; i < 64; i++) {
			if ((r->gpu_mask & (UINT64_C(1) << i)) == 0)
				continue;
			if (!first)
				JOB_LIST_LIT(b, ",");
			job_list_int(b, i);
			first = 0;
		}
		JOB_LIST_LIT(b, "]}");
	}
	JOB_LIST_LIT(b, "],\"nodes\":");
	job_list_string(b, r->node != NULL && r->gpu_mask != 0 ?
	    r->node : "");
	JOB_LIST_LIT(b, ",\"time_limit\":");
	job_list_int(b, (int64_t)r->time_limit);
	JOB_LIST_LIT(b, ",\"submit_time\":");
	job_list_int(b, r->submit_time);
	JOB_LIST_LIT(b, ",\"start_time\":");
	job_list_int(b, r->start_time);
	JOB_LIST_LIT(b, ",\"end_time\":");
	job_list_int(b, r->end_time);
	JOB_LIST_LIT(b, ",\"elapsed\":");
	job_list_int(b, elapsed);
	if (r->has_exit) {
		JOB_LIST_LIT(b, ",\"exit_code\":");
		job_list_int(b, r->exit_code);
		JOB_LIST_LIT(b, ",\"signal\":");
		job_list_int(b, r->signal);
	} else
		JOB_LIST_LIT(b, ",\"exit_code\":null,\"signal\":null");
	JOB_LIST_LIT(b, ",\"workdir\":");
	job_list_string(b, r->workdir);
	JOB_LIST_LIT(b, ",\"stdout\":");
	job_list_string(b, r->stdout_path);
	JOB_LIST_LIT(b, ",\"stderr\":");
	job_list_string(b, r->stderr_path);
	JOB_LIST_LIT(b, ",\"command\":");
	job_list_string(b, r->command);
	/* argv is JSON text already, checked at submit. */
	JOB_LIST_LIT(b, ",\"argv\":");
	if (r->argv != NULL && *r->argv != '\0')
		job_list_add(b, r->argv, strlen(r->argv));
	else
		JOB_LIST_LIT(b, "[]");
	JOB_LIST_LIT(b, ",\"message\":");
	job_list_string(b, r->message);
	JOB_LIST_LIT(b, "}");
}
