#!/usr/bin/env bats
# A node that comes back after its jobs were requeued: never two copies of
# a job running once it is back, the stale copy stopped through its
# checkpoint signal before anything else gets its GPUs, a copy re-adopted
# when its requeued twin has not started, and one end in the job's record;
# and a controller that stalls marks no healthy node down. The verdicts
# are stale-copy.t's and node-judge.t's.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	GB_NODE_TIMEOUT=3 gb_write_conf
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# A job that logs each copy's start and the signals it gets to $GB_DIR/log
# (one line each, appended), keeps its pid in pid-NODE, and exits 0 once
# $GB_DIR/go exists; the checkpoint signal makes it exit 9 and SIGTERM 8.
# Short sleeps: teardown finds the shell by its script's path.
copy_script() {
	cat <<'SCRIPT'
#!/bin/sh
node=$(echo "$GBATCH_NODELIST" | cut -d, -f$((GBATCH_NODE_RANK + 1)))
trap 'echo "ckpt $node $$" >>"$GB_T/log"; exit 9' USR1
trap 'echo "term $node $$" >>"$GB_T/log"; exit 8' TERM
echo $$ >"$GB_T/pid-$node"
echo "start $node $GBATCH_RESTART_COUNT $$" >>"$GB_T/log"
until [ -e "$GB_T/go" ]; do sleep 0.05; done
echo "done $node $$" >>"$GB_T/log"
SCRIPT
}

submit_copy() {
	copy_script >"$GB_DIR/copy.sh"
	GB_T=$GB_DIR gsub --parsable -o out-%j.txt "$@" "$GB_DIR/copy.sh"
}

node_of() {
	gq -j "$1" --noheader -o nodes
}

kill_node() {
	local pid
	eval "pid=\$GB_NODE_PID_$1"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
}

# alive FILE: the process whose pid FILE holds runs.
alive() {
	kill -0 "$(cat "$1")" 2>/dev/null
}

starts() {
	grep -c "^start " "$GB_DIR/log"
}

@test "a node back after its job was requeued and restarted elsewhere: the stale copy gets its checkpoint signal and the record ends once" {
	gb_start_cluster
	id=$(submit_copy -G 4)
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -s "$GB_DIR/log"
	node=$(node_of "$id")
	[ "$node" = n1 ] && other=n2 || other=n1
	stale=$(cat "pid-$node")
	kill_node "$node"
	# node_timeout passes: requeued and started on the other node.
	gb_wait 20 grep -q "^start $other " "$GB_DIR/log"
	alive "pid-$node"
	gb_start_node "$node" 4
	# The stale copy is stopped through its checkpoint signal, at once.
	gb_wait 10 grep -q "^ckpt $node $stale\$" "$GB_DIR/log"
	gb_wait 10 eval "! kill -0 $stale 2>/dev/null"
	run grep -c "^term $node" "$GB_DIR/log"
	[ "$output" = 0 ]
	# One copy runs on, the one on the other node.
	alive "pid-$other"
	[ "$(node_of "$id")" = "$other" ]
	gb_state_is "$id" RUNNING
	touch go
	gb_wait_state "$id" COMPLETED 20
	run gq -j "$id" --noheader -o exit_code,restarts
	[ "$(echo $output)" = "0 1" ]
	# The record ended once, with the copy that finished.
	run gq -l "$id"
	[ "$(grep -c -- '-> COMPLETED' <<<"$output")" = 1 ]
	[ "$(grep -c -- '-> FAILED' <<<"$output")" = 0 ]
	[ "$(starts)" = 2 ]
}

@test "a node back before the requeued job started again: the running copy is re-adopted, not restarted" {
	gb_start_controller
	gb_start_node n1 4
	id=$(submit_copy -G 4)
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -s "$GB_DIR/log"
	first=$(cat pid-n1)
	kill_node n1
	# Requeued once node_timeout passed; nowhere to run.
	gb_wait_state "$id" PENDING 20
	gb_start_node n1 4
	gb_wait_state "$id" RUNNING 10
	# The same process, never restarted, and its GPU-time not counted
	# twice: at most 4 GPUs times the time since it was submitted.
	alive pid-n1
	[ "$(cat pid-n1)" = "$first" ]
	[ "$(starts)" = 1 ]
	run gq -j "$id" --noheader -o restarts
	[ "$output" = 0 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	run gq -j "$id" --json
	python3 -c '
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
wall = j["end_time"] - j["submit_time"] + 1
assert j["restarts"] == 0, j
assert j["attained"] <= 4 * wall * 1000, (j["attained"], wall)' "$output"
	[ "$(starts)" = 1 ]
	run grep -c "^ckpt\|^term" "$GB_DIR/log"
	[ "$output" = 0 ]
}

@test "a gang whose node comes back: every stale part is stopped through its checkpoint signal before the gang runs again" {
	gb_start_cluster
	id=$(submit_copy -G 8)
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -e pid-n1
	gb_wait 10 test -e pid-n2
	stale=$(cat pid-n1)
	kill_node n1
	# The other part is stopped through its checkpoint signal, and the
	# gang waits: it cannot run without n1.
	gb_wait 20 grep -q "^ckpt n2 " "$GB_DIR/log"
	gb_wait_state "$id" PENDING 20
	alive pid-n1
	gb_start_node n1 4
	# n1's part is stale: stopped the same way, and the gang's next run
	# starts only once it has gone.
	gb_wait 10 grep -q "^ckpt n1 $stale\$" "$GB_DIR/log"
	gb_wait 20 grep -q "^start n1 1 " "$GB_DIR/log"
	python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
stop = lines.index("ckpt n1 " + sys.argv[2])
again = [i for i, l in enumerate(lines) if l.startswith("start ") and l.split()[2] == "1"]
assert len(again) == 2 and min(again) > stop, lines' "$GB_DIR/log" "$stale"
	run grep -c "^term " "$GB_DIR/log"
	[ "$output" = 0 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	run gq -j "$id" --noheader -o restarts
	[ "$output" = 1 ]
}

# node_shows NODE LINE: gnodes shows NODE's state, GPUs and their jobs as
# LINE ("allocated 2/2 0:7 1:7").
node_shows() {
	[ "$(echo $(gnodes -h -N "$1" -o state,gpus,jobs))" = "$2" ]
}

# reason_is ID REASON: the job waits for REASON.
reason_is() {
	[ "$(gq -h -j "$1" -o reason)" = "$2" ]
}

@test "a node back with fewer GPUs than its running job holds, then with all: the job keeps every one, in gnodes and for the scheduler" {
	GB_NODE_TIMEOUT=10 gb_write_conf
	gb_start_controller
	gb_start_node n1 4
	id=$(submit_copy -G 4)
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -s "$GB_DIR/log"
	kill_node n1
	gb_start_node n1 2
	# The job runs on, on GPUs the node no longer lists: the two it
	# lists are the job's, and no other job is placed on them (the
	# scheduler could not adopt the job: it holds a GPU past the two).
	gb_wait 10 node_shows n1 "allocated 2/2 0:$id 1:$id"
	other=$(gb_submit -G 1 -w n1 --wrap true)
	gb_wait 10 reason_is "$other" Resources
	gb_state_is "$id" RUNNING
	kill_node n1
	gb_start_node n1 4
	gb_wait 10 node_shows n1 "allocated 4/4 0:$id 1:$id 2:$id 3:$id"
	gb_state_is "$other" PENDING
	# One copy ran throughout; once it ends, the other job runs.
	[ "$(starts)" = 1 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	gb_wait_state "$other" COMPLETED 20
	gb_wait 10 node_shows n1 "idle 0/4 0:- 1:- 2:- 3:-"
}

@test "a controller restarted while a node is away: its running job holds the GPUs its record names, counted among those the node is known to have" {
	GB_NODE_TIMEOUT=10 gb_write_conf
	gb_start_controller
	gb_start_node n1 4
	id=$(submit_copy -G 4)
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -s "$GB_DIR/log"
	# Back with 2 GPUs (the store keeps 2), away again, and the
	# controller restarted: the job's record names 4.
	kill_node n1
	gb_start_node n1 2
	gb_wait 10 node_shows n1 "allocated 2/2 0:$id 1:$id"
	kill_node n1
	gctl shutdown >/dev/null
	wait "$GB_CTL_PID" || true
	gb_start_controller
	node_shows n1 "down 2/2 0:$id 1:$id"
	run -0 gnodes -N n1 --json
	python3 -c '
import json, sys
n = json.loads(sys.argv[1])["nodes"][0]
assert n["gpus_total"] == 2 and n["gpus_alloc"] == 2, n' "$output"
	gb_start_node n1 4
	gb_wait 10 node_shows n1 "allocated 4/4 0:$id 1:$id 2:$id 3:$id"
	gb_state_is "$id" RUNNING
	[ "$(starts)" = 1 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	gb_wait 10 node_shows n1 "idle 0/4 0:- 1:- 2:- 3:-"
}

@test "a node back with fewer GPUs than a stale copy sat on: the copy is forgotten with the others, and its job runs again" {
	gb_start_cluster
	# A gang whose part on n1 sits on GPUs 2 and 3 and carries on
	# through its checkpoint signal there.
	filler=$(submit_copy -w n1 -G 2)
	gb_wait_state "$filler" RUNNING
	cat >gang.sh <<'SCRIPT'
#!/bin/sh
node=$(echo "$GBATCH_NODELIST" | cut -d, -f$((GBATCH_NODE_RANK + 1)))
if [ "$node" = n1 ]; then
	trap 'echo "ckpt $node $$" >>"$GB_T/log"' USR1
else
	trap 'echo "ckpt $node $$" >>"$GB_T/log"; exit 9' USR1
fi
echo "start $node $GBATCH_RESTART_COUNT $$" >>"$GB_T/log"
until [ -e "$GB_T/go" ]; do sleep 0.05; done
SCRIPT
	chmod +x gang.sh
	id=$(GB_T=$GB_DIR gsub --parsable -o out-%j.txt -N 2 --gpus-per-node 2 gang.sh)
	gb_wait_state "$id" RUNNING
	gb_wait 10 node_shows n1 "allocated 4/4 0:$filler 1:$filler 2:$id 3:$id"
	gb_wait 10 grep -q "^start n1 0 " "$GB_DIR/log"
	kill_node n1
	gb_wait_state "$id" PENDING 20
	# Back with its 4 GPUs: the filler is taken back, the gang's part
	# is a stale copy that will not stop.
	gb_start_node n1 4
	gb_wait 10 reason_is "$id" StaleCopy
	gb_wait 10 grep -q "^ckpt n1 " "$GB_DIR/log"
	gb_wait_state "$filler" RUNNING
	# Back again at once, listing 2 GPUs: the copy is forgotten with
	# the node's other stale copies, and not taken again (its GPUs are
	# not among the node's).
	kill_node n1
	gb_start_node n1 2
	gb_wait 10 node_shows n1 "allocated 2/2 0:$filler 1:$filler"
	gb_wait 10 reason_is "$id" Resources
	# Once the filler and the copy end, the gang runs again, on n1's
	# two GPUs and n2's.
	touch go
	gb_wait_state "$filler" COMPLETED 20
	gb_wait_state "$id" COMPLETED 20
	run gq -j "$id" --noheader -o restarts
	[ "$output" = 1 ]
}

# now_past T: the clock has reached T (seconds since the epoch).
now_past() {
	[ "$(date +%s)" -ge "$1" ]
}

# heard_since NODE T: the controller heard from NODE at T or later.
heard_since() {
	gnodes -N "$1" --json | python3 -c '
import json, sys
n = json.load(sys.stdin)["nodes"][0]
sys.exit(0 if n["last_seen"] >= int(sys.argv[1]) else 1)' "$2"
}

@test "a controller stopped for longer than node_timeout marks no healthy node down when it resumes" {
	gb_start_cluster
	id=$(submit_copy -G 4)
	gb_wait_state "$id" RUNNING
	# Stopped for longer than node_timeout (3 s) while the nodes keep
	# sending heartbeats into its socket buffers: the scenario is the
	# duration.
	kill -STOP "$GB_CTL_PID"
	sleep 4
	kill -CONT "$GB_CTL_PID"
	resumed=$(date +%s)
	gb_wait 10 grep -q "the controller did not run for" "$GB_DIR/gbatchd.log"
	gb_wait 10 heard_since n1 "$resumed"
	gb_wait 10 heard_since n2 "$resumed"
	# Past the grace (one heartbeat interval, 1 s) and a check after it.
	gb_wait 10 now_past $((resumed + 3))
	run grep -c ": down: " "$GB_DIR/gbatchd.log"
	[ "$output" = 0 ]
	gb_node_is_up n1
	gb_node_is_up n2
	gb_state_is "$id" RUNNING
	run gq -j "$id" --noheader -o restarts
	[ "$output" = 0 ]
	[ "$(starts)" = 1 ]
}

