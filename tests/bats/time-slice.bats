#!/usr/bin/env bats
# Time-slicing (Gandiva's suspend and resume): jobs that ask it
# (gsub --time-slice, or their QOS) share their GPUs in turns of
# scheduler.time_slice when the cluster is full; the job whose turn is
# over is frozen (SUSPENDED, reason TimeSlice) and the next runs on the
# same GPUs. Needs root and cgroups that freeze, as suspend.bats; skipped,
# saying why, where gnoded runs jobs unconfined. The rules themselves
# (who joins, the order of turns) are tests/unit/sched-slice-test.c's.

load helpers
load freeze

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	GB_SLICE_USER=
}

teardown() {
	gb_teardown
	[ -z "$GB_SLICE_USER" ] || userdel "$GB_SLICE_USER" 2>/dev/null || true
	frozen_cleanup
}

# The states of jobs $@, one line "ID STATE REASON" each, as one listing
# (one request: the controller answers it between two passes).
states() {
	local ids
	ids=$(IFS=,; echo "$*")
	gq -h -t all -j "$ids" -o id,state,reason | awk '{ print $1, $2, $3 }'
}

# Whether, in one listing of jobs $@, exactly one is RUNNING and every
# other SUSPENDED for its turn.
one_turn() {
	local out
	out=$(states "$@")
	[ "$(grep -c ' RUNNING' <<<"$out")" = 1 ] &&
	    [ "$(grep -c ' SUSPENDED TimeSlice$' <<<"$out")" = $(($# - 1)) ]
}

# How many times job $1 was suspended for another's turn, as its history
# (gq -l) tells.
switches() {
	gq -l "$1" | grep -c "suspended for another job's turn"
}

switches_at_least() {
	[ "$(switches "$1")" -ge "$2" ]
}

# The one of jobs $@ that is RUNNING, in one listing; fails unless there
# is exactly one.
running_one() {
	local out
	out=$(states "$@" | awk '$2 == "RUNNING" { print $1 }')
	[ -n "$out" ] && [ "$(wc -l <<<"$out")" = 1 ] && echo "$out"
}

# Whether job $1 is in state $2 for reason $3, in one listing.
state_reason_is() {
	[ "$(states "$1")" = "$1 $2 $3" ]
}

# Whether job $1 is SUSPENDED for a reason other than its turn.
suspended_not_turn() {
	local out
	out=$(states "$1")
	[[ "$out" == "$1 SUSPENDED "* && "$out" != *" TimeSlice" ]]
}

# Whether, at one moment, exactly one of jobs $@ is RUNNING and thawed
# on n1 and every other SUSPENDED for its turn and frozen there (a job
# just switched may not be yet: a condition for gb_wait).
turns_frozen() {
	local out id st
	out=$(states "$@")
	one_turn "$@" || return 1
	while read -r id st _; do
		if [ "$st" = RUNNING ]; then
			frozen_is "$id" n1 0 || return 1
		else
			frozen_is "$id" n1 1 || return 1
		fi
	done <<<"$out"
}

# Whether process $1, a job's, is alive (not gone, not a zombie).
pid_alive() {
	! gb_pid_gone "$1"
}

# ring_start SECONDS: a one-GPU cluster taking turns of SECONDS, and on
# it jobs a, b and c (their ids set), opted in, each writing its pid to
# pid-a, pid-b or pid-c as it starts; returns once all three have (each
# within its first turns, on the one GPU).
ring_start() {
	frozen_cluster 1 1 "scheduler = { time_slice = $1; };"
	for x in a b c; do
		eval "$x=\$(gb_submit --time-slice -G 1 --mem-per-gpu 1G --wrap 'echo \$\$ >pid-$x; exec sleep 1000')"
	done
	gb_wait 30 test -s pid-a
	gb_wait 30 test -s pid-b
	gb_wait 30 test -s pid-c
}

@test "time-slicing rotates three opted-in jobs on one GPU in turns, one running at a time" {
	ring_start 2
	# The turns go round: each is frozen for the others at least twice,
	# and every listing shows one running, the others frozen.
	gb_wait 60 switches_at_least "$a" 2
	gb_wait 60 switches_at_least "$b" 2
	gb_wait 60 switches_at_least "$c" 2
	gb_wait 10 one_turn "$a" "$b" "$c"
	# The frozen ones are frozen in their cgroups, the running one not.
	run -0 states "$a" "$b" "$c"
	while read -r id st _; do
		if [ "$st" = RUNNING ]; then
			frozen_is "$id" n1 0
		else
			gb_wait 10 frozen_is "$id" n1 1
		fi
	done <<<"$output"
	# All on n1's one GPU, which gnodes shows held.
	run -0 gq -h -t all -j "$a,$b,$c" -o nodes
	[ "$(sort -u <<<"$output" | tr -d ' ')" = n1 ]
	run -0 gnodes -h -o name,gpus_alloc
	[ "$(tr -s ' ' <<<"$output")" = "n1 1" ]
}

@test "an operator's gctl resume of a job frozen for its turn gives it the turn; a suspend hands the turn on" {
	ring_start 1
	gb_wait 30 one_turn "$a" "$b" "$c"
	# The ring formed, turns now outlast the test: no turn ends on its
	# own, each change below is the operator's.
	sed -i 's/time_slice = 1;/time_slice = 600;/' "$GBATCH_CONF"
	run -0 gctl reconfigure
	gb_wait 10 one_turn "$a" "$b" "$c"
	run -0 running_one "$a" "$b" "$c"
	r=$output
	for x in "$a" "$b" "$c"; do
		[ "$x" = "$r" ] || s=$x
	done
	gb_wait 10 frozen_is "$s" n1 1
	# A user who is no operator may not give it the turn (frozen_cluster
	# ran: we are root).
	GB_SLICE_USER=gbslc$$
	useradd --no-create-home --shell /bin/sh "$GB_SLICE_USER"
	chmod 0711 "$GB_DIR"
	chmod 0666 "$GBATCH_SOCKET"
	run -4 su -s /bin/sh "$GB_SLICE_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl resume $s"
	[[ "$output" == *"only operators may resume jobs"* ]]
	state_reason_is "$s" SUSPENDED TimeSlice
	# The operator's resume: s runs, thawed; the job it displaced is
	# frozen for its turn at the next pass; one runs at a time.
	run -0 gctl resume "$s"
	gb_wait 10 state_reason_is "$r" SUSPENDED TimeSlice
	gb_wait 10 one_turn "$a" "$b" "$c"
	run -0 running_one "$a" "$b" "$c"
	[ "$output" = "$s" ]
	gb_wait 10 frozen_is "$s" n1 0
	gb_wait 10 frozen_is "$r" n1 1
	# The operator suspends the running one: another of the ring takes
	# the turn, thawed, and s shows an operator's suspension, not a turn.
	run -0 gctl suspend "$s"
	gb_wait 10 suspended_not_turn "$s"
	gq -l "$s" | grep -q "suspended by $(id -un)"
	gb_wait 10 running_one "$a" "$b" "$c"
	run -0 running_one "$a" "$b" "$c"
	t=$output
	[ "$t" != "$s" ]
	gb_wait 10 frozen_is "$t" n1 0
	gb_wait 10 frozen_is "$s" n1 1
	for x in "$a" "$b" "$c"; do
		[ "$x" = "$s" ] || [ "$x" = "$t" ] ||
		    state_reason_is "$x" SUSPENDED TimeSlice
	done
	# Resumed by the operator, s takes the turn back from t.
	run -0 gctl resume "$s"
	gb_wait 10 state_reason_is "$t" SUSPENDED TimeSlice
	gb_wait 10 one_turn "$a" "$b" "$c"
	run -0 running_one "$a" "$b" "$c"
	[ "$output" = "$s" ]
	gb_wait 10 frozen_is "$s" n1 0
	gb_wait 10 frozen_is "$t" n1 1
	# None was restarted: each runs the process it started with.
	for x in a b c; do
		pid_alive "$(cat "pid-$x")"
	done
	run -0 gq -h -t all -j "$a,$b,$c" -o restarts
	[ "$(sort -u <<<"$output" | tr -d ' ')" = 0 ]
}

@test "a ring survives a gbatchd restart: the same jobs, none restarted, one running, the turns going on" {
	ring_start 2
	# Each has had a turn and been frozen for another's.
	gb_wait 60 switches_at_least "$a" 1
	gb_wait 60 switches_at_least "$b" 1
	gb_wait 60 switches_at_least "$c" 1
	pa=$(cat pid-a) pb=$(cat pid-b) pc=$(cat pid-c)
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	gb_start_controller
	gb_wait 15 gb_node_is_up n1
	# The same jobs, each the process it started as: none restarted.
	run -0 gq -h -t all -o id
	[ "$(tr -d ' ' <<<"$output" | sort -n | paste -sd ' ')" = "$a $b $c" ]
	for x in a b c; do
		eval "p=\$p$x"
		[ "$(cat "pid-$x")" = "$p" ]
		pid_alive "$p"
	done
	run -0 gq -h -t all -j "$a,$b,$c" -o restarts
	[ "$(sort -u <<<"$output" | tr -d ' ')" = 0 ]
	# One ring still: one runs, thawed, the others frozen for their turns.
	gb_wait 10 turns_frozen "$a" "$b" "$c"
	# The turns go on: each is frozen for another again.
	na=$(switches "$a") nb=$(switches "$b") nc=$(switches "$c")
	gb_wait 60 switches_at_least "$a" $((na + 1))
	gb_wait 60 switches_at_least "$b" $((nb + 1))
	gb_wait 60 switches_at_least "$c" $((nc + 1))
	gb_wait 10 turns_frozen "$a" "$b" "$c"
	[ "$(cat pid-a) $(cat pid-b) $(cat pid-c)" = "$pa $pb $pc" ]
	for p in "$pa" "$pb" "$pc"; do
		pid_alive "$p"
	done
	run -0 gq -h -t all -j "$a,$b,$c" -o restarts
	[ "$(sort -u <<<"$output" | tr -d ' ')" = 0 ]
}

@test "gsub refuses --time-slice and --gpu-mem where they cannot apply, naming what is accepted" {
	gb_write_conf
	gb_start_controller
	run -2 gsub --time-slice -G 0 --wrap true
	[[ "$output" == *"time_slice (gsub --time-slice): a job of no GPU has no GPU to share in turns"* ]]
	run -2 gsub --time-slice -G 1-2 --wrap true
	[[ "$output" == *"an elastic job"*"expected a rigid job"* ]]
	run -2 gsub --gpu-mem 4G -G 0 --wrap true
	[[ "$output" == *"gpu_mem (gsub --gpu-mem): a job of no GPU uses no GPU memory"* ]]
	run -2 gsub --gpu-mem lots --wrap true
	[[ "$output" == *"--gpu-mem"* ]]
	# Accepted, they are kept with the job.
	id=$(gb_submit --time-slice --gpu-mem 4G -G 1 --wrap true)
	[ "$(gq -h -j "$id" -o time_slice,gpu_mem | tr -s ' ')" = "1 4096" ]
	[ "$(sqlite3 ctl/gbatch.db "SELECT time_slice, gpu_mem FROM jobs WHERE id = $id")" = "1|4096" ]
}
