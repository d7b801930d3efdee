#!/usr/bin/env bats
# Live scheduling on a real local cluster: queues by attained service,
# demotion, preemption and requeue, reasons, persistence across a
# controller restart. Thresholds are a few GPU-seconds so it runs in
# seconds. The rules themselves (demotion, fifo, promotion and its knob,
# victims) are sched-core.t's; what a preempted run becomes, however it
# died, is requeue.t's: here is each behaviour once, end to end.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# sched_conf KEYS...: a scheduler group with these keys. The tests here
# preempt plain jobs (sleep, a shell), which the default never preempts,
# as they would lose their work: preempt_plain lets them be (the default
# is the last test's).
sched_conf() {
	printf 'scheduler = {\n  preempt_plain = true;\n  %s\n};\n' "$*" \
	    >>"$GBATCH_CONF"
}

# field ID FIELD: one gq field of a job.
field() {
	gq -h -j "$1" -o "$2"
}

field_is() {
	[ "$(field "$1" "$2")" = "$3" ]
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
	# gq -l tells the job's runs: two starts, a preemption, a requeue.
	run -0 gq -l "$l2"
	[[ "$output" == *$'\nhistory:\n'* ]]
	[ "$(grep -c -- '-> RUNNING  on ' <<<"$output")" -eq 2 ]
	grep -q "RUNNING -> PREEMPTING  (preempted in queue 1" <<<"$output"
	grep -q "PREEMPTING -> PENDING  (stopped after its preemption" <<<"$output"
	grep -q "(new) -> PENDING  submitted" <<<"$output"
}

@test "an interactive job is not preempted, unless grun --preemptible" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	b=$(gb_submit -G 4 --wrap 'sleep 300')
	gb_wait_state "$b" RUNNING 20
	# Started last, the grun job would be the first victim.
	grun -G 4 sh -c 'echo "run $GBATCH_RESTART_COUNT"; sleep 300' \
	    </dev/null >"$GB_DIR/i.out" 2>"$GB_DIR/i.err" &
	gb_wait 20 grep -q "run 0" "$GB_DIR/i.out"
	i=$(gq -h -t running -o id,kind | awk '$2 == "INTERACTIVE" { print $1 }')
	gb_wait 10 field_is "$b" queue Q1
	gb_wait 10 field_is "$i" queue Q1
	s=$(gb_submit -G 4 --wrap 'sleep 300')
	gb_wait_state "$s" RUNNING 20
	[ "$(field "$b" preemptions)" = 1 ]
	[ "$(field "$i" preemptions)" = 0 ]
	[ "$(gb_state "$i")" = RUNNING ]
	gcancel "$i" "$s"
	gb_wait_state "$b" RUNNING 20

	# --preemptible: it goes back to the queue and runs afresh.
	grun --preemptible -G 4 sh -c 'echo "run $GBATCH_RESTART_COUNT"; sleep 300' \
	    </dev/null >"$GB_DIR/p.out" 2>"$GB_DIR/p.err" &
	gb_wait 20 grep -q "run 0" "$GB_DIR/p.out"
	p=$(gq -h -t running -o id,kind | awk '$2 == "INTERACTIVE" { print $1 }')
	gb_wait 10 field_is "$p" queue Q1
	s=$(gb_submit -G 4 --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	gb_wait 20 grep -q "job $p went back to the queue" "$GB_DIR/p.err"
	gb_wait 30 grep -q "run 1" "$GB_DIR/p.out"
	[ "$(field "$p" preemptions)" = 1 ]
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

@test "a preempted job checkpoints on the signal, is requeued and resumes from its checkpoint" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	train="$S/examples/train-ckpt.py --steps 30 --step-time 0.1 --every 1000"
	l1=$(gb_submit -G 4 -J long1 -o "$GB_DIR/l1.out" $train)
	gb_wait_state "$l1" RUNNING 20
	l2=$(gb_submit -G 4 -J long2 -o "$GB_DIR/l2-%r.out" -e "$GB_DIR/l2.err" $train)
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l2" queue Q1
	# Past its first steps, so the checkpoint holds work.
	gb_wait 10 grep -q "step 3$" "$GB_DIR/l2-0.out"
	s=$(gb_submit -G 4 -J short --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	# long2 took the signal, saved at a step boundary and stopped.
	grep -q "run 0: checkpointed at step" "$GB_DIR/l2-0.out"
	saved=$(sed -n 's/^run 0: checkpointed at step \([0-9]*\);.*/\1/p' "$GB_DIR/l2-0.out")
	[ -n "$saved" ]
	gb_wait_state "$s" COMPLETED 20
	gb_wait_state "$l2" COMPLETED 60
	gb_wait_state "$l1" COMPLETED 60
	# The second run started where the checkpoint was and repeated no
	# step; its total is that of 30 uninterrupted steps.
	grep -qx "run 1: starting at step $saved" "$GB_DIR/l2-1.out"
	run ! grep -q "run 1: step $saved$" "$GB_DIR/l2-1.out"
	grep -qx "run 1: step $((saved + 1))" "$GB_DIR/l2-1.out"
	grep -qx "done: value 435" "$GB_DIR/l2-1.out"
	grep -qx "done: value 435" "$GB_DIR/l1.out"
	[ "$(gq -h -t all -j "$l2" -o restarts)" = 1 ]
	[ "$(gq -h -t all -j "$l2" -o preemptions)" = 1 ]
	[ "$(gq -h -t all -j "$l1" -o restarts)" = 0 ]
	# The checkpoint directory is the job's own, under its working
	# directory, and persisted across the runs.
	[ -s "$GB_DIR/.gbatch/ckpt/$l2/state.json" ]
}

@test "a --no-requeue job is never preempted; the scheduler takes the other" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 30')
	gb_wait_state "$l1" RUNNING 20
	l2=$(gb_submit -G 4 --no-requeue --wrap 'sleep 30')
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l2" queue Q1
	gb_wait 10 field_is "$l1" queue Q1
	# l2 started last, so it would be the victim; it opted out.
	s=$(gb_submit -G 4 --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	[ "$(gb_state "$l2")" = RUNNING ]
	[ "$(field "$l1" preemptions)" = 1 ]
	[ "$(field "$l2" preemptions)" = 0 ]
}

@test "gsub --ckpt-grace above the cluster's cap is refused" {
	sched_conf 'max_ckpt_grace = 30;' 'ckpt_grace = 10;'
	gb_start_cluster
	run -1 gsub --ckpt-grace 1:00 --wrap true
	[[ "$output" == *"a checkpoint grace of 60 s (gsub --ckpt-grace, or --signal's @SECONDS) is above the cluster's most, scheduler.max_ckpt_grace = 30 s"* ]]
	run -0 gsub --ckpt-grace 0:30 --ckpt-signal USR2 --wrap true
}

@test "gctl hold, release and requeue" {
	gb_start_cluster
	a=$(gb_submit -G 4 --wrap 'sleep 30')
	b=$(gb_submit -G 4 --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	c=$(gb_submit -G 4 -o "$GB_DIR/c-%r.out" --wrap 'echo run $GBATCH_RESTART_COUNT; sleep 30')
	run -0 gctl hold "$c"
	gb_state_is "$c" HELD
	run -1 gctl hold "$c"
	[[ "$output" == *"job $c is HELD; only a pending job can be held"* ]]
	run -1 gctl release "$a"
	[[ "$output" == *"job $a is RUNNING; only a held job can be released"* ]]
	run -1 gctl hold 99999
	[[ "$output" == *"99999"* ]]
	run -2 gctl hold
	run -2 gctl hold x1
	gcancel "$a"
	gb_wait_state "$a" CANCELLED 20
	# Held, it does not take the free GPUs; released, it does.
	[ "$(gb_state "$c")" = HELD ]
	run -0 gctl release "$c"
	gb_wait_state "$c" RUNNING 20
	[ "$(field "$c" restarts)" = 0 ]
	gb_wait 10 test -s "$GB_DIR/c-0.out"
	run -0 gctl requeue "$c"
	gb_wait 20 eval "[ \"\$(gq -h -j $c -o restarts)\" = 1 ]"
	gb_wait_state "$c" RUNNING 20
	gb_wait 10 grep -q "run 1" "$GB_DIR/c-1.out"
	[ "$(field "$c" preemptions)" = 0 ]
}

@test "gctl requeue of a --no-requeue job is refused" {
	gb_start_cluster
	a=$(gb_submit -G 1 --no-requeue --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	run -1 gctl requeue "$a"
	[[ "$output" == *"job $a was submitted with --no-requeue; cancel it instead"* ]]
}

# promote_scenario KNOB: two Q1 jobs hold every GPU; a new job preempts
# the later one (l2) and soon drops to Q1 itself. Sets l1, l2, s.
promote_scenario() {
	sched_conf 'thresholds = [ 2.0 ];' "promote_knob = $1;"
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$l1" RUNNING 20
	l2=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l2" queue Q1
	s=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$s" RUNNING 20
	gb_wait_state "$l2" PENDING 20
	gb_wait 10 field_is "$s" queue Q1
}

@test "a starving job is promoted to Q0 after waiting promote_knob x its run time, and runs" {
	promote_scenario 1
	# l2 ran about half a second: after as long a wait it is back in Q0,
	# where it outranks s (now in Q1) and takes its GPUs back.
	gb_wait 15 gb_state_is "$l2" RUNNING
	[ "$(field "$l2" promotions)" -ge 1 ]
	[ "$(field "$s" preemptions)" -ge 1 ]
	grep -q "job $l2: PENDING -> RUNNING" "$GB_DIR/gbatchd.log"
}

@test "a controller restart during PREEMPTING loses nothing and double-books no GPU" {
	sched_conf 'thresholds = [ 2.0 ];' 'ckpt_grace = 30;'
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$l1" RUNNING 20
	# Takes the checkpoint signal, then "writes its checkpoint" until the
	# test lets it finish.
	l2=$(gb_submit -G 4 --wrap "echo \$\$ >'$GB_DIR/l2.pid'; trap 'until [ -e \"$GB_DIR/saved\" ]; do sleep 0.05; done; exit 0' USR1; while :; do sleep 0.1; done")
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 test -s l2.pid
	gb_wait 10 field_is "$l2" queue Q1
	s=$(gb_submit -G 4 --wrap 'sleep 1')
	gb_wait_state "$l2" PREEMPTING 20
	kill -KILL "$GB_CTL_PID"
	wait "$GB_CTL_PID" 2>/dev/null || true
	gb_start_controller -l "$GB_CTL_ADDR"
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 gb_node_is_up n2
	# Still checkpointing: still preempting, its GPUs still its own.
	gb_state_is "$l2" PREEMPTING
	[ "$(gb_state "$s")" = PENDING ]
	kill -0 "$(cat l2.pid)"
	touch saved
	gb_wait_state "$s" RUNNING 20
	# The short job runs only once the preempted one has exited.
	run ! kill -0 "$(cat l2.pid)" 2>/dev/null
	[ "$(field "$l2" restarts)" = 1 ]
	gb_wait_state "$s" COMPLETED 20
	gb_wait_state "$l2" RUNNING 20
	[ "$(gb_state "$l1")" = RUNNING ]
	# Every GPU is held by exactly one job: 8 allocated, two jobs.
	[ "$(gnodes -h -o gpus | paste -sd' ')" = "4/4 4/4" ]
}

@test "a --wrap job's shell dies of the checkpoint signal, yet the program it runs checkpoints and resumes" {
	sched_conf 'thresholds = [ 2.0 ];'
	gb_start_cluster
	l1=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$l1" RUNNING 20
	l2=$(gb_submit -G 4 -o "$GB_DIR/w.out" --wrap "python3 '$S/examples/train-ckpt.py' --steps 30 --step-time 0.1 --every 1000")
	gb_wait_state "$l2" RUNNING 20
	gb_wait 10 field_is "$l2" queue Q1
	gb_wait 10 grep -q "step 3$" "$GB_DIR/w.out"
	s=$(gb_submit -G 4 --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	grep -q "run 0: checkpointed at step" "$GB_DIR/w.out"
	saved=$(sed -n 's/^run 0: checkpointed at step \([0-9]*\);.*/\1/p' "$GB_DIR/w.out")
	gb_wait_state "$l2" COMPLETED 60
	grep -qx "run 1: starting at step $saved" "$GB_DIR/w.out"
	grep -qx "done: value 435" "$GB_DIR/w.out"
}

@test "gittins orders as dlas until jobs complete, then takes their GPU-times" {
	sched_conf 'policy = "gittins";'
	gb_start_cluster
	grep -q "gittins needs the GPU-times of completed jobs and there are none yet" "$GB_DIR/gbatchd.log"
	a=$(gb_submit -G 2 --wrap 'sleep 0.2')
	gb_wait_state "$a" COMPLETED 20
	# The next pass takes the distribution from the store.
	b=$(gb_submit -G 1 --wrap 'true')
	gb_wait_state "$b" COMPLETED 20
	gb_wait 10 grep -q "schedule: gittins index from [12] completed jobs" "$GB_DIR/gbatchd.log"
	run -0 gctl show config
	grep -qx 'scheduler.policy = "gittins"' <<<"$output"
}

node_is_down() {
	gnodes -N "$1" --noheader -o state | grep -qx down
}

@test "a job no up node could hold waits NodesDown, and gsub warns at submit" {
	GB_NODE_TIMEOUT=3 gb_write_conf
	gb_start_controller
	gb_start_node n1 4
	gb_start_node n2 4
	kill -TERM "$GB_NODE_PID_n2"
	gb_wait 15 node_is_down n2
	# 4 GPUs fit on n1: no warning, and it runs.
	run -0 --separate-stderr gsub -G 4 --wrap "until [ -e '$GB_DIR/go' ]; do sleep 0.05; done"
	[ -z "$stderr" ]
	busy=${output##* }
	gb_wait_state "$busy" RUNNING
	# 4 more wait for n1's GPUs: Resources, not a node problem.
	run -0 --separate-stderr gsub --parsable -G 4 --wrap true
	[ -z "$stderr" ]
	res=$output
	gb_wait 10 field_is "$res" reason Resources
	# 8 could only run with n2 back.
	run -0 --separate-stderr gsub --parsable -G 8 --wrap true
	big=$output
	[[ "$stderr" == "gsub: warning: job $big: no node that takes jobs now could run its 8 GPUs; it waits until nodes come back; down: n2" ]]
	gb_wait 10 field_is "$big" reason NodesDown
	# n2 back: the job can run, it waits for GPUs only.
	gb_start_node n2 4
	gb_wait 10 field_is "$big" reason Resources
	touch "$GB_DIR/go"
	gb_wait_state "$big" COMPLETED 20
}

@test "a job only a drained node could hold waits NodesDrained until the node is resumed" {
	gb_start_controller
	gb_start_node n1 4
	gctl drain n1 --reason maintenance
	run -0 --separate-stderr gsub --parsable -G 2 --wrap true
	id=$output
	[[ "$stderr" == "gsub: warning: job $id: no node that takes jobs now could run its 2 GPUs; it waits until a drained node is resumed (gctl resume); drained: n1" ]]
	gb_wait 10 field_is "$id" reason NodesDrained
	gctl resume n1
	gb_wait_state "$id" COMPLETED 20
}

@test "by default only a job that gave a checkpoint signal is preempted; a plain one keeps its GPUs; preempt_plain lets it be requeued" {
	printf 'scheduler = {\n  thresholds = [ 2.0 ];\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 4
	# A plain job and, later, one with a checkpoint signal, both demoted
	# to Q1 holding two GPUs each.
	plain=$(gb_submit -G 2 -J plain --wrap 'sleep 60')
	gb_wait_state "$plain" RUNNING 20
	ckpt=$(gb_submit -G 2 -J ckpt --ckpt-signal USR2 --wrap 'trap "exit 0" USR2; sleep 60 & wait')
	gb_wait_state "$ckpt" RUNNING 20
	[ "$(field "$plain" preempt)" = no ]
	[ "$(field "$ckpt" preempt)" = checkpoint ]
	gb_wait 10 field_is "$plain" queue Q1
	gb_wait 10 field_is "$ckpt" queue Q1
	# A Q0 job of four GPUs needs both: only the checkpointing one may
	# be stopped, which is not enough; it waits, and nothing is stopped.
	big=$(gb_submit -G 4 -J big --wrap true)
	gb_wait 10 eval '[ "$(gq -h -j '"$big"' -o reason)" != None ]'
	# A job of two takes the checkpointing one's GPUs, never the plain one's.
	s=$(gb_submit -G 2 -J small --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	[ "$(field "$ckpt" preemptions)" = 1 ]
	[ "$(gb_state "$plain")" = RUNNING ]
	[ "$(field "$plain" preemptions)" = 0 ]
	gq -l "$plain" | grep -qx 'preempt: *no'
	# With preempt_plain, the plain job may be requeued to start over.
	gcancel "$big" "$s" "$ckpt"
	sed -i 's/^  thresholds = \[ 2.0 \];$/  thresholds = [ 2.0 ];\n  preempt_plain = true;/' "$GBATCH_CONF"
	run -0 gctl reconfigure
	[[ "$output" == *scheduler.preempt_plain* ]]
	[ "$(field "$plain" preempt)" = requeue ]
	s=$(gb_submit -G 4 -J small2 --wrap 'sleep 1')
	gb_wait_state "$s" RUNNING 20
	[ "$(field "$plain" preemptions)" = 1 ]
	[ "$(field "$plain" restarts)" = 1 ]
	# --no-requeue holds whatever the settings.
	n=$(gb_submit -G 1 --no-requeue --wrap true)
	[ "$(gq -h -t all -j "$n" -o preempt)" = no ]
}
