#!/usr/bin/env bats
# gctl suspend and resume (scontrol suspend, resume): a running job is
# frozen in its cgroup on each of its nodes, keeps its GPUs, and its time
# limit stops while it is SUSPENDED; resumed, it runs on where it was.
# Needs root and cgroups that freeze (v1's freezer or v2's cgroup.freeze)
# for the cases that freeze; skipped, saying why, where gnoded runs jobs
# unconfined.

load helpers
load freeze

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	GB_SUSPEND_USER=
}

teardown() {
	gb_teardown
	[ -z "$GB_SUSPEND_USER" ] || userdel "$GB_SUSPEND_USER" 2>/dev/null || true
	frozen_cleanup
}

# The CPU time (clock ticks) process $1 has used.
ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

ticks_above() {
	[ "$(ticks "$1")" -gt "$2" ]
}

@test "gctl suspend freezes a running job, which keeps its GPUs and shows SUSPENDED; gctl resume thaws it" {
	frozen_cluster
	id=$(gb_submit -G 2 --wrap 'echo $$ >pid; exec python3 -c "while True: pass"')
	gb_wait 30 test -s pid
	pid=$(cat pid)
	gb_wait 10 ticks_above "$pid" 0
	run -0 gctl suspend "$id"
	gb_wait_state "$id" SUSPENDED 10
	gb_wait 10 frozen_is "$id" n1 1
	# Frozen, it uses no CPU time.
	t1=$(ticks "$pid")
	sleep 1
	[ "$(ticks "$pid")" = "$t1" ]
	# It keeps its GPUs: a job asking for one waits.
	other=$(gb_submit -G 1 --wrap 'true')
	gb_wait 10 gb_field_is "$other" reason Resources
	run -0 gq -h -j "$id" -o state,nodes
	[ "$output" = "SUSPENDED  n1" ] || [[ "$output" == SUSPENDED*n1 ]]
	run -0 "$B/slurm/squeue" -h -j "$id" -o %t
	[ "$output" = S ]
	# Twice is refused, naming the state.
	run -1 gctl suspend "$id"
	[[ "$output" == *"job $id is SUSPENDED; only a running job can be suspended"* ]]
	run -0 gctl resume "$id"
	gb_wait_state "$id" RUNNING 10
	gb_wait 10 frozen_is "$id" n1 0
	gb_wait 10 ticks_above "$pid" "$t1"
	run -1 gctl resume "$id"
	[[ "$output" == *"job $id is RUNNING; only a suspended job can be resumed"* ]]
	# The time suspended is counted apart, and not in its elapsed time.
	gcancel "$id"
	gb_wait_state "$id" CANCELLED 20
	susp=$(gq -h -t all -j "$id" --json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["suspended"], j["elapsed"], j["end_time"] - j["start_time"])')
	read -r s e wall <<<"$susp"
	[ "$s" -ge 1 ]
	[ "$e" -le $((wall - s + 1)) ]
}

@test "a suspended job's time limit is put off by the time it was suspended" {
	frozen_cluster
	id=$(gb_submit -G 1 -t 0:06 --wrap 'touch up; sleep 1000')
	gb_wait 30 test -f up
	run -0 gctl suspend "$id"
	gb_wait 10 frozen_is "$id" n1 1
	# Suspended for longer than its whole limit: not ended.
	sleep 7
	gb_state_is "$id" SUSPENDED
	gctl resume "$id"
	gb_wait_state "$id" TIMEOUT 30
	json=$(gq -h -t all -j "$id" --json)
	read -r s e wall <<<"$(python3 -c 'import json,sys; j=json.loads(sys.argv[1])["jobs"][0]; print(j["suspended"], j["elapsed"], j["end_time"] - j["start_time"])' "$json")"
	# It ran its 6 s, and was suspended 7 s or more besides.
	[ "$s" -ge 7 ]
	[ "$e" -ge 5 ]
	[ "$e" -le 9 ]
	[ "$wall" -ge 13 ]
	run -0 "$B/slurm/sacct" -j "$id" -n -P -o State,Suspended
	[ "$output" = "TIMEOUT|$(printf "00:00:%02d" "$s")" ]
}

@test "a suspended gang is frozen and thawed whole, on every node" {
	frozen_cluster 2
	id=$(gb_submit -N 2 -G 4 --wrap 'touch "up-$GBATCH_NODE_RANK"; sleep 1000')
	gb_wait_state "$id" RUNNING 30
	gb_wait 30 test -f up-0 -a -f up-1
	run -0 gctl suspend "$id"
	gb_wait 10 frozen_is "$id" n1 1
	gb_wait 10 frozen_is "$id" n2 1
	run -0 gctl resume "$id"
	gb_wait 10 frozen_is "$id" n1 0
	gb_wait 10 frozen_is "$id" n2 0
	gb_state_is "$id" RUNNING
	# A suspended gang requeued is thawed, checkpointed and waits again.
	run -0 gctl suspend "$id"
	gb_wait 10 frozen_is "$id" n2 1
	run -0 gctl requeue "$id"
	gb_wait 30 gb_field_is "$id" restarts 1
}

@test "only operators suspend and resume jobs; a node that cannot freeze is named" {
	gb_write_conf
	gb_start_cluster
	id=$(gb_submit -G 1 --wrap 'sleep 1000')
	gb_wait_state "$id" RUNNING 20
	# gnoded runs these jobs without cgroups: nothing can freeze them.
	run -1 gctl suspend "$id"
	[[ "$output" == *"job $id runs on n"[12]", whose gnoded cannot freeze jobs (it needs node.cgroups = true"* ]]
	gb_state_is "$id" RUNNING
	run -1 gctl resume "$id"
	[[ "$output" == *"only a suspended job can be resumed"* ]]
	run -2 gctl suspend
	[[ "$output" == *"suspend: expected one or more job ids"* ]]
	run -1 gctl suspend 99999
	[[ "$output" == *"no such job"* ]]
	[ "$(id -u)" -eq 0 ] || skip "needs root: creates a throwaway user"
	GB_SUSPEND_USER=gbsus$$
	useradd --no-create-home --shell /bin/sh "$GB_SUSPEND_USER"
	chmod 0711 "$GB_DIR"
	chmod 0666 "$GBATCH_SOCKET"
	run -4 su -s /bin/sh "$GB_SUSPEND_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl suspend $id"
	[[ "$output" == *"only operators may suspend jobs"* ]]
	run -4 su -s /bin/sh "$GB_SUSPEND_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl resume job $id"
	[[ "$output" == *"only operators may resume jobs"* ]]
	gb_state_is "$id" RUNNING
}

@test "a suspended job cancelled is thawed to get its SIGTERM, and ends CANCELLED" {
	frozen_cluster
	id=$(gb_submit -G 1 --wrap 'trap "echo term >got; exit 0" TERM; touch up; while :; do sleep 0.1; done')
	gb_wait 30 test -f up
	run -0 gctl suspend "$id"
	gb_wait 10 frozen_is "$id" n1 1
	run -0 gcancel "$id"
	gb_wait_state "$id" CANCELLED 30
	# The job's own trap ran: it was thawed before its SIGTERM.
	[ "$(cat got)" = term ]
	[ "$(gq -h -t all -j "$id" -o suspended)" != "" ]
}
