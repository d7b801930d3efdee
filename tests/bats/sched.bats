#!/usr/bin/env bats
# Live scheduling on a real local cluster: queues by attained service,
# demotion, preemption and requeue, reasons, persistence across a
# controller restart. Thresholds are a few GPU-seconds so it runs in
# seconds.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# sched_conf KEYS...: a scheduler group with these keys.
sched_conf() {
	printf 'scheduler = {\n  %s\n};\n' "$*" >>"$GBATCH_CONF"
}

# field ID FIELD: one gq field of a job.
field() {
	gq -h -j "$1" -o "$2"
}

field_is() {
	[ "$(field "$1" "$2")" = "$3" ]
}

# attained_over ID GPU_SECONDS: the job's attained service passed it.
attained_over() {
	gq --json -j "$1" | python3 -c 'import json,sys; sys.exit(not json.load(sys.stdin)["jobs"][0]["attained"] > int(sys.argv[1]))' "$2"
}

@test "a job is demoted once its attained service reaches the threshold" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	a=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	[ "$(field "$a" queue)" = Q0 ]
	# 4 GPUs reach 2 GPU-seconds after half a second.
	gb_wait 10 field_is "$a" queue Q1
}

@test "a short job preempts a demoted long one, finishes first, and the long one is requeued and completes" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	l1=$(gb_submit -G 4 -J long1 --wrap 'sleep 4')
	gb_wait_state "$l1" RUNNING 20
	l2=$(gb_submit -G 4 -J long2 --wrap 'sleep 4')
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l1" queue Q1
	gb_wait 10 field_is "$l2" queue Q1
	# Every GPU is taken by Q1 jobs: a new Q0 job preempts the lower of
	# them, the one that started last.
	s=$(gb_submit -G 4 -J short --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	[ "$(field "$l2" restarts)" = 1 ]
	[ "$(field "$l2" preemptions)" = 1 ]
	[ "$(gb_state "$l1")" = RUNNING ]
	[ "$(field "$l1" preemptions)" = 0 ]
	gb_wait_state "$s" COMPLETED 20
	gb_wait_state "$l2" COMPLETED 30
	gb_wait_state "$l1" COMPLETED 30
	# The short job ended before the long one it preempted.
	s_end=$(gq -h -t all -j "$s" -o end_time)
	l2_end=$(gq -h -t all -j "$l2" -o end_time)
	[[ "$s_end" < "$l2_end" || "$s_end" == "$l2_end" ]]
	[ "$(gq -h -t all -j "$l2" -o restarts)" = 1 ]
}

@test "fifo never preempts" {
	sched_conf 'policy = "fifo";' 'thresholds = [ 2.0 ];'
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 30')
	l2=$(gb_submit -G 4 --wrap 'sleep 30')
	gb_wait_state "$l1" RUNNING 20
	gb_wait_state "$l2" RUNNING 20
	s=$(gb_submit -G 4 --wrap 'sleep 1')
	gb_wait 10 field_is "$s" reason Resources
	# Long past the threshold, with a new job waiting, nothing is
	# preempted.
	gb_wait 10 attained_over "$l2" 8
	[ "$(gb_state "$s")" = PENDING ]
	[ "$(field "$l1" preemptions)" = 0 ]
	[ "$(field "$l2" preemptions)" = 0 ]
}

@test "a waiting job says why; a held one is out of the queues" {
	gb_start_cluster
	a=$(gb_submit -G 4 --wrap 'sleep 30')
	b=$(gb_submit -G 4 --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	c=$(gb_submit -G 4 --wrap 'sleep 1')
	d=$(gb_submit -G 2 --wrap 'sleep 1')
	gb_wait 10 field_is "$c" reason Resources
	gb_wait 10 field_is "$d" reason Resources
	h=$(gb_submit -H -G 1 --wrap 'sleep 1')
	[ "$(field "$h" reason)" = Held ]
	[ "$(field "$h" queue)" = - ]
}

@test "attained service and restarts survive a controller restart" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 3')
	l2=$(gb_submit -G 4 --wrap 'sleep 3')
	gb_wait_state "$l1" RUNNING 20
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l2" queue Q1
	s=$(gb_submit -G 4 --wrap 'sleep 30')
	gb_wait_state "$s" RUNNING 20
	gb_wait_state "$l2" PENDING 20
	before=$(field "$l2" attained)
	[ "$before" != 0:00 ]
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	# The same port, so the nodes find the new controller.
	gb_start_controller -l "$GB_CTL_ADDR"
	[ "$(field "$l2" attained)" = "$before" ]
	[ "$(field "$l2" restarts)" = 1 ]
	[ "$(field "$l2" queue)" = Q1 ]
	[ "$(field "$l2" preemptions)" = 1 ]
}
