#!/usr/bin/env bats
# The daemons as system services: the readiness protocol systemd's
# Type=notify reads (daemon/common/notify.c), the socket's directory, a run
# without any configuration file, and log files reopened on SIGHUP for
# logrotate. Each test uses a private directory (helpers.bash).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	NOTIFY_PID=
}

teardown() {
	[ -z "$NOTIFY_PID" ] || kill "$NOTIFY_PID" 2>/dev/null || true
	gb_teardown
}

# notify_listen: a datagram socket where systemd's would be; every message
# it gets becomes one line of $GB_DIR/notify.log, its newlines as '|'.
notify_listen() {
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a") as f:
    while True:
        f.write(s.recv(4096).decode().replace("\n", "|") + "\n")
        f.flush()
' "$GB_DIR/notify" "$GB_DIR/notify.log" &
	NOTIFY_PID=$!
	gb_wait 5 test -S "$GB_DIR/notify"
	export NOTIFY_SOCKET="$GB_DIR/notify"
}

# notified N PATTERN: message N (from 1) matches the extended regex.
notified() {
	sed -n "${1}p" "$GB_DIR/notify.log" | grep -Eq -- "$2"
}

# The built-in default of the configuration file, as --help shows it.
default_conf() {
	"$1" --help | grep -o '/[^ )]*/gbatch\.conf' | head -n 1
}

@test "gbatchd tells the service manager READY, RELOADING and READY on SIGHUP, STOPPING" {
	notify_listen
	gb_start_controller
	unset NOTIFY_SOCKET
	gb_wait 5 notified 1 "^READY=1\|STATUS=0 nodes up, 0 down; 0 jobs running, 0 pending; commands on $GB_DIR/gbatchd.sock, nodes on 127.0.0.1:0$"
	kill -HUP "$GB_CTL_PID"
	gb_wait 5 notified 3 '^READY=1\|STATUS=.*reloaded'
	run -0 notified 2 "^RELOADING=1\|MONOTONIC_USEC=[0-9]+\|STATUS=reloading $GBATCH_CONF$"
	run -0 notified 3 "^READY=1\|STATUS=0 nodes up, .*; reloaded $GBATCH_CONF at [0-9:]{8}: 0 settings changed$"
	kill -TERM "$GB_CTL_PID"
	gb_wait 5 grep -Eq '^STOPPING=1\|STATUS=stopping \(SIGTERM\); running jobs keep running$' "$GB_DIR/notify.log"
	wait "$GB_CTL_PID"
	GB_CTL_PID=
}

@test "a reload that fails tells the service manager why and keeps the settings" {
	notify_listen
	gb_start_controller
	unset NOTIFY_SOCKET
	gb_wait 5 notified 1 '^READY=1'
	gb_write_conf 'sync = "sometimes";'
	kill -HUP "$GB_CTL_PID"
	gb_wait 5 notified 3 "^READY=1\|STATUS=.*; reload of $GBATCH_CONF at [0-9:]{8} failed, settings unchanged: .*sync"
	run -0 gctl ping
}

@test "gbatchd's status line follows its nodes and jobs" {
	notify_listen
	gb_start_controller
	unset NOTIFY_SOCKET
	gb_start_node n1 2
	gb_wait 5 notified 1 '^READY=1'
	id=$(gb_submit -H --wrap true)
	gb_wait 15 grep -q '^STATUS=1 node up, 0 down; 0 jobs running, 1 pending; ' "$GB_DIR/notify.log"
	gcancel "$id"
}

@test "gnoded tells the service manager READY with its GPUs and STOPPING" {
	gb_start_controller
	notify_listen
	gnoded -D -n n1 -g 3 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n1" -L "$GB_DIR/gnoded.log" &
	pid=$!
	GB_NODE_PIDS+=($pid)
	unset NOTIFY_SOCKET
	gb_wait 5 notified 1 "^READY=1\|STATUS=node n1: 3 GPUs, controller $GB_CTL_ADDR, state $GB_DIR/node-n1$"
	kill -TERM "$pid"
	gb_wait 5 notified 2 '^STOPPING=1\|STATUS=stopping \(signal 15\); jobs keep running$'
}

@test "jobs do not inherit NOTIFY_SOCKET" {
	notify_listen
	gb_start_controller
	gb_start_node n1 1
	unset NOTIFY_SOCKET
	mkdir -p "$GB_DIR/work"
	id=$(cd "$GB_DIR/work" && gb_submit --export=ALL --wrap 'echo "[${NOTIFY_SOCKET:-unset}]"')
	gb_wait_state "$id" COMPLETED
	[ "$(cat "$GB_DIR/work/gbatch-$id.out")" = "[unset]" ]
}

@test "gbatchd creates the directory of its socket, mode 0755" {
	gb_write_conf
	sed -i "s|socket = \"$GB_DIR/gbatchd.sock\"|socket = \"$GB_DIR/run/gbatch/gbatchd.sock\"|" "$GBATCH_CONF"
	export GBATCH_SOCKET="$GB_DIR/run/gbatch/gbatchd.sock"
	gb_start_controller
	[ -S "$GB_DIR/run/gbatch/gbatchd.sock" ]
	[ "$(stat -c %a "$GB_DIR/run/gbatch")" = 755 ]
}

@test "gbatchd says which directory of -s is missing when it cannot make it" {
	: >"$GB_DIR/file"
	run -1 gbatchd -D -f "$GBATCH_CONF" -s "$GB_DIR/file/sub/gbatchd.sock"
	[[ "$output" == *"directory $GB_DIR/file/sub is missing and cannot be created (Not a directory); controller.socket (or -s) is \"$GB_DIR/file/sub/gbatchd.sock\""* ]]
}

@test "gbatchd says which directory of state_dir is missing when it cannot make it" {
	: >"$GB_DIR/file"
	run -1 gbatchd -D -f "$GBATCH_CONF" -d "$GB_DIR/file/ctl"
	[[ "$output" == *"directory $GB_DIR/file/ctl is missing and cannot be created (Not a directory); controller.state_dir (or -d) is \"$GB_DIR/file/ctl\""* ]]
}

@test "with no configuration file anywhere both daemons look for their certificates in the default TLS directory" {
	ctl_conf=$(default_conf gbatchd)
	node_conf=$(default_conf gnoded)
	[ -n "$ctl_conf" ]
	[ "$ctl_conf" = "$node_conf" ]
	[ ! -e "$ctl_conf" ] || skip "$ctl_conf exists on this machine"
	tls=${ctl_conf%/gbatch.conf}/tls
	[ ! -e "$tls" ] || skip "$tls exists on this machine"
	unset GBATCH_CONF
	# The built-in defaults name no certificate a node could trust: the
	# daemons stop at start and say what to make.
	run -1 gbatchd -D -s "$GBATCH_SOCKET" -l 127.0.0.1:0 -d "$GB_DIR/ctl"
	[[ "$output" == "gbatchd: tls: certificate $tls/"*'.crt: No such file or directory; '*'--controller"'* ]]
	run -1 gnoded -D -n n1 -g 1 -c 127.0.0.1:1 -d "$GB_DIR/node"
	[[ "$output" == "gnoded: tls: certificate $tls/n1.crt: No such file or directory; "*'"gctl cert issue n1 --node"'* ]]
	[ ! -e "$GB_DIR/ctl" ]
	[ ! -e "$GB_DIR/node" ]
}

@test "gnoded reopens its -L file on SIGHUP and keeps running" {
	gb_start_controller
	gb_start_node n1 1
	log="$GB_DIR/gnoded-n1.log"
	mv "$log" "$log.1"
	kill -HUP "$GB_NODE_PID_n1"
	gb_wait 5 grep -q "reopened the log file $log" "$log"
	kill -0 "$GB_NODE_PID_n1"
	# Still serving: a job runs on it, and the new file has its lines.
	mkdir -p "$GB_DIR/work"
	id=$(cd "$GB_DIR/work" && gb_submit --wrap true)
	gb_wait_state "$id" COMPLETED
	run ! grep -q "reopened" "$log.1"
}

@test "gbatchd reopens its -L file on SIGHUP" {
	gb_start_controller
	mv "$GB_DIR/gbatchd.log" "$GB_DIR/gbatchd.log.1"
	kill -HUP "$GB_CTL_PID"
	gb_wait 5 grep -q "reloaded $GBATCH_CONF" "$GB_DIR/gbatchd.log"
	run -0 gctl ping
}
