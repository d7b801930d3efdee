/* resv.c: the controller's advance reservations (resv.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "daemon/controller/resv.h"
#include "daemon/controller/store-resv.h"

int
resv_load(struct resv_tab *t)
{
	resv_tab_free(t);
	if (store_resv_load(t) != 0)
		return (-1);
	if (t->n > 0)
		log_info("reservations: %zu", t->n);
	return (0);
}

int
resv_set(struct resv_tab *t, const struct resv *r, int64_t now,
    uint64_t *id, char *err, size_t errlen)
{
	struct resv	copy = *r;

	if (resv_tab_check(t, r, now, err, errlen) != 0)
		return (RESV_REFUSED);
	if (copy.id == 0)
		copy.id = t->next_id != 0 ? t->next_id : 1;
	if (store_resv_save(&copy) != 0)
		return (RESV_STORE_FAILED);
	*id = resv_tab_put(t, &copy);
	log_info("reservation %s: %s %s from %" PRId64 " to %" PRId64 "%s",
	    copy.name, r->id == 0 ? "made on" : "now on", copy.nodes,
	    copy.start, copy.end, (copy.flags & RESV_F_MAINT) ?
	    ", maintenance" : "");
	return (0);
}

int
resv_delete(struct resv_tab *t, const char *name)
{
	const struct resv	*r = resv_tab_find(t, name);

	if (r == NULL)
		return (RESV_REFUSED);
	if (store_resv_delete(r->id) != 0)
		return (RESV_STORE_FAILED);
	resv_tab_remove(t, name);
	return (0);
}

size_t
resv_expire(struct resv_tab *t, int64_t now)
{
	const struct resv	*r;
	char			 name[128];
	size_t			 n = 0;

	while ((r = resv_tab_ended(t, now)) != NULL) {
		snprintf(name, sizeof name, "%s", r->name);
		if (resv_delete(t, name) != 0)
			break;
		log_info("reservation %s: ended, deleted", name);
		n++;
	}
	return (n);
}
