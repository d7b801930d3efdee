/* job-alloc.c: the text of a running job's allocation (job-alloc.h). */
#include <stddef.h>
#include <stdint.h>

#include "common/alloc-text.h"
#include "daemon/controller/job-alloc.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"

char *
job_alloc_text_all(const struct job_part *parts, size_t n, uint32_t share)
{
	char	*text = NULL;
	size_t	 i;

	for (i = 0; i < n; i++)
		alloc_text_append_share(&text, node_name(parts[i].node),
		    parts[i].mask, share, node_gpu_shards(parts[i].node));
	return (text);
}

char *
job_alloc_text(const struct job_part *parts, size_t n)
{
	return (n > 1 ? job_alloc_text_all(parts, n, 0) : NULL);
}
