# helpers.bash: a throwaway local cluster for each test: gbatchd and gnoded
# started the way a user starts them, on a private socket, database and state
# directory, all under one temporary directory that teardown removes.
#
# Use:  load helpers; setup() { gb_setup; gb_start_cluster; }; teardown() { gb_teardown; }

B=${GBATCH_BUILDDIR:?run the suite through make check, or set GBATCH_BUILDDIR}
S=${GBATCH_SRCDIR:-$B}
export PATH="$B/bin:$B/tui:$B/sim:$B/daemon/controller:$B/daemon/node:$PATH"

# gb_setup: make the private directory and point the commands at it.
gb_setup() {
	# Short path: a Unix socket path must fit in 108 bytes.
	GB_DIR=$(mktemp -d /tmp/gbt.XXXXXX)
	export GB_DIR
	export GBATCH_SOCKET="$GB_DIR/gbatchd.sock"
	export GBATCH_CONF="$GB_DIR/gbatch.conf"
	GB_NODE_PIDS=()
	gb_tls_make
	gb_write_conf
}

# gb_tls_make: the cluster CA in $GB_DIR/tls, with the controller's
# certificate and n1-n4's: made once per test file (EC keys are fast, but
# not free) and copied, modes kept, into each test's directory.
gb_tls_make() {
	local base=${BATS_FILE_TMPDIR:-$GB_DIR}/gb-tls n
	if [ ! -e "$base/n4.crt" ]; then
		gctl ca init --dir "$base" >/dev/null
		gctl cert issue controller --controller --alt-name 127.0.0.1 \
		    --alt-name localhost --dir "$base" >/dev/null
		for n in n1 n2 n3 n4; do
			gctl cert issue "$n" --dir "$base" >/dev/null
		done
	fi
	[ "$base" = "$GB_DIR/tls" ] || cp -a "$base" "$GB_DIR/tls"
}

# gb_tls_issue NAME: a node certificate for NAME unless there is one.
gb_tls_issue() {
	[ -e "$GB_DIR/tls/$1.crt" ] || gctl cert issue "$1" --dir "$GB_DIR/tls" >/dev/null
}

# gb_write_conf [extra controller keys] [extra node keys]
gb_write_conf() {
	cat >"$GBATCH_CONF" <<CONF
controller = {
  socket = "$GB_DIR/gbatchd.sock";
  listen = "127.0.0.1:0";
  state_dir = "$GB_DIR/ctl";
  node_timeout = ${GB_NODE_TIMEOUT:-5};
  allow_root_jobs = true;
  log_level = "debug";
  ${1:-}
};
node = {
  state_dir = "$GB_DIR/node";
  heartbeat_interval = 1;
  kill_wait = ${GB_KILL_WAIT:-2};
  allow_root_jobs = true;
  log_level = "debug";
  # Jobs run unconfined but in cgroups.bats, which makes its own parent
  # cgroup: a cgroup per job is the host's, and suites running side by
  # side would each make and leave their own.
  cgroups = ${GB_CGROUPS:-false};
  cgroup = "gbt-${GB_DIR##*/}";
  ${2:-}
};
tls = {
  dir = "$GB_DIR/tls";
  controller_name = "controller";
};
CONF
}

# gb_wait TIMEOUT_S CMD...: poll CMD every 20 ms until it succeeds; fail
# (and print what it saw last) once the deadline passes.
gb_wait() {
	local limit=$1; shift
	local deadline=$((SECONDS + limit))
	while ! "$@" >/dev/null 2>&1; do
		if ((SECONDS >= deadline)); then
			echo "gb_wait: timed out after ${limit}s waiting for: $*" >&2
			"$@" >&2 || true
			return 1
		fi
		sleep 0.02
	done
}

gb_start_controller() {
	gbatchd -D -f "$GBATCH_CONF" -L "$GB_DIR/gbatchd.log" "$@" &
	GB_CTL_PID=$!
	gb_wait 10 gctl ping
	gb_wait 10 test -s "$GB_DIR/ctl/gbatchd.addr"
	GB_CTL_ADDR=$(cat "$GB_DIR/ctl/gbatchd.addr")
}

# gb_start_node NAME GPUS [GNODED ARGS...]
gb_start_node() {
	local name=$1 gpus=$2
	shift 2
	gb_tls_issue "$name"
	gnoded -D -f "$GBATCH_CONF" -n "$name" -g "$gpus" -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-$name" -u "$GB_DIR/gnoded-$name.sock" \
	    -L "$GB_DIR/gnoded-$name.log" "$@" &
	GB_NODE_PIDS+=($!)
	eval "GB_NODE_PID_$name=$!"
	# A node is up in well under a second; a loaded machine (a parallel
	# build, the sanitizers) has taken over ten to register one.
	gb_wait 30 gb_node_is_up "$name"
}

# gb_pid_gone PID: the process no longer exists (zombies count as gone).
gb_pid_gone() {
	local st
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
	[[ -z "$st" || "$st" == Z* ]]
}

gb_node_is_up() {
	gnodes --noheader | awk -v n="$1" '$1 == n && $2 != "down" { f = 1 } END { exit !f }'
}

# The local cluster of the README: a controller and two 4-GPU nodes.
gb_start_cluster() {
	gb_start_controller
	gb_start_node n1 4
	gb_start_node n2 4
}

# gb_state ID: the job's state, whatever it is.
gb_state() {
	gq -j "$1" --noheader -o state
}

gb_state_is() {
	[ "$(gb_state "$1")" = "$2" ]
}

# gb_field_is ID FIELD VALUE: whether gq's FIELD of job ID (any state) is
# VALUE. A condition for gb_wait, which calls it at each poll (a
# "$(gq ...)" in gb_wait's arguments is expanded once, before the first).
gb_field_is() {
	[ "$(gq -h -t all -j "$1" -o "$2")" = "$3" ]
}

# gb_wait_state ID STATE [TIMEOUT_S]; on a timeout, says where the job is
# instead (state, reason, nodes), so that a failure names its cause.
gb_wait_state() {
	gb_wait "${3:-10}" gb_state_is "$1" "$2" && return 0
	echo "gb_wait_state: job $1 is $(gq -h -t all -j "$1" -o state,reason,nodes 2>&1), not $2" >&2
	return 1
}

# gb_node_record NODE ID KIND: the job's last record of KIND ("run" or
# "end") in the node's state directory, as JSON; nothing when it has none.
gb_node_record() {
	sed -n "s/^$3 //p" "$GB_DIR/node-$1/jobs/$2.job" 2>/dev/null | tail -n 1
}

# gb_submit ARGS...: submit, echo the job id.
gb_submit() {
	gsub --parsable "$@"
}

# gb_rawask JSON...: says HELLO, sends each JSON text as one frame and prints
# each reply but HELLO's on its own line, as it came; a streamed reply's
# frames each on a line, up to the one without "more": true.
gb_rawask() {
	python3 -c '
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def rd(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            sys.exit("gbatchd closed the connection")
        b += c
    return b
for i, text in enumerate(["{\"type\":100,\"version\":1,\"role\":\"client\"}"] + sys.argv[2:]):
    s.sendall(struct.pack(">I", len(text.encode())) + text.encode())
    more = True
    while more:
        reply = rd(struct.unpack(">I", rd(4))[0])
        if i > 0:
            print(reply.decode())
        more = json.loads(reply).get("more") is True' "$GBATCH_SOCKET" "$@"
}

# gb_no_controls FILE: FILE holds no terminal control but newlines: no C0
# byte, DEL or C1 control (U+0080..U+009F), and is valid UTF-8.
gb_no_controls() {
	python3 -c '
import re, sys
b = open(sys.argv[1], "rb").read()
b.decode("utf-8")
m = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", b)
if m:
    sys.exit("control byte at %d: %r" % (m.start(), b[max(0, m.start() - 20):m.end() + 20]))' "$1"
}

gb_kill_sessions() {
	local self sid
	self=$(ps -o sid= -p $$ | tr -d ' ')
	for sid in $(ps -eo sid=,args= | awk -v d="$GB_DIR/" 'index($0, d) { print $1 }' | sort -u); do
		[ "$sid" = "$self" ] || [ "$sid" -le 1 ] || pkill -KILL -s "$sid" 2>/dev/null || true
	done
}

gb_teardown() {
	local pid
	[ -n "${GB_DIR:-}" ] || return 0
	if [ -n "${GB_CTL_PID:-}" ]; then
		kill -TERM "$GB_CTL_PID" 2>/dev/null || true
	fi
	for pid in "${GB_NODE_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	# Jobs outlive their daemons by design (each has its own session);
	# end every session that has a process of this test in it, children
	# of jobs included, but never our own.
	gb_kill_sessions
	for pid in ${GB_CTL_PID:-} "${GB_NODE_PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	if [ -n "${BATS_TEST_COMPLETED:-}" ] || [ -z "${GB_KEEP:-}" ]; then
		rm -rf "$GB_DIR"
	fi
}
