/* req-config.c: RECONFIGURE (gctl reconfigure: read gbatch.conf again) and
 * CONFIG_SHOW (gctl show config: the settings in force). */
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_reconfigure(struct peer *p, const json_t *msg)
{
	json_t	*reply, *changed = json_array(), *restart = json_array();
	json_t	*notes = json_array();
	char	 err[1024];

	if (ctx_reconfigure(changed, restart, notes, err, sizeof err) != 0) {
		audit_done(p, "reconfigure", ctx_conf_file(), "failed: %s",
		    err);
		req_error(p, msg, PROTO_E_INVALID, "%s", err);
		json_decref(changed);
		json_decref(restart);
		json_decref(notes);
		return;
	}
	audit_done(p, "reconfigure", ctx_conf_file(), "%zu setting(s) "
	    "changed", json_array_size(changed));
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "file", json_string(ctx_conf_file()));
	json_object_set_new(reply, "changed", changed);
	json_object_set_new(reply, "restart_needed", restart);
	json_object_set_new(reply, "notes", notes);
	peer_send(p, reply);
	json_decref(reply);
}

static void
req_config_show(struct peer *p, const json_t *msg)
{
	json_t	*reply = proto_reply_ok(msg);

	/* Anyone may read the settings; who did is worth a line. */
	audit_done(p, "show config", NULL, NULL);
	json_object_set_new(reply, "file", json_string(ctx_conf_file()));
	json_object_set_new(reply, "config", conf_reload_json(ctx_conf()));
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_reconfigure_entry = {
	MSG_RECONFIGURE, "RECONFIGURE", REQ_CLIENT, true, true,
	req_reconfigure, true
};

const struct req_entry req_config_show_entry = {
	MSG_CONFIG_SHOW, "CONFIG_SHOW", REQ_CLIENT, false, true,
	req_config_show, true
};
