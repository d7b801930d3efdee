/* paths.h: where gbatch's files are by default, written once. The parts
 * come from configure's installation directories (--sysconfdir,
 * --localstatedir, --runstatedir), which Makefile.am passes to the
 * compiler; the man pages, the sample gbatch.conf and the systemd units
 * are filled in from the same variables at build time (Makefile.am's
 * gb_subst), so code and documents cannot disagree. */
#ifndef GB_PATHS_H
#define GB_PATHS_H

/* The configuration file, unless -f or $GBATCH_CONF names another. */
#define GB_PATH_CONF		SYSCONFDIR "/gbatch/gbatch.conf"
/* gbatchd's Unix socket for commands (controller.socket). */
#define GB_PATH_SOCKET		RUNSTATEDIR "/gbatch/gbatchd.sock"
/* gbatchd's job database and bound address (controller.state_dir). */
#define GB_PATH_STATE_DIR	LOCALSTATEDIR "/lib/gbatch"
/* gnoded's socket for commands on its host (node.socket), relayed to
 * gbatchd; commands try it when the controller's socket is not there. */
#define GB_PATH_NODE_SOCKET	RUNSTATEDIR "/gbatch/gnoded.sock"
/* gnoded's job records (node.state_dir). */
#define GB_PATH_NODE_STATE_DIR	LOCALSTATEDIR "/lib/gbatch/node"
/* The cluster CA and the daemons' keys and certificates (tls.dir; gctl ca
 * and gctl cert --dir). */
#define GB_PATH_TLS_DIR		SYSCONFDIR "/gbatch/tls"
/* gctl's ca and cert commands, the program that links OpenSSL. */
#define GB_PATH_GCTL_CA		PKGLIBEXECDIR "/gctl-ca"

#endif
