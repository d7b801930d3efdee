#!/usr/bin/env bats
# array.bats: job arrays (gsub -a, sbatch's --array): ranges, steps and
# lists with the variables each task sees and its own output file (%A,
# %a); the throttle held under load; pending tasks folded into one row;
# cancelling one task, a set of tasks and the whole array; what is refused
# at submit; an array that waits through a controller restart. Tasks end
# when the test says (a file appears), never after a sleep.

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

# rows ID: "JOBID STATE" of every job of array ID, in id order.
rows() {
	gq -h -t all -j "$1" -o id,state | awk '{ print $1, $2 }'
}

count_state() {
	gq -h -t all -j "$1" -o state | grep -c "^$2\$" || true
}

# all_done ID N: N tasks of array ID have completed.
all_done() {
	[ "$(count_state "$1" COMPLETED)" = "$2" ]
}

# in_state ID STATE N: N jobs of array ID are in STATE.
in_state() {
	[ "$(count_state "$1" "$2")" = "$3" ]
}

# reason_is ID REASON
reason_is() {
	[ "$(gq -h -j "$1" -o reason)" = "$2" ]
}

# task_state_is ID TASK STATE
task_state_is() {
	[ "$(gq -h -t all -j "$1" -o id,state | awk -v t="$1_$2" '$1 == t { print $2 }')" = "$3" ]
}

@test "a stepped range: each task sees its place and writes its own file" {
	id=$(gb_submit -a 0-20:5 -J steps --wrap 'echo "$GBATCH_ARRAY_JOB_ID $GBATCH_ARRAY_TASK_ID $GBATCH_ARRAY_TASK_COUNT $GBATCH_ARRAY_TASK_MIN $GBATCH_ARRAY_TASK_MAX $SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_STEP"')
	gb_wait 30 all_done "$id" 5
	for t in 0 5 10 15 20; do
		[ "$(cat "gbatch-${id}_$t.out")" = "$id $t 5 0 20 $id $t 5" ]
	done
	[ "$(ls gbatch-"${id}"_*.out | wc -l)" = 5 ]
	# Each task is a record of its own, named as Slurm names it.
	run -0 rows "$id"
	for t in 0 5 10 15 20; do
		[[ "$output" == *"${id}_$t COMPLETED"* ]]
	done
	[ "${#lines[@]}" = 5 ]
	# Accounting: a record per task, with its array and its task.
	run -0 gacct -n -o id,array_job_id,array_task_id,state
	for t in 0 5 10 15 20; do
		[ "$(awk -v j="${id}_$t" '$1 == j { print $2, $3, $4 }' <<<"$output")" = "$id $t COMPLETED" ]
	done
}

@test "a list, and -o with %A and %a" {
	id=$(gb_submit --array=1,3,7-8 -o 'out-%A-%a.txt' --wrap 'echo $GBATCH_ARRAY_TASK_ID')
	gb_wait 30 all_done "$id" 4
	for t in 1 3 7 8; do
		[ "$(cat "out-$id-$t.txt")" = "$t" ]
	done
	[ ! -e "out-$id-2.txt" ]
}

# A task that runs until go-ID_TASK exists, logging its start and end.
@test "the throttle holds under load, and the rest show as one folded row" {
	id=$(gb_submit -a 0-7%2 --wrap 'echo "start $(date +%s%N)" >>log; while [ ! -e go-$GBATCH_ARRAY_TASK_ID ]; do sleep 0.05; done; echo "end $(date +%s%N)" >>log')
	gb_wait 20 in_state "$id" RUNNING 2
	# Eight GPUs are free, yet two run; the others wait in one row.
	[ "$(gq -h -t PENDING -o id,reason | awk '{ print $1, $2 }')" = "${id}_[2-7%2] JobArrayTaskLimit" ]
	[ "$(gq -h -t RUNNING -o id | awk '{ print $1 }' | sort | tr '\n' ' ')" = "${id}_0 ${id}_1 " ]
	# Another user's job is not held back by the throttle.
	other=$(gb_submit -G 4 --wrap true)
	gb_wait_state "$other" COMPLETED 20
	for t in 0 1 2 3 4 5 6 7; do
		touch "go-$t"
	done
	gb_wait 60 all_done "$id" 8
	# Never more than two at once: replay the starts and ends in order.
	run -0 awk '{ print $2, $1 }' log
	max=$(sort -n log -k2 | awk '$1 == "start" { n++ } $1 == "end" { n-- } n > m { m = n } END { print m }')
	[ "$max" -le 2 ]
	[ "$(grep -c start log)" = 8 ]
}

@test "gcancel takes one task, a set of tasks, and the whole array" {
	id=$(gb_submit -a 0-9%1 --wrap 'while [ ! -e go ]; do sleep 0.05; done')
	gb_wait 20 in_state "$id" RUNNING 1
	# A task still in the array's row becomes a record of its own.
	run -0 gcancel "${id}_5"
	[ "$(gq -h -t all -j "$id" -o id,state | awk -v t="${id}_5" '$1 == t { print $2 }')" = CANCELLED ]
	run -0 gcancel "${id}_[7-8]"
	[ "$(count_state "$id" CANCELLED)" = 3 ]
	[ "$(gq -h -t PENDING -o id)" = "${id}_[1-4,6,9%1]" ]
	# The running one.
	run -0 gcancel "${id}_0"
	gb_wait 20 task_state_is "$id" 0 CANCELLED
	# A task that is no longer there, and bad forms.
	run -1 gcancel "${id}_5"
	[[ "$output" == *"job ${id}_5: no such array task"* ]]
	run -2 gcancel "${id}_[3-"
	[[ "$output" == *"${id}_[3-"* ]]
	# The whole array: what runs and what waits.
	gb_wait 20 in_state "$id" RUNNING 1
	run -0 gcancel "$id"
	gb_wait 20 in_state "$id" RUNNING 0
	[ "$(count_state "$id" PENDING)" = 0 ]
	[ "$(count_state "$id" COMPLETED)" = 0 ]
}

@test "bad arrays are refused at submit with what is accepted" {
	run -2 gsub -a 5-3 --wrap true
	[[ "$output" == "gsub: --array: '5-3': "* ]]
	run -2 gsub --array=0-9%0 --wrap true
	[[ "$output" == "gsub: --array: "* ]]
	run -2 gsub --array=x --wrap true
	[[ "$output" == "gsub: --array: 'x': "*"e.g. 7, 0-99 or 0-20:2"* ]]
	[ -z "$(gq -h -t all -o id)" ]
}

@test "gsub --wait and gq --wait wait for every task, with the status of one that failed" {
	run -0 gsub --wait -a 0-3%2 --wrap 'exit 0'
	[[ "$output" == "Submitted job "* ]]
	run -2 gsub --wait -a 0-2 --wrap 'exit $GBATCH_ARRAY_TASK_ID'
	id=$(echo "$output" | awk '/^Submitted/ { print $3 }')
	# In id order the array's own row comes first: it took the last
	# task, 2.
	[[ "$output" == *"job ${id}_2 FAILED: exited with status 2"* ]]
	# Every task had ended when gsub returned.
	[ "$(count_state "$id" RUNNING)" = 0 ]
	[ "$(count_state "$id" PENDING)" = 0 ]
	[ "$(count_state "$id" COMPLETED)" = 1 ]
	held=$(gb_submit -H -a 0-1 --wrap true)
	gq --wait "$held" 3>&- &
	waiter=$!
	gctl release "$held"
	wait "$waiter"
	[ "$(count_state "$held" COMPLETED)" = 2 ]
}

@test "#SBATCH --array; the array waits through a controller restart" {
	printf '#!/bin/sh\n#SBATCH --array=0-3%%1\n#SBATCH -J arr\nwhile [ ! -e go-$SLURM_ARRAY_TASK_ID ]; do sleep 0.05; done\n' >a.sh
	id=$(sbatch_like a.sh)
	gb_wait 20 in_state "$id" RUNNING 1
	gctl shutdown >/dev/null
	wait "$GB_CTL_PID" || true
	gb_start_controller
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 gb_node_is_up n2
	[ "$(gq -h -t PENDING -o id)" = "${id}_[1-3%1]" ]
	touch go-0 go-1 go-2 go-3
	gb_wait 60 all_done "$id" 4
	[ "$(gq -h -t all -j "$id" -o name | sort -u)" = arr ]
}

sbatch_like() {
	gsub --parsable "$@"
}

@test "gq -r shows each waiting task; gctl holds and releases an array and a task" {
	id=$(gb_submit -a 0-5%1 --wrap 'while [ ! -e go-$GBATCH_ARRAY_TASK_ID ]; do sleep 0.05; done')
	gb_wait 20 in_state "$id" RUNNING 1
	[ "$(gq -h -t PENDING -o id)" = "${id}_[1-5%1]" ]
	run -0 gq -h -r -t PENDING -o id,array_task_id,state
	[ "$(echo "$output" | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" = "${id}_1 1 PENDING ${id}_2 2 PENDING ${id}_3 3 PENDING ${id}_4 4 PENDING ${id}_5 5 PENDING " ]
	# One task held alone leaves the row; the whole array, the rest.
	run -0 gctl hold "${id}_3"
	[ "$(gq -h -t HELD -o id)" = "${id}_3" ]
	[ "$(gq -h -t PENDING -o id)" = "${id}_[1-2,4-5%1]" ]
	run -0 gctl hold "$id"
	[ "$(gq -h -t PENDING -o id)" = "" ]
	[ "$(gq -h -t HELD -o id | awk '{ print $1 }' | sort | tr '\n' ' ')" = "${id}_3 ${id}_[1-2,4-5%1] " ]
	touch go-0
	gb_wait 20 in_state "$id" COMPLETED 1
	# Held, nothing starts; released, the throttle still holds.
	[ "$(count_state "$id" RUNNING)" = 0 ]
	run -0 gctl release "$id"
	gb_wait 20 in_state "$id" RUNNING 1
	run -1 gctl release "$id"
	[[ "$output" == *"array $id has no held task to release"* ]]
	touch go-1 go-2 go-3 go-4 go-5
	gb_wait 60 all_done "$id" 6
}

@test "dependencies on a whole array and on one task" {
	id=$(gb_submit -a 0-2 --wrap 'while [ ! -e go-$GBATCH_ARRAY_TASK_ID ]; do sleep 0.05; done; exit $(cat go-$GBATCH_ARRAY_TASK_ID)')
	gb_wait 20 in_state "$id" RUNNING 3
	whole=$(gb_submit -d "afterok:$id" --wrap true)
	one=$(gb_submit -d "afterok:${id}_1" --wrap true)
	bad=$(gb_submit -d "afterok:${id}_2" --wrap true)
	[ "$(gq -h -j "$one" -o dependency)" = "afterok:${id}_1" ]
	gb_wait 10 reason_is "$whole" Dependency
	echo 0 >go-1
	gb_wait_state "$one" COMPLETED 20
	[ "$(gb_state "$whole")" = PENDING ]
	echo 1 >go-2
	gb_wait 20 reason_is "$bad" DependencyNeverSatisfied
	# One failed task: the whole array can never have completed.
	gb_wait 20 reason_is "$whole" DependencyNeverSatisfied
	echo 0 >go-0
	gb_wait 20 in_state "$id" RUNNING 0
	run -1 gsub -d "afterok:${id}_7" --wrap true
	[[ "$output" == *"job $id has no array task 7"* ]]
	gcancel "$whole" "$bad"
}

@test "a task is named ID_TASK everywhere: gq -j, gacct -j, gnodes, gtop; gacct -j ID lists every task" {
	# Task 0 runs until told; tasks 1-3 end at once.
	id=$(gb_submit -a 0-3 -J named --wrap 'if [ "$GBATCH_ARRAY_TASK_ID" = 0 ]; then while [ ! -e go ]; do sleep 0.05; done; fi')
	gb_wait 30 task_state_is "$id" 0 RUNNING
	gb_wait 30 in_state "$id" COMPLETED 3
	# gq takes the task's name and shows that row alone.
	run -0 gq -h -j "${id}_0" -o id,state
	[ "$(awk '{ print $1, $2 }' <<<"$output")" = "${id}_0 RUNNING" ]
	run -0 gq -h -t all -j "${id}_2" -o id,state
	[ "$(awk '{ print $1, $2 }' <<<"$output")" = "${id}_2 COMPLETED" ]
	run -1 gq -h -j "${id}_9"
	[[ "$output" == *"gq: job ${id}_9: not found"* ]]
	run -2 gq -j "${id}_x"
	[[ "$output" == *"--jobs: job id '${id}_x': expected ID, ID_TASK or ID_[TASKS]"* ]]
	# gnodes and gtop name the GPU's job as the user does.
	node=$(gq -h -j "${id}_0" -o nodes)
	gnodes -h -N "$node" -o jobs | grep -qw "0:${id}_0\|[0-9]:${id}_0"
	run -0 env COLUMNS=100 gtop --once
	[[ "$output" == *" ${id}_0 "* ]]
	touch go
	gb_wait 30 all_done "$id" 4
	# gacct -j ID: every task, as sacct -j does; -j ID_TASK: that one.
	run -0 gacct -n -o id,state -j "$id"
	[ "$(awk '{ print $1 }' <<<"$output" | sort | paste -sd' ')" = "${id}_0 ${id}_1 ${id}_2 ${id}_3" ]
	run -0 gacct -n -o id -j "${id}_1,${id}_3"
	[ "$(sort <<<"$output" | paste -sd' ')" = "${id}_1 ${id}_3" ]
	run -0 "$GBATCH_BUILDDIR/slurm/sacct" -n -X -P -o JobID -j "${id}_2"
	[ "$output" = "${id}_2" ]
}
