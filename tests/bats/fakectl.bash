# fakectl.bash: playing the controller with fakectl (tests/bats/fakectl.c),
# for the gnoded suites that send JOB_LAUNCH and JOB_PREEMPT themselves and
# read exactly what gnoded reports. Load after helpers.bash; call fc_setup
# after gb_setup and fc_teardown before gb_teardown. Tests run in
# $GB_DIR/work.

fc_setup() {
	FC="$GB_DIR/fc"
	FC_SEQ=0
	mkdir -p "$FC" "$GB_DIR/work"
	cd "$GB_DIR/work"
}

fc_teardown() {
	if [ -n "${FC_PID:-}" ]; then
		kill "$FC_PID" 2>/dev/null || true
		wait "$FC_PID" 2>/dev/null || true
	fi
}

# fc_hellos: how many HELLOs gnoded has sent.
fc_hellos() {
	grep -c '"type":100[,}]' "$FC/recv" 2>/dev/null || true
}

fc_hellos_are() {
	[ "$(fc_hellos)" -eq "$1" ]
}

# fc_gnoded [WRAPPER ARGS...]: start gnoded n1 (4 GPUs) against fakectl,
# through WRAPPER when given (setpriv, to run it as another user), which
# must exec it; wait for its HELLO.
fc_gnoded() {
	local n
	n=$(fc_hellos)
	"$@" gnoded -D -f "$GBATCH_CONF" -n n1 -g 4 -c "$(cat "$FC/addr")" \
	    -d "$GB_DIR/node-n1" -u "" -L "$GB_DIR/gnoded-n1.log" &
	FC_NODE_PID=$!
	GB_NODE_PIDS+=($!)
	gb_wait 10 fc_hellos_are $((n + 1))
}

# fc_start [WRAPPER ARGS...]: start fakectl, then gnoded (fc_gnoded).
fc_start() {
	"$B/tests/bats/fakectl" "$FC" "$GB_DIR/tls/controller.crt" \
	    "$GB_DIR/tls/controller.key" "$GB_DIR/tls/ca.crt" \
	    2>"$GB_DIR/fakectl.err" &
	FC_PID=$!
	gb_wait 10 test -s "$FC/addr"
	fc_gnoded "$@"
}

# fc_quote TEXT: TEXT as a JSON string.
fc_quote() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/\\t}
	printf '"%s"' "$s"
}

# fc_send JSON: hand one message to fakectl, in order.
fc_send() {
	FC_SEQ=$((FC_SEQ + 1))
	printf '%s\n' "$1" >"$FC/out.tmp"
	mv "$FC/out.tmp" "$FC/send/$(printf %06d "$FC_SEQ").json"
}

# fc_launch ID SCRIPT [MORE JOB FIELDS]: JOB_LAUNCH on GPU 0, in
# $GB_DIR/work, as the current user or as FC_USER, FC_UID and FC_GID say.
fc_launch() {
	local id=$1 script=$2 extra=${3:-}
	fc_send "{\"type\":310,\"job\":{\"id\":$id,\"name\":\"j$id\",\
\"user\":\"${FC_USER:-$(id -un)}\",\"uid\":${FC_UID:-$(id -u)},\
\"gid\":${FC_GID:-$(id -g)},\
\"workdir\":\"$GB_DIR/work\",\"script\":$(fc_quote "$script"),\
\"env\":{\"PATH\":$(fc_quote "$PATH")},\"gpus\":[0]${extra:+,$extra}}}"
}

# fc_msg TYPE ID: the messages of that type about that job.
fc_msg() {
	grep -E "\"type\":$1[,}]" "$FC/recv" | grep -E "\"id\":$2[,}]"
}

# fc_ended ID: the job's JOB_ENDED, once there is one.
fc_ended() {
	gb_wait "${2:-10}" fc_msg 313 "$1"
	fc_msg 313 "$1"
}

# fc_ends_are ID N: gnoded has sent N JOB_ENDED for the job (one a run).
fc_ends_are() {
	[ "$(fc_msg 313 "$1" | wc -l)" -eq "$2" ]
}
