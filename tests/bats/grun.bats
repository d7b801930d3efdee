#!/usr/bin/env bats
# grun: interactive jobs on the local cluster, relayed through gbatchd and
# gnoded: exit status, output and input, signals, a real pseudo-terminal
# (driven by tests/bats/pty-drive.py), attaching to a running job, and the
# job's end when grun's connection goes.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	DRIVE="$S/tests/bats/pty-drive.py"
	# Jobs write their files where they are submitted.
	cd "$GB_DIR"
}

teardown() {
	if [ -n "${GB_USER:-}" ]; then
		pkill -KILL -u "$GB_USER" 2>/dev/null || true
		userdel "$GB_USER" 2>/dev/null || true
	fi
	gb_teardown
}

# The id of the newest job.
last_job() {
	gq -t all --noheader -o id --sort=-id | head -n 1
}

@test "grun relays stdout and stderr apart and exits with the command's status" {
	run --separate-stderr -7 grun -G 1 sh -c 'echo to-out; echo to-err >&2; exit 7'
	[ "$output" = "to-out" ]
	[ "$stderr" = "to-err" ]
	id=$(last_job)
	run -0 gq -t all -j "$id" --noheader -o state,exit_code,kind
	[ "$(echo $output)" = "FAILED 7 INTERACTIVE" ]
	run -0 grun -G 1 true
	run -137 grun sh -c 'kill -9 $$'
}

@test "grun relays standard input to the command, and its end" {
	run -0 bash -c 'seq 1 3 | grun -G 1 sh -c "tr 0-9 a-j; echo done"'
	[ "$output" = "$(printf 'b\nc\nd\ndone')" ]
	# Input larger than the windows, both ways, byte for byte.
	head -c 3000000 /dev/urandom >"$GB_DIR/in"
	grun -G 1 cat <"$GB_DIR/in" >"$GB_DIR/out"
	cmp "$GB_DIR/in" "$GB_DIR/out"
}

@test "grun gives the job its shape and ranks, and every task's output" {
	run -0 grun -N 2 --gpus-per-node 1 --ntasks-per-node 2 sh -c 'echo "rank $RANK of $WORLD_SIZE on $GBATCH_NODE_RANK"'
	[ "$(sort <<<"$output")" = "$(printf 'rank 0 of 4 on 0\nrank 1 of 4 on 0\nrank 2 of 4 on 1\nrank 3 of 4 on 1')" ]
}

@test "Ctrl-C reaches the command; grun exits with what it made of it" {
	grun -G 1 sh -c 'trap "echo caught INT; exit 3" INT; echo ready; while :; do sleep 0.1; done' \
	    >"$GB_DIR/out" 2>&1 &
	pid=$!
	gb_wait 20 grep -q ready "$GB_DIR/out"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	cat "$GB_DIR/out"
	[ "$rc" -eq 3 ]
	grep -q "caught INT" "$GB_DIR/out"
}

@test "grun --pty gives the command a terminal of the caller's size that follows resizes" {
	# The resize is sent once "got hello" is seen: the trap is set
	# before that, or a SIGWINCH that came first would be ignored.
	run -0 "$DRIVE" --size 33x101 \
	    'expect:ready' 'send:hello\r' 'expect:got hello' 'size:40x120' 'expect:40 120' -- \
	    grun -G 1 --pty sh -c 'tty; stty size; echo ready; read x
		trap "stty size; tty -s && echo still-a-tty; exit 0" WINCH
		echo "got $x"
		while :; do sleep 0.1; done'
	echo "$output"
	[[ "$output" == *"/dev/pts/"* ]]
	[[ "$output" == *"33 101"* ]]
	[[ "$output" == *"still-a-tty"* ]]
	# Ctrl-C on the terminal is the remote terminal's: its shell dies.
	run -130 "$DRIVE" 'expect:ready' 'send:\x03' -- \
	    grun -G 1 --pty sh -c 'echo ready; sleep 30'
}

@test "an interactive shell on the terminal: prompt, command, exit" {
	run -0 "$DRIVE" 'expect:[$#] ' 'send:echo "gpus=$CUDA_VISIBLE_DEVICES job=$GBATCH_JOB_ID"\r' \
	    'expect:gpus=[0-9]+ job=[0-9]+' 'send:exit 4\r' -- \
	    bash -c 'grun -G 1 --pty sh -i; echo "grun said $?"'
	[[ "$output" == *"grun said 4"* ]]
}

@test "a job whose grun goes away is cancelled, waiting or running" {
	grun -G 1 sleep 300 >/dev/null 2>&1 &
	pid=$!
	gb_wait 20 eval '[ "$(gq -t running --noheader -o kind)" = INTERACTIVE ]'
	id=$(last_job)
	run -0 gq --noheader -j "$id" -o reason
	[ "$(echo $output)" = INTERACTIVE ]
	kill -9 "$pid"
	gb_wait_state "$id" CANCELLED 20
	grep -q "job $id: its grun session's connection was lost; cancelling it" "$GB_DIR/gbatchd.log"
	# Waiting: held back by its begin time.
	grun -G 1 -b now+1hour true >/dev/null 2>&1 &
	pid=$!
	gb_wait 20 eval '[ "$(gq -t pending --noheader -o reason)" = BeginTime ]'
	id=$(last_job)
	kill -TERM "$pid"
	gb_wait_state "$id" CANCELLED 20
}

@test "grun says why the job waits and starts it when it can" {
	blocker=$(gb_submit -G 4 -w n1 --wrap 'sleep 300')
	blocker2=$(gb_submit -G 4 -w n2 --wrap 'sleep 300')
	gb_wait_state "$blocker" RUNNING
	gb_wait_state "$blocker2" RUNNING
	grun -G 1 sh -c 'echo ran' >"$GB_DIR/out" 2>"$GB_DIR/err" &
	pid=$!
	gb_wait 20 grep -q "queued and waiting: Resources" "$GB_DIR/err"
	gcancel "$blocker"
	wait "$pid"
	[ "$(cat "$GB_DIR/out")" = ran ]
	grep -q "runs on n1" "$GB_DIR/err"
}

@test "grun --jobid runs a command in a running job's allocation" {
	id=$(gb_submit -G 2 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING
	gpus=$(gq -j "$id" --noheader -o gpu_ids | sed 's/.*://')
	run -0 grun --jobid "$id" sh -c 'echo "$GBATCH_JOB_ID $CUDA_VISIBLE_DEVICES"; exit 0'
	[ "$output" = "$id $gpus" ]
	run -5 grun --jobid "$id" sh -c 'exit 5'
	run -0 "$DRIVE" 'expect:/dev/pts/' -- grun --jobid "$id" --pty tty
	# The job goes on.
	gb_state_is "$id" RUNNING
	run -1 grun --jobid 999999 true
	[[ "$output" == *"no job 999999"* ]]
	gcancel "$id"
	gb_wait_state "$id" CANCELLED
	run -1 grun --jobid "$id" true
}

@test "grun --jobid is refused for another user's job" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	GB_USER=gbt$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0711 "$GB_DIR"
	id=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING
	run -4 su -s /bin/sh "$GB_USER" -c "cd /; PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' grun --jobid $id id"
	[[ "$output" == *"belongs to root; you may attach only to your own jobs"* ]]
	grep -q "refused $GB_USER.*attach job $id: it belongs to root" "$GB_DIR/gbatchd.log"
}

@test "grun refuses what makes no sense for it, naming the option" {
	run -2 grun
	[[ "$output" == *"no command given"* ]]
	run -2 grun -o out.txt true
	[[ "$output" == *"--output: grun relays"* ]]
	run -2 grun --jobid abc true
	[[ "$output" == *"--jobid: expected a job id"* ]]
	run -2 gsub --pty --wrap true
	[[ "$output" == *"--pty: an option of grun"* ]]
	run -2 grun -a 1-3 true
	[[ "$output" == *"--array: a job array cannot be interactive"* ]]
	run -2 grun -H true
	[[ "$output" == *"--hold: grun waits for its job to start"* ]]
	run -2 grun --test-only true
	[[ "$output" == *"gsub --test-only says where and when"* ]]
	# gbatchd says the same to a client that asks anyway.
	run -0 gb_rawask '{"type":200,"job":{"argv":["true"],"workdir":"/","interactive":{},"array":"1-3"}}'
	[[ "$output" == *"job array cannot be interactive"* ]]
}

@test "grun works from a host without gbatchd, through gnoded's socket" {
	run -0 --separate-stderr env GBATCH_SOCKET="$GB_DIR/gnoded-n2.sock" \
	    grun -G 1 sh -c 'read x; echo "got $x"; echo err >&2; exit 6' <<<"hi" || true
	[ "$status" -eq 6 ]
	[ "$output" = "got hi" ]
	[ "$stderr" = "err" ]
}

@test "a restart of gnoded or of gbatchd ends an interactive job: its streams are gone" {
	grun -G 1 -w n1 sleep 300 </dev/null >"$GB_DIR/out" 2>"$GB_DIR/err" &
	pid=$!
	gb_wait 20 eval '[ "$(gq -t running --noheader -o kind)" = INTERACTIVE ]'
	id=$(last_job)
	kill -9 "$GB_NODE_PID_n1"
	gb_start_node n1 4
	rc=0
	wait "$pid" || rc=$?
	cat "$GB_DIR/err"
	# The cancel's SIGTERM killed the command.
	[ "$rc" -eq 143 ]
	grep -q "job $id CANCELLED" "$GB_DIR/err"
	gb_wait_state "$id" CANCELLED 20
	grep -q "job $id: its interactive session is gone; cancelling" "$GB_DIR/gnoded-n1.log"

	grun -G 1 sleep 300 </dev/null >"$GB_DIR/out" 2>"$GB_DIR/err" &
	pid=$!
	gb_wait 20 eval '[ "$(gq -t running --noheader -o kind)" = INTERACTIVE ]'
	id=$(last_job)
	kill -TERM "$GB_CTL_PID"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 3 ]
	grep -q "lost the connection to gbatchd" "$GB_DIR/err"
	wait "$GB_CTL_PID" || true
	gb_start_controller
	gb_wait_state "$id" CANCELLED 30
}

# raw_session JSON...: says HELLO, sends each JSON text as a frame, then
# prints "closed" if gbatchd closes the connection within 3 s, else "open".
raw_session() {
	python3 -c '
import json, socket, struct, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for text in ["{\"type\":100,\"version\":1,\"role\":\"client\"}"] + sys.argv[2:]:
    s.sendall(struct.pack(">I", len(text.encode())) + text.encode())
s.settimeout(0.2)
deadline = time.time() + 3
while time.time() < deadline:
    try:
        if s.recv(65536) == b"":
            print("closed"); sys.exit(0)
    except socket.timeout:
        pass
print("open")' "$GBATCH_SOCKET" "$@"
}

@test "a malformed session frame closes that client alone; another's session cannot be written to" {
	run -0 raw_session '{"type":207,"job":1,"step":0,"fd":0,"data":"not base64!"}'
	[ "$output" = closed ]
	run -0 raw_session '{"type":207,"job":"x","fd":0,"data":"aGk="}'
	[ "$output" = closed ]
	run -0 raw_session '{"type":207,"job":1,"step":0,"fd":1,"data":"aGk="}'
	[ "$output" = closed ]
	run -0 raw_session '{"type":208,"job":1,"step":0,"signal":99}'
	[ "$output" = closed ]
	run -0 raw_session '{"type":208,"job":1,"step":0,"rows":0,"cols":80}'
	[ "$output" = closed ]
	# A session that is not the sender's: ignored, the connection stays.
	mkfifo "$GB_DIR/in"
	grun -G 1 cat <"$GB_DIR/in" >"$GB_DIR/out" 2>&1 &
	pid=$!
	exec 7>"$GB_DIR/in"
	gb_wait 20 eval '[ "$(gq -t running --noheader -o kind)" = INTERACTIVE ]'
	id=$(last_job)
	run -0 raw_session "{\"type\":207,\"job\":$id,\"step\":0,\"fd\":0,\"data\":\"$(printf 'evil\n' | base64)\"}" \
	    "{\"type\":208,\"job\":$id,\"step\":0,\"signal\":9}"
	[ "$output" = open ]
	echo mine >&7
	gb_wait 20 grep -q mine "$GB_DIR/out"
	exec 7>&-
	wait "$pid"
	[ "$(cat "$GB_DIR/out")" = mine ]
	gctl ping >/dev/null
	# A bad attach is refused with what is wrong.
	id=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING
	run -0 gb_rawask "{\"type\":205,\"job\":$id,\"argv\":[],\"env\":{},\"workdir\":\"/\"}"
	[[ "$output" == *'"code":"invalid"'*"argv: expected the command"* ]]
	run -0 gb_rawask "{\"type\":205,\"job\":$id,\"argv\":[\"true\"],\"env\":{},\"workdir\":\"rel\"}"
	[[ "$output" == *"workdir: expected an absolute path"* ]]
	run -0 gb_rawask "{\"type\":205,\"job\":$id,\"node\":\"n9\",\"argv\":[\"true\"],\"env\":{},\"workdir\":\"/\"}"
	[[ "$output" == *"does not run on n9"* ]]
}
