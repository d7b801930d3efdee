/* node-cpus.c: CPU lists and the choice of a job's CPUs. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/node/node-cpus.h"

/* Reads a CPU number at *p, moving *p past it. -1 when there is none or it
 * is too large. */
static long
node_cpus_number(const char **p)
{
	long	v = 0;

	if (**p < '0' || **p > '9')
		return (-1);
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v >= CPU_SETSIZE)
			return (-1);
		(*p)++;
	}
	return (v);
}

int
node_cpus_parse(const char *list, cpu_set_t *set)
{
	const char	*p = list;
	long		 a, b;

	CPU_ZERO(set);
	if (*p == '\0')
		return (0);
	for (;;) {
		if ((a = b = node_cpus_number(&p)) < 0)
			return (-1);
		if (*p == '-') {
			p++;
			if ((b = node_cpus_number(&p)) < 0 || b < a)
				return (-1);
		}
		for (; a <= b; a++)
			CPU_SET((size_t)a, set);
		if (*p == '\0')
			return (0);
		if (*p++ != ',')
			return (-1);
	}
}

int
node_cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t	off = 0;
	int	n, c, from;

	if (len == 0)
		return (-1);
	buf[0] = '\0';
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		for (from = c; c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set);
		    c++)
			;
		if (from == c)
			n = snprintf(buf + off, len - off, "%s%d",
			    off > 0 ? "," : "", c);
		else
			n = snprintf(buf + off, len - off, "%s%d-%d",
			    off > 0 ? "," : "", from, c);
		if (n < 0 || (size_t)n >= len - off)
			return (-1);
		off += (size_t)n;
	}
	return (0);
}

/* Moves up to want CPUs of from (lowest first) that left still has into
 * out, taking them off left. Returns how many. */
static unsigned
node_cpus_take(cpu_set_t *left, const cpu_set_t *from, unsigned want,
    cpu_set_t *out)
{
	unsigned	got = 0;
	int		c;

	for (c = 0; c < CPU_SETSIZE && got < want; c++) {
		if (CPU_ISSET(c, left) && CPU_ISSET(c, from)) {
			CPU_CLR(c, left);
			CPU_SET(c, out);
			got++;
		}
	}
	return (got);
}

unsigned
node_cpus_pick(const cpu_set_t *avail, const cpu_set_t *near, size_t ngpus,
    unsigned n, cpu_set_t *out)
{
	cpu_set_t	left = *avail, any;
	unsigned	got = 0, share;
	size_t		i;

	CPU_ZERO(out);
	CPU_ZERO(&any);
	for (i = 0; i < ngpus; i++) {
		share = n / (unsigned)ngpus + (i < n % ngpus ? 1 : 0);
		got += node_cpus_take(&left, &near[i], share, out);
		CPU_OR(&any, &any, &near[i]);
	}
	got += node_cpus_take(&left, &any, n - got, out);
	got += node_cpus_take(&left, avail, n - got, out);
	return (got);
}
