#!/usr/bin/env bats
# Sharing the cluster, on a live one: backfill (the first job that cannot
# start is promised the time its GPUs will be free, by the running jobs'
# time limits; a job behind it starts now only if it ends by then; gq and
# squeue --start show the promise), run times learned from the jobs that
# complete, and fair share between users. The rules themselves are
# sched-resv.t's, sched-backfill.t's, predict.t's, fairshare.t's and
# sched-fs.t's.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

field() {
	gq -h -t all -j "$1" -o "$2"
}

# waiter FILE: a job's command that runs until FILE exists.
waiter() {
	printf 'while [ ! -e %s ]; do sleep 0.1; done' "$1"
}

has_promise() {
	[ "$(field "$1" expect_start)" != - ]
}

# epoch DATE: a date as gq prints it, in seconds since the epoch.
epoch() {
	date -d "$1" +%s
}

@test "a waiting gang is promised its start; a job that ends by then is backfilled, one of unknown end waits" {
	printf 'scheduler = {\n  backfill_depth = 1;\n};\n' >>"$GBATCH_CONF"
	gb_start_cluster
	# Two nodes of 4: a (4 GPUs, 10 min) and a2 (2 GPUs, 20 min) run;
	# 2 GPUs are free.
	a=$(gb_submit -G 4 -t 10 -J a --wrap "$(waiter go-a)")
	gb_wait_state "$a" RUNNING 20
	# The scheduler starts a2 between t0 and t1, by this test's clock:
	# its start as the core counts it may differ from the start_time the
	# node reports by the latency of a loaded machine.
	t0=$(date +%s)
	a2=$(gb_submit -G 2 -t 20 -J a2 --wrap "$(waiter go-a2)")
	gb_wait_state "$a2" RUNNING 20
	t1=$(date +%s)
	# b needs all 8: at a's end 6 are free, at a2's all 8. So b is
	# promised a2's start + 20 min, and the 2 free GPUs are held for it.
	b=$(gb_submit -G 8 -t 1 -J b --wrap 'true')
	c=$(gb_submit -G 1 -t 2 -J c --wrap "$(waiter go-c)")
	d=$(gb_submit -G 1 -J d --wrap 'true')
	# c ends within 2 min, long before: it is backfilled.
	gb_wait_state "$c" RUNNING 20
	# d has no time limit: it could run past the promise, so it waits,
	# though a GPU is free.
	[ "$(gb_state "$d")" = PENDING ]
	[ "$(field "$d" reason)" = Resources ]
	[ "$(gb_state "$b")" = PENDING ]
	gb_wait 10 has_promise "$b"
	b_start=$(epoch "$(field "$b" expect_start)")
	# a2's start + its 20 min, rounded up to the second.
	[ "$b_start" -ge $((t0 + 1200)) ]
	[ "$b_start" -le $((t1 + 1201)) ]
	# squeue --start says the same, in Slurm's columns.
	run -0 "$GBATCH_BUILDDIR/slurm/squeue" --start -h -j "$b" -o '%i %S'
	[ "$output" = "$b $(field "$b" expect_start)" ]
	# A job that is not first gets no promise.
	[ "$(field "$d" expect_start)" = - ]
	# Once a and a2 end, b still waits for c's GPU; once c ends it runs,
	# and d after it.
	touch go-a go-a2
	gb_wait_state "$a2" COMPLETED 20
	[ "$(gb_state "$d")" = PENDING ]
	touch go-c
	gb_wait_state "$b" COMPLETED 30
	gb_wait_state "$d" COMPLETED 30
	# b ran before d.
	[ "$(epoch "$(field "$b" start_time)")" -le \
	    "$(epoch "$(field "$d" start_time)")" ]
}

@test "without backfill_depth a job that fits starts ahead of a waiting gang, as before" {
	gb_start_cluster
	a=$(gb_submit -G 4 -t 10 -J a --wrap "$(waiter go-a)")
	gb_wait_state "$a" RUNNING 20
	b=$(gb_submit -G 8 -t 1 -J b --wrap 'true')
	d=$(gb_submit -G 1 -J d --wrap "$(waiter go-d)")
	gb_wait_state "$d" RUNNING 20
	[ "$(field "$b" expect_start)" = - ]
	touch go-a go-d
	gb_wait_state "$b" COMPLETED 30
}

@test "gq shows a run time predicted from the user's completed jobs of a similar name, and how" {
	gb_start_cluster
	j1=$(gb_submit -G 1 -J train-2026-11-01 --wrap 'sleep 1')
	gb_wait_state "$j1" COMPLETED 20
	j2=$(gb_submit -G 1 -J train-2026-11-28 --hold --wrap 'true')
	run -0 gq -h -j "$j2" -o predicted_by
	[ "$output" = "user's similar name (1 run)" ]
	# j1 slept 1 s: its run took 1 s and a little.
	run -0 gq -h -j "$j2" -o predicted
	[[ "$output" =~ ^(0:0|00:00:0)[12]$ ]]
	# And gq -l lists both.
	run -0 gq -l "$j2"
	[[ "$output" == *"predicted_by:"*"user's similar name (1 run)"* ]]
	# A name nothing completed resembles, of another GPU count: none.
	j3=$(gb_submit -G 2 -J other --hold --wrap 'true')
	[ "$(field "$j3" predicted)" = - ]
}

@test "gctl reconfigure takes backfill_depth; a value out of range is refused, naming it" {
	gb_start_cluster
	printf 'scheduler = {\n  backfill_depth = 2;\n};\n' >>"$GBATCH_CONF"
	run -0 gctl reconfigure
	[[ "$output" == *"scheduler.backfill_depth"* ]]
	sed 's/backfill_depth = 2/backfill_depth = 65/' "$GBATCH_CONF" >"$GB_DIR/bad.conf"
	run -1 gbatchd --check-config -f "$GB_DIR/bad.conf"
	[[ "$output" == *"backfill_depth"*"0"*"64"* ]]
	sed 's/backfill_depth = 2/gittins_history = "mine"/' "$GBATCH_CONF" >"$GB_DIR/bad.conf"
	run -1 gbatchd --check-config -f "$GB_DIR/bad.conf"
	[[ "$output" == *'gittins_history'*'expected cluster or similar, got "mine"'* ]]
}

# as_nobody CMD: CMD run by nobody, in a directory nobody may write.
as_nobody() {
	su -s /bin/sh nobody -c "cd '$GB_DIR/nobody' && PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $*"
}

# fair_cluster [KEYS]: a controller with these scheduler keys and one node
# of one GPU, and a directory for nobody's jobs.
fair_cluster() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: jobs of two users"
	printf 'scheduler = {\n  %s\n};\n' "$*" >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 1
	chmod 0755 "$GB_DIR"
	mkdir -m 777 "$GB_DIR/nobody"
}

@test "fair share: once root has used the GPU, nobody's job goes before root's next, though it came later" {
	fair_cluster 'fairshare = true;'
	gctl account add phys >/dev/null
	gctl user add root account=phys >/dev/null
	gctl user add nobody account=phys >/dev/null
	r1=$(gb_submit -J r1 --wrap "$(waiter go-r1)")
	gb_wait_state "$r1" RUNNING 20
	r2=$(gb_submit -J r2 --wrap 'true')
	n1=$(as_nobody gsub --parsable -J n1 --wrap "'$(waiter go-n1)'")
	# root has used the GPU for as long as r1 ran; nobody not at all.
	touch go-r1
	gb_wait_state "$n1" RUNNING 20
	[ "$(gb_state "$r2")" = PENDING ]
	# sshare shows why, in Slurm's columns: root has used the GPU,
	# nobody less, and nobody's fair-share factor is the higher.
	# Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
	run -0 "$GBATCH_BUILDDIR/slurm/sshare" -a -P
	root_line=$(grep '^ *phys|root|' <<<"$output")
	nobody_line=$(grep '^ *phys|nobody|' <<<"$output")
	[ "$(cut -d'|' -f3 <<<"$root_line")" = 1 ]
	[ "$(cut -d'|' -f5 <<<"$root_line")" -ge 0 ]
	[ "$(cut -d'|' -f5 <<<"$nobody_line")" = 0 ]
	awk -v r="$(cut -d'|' -f7 <<<"$root_line")" \
	    -v n="$(cut -d'|' -f7 <<<"$nobody_line")" 'BEGIN { exit !(n > r) }'
	# gacct --report fairshare, the same figures in gbatch's words.
	run -0 gacct --report fairshare -P -o account,user,shares,fairshare,standing
	[[ "$output" == *"phys|nobody|1|1|0"* ]]
	[[ "$output" == *"phys|root|1|0.5|1"* ]]
	touch nobody/go-n1
	gb_wait_state "$r2" COMPLETED 20
}

@test "without fair share the first come goes first, whoever it is" {
	fair_cluster 'fairshare = false;'
	r1=$(gb_submit -J r1 --wrap "$(waiter go-r1)")
	gb_wait_state "$r1" RUNNING 20
	r2=$(gb_submit -J r2 --wrap "$(waiter go-r2)")
	n1=$(as_nobody gsub --parsable -J n1 --wrap "'$(waiter go-n1)'")
	touch go-r1
	gb_wait_state "$r2" RUNNING 20
	[ "$(gb_state "$n1")" = PENDING ]
	touch go-r2 nobody/go-n1
	gb_wait_state "$n1" COMPLETED 20
	run -1 gacct --report fairshare
	[[ "$output" == *"fair share is off (gbatch.conf's scheduler.fairshare)"* ]]
	run -2 gacct --report fairshare -S yesterday
	[[ "$output" == *"-S and -E do not apply"* ]]
}

@test "fair share's guarantee: nobody's job preempts one of root's two on a full node, and root's does not preempt back" {
	fair_cluster 'fairshare = true; fairshare_preempt = true; preempt_plain = true;'
	gb_start_node n2 1
	gctl account add phys >/dev/null
	gctl user add root account=phys >/dev/null
	gctl user add nobody account=phys >/dev/null
	r1=$(gb_submit -J r1 --wrap "$(waiter go-r1)")
	gb_wait_state "$r1" RUNNING 20
	r2=$(gb_submit -J r2 --wrap "$(waiter go-r2)")
	gb_wait_state "$r2" RUNNING 20
	# Two GPUs, equal shares: root wants 2 and nobody 1, so each has a
	# part of 1. nobody holds none of theirs and root, without one of
	# its jobs, all of its: one of root's jobs is preempted for n1.
	n1=$(as_nobody gsub --parsable -J n1 --wrap "'$(waiter go-n1)'")
	gb_wait_state "$n1" RUNNING 30
	[ "$(gb_state "$r1")" = RUNNING ] || [ "$(gb_state "$r2")" = RUNNING ]
	[ $(($(field "$r1" preemptions) + $(field "$r2" preemptions))) = 1 ]
	# root now holds its part: its requeued job waits and preempts no
	# one while n1 runs.
	if [ "$(gb_state "$r1")" = RUNNING ]; then back=$r2; else back=$r1; fi
	gb_wait_state "$back" PENDING 30
	# A reconfigure rebuilds the core: the parts are worked out again,
	# and nothing moves.
	gctl reconfigure >/dev/null
	[ "$(gb_state "$n1")" = RUNNING ]
	[ "$(field "$n1" preemptions)" = 0 ]
	[ "$(gb_state "$back")" = PENDING ]
	# Once n1 ends, root's job runs again on the GPU it gave up.
	touch nobody/go-n1
	gb_wait_state "$back" RUNNING 30
	touch go-r1 go-r2
	gb_wait_state "$r1" COMPLETED 20
	gb_wait_state "$r2" COMPLETED 20
	# gctl shows the setting.
	run -0 gctl show config --json
	[[ "$output" == *'"fairshare_preempt": true'* ]]
}

@test "gsub --test-only counts on a running job's predicted end where it has no time limit" {
	gb_start_cluster
	j1=$(gb_submit -G 1 -J train-2026-11-01 --wrap 'sleep 1')
	gb_wait_state "$j1" COMPLETED 20
	# k holds every GPU, without a time limit; a job like it ran 1 s.
	k=$(gb_submit -G 8 -J train-2026-11-28 --wrap "$(waiter go-k)")
	gb_wait_state "$k" RUNNING 20
	run -0 gsub --test-only -G 1 --wrap true
	[[ "$output" == "gsub: the job would start "*"nothing was submitted" ]]
	[[ "$output" != *"no start can be foreseen"* ]]
	# A job like nothing that completed: no prediction, no start.
	touch go-k
	gb_wait_state "$k" COMPLETED 20
	o=$(gb_submit -G 8 -J other --wrap "$(waiter go-o)")
	gb_wait_state "$o" RUNNING 20
	run -0 gsub --test-only -G 1 --wrap true
	[[ "$output" == *"no start can be foreseen: the GPUs the job needs are held by jobs with neither a time limit nor a predicted run time"* ]]
	touch go-o
}
