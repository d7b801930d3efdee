#!/usr/bin/env bats
# gnoded: checkpoint-based preemption and restarted jobs. The tests play the
# controller with fakectl (tests/bats/fakectl.c), so they send JOB_LAUNCH and
# JOB_PREEMPT themselves and read exactly what gnoded reports.

load helpers
load fakectl

# A job that checkpoints on SIGUSR1 and exits on SIGTERM, noting when each
# came. sleep dies of the signals (it does not trap them); the shell runs
# its trap once the sleep is over.
TRAPPER='trap "date +%s.%N > $GBATCH_JOB_ID.usr1; echo usr1 >> $GBATCH_JOB_ID.ev" USR1
trap "date +%s.%N > $GBATCH_JOB_ID.usr2; echo usr2 >> $GBATCH_JOB_ID.ev" USR2
trap "date +%s.%N > $GBATCH_JOB_ID.term; echo term >> $GBATCH_JOB_ID.ev; exit 0" TERM
touch $GBATCH_JOB_ID.ready
while :; do sleep 0.05; done'

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	fc_setup
}

teardown() {
	fc_teardown
	gb_teardown
}

# fc_between FROM_FILE TO_FILE MIN MAX: the seconds between the times the
# two files hold lie in [MIN, MAX).
fc_between() {
	awk -v a="$(cat "$1")" -v b="$(cat "$2")" -v lo="$3" -v hi="$4" \
	    'BEGIN { d = b - a; print "took " d " s"; exit !(d >= lo && d < hi) }'
}

@test "preempt: the checkpoint signal, the grace, then SIGTERM; the end says preempted" {
	fc_start
	fc_launch 1 "$TRAPPER" '"ckpt_grace":2'
	gb_wait 10 test -e 1.ready
	fc_send '{"type":315,"id":1}'
	run fc_ended 1
	echo "$output"
	[[ "$output" == *'"preempted":true'* ]]
	[[ "$output" == *'"state":"COMPLETED"'* ]]
	[[ "$output" == *'"message":"preempted"'* ]]
	[ "$(cat 1.ev)" = "$(printf 'usr1\nterm')" ]
	# SIGTERM not before the grace is over (less the 50 ms the shell may
	# take to notice a signal), and not much after.
	fc_between 1.usr1 1.term 1.9 3.5
}

@test "ckpt_signal picks the checkpoint signal" {
	fc_start
	fc_launch 2 "$TRAPPER" '"ckpt_signal":12,"ckpt_grace":1'
	gb_wait 10 test -e 2.ready
	fc_send '{"type":315,"id":2}'
	run fc_ended 2
	[[ "$output" == *'"preempted":true'* ]]
	[ "$(cat 2.ev)" = "$(printf 'usr2\nterm')" ]
}

@test "a job ignoring the signals is killed after the grace and kill_wait" {
	GB_KILL_WAIT=1 gb_write_conf
	fc_start
	# Ignored signals stay ignored across exec: sleep ignores them too.
	fc_launch 3 'trap "" USR1 TERM; touch 3.ready; while :; do sleep 0.05; done' \
	    '"ckpt_grace":1'
	gb_wait 10 test -e 3.ready
	date +%s.%N >3.sent
	fc_send '{"type":315,"id":3}'
	run fc_ended 3
	date +%s.%N >3.done
	echo "$output"
	[[ "$output" == *'"state":"FAILED"'* ]]
	[[ "$output" == *'"signal":9'* ]]
	[[ "$output" == *'"preempted":true'* ]]
	[[ "$output" == *'"message":"preempted: killed by signal 9'* ]]
	fc_between 3.sent 3.done 2 6
}

@test "a second preempt does nothing" {
	fc_start
	fc_launch 4 "$TRAPPER" '"ckpt_grace":1'
	gb_wait 10 test -e 4.ready
	fc_send '{"type":315,"id":4}'
	fc_send '{"type":315,"id":4}'
	run fc_ended 4
	[ "$(cat 4.ev)" = "$(printf 'usr1\nterm')" ]
	grep -q 'job 4: already being preempted; ignored' "$GB_DIR/gnoded-n1.log"
}

@test "a preempt for an unknown or ended job is ignored and the link stays up" {
	fc_start
	fc_send '{"type":315,"id":99}'
	fc_launch 5 'exit 0'
	run fc_ended 5
	[[ "$output" == *'"state":"COMPLETED"'* ]]
	[[ "$output" != *preempted* ]]
	fc_send '{"type":315,"id":5}'
	fc_send '{"type":314,"id":5}'
	fc_send '{"type":315,"id":5}'
	fc_launch 6 'exit 0'
	fc_ended 6
	fc_hellos_are 1
	[ "$(grep -c 'preempt for a job not running here; ignored' \
	    "$GB_DIR/gnoded-n1.log")" -eq 3 ]
}

@test "a cancel during the grace goes straight to SIGTERM" {
	fc_start
	fc_launch 7 "$TRAPPER" '"ckpt_grace":30'
	gb_wait 10 test -e 7.ready
	fc_send '{"type":315,"id":7}'
	gb_wait 10 test -e 7.usr1
	fc_send '{"type":311,"id":7,"signal":15,"cancel":true}'
	run fc_ended 7 5
	echo "$output"
	[[ "$output" == *'"state":"CANCELLED"'* ]]
	[[ "$output" == *'"preempted":true'* ]]
	[ "$(cat 7.ev)" = "$(printf 'usr1\nterm')" ]
	fc_between 7.usr1 7.term 0 5
}

@test "a restarted job sees GBATCH_RESTART_COUNT, expands %r and appends its output" {
	fc_start
	echo stale >out-8.txt
	script='echo "run $GBATCH_RESTART_COUNT"; echo "err $GBATCH_RESTART_COUNT" >&2'
	fc_launch 8 "$script" '"stdout":"out-%j.txt","stderr":"err-%j-%r.txt"'
	fc_ended 8
	[ "$(cat out-8.txt)" = "run 0" ]
	[ "$(cat err-8-0.txt)" = "err 0" ]
	fc_send '{"type":314,"id":8}'
	fc_launch 8 "$script" '"stdout":"out-%j.txt","stderr":"err-%j-%r.txt","restarts":1'
	gb_wait 10 fc_ends_are 8 2
	[ "$(cat out-8.txt)" = "$(printf 'run 0\nrun 1')" ]
	[ "$(cat err-8-1.txt)" = "err 1" ]
	fc_launch 8 "$script" '"stdout":"out-%j.txt","restarts":2'
	gb_wait 10 fc_ends_are 8 3
	[ "$(cat out-8.txt)" = "$(printf 'run 0\nrun 1\nrun 2\nerr 2')" ]
}

@test "ckpt_dir is made (0700, parents too) and the job sees it and MASTER_ADDR/PORT" {
	fc_start
	fields="\"ckpt_dir\":\"$GB_DIR/ck/a/b\",\"master_addr\":\"10.1.2.3\",\"master_port\":29500"
	fc_launch 9 'env | sort > 9.env; touch "$GBATCH_CKPT_DIR/9.ckpt"' "$fields"
	run fc_ended 9
	[[ "$output" == *'"state":"COMPLETED"'* ]]
	cat 9.env
	grep -qx "GBATCH_CKPT_DIR=$GB_DIR/ck/a/b" 9.env
	grep -qx 'GBATCH_RESTART_COUNT=0' 9.env
	grep -qx 'MASTER_ADDR=10.1.2.3' 9.env
	grep -qx 'MASTER_PORT=29500' 9.env
	[ "$(stat -c %a "$GB_DIR/ck/a/b")" = 700 ]
	[ "$(stat -c %u "$GB_DIR/ck/a/b")" = "$(id -u)" ]
	[ -e "$GB_DIR/ck/a/b/9.ckpt" ]
	# A second run finds its checkpoints where it left them.
	fc_launch 9 'ls "$GBATCH_CKPT_DIR" > 9.ls; echo "$GBATCH_RESTART_COUNT" >> 9.ls' \
	    "$fields,\"restarts\":1"
	gb_wait 10 fc_ends_are 9 2
	[ "$(cat 9.ls)" = "$(printf '9.ckpt\n1')" ]
}

@test "a job without the new fields sees no MASTER_* and no GBATCH_CKPT_DIR" {
	fc_start
	fc_launch 10 'env > 10.env'
	fc_ended 10
	grep -qx 'GBATCH_RESTART_COUNT=0' 10.env
	run ! grep -q -e '^GBATCH_CKPT_DIR=' -e '^MASTER_' 10.env
}

@test "a ckpt_dir that cannot be made fails the job, naming the path and why" {
	fc_start
	touch "$GB_DIR/file"
	fc_launch 11 'touch 11.ran' "\"ckpt_dir\":\"$GB_DIR/file/ck\""
	run fc_ended 11
	echo "$output"
	[[ "$output" == *'"state":"FAILED"'* ]]
	[[ "$output" == *"\"message\":\"cannot create checkpoint directory $GB_DIR/file/ck: Not a directory\""* ]]
	[ ! -e 11.ran ]
}

@test "a bad checkpoint field fails the launch, naming the field" {
	fc_start
	fc_launch 12 true '"ckpt_signal":0'
	run fc_ended 12
	[[ "$output" == *'"message":"job.ckpt_signal: expected a whole number from 1 to 64, got '* ]]
	fc_launch 13 true '"ckpt_dir":"ck"'
	run fc_ended 13
	[[ "$output" == *'"message":"job.ckpt_dir: expected an absolute path, got \"ck\""'* ]]
}

@test "a preemption runs on across a gnoded kill -9; the end still says preempted" {
	fc_start
	fc_launch 14 "$TRAPPER" '"ckpt_grace":2'
	gb_wait 10 test -e 14.ready
	fc_send '{"type":315,"id":14}'
	gb_wait 10 test -e 14.usr1
	kill -9 "$FC_NODE_PID"
	wait "$FC_NODE_PID" 2>/dev/null || true
	fc_gnoded
	# The new gnoded learnt from the job's record that it is being
	# preempted: a repeated request is not passed on.
	fc_send '{"type":315,"id":14}'
	run fc_ended 14
	echo "$output"
	[[ "$output" == *'"preempted":true'* ]]
	[ "$(cat 14.ev)" = "$(printf 'usr1\nterm')" ]
	fc_between 14.usr1 14.term 1.9 3.5
	grep -q 'job 14: already being preempted; ignored' "$GB_DIR/gnoded-n1.log"
}

@test "an end reached while gnoded is away is reported preempted in HELLO" {
	fc_start
	fc_launch 15 "$TRAPPER" '"ckpt_grace":1'
	gb_wait 10 test -e 15.ready
	fc_send '{"type":315,"id":15}'
	gb_wait 10 test -e 15.usr1
	kill -9 "$FC_NODE_PID"
	wait "$FC_NODE_PID" 2>/dev/null || true
	# The shepherd goes on without gnoded and records the end.
	gb_wait 10 eval '[ -n "$(gb_node_record n1 15 end)" ]'
	fc_gnoded
	run grep '"type":100' "$FC/recv"
	echo "$output"
	[[ "${lines[1]}" == *'"id":15,'*'"preempted":true'* ]]
	[ "$(cat 15.ev)" = "$(printf 'usr1\nterm')" ]
}
