#!/usr/bin/env bats
# gbatchd: options, configuration errors, hostile peers, restart safety.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	# Jobs write their output files here, not into the source tree.
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# rawsend PERL_EXPR: connects to the controller's socket, writes the bytes
# the Perl expression gives, closes. perl-base has IO::Socket::UNIX.
rawsend() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(),
		    Peer => $ENV{GBATCH_SOCKET}) or die "connect: $!\n";
		print $s eval($ARGV[0]); die $@ if $@;
		shutdown($s, 1); my $buf; while (sysread($s, $buf, 65536)) {}
		close $s;' "$1"
}

# rawframes JSON...: connects and sends each JSON text as one frame.
rawframes() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(),
		    Peer => $ENV{GBATCH_SOCKET}) or die "connect: $!\n";
		print $s pack("N", length($_)) . $_ for @ARGV;
		shutdown($s, 1); my $buf; while (sysread($s, $buf, 65536)) {}
		close $s;' "$@"
}

# runs_elsewhere ID NODE: the job runs, on another node than NODE.
runs_elsewhere() {
	gb_state_is "$1" RUNNING &&
	    [ "$(gq -j "$1" --noheader -o nodes)" != "$2" ]
}

@test "gbatchd --help prints usage and exits 0" {
	run gbatchd --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: gbatchd"* ]]
	[[ "$output" == *"-D"* ]]
}

@test "gbatchd --version prints the version" {
	run gbatchd --version
	[ "$status" -eq 0 ]
	[[ "$output" == "gbatchd (gbatch) "[0-9]* ]]
}

@test "gbatchd with an unknown option exits 2 and names it" {
	run gbatchd --bogus
	[ "$status" -eq 2 ]
	# As every program says it (common/cmd.c): no usage on stderr.
	[ "$output" = "gbatchd: unknown or ambiguous option \"--bogus\"
Try 'gbatchd --help' for more information." ]
	run gbatchd -D -x
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "gbatchd: unknown option -x" ]
	run -2 gbatchd -D -f
	[ "${lines[0]}" = "gbatchd: option -f needs a value" ]
	run -2 gbatchd --check-config=yes
	[ "${lines[0]}" = "gbatchd: option --check-config takes no value" ]
	run -2 gbatchd -D extra
	[ "$output" = "gbatchd: unexpected argument \"extra\"; gbatchd takes options only
Try 'gbatchd --help' for more information." ]
}

@test "gbatchd with a stray argument exits 2" {
	run gbatchd -D extra
	[ "$status" -eq 2 ]
	[[ "$output" == *"extra"* ]]
}

@test "gbatchd -f with a missing file exits 1 and names it" {
	run gbatchd -D -f "$GB_DIR/nope.conf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$GB_DIR/nope.conf"* ]]
}

@test "gbatchd with a config syntax error names file and line" {
	printf 'controller = {\n  node_timeout = ;\n};\n' >"$GB_DIR/bad.conf"
	run gbatchd -D -f "$GB_DIR/bad.conf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$GB_DIR/bad.conf:2"* ]]
}

@test "gbatchd with a bad config value names the key and what is accepted" {
	gb_write_conf 'sync = "sometimes";'
	run gbatchd -D
	[ "$status" -eq 1 ]
	[[ "$output" == *"controller.sync"* ]]
	[[ "$output" == *"normal"* ]]
	gb_write_conf 'operators = "alice";'
	run gbatchd -D
	[ "$status" -eq 1 ]
	[[ "$output" == *"controller.operators"* ]]
	[[ "$output" == *"list of user names"* ]]
}

@test "gbatchd with a bad scheduler setting names the line, the key and what is accepted" {
	gb_write_conf
	printf 'scheduler = {\n  policy = "lottery";\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"gbatch.conf: line "*": scheduler.policy: expected a policy (fifo, srtf, dlas or gittins), got \"lottery\""* ]]
	gb_write_conf
	printf 'scheduler = {\n  policy = "srtf";\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"scheduler.policy: srtf needs every job's run time in advance"* ]]
	gb_write_conf
	printf 'scheduler = {\n  thresholds = [ 7200, 3600 ];\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"scheduler.thresholds: element 2: expected GPU-seconds above 0 and above the one before"* ]]
	gb_write_conf
	printf 'scheduler = {\n  queues = 3;\n  thresholds = [ 10 ];\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"1 values make 2 queues, but scheduler.queues is 3"* ]]
	gb_write_conf
	printf 'scheduler = {\n  polcy = "dlas";\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"line "*": scheduler.polcy: unknown key; expected policy,"* ]]
	gb_write_conf
	printf 'scheduler = {\n  ckpt_grace = 900;\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"scheduler.ckpt_grace (900 s) is above scheduler.max_ckpt_grace (600 s)"* ]]
}

@test "gbatchd refuses a second instance on the same socket" {
	gb_start_controller
	run gbatchd -D -f "$GBATCH_CONF" -d "$GB_DIR/other"
	[ "$status" -eq 1 ]
	[[ "$output" == *"another gbatchd"* ]]
	gctl ping
}

@test "gbatchd daemonizes, writes its pid file and stops on SIGTERM" {
	run gbatchd -f "$GBATCH_CONF" -P "$GB_DIR/gbatchd.pid" \
	    -L "$GB_DIR/gbatchd.log"
	[ "$status" -eq 0 ]
	gb_wait 10 gctl ping
	pid=$(cat "$GB_DIR/gbatchd.pid")
	kill -0 "$pid"
	kill -TERM "$pid"
	gb_wait 10 sh -c "! kill -0 $pid"
	[ ! -e "$GB_DIR/gbatchd.pid" ]
}

@test "the job database is private (mode 0600)" {
	gb_start_controller
	[ "$(stat -c %a "$GB_DIR/ctl/gbatch.db")" = 600 ]
	[ "$(stat -c %a "$GBATCH_SOCKET")" = 666 ]
}

@test "garbage on the socket closes that peer only" {
	gb_start_controller
	rawsend '"\x01\x02garbage, not a frame at all\xff\xfe" x 100'
	gctl ping
	# A length header over the 1 MiB limit.
	rawsend 'pack("N", 64 << 20) . "x" x 100'
	gctl ping
	# Half a frame, then the connection closes.
	rawsend 'pack("N", 1000) . "{\"type\":"'
	gctl ping
	# An empty frame, a JSON array, invalid JSON.
	rawsend 'pack("N", 0)'
	rawframes '[1,2,3]'
	rawframes '{"type":'
	rawframes '"just a string"'
	gctl ping
	grep -q "exceeds the limit" "$GB_DIR/gbatchd.log"
	grep -q "middle of a frame" "$GB_DIR/gbatchd.log"
	kill -0 "$GB_CTL_PID"
}

@test "a node message from a client is rejected and the peer closed" {
	gb_start_controller
	rawframes '{"type":100,"version":1,"role":"client"}' \
	    '{"type":313,"id":1,"state":"COMPLETED"}'
	grep -q "node message JOB_ENDED from a client" "$GB_DIR/gbatchd.log"
	# No HELLO first, a wrong version, a node on the Unix socket.
	rawframes '{"type":101}'
	rawframes '{"type":100,"version":99,"role":"client"}'
	rawframes '{"type":100,"version":1,"role":"node","name":"x","gpus":[]}'
	gctl ping
	run gnodes --noheader
	[ "$status" -eq 0 ]
	[[ "$output" != *"x "* ]]
}

@test "many clients at once all get answers" {
	gb_start_controller
	local i pids=()
	for i in $(seq 1 20); do
		gctl ping >/dev/null & pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i"
	done
	gctl ping
}

@test "SHUTDOWN from an operator stops gbatchd; jobs stay queued" {
	gb_start_controller
	id=$(gb_submit -G 1 --wrap 'true')
	gctl shutdown
	gb_wait 10 sh -c "! kill -0 $GB_CTL_PID"
	gb_start_controller -l "$GB_CTL_ADDR"
	gb_state_is "$id" PENDING
}

@test "after a restart, jobs of every state are listed in id order" {
	gb_start_cluster
	# One running job first, then held and pending jobs interleaved: the
	# store hands them back a state at a time.
	r=$(gb_submit -G 4 -w n1 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done")
	gb_wait_state "$r" RUNNING
	want="$r"
	for i in 1 2 3 4 5 6; do
		if ((i % 2)); then
			id=$(gb_submit -H -G 1 --wrap true)
		else
			id=$(gb_submit -G 4 -w n1 --wrap true)
		fi
		want="$want $id"
	done
	gctl shutdown
	gb_wait 10 sh -c "! kill -0 $GB_CTL_PID"
	gb_start_controller -l "$GB_CTL_ADDR"
	run gq --noheader -o id
	[ "$status" -eq 0 ]
	[ "$(echo $output)" = "$want" ]
	run gq --noheader -o id,state -t held
	[ "$(echo $output)" = "$(echo "$want" | awk '{ print $2, "HELD", $4, "HELD", $6, "HELD" }')" ]
	touch "$GB_DIR/go"
	gb_wait_state "$(echo "$want" | awk '{ print $7 }')" COMPLETED 20
}

@test "a restart reads a queue of thousands of jobs back as it was, every member" {
	gb_start_cluster
	# Start-up reads the jobs on threads, in batches (store-load.c): some
	# thousands of jobs make several batches for each reader, and jobs
	# with every kind of string (none, empty, long, not ASCII) and state.
	r=$(gb_submit -G 4 -w n1 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done")
	gb_wait_state "$r" RUNNING
	u=$(gb_submit -H -J 'ünïcödé' -A proj --comment "$(printf '%0300d' 5)" \
	    -x n2 --wrap true)
	# A job's strings are kept after a table of 8-, 16- or 32-bit offsets,
	# whichever holds them (job.c): these two need the wider ones.
	printf '#!/bin/sh\ntrue\n' >"$GB_DIR/long.sh"
	long=$(gb_submit -H -J long "$GB_DIR/long.sh" "$(printf '%070000d' 7)" x)
	gb_submit -H -a 0-99%8 -J sweep --wrap true >/dev/null
	first=$(gb_submit -H -J first --wrap true)
	"$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n 3000 >/dev/null
	gb_submit -G 4 -w n1 -d "afterok:$r" -J after --wrap true >/dev/null
	gb_submit -G 1 --begin now+1hour -J later --wrap true >/dev/null
	# The readers share the ids in ranges of 1,024 and more: 1,500
	# finished jobs in the middle leave at least one range with none.
	gcancel $(seq $((first + 700)) $((first + 2199)))
	gb_wait 10 eval '[ "$(gq -h -t cancelled | wc -l)" -eq 1500 ]'
	# The running job's service grows; the rest stand still.
	gq --json -t held,pending | grep -v '"now":' >before
	[ "$(grep -c '"id":' before)" -eq 1506 ]
	gctl shutdown
	gb_wait 10 sh -c "! kill -0 $GB_CTL_PID"
	gb_start_controller -l "$GB_CTL_ADDR"
	gb_wait 10 gb_node_is_up n1
	gq --json -t held,pending | grep -v '"now":' >after
	diff before after
	/usr/bin/python3 - "$u" "$long" "$PWD" after <<'EOF'
import json, sys
jobs = {j["id"]: j for j in json.load(open(sys.argv[4]))["jobs"]}
u, long = jobs[int(sys.argv[1])], jobs[int(sys.argv[2])]
# Strings on both sides of the long ones, the last of them too.
assert (u["name"], u["account"], u["comment"], u["exclude_nodes"],
    u["workdir"]) == ("ünïcödé", "proj", "%0300d" % 5, "n2",
    sys.argv[3]), u
assert (long["name"], long["argv"], long["workdir"], long["comment"],
    long["exclude_nodes"]) == ("long", ["%070000d" % 7, "x"], sys.argv[3],
    "", ""), {k: str(long[k])[:80] for k in ("argv", "workdir", "comment",
    "exclude_nodes")}
assert long["command"].endswith("/long.sh"), long["command"]
EOF
	gb_state_is "$r" RUNNING
	grep -q "1507 jobs not finished (1 running, waiting for their nodes), loaded in" \
	    "$GB_DIR/gbatchd.log"
	touch "$GB_DIR/go"
}

@test "a job asking more GPUs than the whole cluster has is refused" {
	gb_start_cluster
	run gsub -G 9 --wrap 'true'
	[ "$status" -eq 1 ]
	[[ "$output" == *"the cluster has 8 GPUs in all"* ]]
}

@test "kill -9 of gbatchd loses no job and kills no running job" {
	gb_start_cluster
	# Fill both nodes, so the next two jobs stay pending.
	# They run until the test lets them go, so they surely run across
	# the restart however slow the machine is.
	r1=$(gb_submit -G 4 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done; exit 7")
	r2=$(gb_submit -G 4 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done")
	gb_wait_state "$r1" RUNNING
	gb_wait_state "$r2" RUNNING
	p1=$(gb_submit -G 4 --wrap 'true')
	p2=$(gb_submit -G 2 --wrap 'true')
	gb_wait_state "$p1" PENDING
	kill -KILL "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	# The same port, so the nodes find the new controller.
	gb_start_controller -l "$GB_CTL_ADDR"
	# Same ids, same states, nothing lost.
	gb_state_is "$p1" PENDING
	gb_state_is "$p2" PENDING
	run gb_state "$r1"
	[ "$output" = RUNNING ]
	gb_state_is "$r2" RUNNING
	touch "$GB_DIR/go"
	# The running jobs were not killed: r1 finishes with its own status.
	gb_wait_state "$r1" FAILED 20
	run gq -j "$r1" --noheader -o exit_code
	[ "$output" = 7 ]
	gb_wait_state "$r2" COMPLETED 20
	gb_wait_state "$p1" COMPLETED 20
	gb_wait_state "$p2" COMPLETED 20
	# Ids keep growing after the restart.
	n=$(gb_submit -G 1 --wrap 'true')
	[ "$n" -gt "$p2" ]
}

@test "a controller restarted as a user would (listen port 0, no -l) is found again by its nodes" {
	gb_start_cluster
	port=${GB_CTL_ADDR##*:}
	id=$(gb_submit -G 4 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done")
	gb_wait_state "$id" RUNNING
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	run gctl ping
	[ "$status" -eq 3 ]
	# Started exactly as before: the config says 127.0.0.1:0.
	gb_start_controller
	[ "${GB_CTL_ADDR##*:}" = "$port" ]
	# The nodes, untouched, dial the same port and come back.
	gb_wait 15 gb_node_is_up n1
	gb_wait 15 gb_node_is_up n2
	gb_state_is "$id" RUNNING
	touch "$GB_DIR/go"
	gb_wait_state "$id" COMPLETED 20
	run gq -j "$id" --noheader -o restarts
	[ "$output" = 0 ]
	# And new work runs on them.
	n=$(gb_submit -G 8 --wrap 'true')
	gb_wait_state "$n" COMPLETED 20
}

@test "when the last run's port is taken, the controller takes another and says why" {
	gb_start_controller
	port=${GB_CTL_ADDR##*:}
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	# Someone else holds the port now.
	python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
open(sys.argv[2], "w").close()
time.sleep(60)' "$port" "$GB_DIR/held" &
	holder=$!
	gb_wait 10 test -e "$GB_DIR/held"
	gb_start_controller
	kill "$holder"
	[ "${GB_CTL_ADDR##*:}" != "$port" ]
	grep -q "the port of the last run, $port, is taken" "$GB_DIR/gbatchd.log"
}

@test "a job whose node never comes back is requeued after node_timeout" {
	GB_NODE_TIMEOUT=3 gb_write_conf
	gb_start_cluster
	# Short sleeps: the shell (named after its script under $GB_DIR) is
	# what teardown can find and kill; a long sleep would outlive it.
	id=$(gb_submit -G 4 --wrap 'for i in $(seq 300); do sleep 0.1; done')
	gb_wait_state "$id" RUNNING
	node=$(gq -j "$id" --noheader -o nodes)
	kill -KILL "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	eval "kill -KILL \$GB_NODE_PID_$node"
	gb_start_controller -l "$GB_CTL_ADDR"
	# It keeps its place on the dead node until node_timeout passes.
	gb_state_is "$id" RUNNING
	gb_wait 15 runs_elsewhere "$id" "$node"
	grep -q "job $id: RUNNING -> PENDING" "$GB_DIR/gbatchd.log"
}

@test "JOB_LIST rows: each job the values of its members, in the order of columns" {
	gb_start_controller
	gb_submit -H --wrap 'true' >/dev/null
	gb_submit -H -G 2 -J two --wrap 'true' >/dev/null
	run gb_rawask '{"type":201,"fields":["gpus","name","state"],"rows":true}' \
	    '{"type":201,"fields":["gpus","name","state"]}' '{"type":201,"rows":1}' \
	    '{"type":201,"rows":true,"history":true,"ids":[1]}'
	[ "$status" -eq 0 ]
	python3 -c '
import json, sys
rows, objs, bad, both = (json.loads(l) for l in sys.argv[1].splitlines())
assert rows["ok"] is True and rows["columns"] == ["id", "name", "state", "gpus"], rows
assert rows["jobs"] == [[o[c] for c in rows["columns"]] for o in objs["jobs"]], (rows, objs)
assert rows["jobs"][1][1:] == ["two", "HELD", 2], rows
assert rows["missing"] == [] and "truncated" not in rows, rows
assert bad["ok"] is False and bad["code"] == "invalid", bad
assert bad["message"] == "rows: expected true or false", bad
assert both["ok"] is False and "rows and history exclude each other" in both["message"], both' "$output"
}

@test "bench's submit-pipelined -e returns once every job it submitted has ended" {
	gb_start_cluster
	mkdir "$GB_DIR/work"
	cd "$GB_DIR/work"
	run -0 "$GBATCH_BUILDDIR/bench/submit-pipelined" -e -n 40
	[[ "$output" == "40 jobs in "*" s: "*" jobs/s" ]]
	# It waited for the end: nothing is left pending or running, and
	# every job completed.
	run -0 gctl ping
	[[ "$output" == *"jobs: 0 pending, 0 running"* ]]
	[ "$(gq -h -t completed -o id | wc -l)" -eq 40 ]
	# Held jobs would never end: -e refuses -H.
	run -2 "$GBATCH_BUILDDIR/bench/submit-pipelined" -e -H -n 1
	[[ "$output" == *"-e waits for the jobs to end, and -H holds them"* ]]
}

@test "bench's submit-pipelined -l prints each submit's latency as ordered percentiles" {
	gb_start_controller
	run -0 "$GBATCH_BUILDDIR/bench/submit-pipelined" -H -l -w 1 -n 50
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "50 jobs in "*" s: "*" jobs/s" ]]
	[[ "${lines[1]}" =~ ^latency\ p50\ ([0-9.]+)\ ms\ p90\ ([0-9.]+)\ ms\ p99\ ([0-9.]+)\ ms\ max\ ([0-9.]+)\ ms$ ]]
	awk -v a="${BASH_REMATCH[1]}" -v b="${BASH_REMATCH[2]}" \
	    -v c="${BASH_REMATCH[3]}" -v d="${BASH_REMATCH[4]}" \
	    'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d) }'
	[ "$(gq -h -t all -o id | wc -l)" -eq 50 ]
	# Without -l, one line as before.
	run -0 "$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n 5
	[ "${#lines[@]}" -eq 1 ]
}

@test "JOB_LIST stream: frames of 512 jobs, then up to 1,024 or 128 kB, each ending with more, the last with missing" {
	gb_start_controller
	"$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n 9000 >/dev/null
	python3 -c '
import json, socket, struct, sys
def conn():
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    send(s, {"type": 100, "version": 1, "role": "client"})
    assert recv(s)["ok"] is True
    return s
def send(s, m):
    b = json.dumps(m).encode()
    s.sendall(struct.pack(">I", len(b)) + b)
sizes = []
def recv(s):
    def rd(n):
        b = b""
        while len(b) < n:
            c = s.recv(n - len(b))
            assert c, "gbatchd closed the connection"
            b += c
        return b
    n = struct.unpack(">I", rd(4))[0]
    sizes.append(n)
    return json.loads(rd(n))

s = conn()
send(s, {"type": 201, "seq": 7, "rows": True, "fields": ["state"]})
whole = recv(s)
assert len(whole["jobs"]) == 9000 and "more" not in whole, whole.keys()

# A stream; a PING sent behind it is answered in between or after, told
# apart by its seq.
send(s, {"type": 201, "seq": 8, "rows": True, "stream": True,
         "fields": ["state"]})
send(s, {"type": 101, "seq": 9})
frames, ping = [], None
while True:
    m = recv(s)
    if m.get("seq") == 9:
        ping = m
        continue
    assert m["re"] == 201 and m["seq"] == 8 and m["ok"] is True, m
    frames.append(m)
    if not m["more"]:
        break
if ping is None:
    ping = recv(s)
assert ping["re"] == 101 and ping["ok"] is True, ping
# A short first frame, for the client to start on, then 1,024 a frame.
assert [len(f["jobs"]) for f in frames] == [512] + [1024] * 8 + [296], \
    [len(f["jobs"]) for f in frames]
assert all(f["more"] is True and "missing" not in f for f in frames[:-1])
assert frames[-1]["missing"] == [] and frames[-1]["more"] is False
assert all(f["columns"] == whole["columns"] and f["now"] == frames[0]["now"]
           for f in frames)
assert [r for f in frames for r in f["jobs"]] == whole["jobs"]

# Objects stream too; ids come in one frame, those not found in missing.
send(s, {"type": 201, "stream": True, "ids": [3, 999999], "fields": []})
m = recv(s)
assert m["jobs"] == [{"id": 3}] and m["missing"] == [999999], m
assert m["more"] is False, m
send(s, {"type": 201, "stream": "yes"})
m = recv(s)
assert m["ok"] is False and m["message"] == "stream: expected true or false", m

# Every member of 9,000 jobs is megabytes: read through a small socket
# buffer, gbatchd holds frames back while they wait unread, and the
# stream still comes whole and in order.
u = socket.socket(socket.AF_UNIX)
u.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
u.connect(sys.argv[1])
send(u, {"type": 100, "version": 1, "role": "client"})
recv(u)
send(u, {"type": 201, "stream": True})
ids, nframes, sizes[:] = [], [], []
while True:
    m = recv(u)
    ids += [j["id"] for j in m["jobs"]]
    nframes.append(len(m["jobs"]))
    if not m["more"]:
        break
assert ids == [r[0] for r in whole["jobs"]], len(ids)
# Whole members make frames of fewer jobs: each stops once past 128 kB,
# so it fits in a socket buffer (a job here is well under 2 kB).
assert all(n <= 128 * 1024 + 2048 for n in sizes), sizes
assert all(n > 128 * 1024 for n in sizes[:-1]), sizes
assert 1 < max(nframes[:-1]) < 1024, nframes
u.close()

# A client that goes away in the middle of a stream leaves gbatchd
# answering the others.
t = conn()
send(t, {"type": 201, "stream": True})
recv(t)
t.close()
send(s, {"type": 101})
assert recv(s)["ok"] is True' "$GBATCH_SOCKET"
	gctl ping >/dev/null
}

@test "a client that pipelines listings without reading them is paused, then gets every reply in order" {
	gb_start_controller
	"$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n 9000 >/dev/null
	# Twelve listings of 9,000 jobs (about 3 MB each) sent at once, and
	# nothing read until gbatchd says it stopped reading this client: its
	# unread replies passed 16 MB. Reading them then lets it go on.
	python3 -c '
import json, socket, struct, sys, time
def frame(m):
    b = json.dumps(m).encode()
    return struct.pack(">I", len(b)) + b
n = 12
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(frame({"type": 100, "version": 1, "role": "client"}) +
    b"".join(frame({"type": 201, "seq": i}) for i in range(1, n + 1)))
deadline = time.time() + 20
while b"paused until it reads its replies" not in open(sys.argv[2], "rb").read():
    assert time.time() < deadline, "gbatchd never paused the client"
    time.sleep(0.02)
s.settimeout(20)
buf = b""
def recv():
    global buf
    while True:
        if len(buf) >= 4:
            (l,) = struct.unpack(">I", buf[:4])
            if len(buf) >= 4 + l:
                m = json.loads(buf[4:4 + l])
                buf = buf[4 + l:]
                return m
        d = s.recv(1 << 20)
        assert d, "gbatchd closed the connection"
        buf += d
h = recv()
assert h["re"] == 100 and h["ok"] is True, h
for i in range(1, n + 1):
    r = recv()
    assert (r["re"], r.get("seq"), r["ok"]) == (201, i, True), (i, r.get("seq"))
    assert len(r["jobs"]) == 9000 and "truncated" not in r, (i, len(r["jobs"]))
s.shutdown(socket.SHUT_WR)
assert s.recv(1) == b"" and buf == b"", "more than the replies"' \
	    "$GBATCH_SOCKET" "$GB_DIR/gbatchd.log"
	# gbatchd serves others as before.
	run -0 gctl ping
	[[ "$output" == *"jobs: 9000 pending, 0 running"* ]]
}

@test "JOB_LIST with fields sends those members and id, nothing else" {
	gb_start_controller
	gb_submit -H --wrap 'true' >/dev/null
	gb_submit -H -G 2 --wrap 'true' >/dev/null
	run gb_rawask '{"type":201,"fields":["state","gpus"]}' '{"type":201}'
	[ "$status" -eq 0 ]
	python3 -c '
import json, sys
few, every = (json.loads(l) for l in sys.argv[1].splitlines())
assert few["ok"] is True and len(few["jobs"]) == 2, few
for j in few["jobs"]:
    assert sorted(j) == ["gpus", "id", "state"], j
    assert j["state"] == "HELD", j
assert [j["gpus"] for j in few["jobs"]] == [1, 2], few
assert [j["id"] for j in few["jobs"]] == [j["id"] for j in every["jobs"]]
assert len(every["jobs"][0]) == 75, every["jobs"][0]' "$output"
}

@test "JOB_LIST with an unknown field is refused, naming the accepted ones" {
	gb_start_controller
	run gb_rawask '{"type":201,"fields":["state","colour"]}' \
	    '{"type":201,"fields":"state"}'
	[ "$status" -eq 0 ]
	python3 -c '
import json, sys
for l in sys.argv[1].splitlines():
    r = json.loads(l)
    assert r["ok"] is False and r["code"] == "invalid", r
    assert "accepted" in r["message"] and "submit_time" in r["message"], r
assert "colour" in sys.argv[1]' "$output"
}

@test "jobs get the environment they were submitted with, across a restart" {
	gb_start_controller
	# A big environment, as gsub sends one, with values to escape and
	# one that is not ASCII: stored as written by the submit handler.
	GBT_PAD=$(head -c 1500 /dev/zero | tr '\0' p)
	export GBT_PAD
	a=$(GBT_VAR='plain' gb_submit -o a.out --wrap 'echo "$GBT_VAR"')
	b=$(GBT_VAR='quote " backslash \ tab	end' gb_submit -o b.out \
	    --wrap 'echo "$GBT_VAR"')
	c=$(GBT_VAR=$'caf\xc3\xa9' gb_submit -o c.out --wrap 'echo "$GBT_VAR"')
	d=$(GBT_VAR='plain' gb_submit -o d.out --wrap 'echo "$GBT_VAR"')
	e=$(env -u GBT_VAR gsub --parsable -o e.out \
	    --wrap 'echo "${GBT_VAR-unset}"')
	# Read back from the database, not from memory.
	kill -KILL "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	gb_start_controller -l "$GB_CTL_ADDR"
	gb_start_node n1 4
	for id in "$a" "$b" "$c" "$d" "$e"; do
		gb_wait_state "$id" COMPLETED 20
	done
	[ "$(cat a.out)" = plain ]
	[ "$(cat b.out)" = 'quote " backslash \ tab	end' ]
	[ "$(cat c.out)" = $'caf\xc3\xa9' ]
	[ "$(cat d.out)" = plain ]
	[ "$(cat e.out)" = unset ]
}

@test "an environment with a duplicate name closes that peer, no job made" {
	gb_start_controller
	pad=$(head -c 2000 /dev/zero | tr '\0' x)
	rawframes '{"type":100,"version":1,"role":"client"}' \
	    '{"type":200,"job":{"script":"true","workdir":"/tmp","env":{"A":"'"$pad"'","A":"b"}}}'
	gb_wait 10 grep -q "bad frame" "$GB_DIR/gbatchd.log"
	run gctl ping
	[ "$status" -eq 0 ]
	[[ "$output" == *"jobs: 0 pending, 0 running"* ]]
}

# conf_line KEY: the line of gbatch.conf that holds KEY.
conf_line() {
	grep -n -m 1 -- "$1" "$GBATCH_CONF" | cut -d: -f1
}

@test "gbatchd refuses an unknown controller key, naming the line and the keys accepted" {
	gb_write_conf 'node_timout = 30;'
	run -1 gbatchd -D
	[[ "$output" == *"$GBATCH_CONF: line $(conf_line node_timout): controller.node_timout: unknown key; expected socket, listen, metrics_listen, state_dir, node_timeout, heartbeat_interval, operators, allow_root_jobs, enforce_accounts, private_data, audit_log, log_level, sync, master_ports, max_connections, max_connections_per_user, connection_reserve, max_buffered_mib, max_requests_per_second, frame_timeout, idle_timeout, max_pending_per_user, keep_finished_days, min_job_age, cluster_name, replicas, replica_id, election_timeout or snapshot_every"* ]]
	[ ! -e "$GB_DIR/ctl" ]
}

@test "gbatchd refuses an unknown top-level setting" {
	gb_write_conf
	printf 'schedular = {\n  policy = "fifo";\n};\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"$GBATCH_CONF: line $(conf_line schedular): schedular: unknown top-level setting; expected the group controller, node, scheduler, tls, partitions or qos"* ]]
	gb_write_conf
	printf 'log_level = "debug";\n' >>"$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"line $(wc -l <"$GBATCH_CONF"): log_level: unknown top-level setting"* ]]
}

@test "gbatchd's type errors name the expected type and what was found" {
	gb_write_conf 'allow_root_jobs = "yes";'
	sed -i '/allow_root_jobs = true;/d' "$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"line $(conf_line '"yes"'): controller.allow_root_jobs: expected true or false, got \"yes\""* ]]
	gb_write_conf
	sed -i 's/node_timeout = [0-9]*;/node_timeout = "30";/' "$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"controller.node_timeout: expected seconds, a whole number from 1 to 86400, got \"30\""* ]]
	gb_write_conf
	sed -i 's/log_level = "debug";/log_level = "loud";/' "$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"controller.log_level: expected \"error\", \"warn\", \"info\" or \"debug\", got \"loud\""* ]]
	gb_write_conf
	sed -i 's/listen = "127.0.0.1:0";/listen = "127.0.0.1";/' "$GBATCH_CONF"
	run -1 gbatchd -D
	[[ "$output" == *"line $(conf_line 'listen = '): controller.listen: expected HOST:PORT with a port of 0-65535, got \"127.0.0.1\""* ]]
}

@test "gbatchd refuses a node_timeout shorter than three heartbeat intervals, naming both keys" {
	# Unset, the interval is a third of node_timeout, at least 1 s.
	gb_write_conf
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 2;/' "$GBATCH_CONF"
	run -1 --separate-stderr gbatchd --check-config
	[ "$stderr" = "gbatchd: $GBATCH_CONF: line $(conf_line node_timeout): controller.node_timeout (2 s) must be at least three times controller.heartbeat_interval (1 s): nodes send a heartbeat every heartbeat_interval, and one silent for node_timeout is marked down (heartbeat_interval is not set: a third of node_timeout, 1 to 5 s)" ]
	gb_write_conf 'heartbeat_interval = 5;'
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 14;/' "$GBATCH_CONF"
	run -1 --separate-stderr gbatchd --check-config
	[ "$stderr" = "gbatchd: $GBATCH_CONF: line $(conf_line node_timeout): controller.node_timeout (14 s) must be at least three times controller.heartbeat_interval (5 s): nodes send a heartbeat every heartbeat_interval, and one silent for node_timeout is marked down" ]
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 15;/' "$GBATCH_CONF"
	run -0 gbatchd --check-config
	gb_write_conf 'heartbeat_interval = 0;'
	run -1 --separate-stderr gbatchd --check-config
	[[ "$stderr" == *"controller.heartbeat_interval: expected seconds, a whole number from 1 to 3600, got 0" ]]
}

@test "a reload refuses a node_timeout shorter than three of the intervals nodes were told at start" {
	gb_write_conf 'heartbeat_interval = 2;'
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 6;/' "$GBATCH_CONF"
	gb_start_controller
	run -0 gctl show config
	[[ "$output" == *"controller.heartbeat_interval = 2"* ]]
	# The file's own rule holds (3 x 1 s), but nodes keep beating every
	# 2 s until gbatchd restarts.
	gb_write_conf 'heartbeat_interval = 1;'
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 4;/' "$GBATCH_CONF"
	run -1 gctl reconfigure
	[[ "$output" == *"controller.node_timeout (4 s) must be at least three times controller.heartbeat_interval (2 s)"*"(nodes keep the interval they were told until gbatchd restarts); the settings in force are unchanged"* ]]
	sed -i 's/node_timeout = [0-9]*;/node_timeout = 7;/' "$GBATCH_CONF"
	run -0 gctl reconfigure
	run -0 gctl show config
	[[ "$output" == *"controller.node_timeout = 7"* ]]
	[[ "$output" == *"controller.heartbeat_interval = 2"* ]]
}

@test "gbatchd --check-config prints FILE: OK and starts nothing" {
	gb_write_conf
	run -0 gbatchd --check-config
	[ "$output" = "$GBATCH_CONF: OK" ]
	[ ! -e "$GB_DIR/ctl" ]
	[ ! -e "$GBATCH_SOCKET" ]
	run -0 gbatchd -C -f "$GBATCH_CONF" -s "$GB_DIR/other.sock" -d "$GB_DIR/other"
	[ "$output" = "$GBATCH_CONF: OK" ]
	[ ! -e "$GB_DIR/other" ]
}

@test "gbatchd --check-config exits 1 with the error on stderr" {
	gb_write_conf 'sockett = "/tmp/x";'
	run -1 --separate-stderr gbatchd --check-config
	[ -z "$output" ]
	[[ "$stderr" == "gbatchd: $GBATCH_CONF: line $(conf_line sockett): controller.sockett: unknown key; expected socket,"* ]]
	run -1 --separate-stderr gbatchd --check-config -f "$GB_DIR/nope.conf"
	[[ "$stderr" == "gbatchd: $GB_DIR/nope.conf: No such file or directory" ]]
	gb_write_conf
	run -1 --separate-stderr gbatchd --check-config -l nowhere
	[[ "$stderr" == 'gbatchd: -l: expected HOST:PORT with a port of 0-65535, got "nowhere"' ]]
	run -2 gbatchd --check-config --bogus
}

@test "gbatchd --check-config with no file checks the default TLS files" {
	default=$(gbatchd --help | sed -n 's/^ *\(\/.*gbatch\.conf\))$/\1/p')
	[ -n "$default" ]
	[ ! -e "$default" ] || skip "$default exists on this machine"
	tls=${default%/gbatch.conf}/tls
	[ ! -e "$tls" ] || skip "$tls exists on this machine"
	run -1 env -u GBATCH_CONF gbatchd --check-config
	[[ "$output" == "gbatchd: tls: certificate $tls/"*".crt: No such file or directory; "*'run "gctl cert issue '*' --controller"'* ]]
}

@test "gbatchd refuses to start with a key others may read, a missing or a foreign certificate" {
	chmod 644 "$GB_DIR/tls/controller.key"
	run -1 gbatchd -D
	[[ "$output" == *"key $GB_DIR/tls/controller.key: group or others may read or write it (mode 0644)"*"chmod 600"* ]]
	chmod 600 "$GB_DIR/tls/controller.key"
	run -0 gbatchd --check-config
	# The controller's files are named for its role; the advice is for
	# the name nodes dial it by.
	sed -i 's/controller_name = "controller"/controller_name = "ctl9"/' "$GBATCH_CONF"
	mv "$GB_DIR/tls/controller.crt" "$GB_DIR/tls/controller.crt.away"
	cp -p "$GB_DIR/tls/controller.key" "$GB_DIR/tls/controller.key.away"
	run -1 gbatchd --check-config
	[[ "$output" == *"certificate $GB_DIR/tls/controller.crt: No such file or directory"*'gctl cert issue ctl9 --controller'*"copy controller.crt, controller.key (0600)"* ]]
	# A certificate of another CA.
	gctl ca init --dir "$GB_DIR/other" >/dev/null
	gctl cert issue ctl9 --controller --dir "$GB_DIR/other" >/dev/null
	cp -p "$GB_DIR/other/controller.crt" "$GB_DIR/other/controller.key" "$GB_DIR/tls/"
	run -1 gbatchd --check-config
	[[ "$output" == *"certificate $GB_DIR/tls/controller.crt: unable to get local issuer certificate"* ]]
	# A node certificate is no controller's.
	cp -p "$GB_DIR/tls/n1.crt" "$GB_DIR/tls/controller.crt"
	cp -p "$GB_DIR/tls/n1.key" "$GB_DIR/tls/controller.key"
	run -1 gbatchd --check-config
	[[ "$output" == *"certificate $GB_DIR/tls/controller.crt: not valid for a controller"* ]]
	# Where only the file of the controller's name is (releases before
	# 0.2 named it so), gbatchd takes that.
	rm "$GB_DIR/tls/controller.crt" "$GB_DIR/tls/controller.key"
	mv "$GB_DIR/tls/controller.crt.away" "$GB_DIR/tls/ctl9.crt"
	mv "$GB_DIR/tls/controller.key.away" "$GB_DIR/tls/ctl9.key"
	run -0 gbatchd --check-config
}

@test "gbatchd checks its own groups only: the node group is gnoded's" {
	gb_write_conf '' 'gpuz = 4;'
	run -0 gbatchd --check-config
	[ "$output" = "$GBATCH_CONF: OK" ]
	run -1 gnoded --check-config
	[[ "$output" == *"node.gpuz: unknown key"* ]]
}

@test "text from a peer cannot forge a log line or steer a terminal" {
	gb_start_cluster
	gctl drain n1 --reason $'evil\n2099-01-01T00:00:00.000 gbatchd info: forged \e[2J'
	gb_wait 10 grep -q 'node n1: drained' "$GB_DIR/gbatchd.log"
	gb_no_controls "$GB_DIR/gbatchd.log"
	grep -Fq 'evil\n2099-01-01T00:00:00.000 gbatchd info: forged \e[2J' \
	    "$GB_DIR/gbatchd.log"
	! grep -q '^2099' "$GB_DIR/gbatchd.log"
}

# mode_is MODE PATH...: each path has exactly that mode (octal, as stat %a).
mode_is() {
	local want=$1 p
	shift
	for p; do
		[ "$(stat -c %a "$p")" = "$want" ] || {
			echo "$p: mode $(stat -c %a "$p"), want $want"
			return 1
		}
	done
}

@test "a running cluster's files have the documented modes" {
	# Directories made wide beforehand, as systemd's StateDirectory= and
	# packages make them, are tightened at start.
	mkdir -m 0755 "$GB_DIR/ctl"
	mkdir -m 0755 "$GB_DIR/node-n1"
	gb_start_cluster
	gb_submit --wrap true >/dev/null
	# The database, its WAL and shared memory, the audit log: 0600.
	gb_wait 10 test -e "$GB_DIR/ctl/gbatch.db-wal"
	mode_is 600 "$GB_DIR/ctl/gbatch.db" "$GB_DIR/ctl/gbatch.db-wal" \
	    "$GB_DIR/ctl/gbatch.db-shm" "$GB_DIR/ctl/audit.log"
	# State directories: passed through, never listed (dirmode.h).
	mode_is 711 "$GB_DIR/ctl" "$GB_DIR/node-n1" "$GB_DIR/node-n2"
	mode_is 700 "$GB_DIR/node-n1/jobs"
	mode_is 711 "$GB_DIR/node-n1/scripts"
	# Every user may connect: SO_PEERCRED says who they are.
	mode_is 666 "$GBATCH_SOCKET"
}

@test "SQL reaches SQLite only as fixed text, user data only through bound parameters" {
	cd "$S"
	# No SQL is built by formatting anywhere in the daemons.
	[ -z "$(grep -rn 'sqlite3_[a-z]*printf' daemon/)" ]
	# Only the store talks to SQLite.
	[ "$(grep -rlE 'sqlite3_(exec|prepare)' daemon/ | sort | paste -sd' ')" = \
	    "daemon/controller/raft-disk.c daemon/controller/store-acct.c daemon/controller/store-assoc.c daemon/controller/store-load.c daemon/controller/store-log-apply.c daemon/controller/store-log.c daemon/controller/store-purge.c daemon/controller/store-resv.c daemon/controller/store.c daemon/controller/wal-ckpt.c" ]
	# The checkpointer (wal-ckpt.c) runs literals only.
	[ "$(grep -cE 'sqlite3_(exec|prepare)' daemon/controller/wal-ckpt.c)" -eq \
	    "$(grep -cE 'sqlite3_(exec|prepare)[a-z0-9_]*\(w->own, "' daemon/controller/wal-ckpt.c)" ]
	# The replicas' change log runs literals (store-log-apply.c only
	# those), and in one wrapper the statements store-log.c writes for a
	# table from the schema's own names: a table named in a log is looked
	# up through a bound parameter, and every name is checked to be a
	# plain identifier before it is written.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-log.c \
	    daemon/controller/store-log-apply.c
	[ "${#lines[@]}" -eq 6 ]
	[ "$(grep -nE 'sqlite3_(exec|prepare)[a-z0-9_]*\(db, [^"]' \
	    daemon/controller/store-log.c daemon/controller/store-log-apply.c |
	    paste -sd' ')" = \
	    "daemon/controller/store-log.c:$(grep -n 'rc = sqlite3_prepare_v3(db, (const char \*)b->p, -1,' daemon/controller/store-log.c | cut -d: -f1):	rc = sqlite3_prepare_v3(db, (const char *)b->p, -1," ]
	grep -q 'pragma_table_info(?1' daemon/controller/store-log.c
	[ "$(grep -c 'store_log_plain(' daemon/controller/store-log.c)" -eq 3 ]
	# Raft's own file (raft-disk.c) runs sql only in its four wrappers,
	# every call of which gives a literal or one of its migrations.
	[ "$(grep -cE 'sqlite3_(exec|prepare_v2)\(d->db, sql,' daemon/controller/raft-disk.c)" -eq 4 ]
	[ "$(grep -cE 'sqlite3_(exec|prepare)' daemon/controller/raft-disk.c)" -eq \
	    "$((4 + $(grep -cE 'sqlite3_(exec|prepare_v2)\(d->db, "' daemon/controller/raft-disk.c)))" ]
	[ -z "$(grep -nE 'raft_disk_text\(d, "[^"]*", [^"]' daemon/controller/raft-disk.c)" ]
	[ -z "$(grep -nE 'raft_disk_exec\(d, [^"]' daemon/controller/raft-disk.c |
	    grep -vF 'raft_disk_exec(d, raft_disk_migrations[v], "schema")')" ]
	[ -z "$(grep -nE 'raft_disk_(int|run)\(d, [^"]' daemon/controller/raft-disk.c)" ]
	[ -z "$(grep -nE 'raft_disk_run\(d, "[^"]*", [^"]' daemon/controller/raft-disk.c)" ]
	# The accounts and users (store-assoc.c, rarely changed) prepare
	# each statement where it runs, in one wrapper, every call of which
	# gives a string literal.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-assoc.c
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *'sqlite3_prepare_v2(store_handle(), sql, -1, &st, NULL)'* ]]
	[ "$(grep -c 'store_assoc_prepare(' daemon/controller/store-assoc.c)" = \
	    "$(($(grep -c 'store_assoc_prepare("' daemon/controller/store-assoc.c) + 1))" ]
	# The reservations (store-resv.c, as rarely changed) the same way.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-resv.c
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *'sqlite3_prepare_v2(store_handle(), sql, -1, &st, NULL)'* ]]
	[ "$(grep -c 'store_resv_prepare(' daemon/controller/store-resv.c)" = \
	    "$(($(grep -c 'store_resv_prepare("' daemon/controller/store-resv.c) + 1))" ]
	# Start-up's readers (store-load.c) prepare one SELECT written from
	# the field table with a literal tail, and two literals that find the
	# ids' span.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-load.c
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == *'if ((rc = sqlite3_prepare_v2(db, sql[k], -1, &st, NULL)) !='* ]]
	[[ "${lines[1]}" == *'sqlite3_prepare_v2(r->db, sql, -1, &r->st,'* ]]
	run -0 grep -c 'sql = store_sql_job_select(false, " WHERE " STORE_SQL_ACTIVE$' \
	    daemon/controller/store-load.c
	[ "$output" -eq 1 ]
	grep -q '^	    " AND id >= ?1 AND id < ?2", l->pos);$' daemon/controller/store-load.c
	grep -q '^	static const char \*const sql\[2\] = {$' daemon/controller/store-load.c
	grep -q '^		"SELECT min(id) FROM jobs WHERE state = ?1",$' daemon/controller/store-load.c
	grep -q '^		"SELECT max(id) FROM jobs WHERE state = ?1",$' daemon/controller/store-load.c
	# The purge (store-purge.c) makes its scratch table from a literal;
	# its statements are a table of literals, which store.c prepares.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-purge.c
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *'sqlite3_exec(db, "CREATE TEMP TABLE IF NOT EXISTS purge_batch ("'* ]]
	grep -q '^static const char \*const store_purge_sqls\[' daemon/controller/store-purge.c
	grep -q '^	return (store_purge_sqls\[i\]);$' daemon/controller/store-purge.c
	# The accounting queries (store-acct.c) prepare a SELECT written from
	# the field table with a literal tail, and a literal of job_runs.
	# The reports' statements are a table of literals, into which only
	# the column a report groups by goes, from a table of literals too.
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store-acct.c
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == *'sqlite3_prepare_v2(db, sql, '* ]]
	[[ "${lines[1]}" == *'sqlite3_prepare_v2(db, "SELECT run,"'* ]]
	[[ "${lines[2]}" == *'sqlite3_prepare_v2(a->db, sql, -1, &a->st[i], NULL);'* ]]
	grep -q '^static const char \*const store_acct_report_sql\[' daemon/controller/store-acct.c
	grep -q '^} store_acct_keys\[STORE_ACCT_NREPORTS\] = {$' daemon/controller/store-acct.c
	[ "$(grep -c 'xasprintf(store_acct_report_sql\[i\],$' daemon/controller/store-acct.c)" -eq 2 ]
	[ "$(grep -c 'store_acct_keys\[kind\]\.[a-z]*[,)]' daemon/controller/store-acct.c)" -eq 3 ]
	grep -q 'sql = store_sql_job_select_only(false, q->fields, STORE_ACCT_WHERE,' \
	    daemon/controller/store-acct.c
	# In it, sqlite3_exec and sqlite3_prepare* run only in the wrappers
	# and on the table of statements, which are string literals ...
	run -0 grep -nE 'sqlite3_(exec|prepare)' daemon/controller/store.c
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == *'sqlite3_exec(store.db, sql, '* ]]
	[[ "${lines[1]}" == *'sqlite3_prepare_v2(store.db, sql, '* ]]
	[[ "${lines[2]}" == *'sqlite3_prepare_v3(store.db, text, '* ]]
	# ... text being the field table's SQL, the purge's table or store_sql.
	run -0 grep -nE '^		text = ' daemon/controller/store.c
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == *'text = sql;' ]]
	[[ "${lines[1]}" == *'text = store_purge_sql(i);' ]]
	[[ "${lines[2]}" == *'text = store_sql[i];' ]]
	grep -q '^static const char \*const store_sql\[' daemon/controller/store.c
	# The jobs table's statements are written from common/job-field.h's
	# column names (literals) by store-sql.c, whose only other input is a
	# literal tail; nothing there formats a value.
	run -0 grep -nE 'store_sql_job_(select|insert|update)\(' daemon/controller/store.c
	for l in "${lines[@]}"; do
		case ${l#*:} in
		*'store_sql_job_select(false, "'*|*'store_sql_job_select(true, "'*) ;;
		*'store_sql_job_insert()'*|*'store_sql_job_update(JFF_UPDATE)'*|*'store_sql_job_update(JFF_EDIT)'*) ;;
		*) echo "job SQL not from the field table: $l"; false ;;
		esac
	done
	# Every piece store-sql.c adds is a literal, NULL or a column name
	# (c is d->column), under a condition on the length so far.
	run -0 perl -0777 -ne 'while (/store_sql_add\(&\w+,(.*?)\);/sg) {
		$a = $1; $a =~ s/"[^"]*"//g; $a =~ s/\b(NULL|d->column|c)\b//g;
		$a =~ s/\w+\.len > 0 \?//g; $a =~ s/[\s,:]//g;
		print "bad: $1\n" if $a ne ""; $n++ } print "calls $n\n"' \
	    daemon/controller/store-sql.c
	[[ "$output" != *bad:* ]]
	[[ "$output" == *"calls "[1-9]* ]]
	# ... and the wrappers (in store.c, used by store-schema.c too) get
	# literals, the migrations (literals too), or the one text formatted
	# from an integer, the schema version.
	run -0 grep -noE 'store_(exec|int)\([^,)]*' daemon/controller/store.c \
	    daemon/controller/store-schema.c
	for l in "${lines[@]}"; do
		case ${l#*:*:} in
		'store_exec(const char *sql'|'store_int(const char *sql') ;;
		'store_exec("'*|'store_int("'*|'store_exec(sync == STORE_SYNC_FULL ? "'*) ;;
		'store_exec(store_schema_migrations[v]'|'store_exec(sql') ;;
		*) echo "SQL not from a literal: $l"; false ;;
		esac
	done
	[ "$(cat daemon/controller/store*.c | grep -c 'snprintf(sql, ')" -eq 1 ]
	grep -q 'snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);' \
	    daemon/controller/store-schema.c
	grep -q '^static const char \*const store_schema_migrations\[\] = {$' \
	    daemon/controller/store-schema.c
}

@test "a time limit past 365 days sent straight to the socket is refused, naming the member and the range" {
	gb_start_controller
	# 70 years: gbatchd took it once, and the job failed at launch on
	# the node. 365 days, the most gsub and gnoded take, is taken.
	job='"script":"#!/bin/sh\ntrue\n","workdir":"/","hold":true'
	run -0 gb_rawask "{\"type\":200,\"job\":{$job,\"time_limit\":2207520000}}" \
	    "{\"type\":200,\"job\":{$job,\"time_limit\":31536001}}" \
	    "{\"type\":200,\"job\":{$job,\"time_limit\":31536000}}"
	python3 -c '
import json, sys
r = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(r) == 3, r
assert r[0]["ok"] is False and r[0]["code"] == "invalid", r[0]
assert r[0]["message"] == "time_limit: expected a whole number from 0 to 31536000, got 2207520000", r[0]
assert r[1]["ok"] is False and r[1]["message"].endswith("got 31536001"), r[1]
assert r[2]["ok"] is True, r[2]' "$output"
	id=$(gq -t HELD --noheader -o id)
	[ "$(gq -j "$id" --noheader -o time_limit)" = 365-00:00:00 ]
}

@test "gbatchd refuses what gsub refuses: a script over 512 KiB, DEL in a name" {
	gb_start_controller
	run -0 python3 - "$GBATCH_SOCKET" <<'PY'
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def call(msg):
    b = json.dumps(msg).encode()
    s.sendall(struct.pack(">I", len(b)) + b)
    n = struct.unpack(">I", s.recv(4, socket.MSG_WAITALL))[0]
    return json.loads(s.recv(n, socket.MSG_WAITALL))
call({"type": 100, "version": 1, "role": "client"})
job = {"script": "#!/bin/sh\ntrue\n", "workdir": "/", "hold": True}
r = call({"type": 200, "job": dict(job, script="#!/bin/sh\n" + "#" * 524288)})
assert not r["ok"] and r["message"] == "script: longer than 524288 bytes (524298)", r
r = call({"type": 200, "job": dict(job, name="a\x7fb")})
assert not r["ok"] and r["message"].startswith("name: holds a control character"), r
r = call({"type": 200, "job": dict(job, script="#!/bin/sh\n" + "#" * 524278)})
assert r["ok"], r
PY
}
