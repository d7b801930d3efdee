/* step-rows.c: a job's tasks grouped into its steps (step-rows.h). */
#include <stdlib.h>
#include <string.h>

#include "client/step-rows.h"
#include "common/xmalloc.h"

/* How a step's state ranks: the higher wins over its tasks. */
static int
step_rows_rank(const char *state)
{
	static const char *const order[] = { "COMPLETED", "FAILED",
	    "CANCELLED", "RUNNING" };
	int	i;

	for (i = 0; i < 4; i++) {
		if (strcmp(state, order[i]) == 0)
			return (i);
	}
	return (1);	/* anything else failed */
}

static int
step_rows_cmp(const void *a, const void *b)
{
	const struct step_row	*x = a, *y = b;

	if (x->job != y->job)
		return (x->job < y->job ? -1 : 1);
	return (x->step < y->step ? -1 : x->step > y->step);
}

/* Adds node to r's list unless it is there. */
static void
step_rows_node(struct step_row *r, const char *node)
{
	size_t	len = strlen(node);
	char	*p, *t;

	for (p = r->nodes; p != NULL && *p != '\0'; p += strcspn(p, ",") +
	    (p[strcspn(p, ",")] == ',')) {
		if (strncmp(p, node, len) == 0 && (p[len] == ',' ||
		    p[len] == '\0'))
			return;
	}
	t = xasprintf("%s%s%s", r->nodes != NULL ? r->nodes : "",
	    r->nodes != NULL ? "," : "", node);
	free(r->nodes);
	r->nodes = t;
	r->nnodes++;
}

/* The row of (job, first) among rows[0..*n), made if new. */
static struct step_row *
step_rows_find(struct step_row **rows, size_t *n, size_t *cap, uint64_t job,
    uint32_t first)
{
	size_t	i;

	for (i = 0; i < *n; i++) {
		if ((*rows)[i].job == job && (*rows)[i].step == first)
			return (&(*rows)[i]);
	}
	if (*n == *cap) {
		*cap = *cap * 2 + 4;
		*rows = xreallocarray(*rows, *cap, sizeof **rows);
	}
	memset(&(*rows)[*n], 0, sizeof **rows);
	(*rows)[*n].job = job;
	(*rows)[*n].step = first;
	(*rows)[*n].state = "COMPLETED";
	(*rows)[*n].command = "";
	return (&(*rows)[(*n)++]);
}

struct step_row *
step_rows_group(const json_t *steps, size_t *n)
{
	struct step_row	*rows = NULL, *r;
	const json_t	*t;
	const char	*state, *s;
	size_t		 i, cap = 0;
	int64_t		 start, end;
	int		 v;

	*n = 0;
	json_array_foreach(steps, i, t) {
		r = step_rows_find(&rows, n, &cap, (uint64_t)json_integer_value(
		    json_object_get(t, "job")), (uint32_t)json_integer_value(
		    json_object_get(t, "first")));
		start = json_integer_value(json_object_get(t, "start_time"));
		end = json_integer_value(json_object_get(t, "end_time"));
		if (r->ntasks == 0 || start < r->start_time)
			r->start_time = start;
		/* One task running keeps the step's end open. */
		if (r->ntasks == 0 || (r->end_time != 0 && (end == 0 ||
		    end > r->end_time)))
			r->end_time = end;
		if ((uint32_t)json_integer_value(json_object_get(t, "step")) ==
		    r->step && (s = json_string_value(json_object_get(t,
		    "command"))) != NULL)
			r->command = s;
		if ((s = json_string_value(json_object_get(t, "node"))) != NULL)
			step_rows_node(r, s);
		state = json_string_value(json_object_get(t, "state"));
		if (state != NULL && step_rows_rank(state) >
		    step_rows_rank(r->state))
			r->state = state;
		if ((v = (int)json_integer_value(json_object_get(t,
		    "exit_code"))) > r->exit_code)
			r->exit_code = v;
		if ((v = (int)json_integer_value(json_object_get(t,
		    "signal"))) > r->signal)
			r->signal = v;
		r->ntasks++;
	}
	if (*n > 1)
		qsort(rows, *n, sizeof *rows, step_rows_cmp);
	return (rows);
}

void
step_rows_free(struct step_row *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(rows[i].nodes);
	free(rows);
}
