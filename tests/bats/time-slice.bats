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
}

teardown() {
	gb_teardown
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

@test "time-slicing rotates three opted-in jobs on one GPU in turns, one running at a time" {
	frozen_cluster 1 1 'scheduler = { time_slice = 2; };'
	for x in a b c; do
		eval "$x=\$(gb_submit --time-slice -G 1 --mem-per-gpu 1G --wrap 'touch up-$x; exec sleep 1000')"
	done
	# Each starts within its first turns, on the one GPU.
	gb_wait 30 test -f up-a
	gb_wait 30 test -f up-b
	gb_wait 30 test -f up-c
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
