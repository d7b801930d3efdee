/* fuzz-progress.c: a training job's GBATCH_PROGRESS line
 * (common/progress.c) on any bytes, as gnoded reads them from a file the
 * job writes. An accepted line's report is within every bound, and reads
 * back the same through the JSON gnoded sends (progress_from_json, which
 * gbatchd runs on it); a refused one says why. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/progress.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct progress	 p, back;
	json_t		*o;
	char		 err[256];

	err[0] = '\0';
	if (progress_parse((const char *)data, size, &p, err,
	    sizeof err) == -1) {
		if (err[0] == '\0')
			abort();
		return (0);
	}
	if (!(p.step_time > 0 && p.step_time <= PROGRESS_MAX_STEP) ||
	    !(p.sync_time >= 0 && p.sync_time <= p.step_time) ||
	    p.local_bsz < 1 || p.local_bsz > PROGRESS_MAX_BSZ ||
	    (p.has_samples && p.samples > PROGRESS_MAX_SAMPLES) ||
	    (p.has_grad && (!(p.grad_sqr >= 0 && p.grad_sqr <=
	    PROGRESS_MAX_GRAD) || !(p.grad_var >= 0 && p.grad_var <=
	    PROGRESS_MAX_GRAD))))
		abort();
	o = progress_to_json(&p);
	if (progress_from_json(o, &back, err, sizeof err) != 0 ||
	    back.step_time != p.step_time || back.sync_time != p.sync_time ||
	    back.local_bsz != p.local_bsz ||
	    back.has_samples != p.has_samples ||
	    back.samples != p.samples || back.has_grad != p.has_grad ||
	    back.grad_sqr != p.grad_sqr || back.grad_var != p.grad_var)
		abort();
	json_decref(o);
	return (0);
}
