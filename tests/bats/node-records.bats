#!/usr/bin/env bats
# A node's job records (node-record.c): one file a job in STATE/jobs, a
# record a line, appended by gnoded and the shepherd; the last whole line of
# a kind is the record. Each test runs a controller and two 4-GPU simulated
# nodes, n1 and n2.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	mkdir -p "$GB_DIR/work"
	cd "$GB_DIR/work"
}

teardown() {
	gb_teardown
}

# waiter CODE: the command of a job that counts its runs in runs-ID (a
# line each) in the work directory, waits for the file release-ID there,
# then exits with CODE.
waiter() {
	echo 'echo run >>runs-$GBATCH_JOB_ID; touch started-$GBATCH_JOB_ID; while [ ! -e release-$GBATCH_JOB_ID ]; do sleep 0.05; done; exit '"$1"
}

# ran_once ID...: each job ran once, never requeued.
ran_once() {
	local id
	for id in "$@"; do
		[ "$(cat "runs-$id")" = run ]
		[ "$(gq -h -t all -j "$id" -o restarts)" = 0 ]
	done
}

records() {
	echo "$GB_DIR/node-n1/jobs"
}

# kill_n1 / restart_n1: gnoded of n1 dies with kill -9, and comes back as
# gb_start_node started it, well within node_timeout: its jobs are not
# requeued meanwhile. restart_n1 returns once the controller has its HELLO.
kill_n1() {
	kill -9 "$GB_NODE_PID_n1"
	wait "$GB_NODE_PID_n1" 2>/dev/null || true
}

hellos_n1() {
	grep -c 'node n1: up from' "$GB_DIR/gbatchd.log"
}

restart_n1() {
	local n
	n=$(hellos_n1)
	gnoded -D -f "$GBATCH_CONF" -n n1 -g 4 -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-n1" -u "$GB_DIR/gnoded-n1.sock" \
	    -L "$GB_DIR/gnoded-n1.log" &
	GB_NODE_PIDS+=($!)
	GB_NODE_PID_n1=$!
	gb_wait 10 eval '[ "$(hellos_n1)" -gt "$n" ]'
}

# legacy ID: turns the job's file into the two an older gnoded wrote, each
# record whole in a file of its own.
legacy() {
	local dir
	dir=$(records)
	gb_node_record n1 "$1" run >"$dir/$1.run"
	[ -s "$dir/$1.run" ]
	if [ -n "$(gb_node_record n1 "$1" end)" ]; then
		gb_node_record n1 "$1" end >"$dir/$1.end"
	fi
	rm "$dir/$1.job"
}

@test "a job's records are one file: gnoded's run record, then the shepherd's, then its end; removed once acknowledged" {
	id=$(gb_submit -w n1 -G 1 --wrap "$(waiter 0)")
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -e "started-$id"
	run -0 ls -A "$(records)"
	[ "$output" = "$id.job" ]
	run -0 grep -c '^run {' "$(records)/$id.job"
	[ "$output" = 2 ]
	run -1 grep -c '^end ' "$(records)/$id.job"
	[ "$output" = 0 ]
	# The last run record is the shepherd's: its pid is a live child of
	# this node's gnoded.
	shep=$(gb_node_record n1 "$id" run | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["shepherd_pid"])')
	[ "$(ps -o ppid= -p "$shep" | tr -d ' ')" = "$GB_NODE_PID_n1" ]
	touch "release-$id"
	gb_wait_state "$id" COMPLETED
	ran_once "$id"
	gb_wait 10 eval '[ -z "$(ls -A "$(records)")" ]'
}

@test "a torn last line is not a record, a garbled one is passed over, and the next record is read whole" {
	id=$(gb_submit -w n1 -G 1 --wrap "$(waiter 3)")
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -e "started-$id"
	kill_n1
	f=$(records)/$id.job
	# A garbled line of each kind, then an end record as a crash would
	# leave it, whole JSON but without its newline: none of them is read.
	printf '\nrun {"id":%s,"pid":\nend {"id":%s,"sta\n' "$id" "$id" >>"$f"
	printf 'end {"id":%s,"state":"COMPLETED","exit_code":0,"signal":0,"start_time":1,"end_time":2,"message":""}' "$id" >>"$f"
	restart_n1
	# Re-attached with the shepherd's run record, not ended by the torn
	# line: the job runs on, and its own end is what gq shows.
	gb_state_is "$id" RUNNING
	touch "release-$id"
	gb_wait_state "$id" FAILED
	run -0 gq -h -t all -j "$id" -o exit_code,message
	echo "$output"
	[[ "$output" == 3* ]]
	[[ "$output" != *"without recording"* ]]
	ran_once "$id"
	gb_wait 10 eval '[ -z "$(ls -A "$(records)")" ]'
}

@test "jobs an older gnoded started, with ID.run and ID.end, are still read and removed" {
	a=$(gb_submit -w n1 -G 1 --wrap "$(waiter 3)")
	b=$(gb_submit -w n1 -G 1 --wrap "$(waiter 0)")
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	gb_wait 10 test -e "started-$a"
	gb_wait 10 test -e "started-$b"
	kill_n1
	# a ends while gnoded is away; b runs on.
	touch "release-$a"
	gb_wait 10 eval '[ -n "$(gb_node_record n1 "$a" end)" ]'
	legacy "$a"
	legacy "$b"
	[ -s "$(records)/$a.end" ]
	[ ! -e "$(records)/$b.end" ]
	restart_n1
	gb_wait_state "$a" FAILED
	run -0 gq -h -t all -j "$a" -o exit_code,message
	echo "$output"
	[[ "$output" == 3* ]]
	[[ "$output" != *"without recording"* ]]
	gb_state_is "$b" RUNNING
	touch "release-$b"
	gb_wait_state "$b" COMPLETED
	ran_once "$a" "$b"
	gb_wait 10 eval '[ -z "$(ls -A "$(records)")" ]'
}
