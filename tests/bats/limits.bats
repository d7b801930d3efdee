#!/usr/bin/env bats
# What connections may hold of gbatchd (gbatch.conf(5), "Limits"): frame
# size, half-sent frames, descriptors per user and in all, request rate,
# read timeouts and waiting jobs per user. Each test drives a real gbatchd
# through its Unix socket, with python3 playing the misbehaving client.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	GB_USERS=()
}

teardown() {
	local u
	gb_teardown
	for u in "${GB_USERS[@]}"; do
		userdel "$u" 2>/dev/null || true
	done
}

# peer.py SCRIPT ARGS...: runs python3 with the helpers below in scope:
# hello(s) opens a client connection, frame(obj) packs a request, rd(s, n)
# reads n bytes (None at end of file).
peer_py() {
	local body=$1
	shift
	python3 -c '
import json, os, socket, struct, sys, time
SOCK = os.environ["GBATCH_SOCKET"]
def frame(obj):
    b = json.dumps(obj).encode()
    return struct.pack(">I", len(b)) + b
def rd(s, n):
    b = b""
    while len(b) < n:
        try:
            c = s.recv(n - len(b))
        except ConnectionResetError:
            return None
        if not c:
            return None
        b += c
    return b
def reply(s):
    h = rd(s, 4)
    if h is None:
        return None
    return json.loads(rd(s, struct.unpack(">I", h)[0]))
def hello(s):
    s.sendall(frame({"type": 100, "version": 1, "role": "client"}))
    return reply(s)
def conn():
    s = socket.socket(socket.AF_UNIX)
    s.connect(SOCK)
    return s
'"$body" "$@"
}

# rss: gbatchd's resident memory in KiB.
rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$GB_CTL_PID/status"
}

rss_below() {
	[ "$(rss)" -lt "$1" ]
}

# add_user VAR: a throwaway account, removed by teardown; its name goes
# into VAR.
add_user() {
	local name=gbl$$_${#GB_USERS[@]}
	useradd --no-create-home --shell /bin/sh "$name"
	GB_USERS+=("$name")
	printf -v "$1" %s "$name"
}

as_user() {
	local u=$1
	shift
	su -s /bin/sh "$u" -c "cd '$GB_DIR/pub' && PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $*"
}

@test "an oversized frame closes that connection only" {
	gb_start_controller
	run -0 peer_py '
good = conn(); assert hello(good)["ok"]
bad = conn()
bad.sendall(struct.pack(">I", 2 << 20) + b"{" * 1000)
assert rd(bad, 1) is None, "gbatchd kept reading a 2 MiB frame"
good.sendall(frame({"type": 101}))
print(reply(good)["ok"])'
	[ "$output" = "True" ]
	grep -q "closing: bad frame: frame of 2097152 bytes exceeds the limit of 1048576" \
	    "$GB_DIR/gbatchd.log"
	# And the audit log says who sent it.
	grep -q "refused root (uid 0) from unix:root: frame: frame of 2097152 bytes" \
	    "$GB_DIR/ctl/audit.log"
	run -0 gctl ping
}

@test "200 half-sent large frames are cut and gbatchd gives their memory back" {
	gb_write_conf 'max_buffered_mib = 16; frame_timeout = 60;'
	gb_start_controller
	base=$(rss)
	peer_py '
socks = []
for i in range(200):
    s = conn()
    s.sendall(struct.pack(">I", 1000000) + b" " * 500000)
    socks.append(s)
open(sys.argv[1], "w").close()
while not os.path.exists(sys.argv[2]):
    time.sleep(0.02)
# A socket gbatchd cut reads its end at once; one it still holds would
# block until controller.frame_timeout: give each a moment only.
cut = 0
for s in socks:
    s.settimeout(0.05)
    try:
        cut += rd(s, 1) is None
    except socket.timeout:
        pass
print(cut)' "$GB_DIR/sent" "$GB_DIR/done" >"$GB_DIR/cut" &
	helper=$!
	gb_wait 20 test -e "$GB_DIR/sent"
	# 200 x 500 kB is 100 MB: all but 16 MiB's worth are cut.
	gb_wait 10 grep -q "over controller.max_buffered_mib (16 MiB)" \
	    "$GB_DIR/gbatchd.log"
	held=$(rss)
	touch "$GB_DIR/done"
	wait "$helper"
	[ "$(cat "$GB_DIR/cut")" -ge 160 ]
	echo "RSS: $base KiB at start, $held KiB with the frames held"
	# Back near where it started once the connections are gone. Not
	# under AddressSanitizer: its allocator and quarantine own the
	# memory there, and glibc's trim means nothing (the plain run checks).
	if ! grep -q '^GB_CFLAGS = .*-fsanitize=address' "$B/Makefile"; then
		gb_wait 5 rss_below $((base + 8192))
	fi
	run -0 gctl ping
}

@test "500 idle connections of one user leave gq of another user fast" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create throwaway users"
	add_user idle
	add_user other
	chmod 0711 "$GB_DIR"
	mkdir -m 0777 "$GB_DIR/pub"
	gb_write_conf 'frame_timeout = 60;'
	# A low file limit, so that 500 connections pass it.
	prlimit --nofile=256:256 gbatchd -D -f "$GBATCH_CONF" -L "$GB_DIR/gbatchd.log" &
	GB_CTL_PID=$!
	gb_wait 10 gctl ping
	as_user "$idle" python3 -c "'
import os, socket, struct, sys, time
socks = []
for i in range(500):
    s = socket.socket(socket.AF_UNIX)
    s.connect(os.environ[\"GBATCH_SOCKET\"])
    socks.append(s)
print(\"held\", flush=True)
while not os.path.exists(\"$GB_DIR/stop\"):
    time.sleep(0.05)'" >"$GB_DIR/held" &
	holder=$!
	gb_wait 20 grep -q held "$GB_DIR/held"
	# gbatchd holds as many as it takes from ordinary users.
	[ "$(ls "/proc/$GB_CTL_PID/fd" | wc -l)" -ge 100 ]
	# Another user's gq gets in within seconds: gbatchd closes the
	# longest-silent of the idle connections (silent at least 0.1 s)
	# to make room; the idle user's own new ones cannot.
	gb_wait 3 as_user "$other" gq --timeout 2
	run -0 gctl --timeout 5 ping
	grep -q "refused: gbatchd has .* connections open, the most it takes from ordinary users" \
	    "$GB_DIR/gbatchd.log"
	grep -q "making room for another" "$GB_DIR/gbatchd.log"
	# Hundreds refused in a moment: logged once for the reason, not
	# once each (whoever is refused cannot fill the disk through the
	# log), and at most once more, with a count, 10 s on.
	[ "$(grep -c "refused: gbatchd has .* connections open" "$GB_DIR/gbatchd.log")" -le 2 ]
	touch "$GB_DIR/stop"
	wait "$holder"
}

@test "a user at controller.max_connections_per_user is refused with the reason" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	add_user u
	chmod 0711 "$GB_DIR"
	mkdir -m 0777 "$GB_DIR/pub"
	gb_write_conf 'max_connections_per_user = 3;'
	gb_start_controller
	as_user "$u" python3 -c "'
import os, socket, time
socks = [socket.socket(socket.AF_UNIX) for i in range(3)]
for s in socks:
    s.connect(os.environ[\"GBATCH_SOCKET\"])
print(\"held\", flush=True)
while not os.path.exists(\"$GB_DIR/stop\"):
    time.sleep(0.05)'" >"$GB_DIR/held" &
	holder=$!
	gb_wait 10 grep -q held "$GB_DIR/held"
	run -4 as_user "$u" gq
	[[ "$output" == *"this user already has 3 connections open, the most controller.max_connections_per_user allows"* ]]
	# Others, root included, are not held to that user's count.
	run -0 gq
	touch "$GB_DIR/stop"
	wait "$holder"
	gb_wait 5 as_user "$u" gq
}

@test "a flood of requests on one connection is slowed, not dropped" {
	gb_write_conf 'max_requests_per_second = 200;'
	gb_start_controller
	run -0 peer_py '
s = conn(); assert hello(s)["ok"]
t = time.monotonic()
s.sendall(b"".join(frame({"type": 101, "seq": i}) for i in range(1000)))
seqs = [reply(s)["seq"] for i in range(1000)]
assert seqs == list(range(1000)), "replies lost or out of order"
print("%.1f" % (time.monotonic() - t))'
	# 1,000 pings at 200 a second after a burst of 200: about 4 s.
	echo "1000 pings took $output s"
	[ "${output%.*}" -ge 3 ]
	grep -q "over controller.max_requests_per_second (200)" "$GB_DIR/gbatchd.log"
}

@test "silent, stalled and idle connections are closed after their timeouts" {
	gb_write_conf 'frame_timeout = 1; idle_timeout = 2;'
	gb_start_controller
	run -0 peer_py '
silent = conn()
stalled = conn(); stalled.sendall(struct.pack(">I", 100) + b"{")
idle = conn(); assert hello(idle)["ok"]
t = time.monotonic()
for s in (silent, stalled, idle):
    assert rd(s, 1) is None
print("%.0f" % (time.monotonic() - t))'
	[ "$output" -le 5 ]
	grep -q "no whole request within 1 s of connecting" "$GB_DIR/gbatchd.log"
	grep -q "sent 5 bytes of a frame but not the rest within 1 s" "$GB_DIR/gbatchd.log"
	grep -q "silent for 2 s between requests (controller.idle_timeout)" "$GB_DIR/gbatchd.log"
}

@test "controller.max_pending_per_user refuses a submit past it, naming the limit" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	add_user u
	add_user other
	chmod 0711 "$GB_DIR"
	mkdir -m 0777 "$GB_DIR/pub"
	gb_write_conf 'max_pending_per_user = 2;'
	gb_start_controller
	run -0 as_user "$u" gsub --parsable -H --wrap true
	id1=$output
	run -0 as_user "$u" gsub --parsable --wrap true
	run -1 as_user "$u" gsub --parsable --wrap true
	[[ "$output" == *"$u has 2 jobs waiting to start (pending or held), the most controller.max_pending_per_user allows"* ]]
	# Another user's count is their own.
	run -0 as_user "$other" gsub --parsable --wrap true
	# A cancelled job no longer counts.
	run -0 gcancel "$id1"
	run -0 as_user "$u" gsub --parsable --wrap true
}
