#!/usr/bin/env bats
# depend.bats: jobs that wait for other jobs (gsub -d, sbatch's
# --dependency), end to end: a chain, after and a never-met afterok, joins
# by ',' and '?', singleton, what is refused at submit,
# kill_invalid_depend, #SBATCH lines, and a controller restart while a job
# waits. How each type stands for each state of the other job, and how
# arrays, purged jobs and the kill rule are judged, are depend.t's and
# depend-judge.t's. Jobs end when the test says (a file appears), never
# after a sleep.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	gb_start_cluster
}

teardown() {
	gb_teardown
}

# held_job NAME [GSUB ARGS]: a job that runs until the file go-NAME
# exists, then exits with what the file holds (0 when empty).
held_job() {
	local name=$1
	shift
	gb_submit -J "$name" "$@" --wrap "while [ ! -e go-$name ]; do sleep 0.05; done; exit \$(cat go-$name)"
}

# finish NAME [STATUS]: lets held_job NAME end with STATUS.
finish() {
	echo "${2:-0}" >"go-$1.tmp"
	mv "go-$1.tmp" "go-$1"
}

state_reason() {
	gq -h -t all -j "$1" -o state,reason | awk '{ print $1, $2 }'
}

waits_for() {
	[ "$(state_reason "$1")" = "PENDING $2" ]
}

@test "afterok waits for a completion, then runs; a chain runs in order" {
	a=$(held_job a)
	gb_wait_state "$a" RUNNING 20
	b=$(held_job b -d "afterok:$a")
	c=$(held_job c --dependency="afterok:$b")
	gb_wait 10 waits_for "$b" Dependency
	gb_wait 10 waits_for "$c" Dependency
	# Waiting for its dependency is not waiting in the scheduler's queues.
	[ "$(gq -h -j "$b" -o queue)" = - ]
	[ "$(gq -h -j "$b" -o dependency)" = "afterok:$a" ]
	finish a
	gb_wait_state "$b" RUNNING 20
	waits_for "$c" Dependency
	finish b
	gb_wait_state "$c" RUNNING 20
	finish c
	gb_wait_state "$c" COMPLETED 20
	[ "$(gq -h -t all -j "$b" -o start_time)" \> "$(gq -h -t all -j "$a" -o end_time)" ] ||
	    [ "$(gq -h -t all -j "$b" -o start_time)" = "$(gq -h -t all -j "$a" -o end_time)" ]
}

@test "after runs once its job has started; afterok of a failed job can never be met and says so" {
	a=$(held_job a)
	gb_wait_state "$a" RUNNING 20
	started=$(gb_submit -d "after:$a" --wrap true)
	ok=$(gb_submit -d "afterok:$a" --wrap true)
	# after: the job has started, which it has.
	gb_wait_state "$started" COMPLETED 20
	waits_for "$ok" Dependency
	finish a 3
	# afterok of a failed job can never be met: it stays, saying so.
	gb_wait 20 waits_for "$ok" DependencyNeverSatisfied
	run -0 gq -l "$ok"
	[[ "$output" == *"DependencyNeverSatisfied"* ]]
}

@test "'?' takes any condition, ',' needs all; singleton runs one job of a name at a time" {
	a=$(held_job a)
	b=$(held_job b)
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	either=$(gb_submit -d "afterok:$a?afterok:$b" --wrap true)
	both=$(gb_submit -d "afterok:$a,afterok:$b" --wrap true)
	s1=$(held_job solo)
	gb_wait_state "$s1" RUNNING 20
	s2=$(gb_submit -J solo -d singleton --wrap true)
	gb_wait 10 waits_for "$s2" Dependency
	finish a
	gb_wait_state "$either" COMPLETED 20 || { gq -t all -o id,state,reason,dependency >&3; false; }
	waits_for "$both" Dependency
	finish b
	gb_wait_state "$both" COMPLETED 20
	waits_for "$s2" Dependency
	finish solo
	gb_wait_state "$s2" COMPLETED 20
}

@test "a dependency naming no job, or not written as Slurm's, is refused at submit" {
	run -1 gsub -d afterok:99999 --wrap true
	[[ "$output" == *"dependency: job 99999 does not exist"* ]]
	run -2 gsub -d afterok --wrap true
	[[ "$output" == *"--dependency: afterok: expected afterok:ID[:ID...]"* ]]
	run -2 gsub -d "afterok:1,afterany:2?after:3" --wrap true
	[[ "$output" == *"',' (all) and '?' (any) in one dependency"* ]]
	run -2 gsub -d afterok:4_x --wrap true
	[[ "$output" == *"expected ID or ID_TASK"* ]]
	run -1 gsub -d afterok:99999_1 --wrap true
	[[ "$output" == *"dependency: job 99999 does not exist"* ]]
	run -2 gsub --kill-on-invalid-dep=maybe --wrap true
	[[ "$output" == *'--kill-on-invalid-dep: expected yes or no, got "maybe"'* ]]
	# Nothing was submitted.
	[ -z "$(gq -h -t all -o id)" ]
}

@test "kill_invalid_depend cancels a job that can never start; --kill-on-invalid-dep decides per job" {
	a=$(held_job a)
	gb_wait_state "$a" RUNNING 20
	keep=$(gb_submit -d "afterok:$a" --wrap true)
	kill=$(gb_submit -d "afterok:$a" --kill-on-invalid-dep=yes --wrap true)
	spare=$(gb_submit -d "afterok:$a" --kill-on-invalid-dep=no --wrap true)
	finish a 1
	gb_wait_state "$kill" CANCELLED 20
	run -0 gq -l "$kill"
	[[ "$output" == *"its dependency can never be satisfied (afterok:$a: job $a FAILED)"* ]] || { echo "$output" >&3; false; }
	gb_wait 10 waits_for "$keep" DependencyNeverSatisfied
	# The cluster's word, reloaded, for the jobs that gave none.
	gb_write_conf
	printf 'scheduler = {\n  kill_invalid_depend = true;\n};\n' >>"$GBATCH_CONF"
	gctl reconfigure >/dev/null
	gb_wait_state "$keep" CANCELLED 20
	waits_for "$spare" DependencyNeverSatisfied
	gctl show config | grep -qx 'scheduler.kill_invalid_depend = true'
}

@test "#SBATCH --dependency; a job keeps waiting through a controller restart" {
	a=$(held_job a)
	gb_wait_state "$a" RUNNING 20
	printf '#!/bin/sh\n#SBATCH --dependency=afterok:%s\n#SBATCH -J after-a\ntrue\n' "$a" >s.sh
	b=$(gb_submit s.sh)
	gb_wait 10 waits_for "$b" Dependency
	gctl shutdown >/dev/null
	wait "$GB_CTL_PID" || true
	gb_start_controller
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 waits_for "$b" Dependency
	finish a
	gb_wait_state "$b" COMPLETED 30
	[ "$(gq -h -t all -j "$b" -o name)" = after-a ]
}
