#!/usr/bin/env bats
# gcancel: by id, by selector, signals, errors and exit statuses.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

@test "gcancel --help lists every option" {
	run -0 gcancel --help
	for o in --user --state --signal --name --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
}

@test "gcancel --version names the program and package" {
	run -0 gcancel --version
	[[ "$output" =~ ^gcancel\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gcancel with an unknown option, a bad id or nothing is a usage error" {
	run -2 gcancel --frobnicate 1
	[[ "$output" == *"--frobnicate"* ]]
	run -2 gcancel abc
	[[ "$output" == *'"abc"'*"job id"* ]]
	run -2 gcancel 0
	run -2 gcancel
	[[ "$output" == *"nothing to cancel"* ]]
	run -2 gcancel -t COMPLETED
	[[ "$output" == *"COMPLETED"*"PENDING"* ]]
	run -2 gcancel -s BOGUS 1
	[[ "$output" == *"BOGUS"*"USR1"* ]]
}

@test "gcancel cancels a pending job" {
	id=$(gb_submit -H --wrap true)
	run -0 gcancel "$id"
	gb_wait_state "$id" CANCELLED 10
}

@test "gcancel cancels a running job" {
	id=$(gb_submit --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	run -0 gcancel "$id"
	gb_wait_state "$id" CANCELLED 20
}

@test "gcancel of an unknown job exits 1 and names it" {
	run -1 gcancel 987654
	[[ "$output" == *"gcancel: job 987654:"* ]]
}

@test "gcancel reports each failure and still cancels the rest" {
	id=$(gb_submit -H --wrap true)
	run -1 gcancel 987654 "$id"
	[[ "$output" == *"job 987654"* ]]
	[[ "$output" != *"job $id:"* ]]
	gb_wait_state "$id" CANCELLED 10
}

@test "gcancel -t and -u select jobs" {
	a=$(gb_submit -H --wrap true)
	b=$(gb_submit -H --wrap true)
	run -0 gcancel -u "$(id -un)" -t HELD
	gb_wait_state "$a" CANCELLED 10
	gb_wait_state "$b" CANCELLED 10
	run -1 gcancel -u no-such-user-xyz
	[ "$output" = 'gcancel: no such user "no-such-user-xyz"' ]
}

@test "gcancel -n cancels jobs by name only" {
	a=$(gb_submit -H -J victim --wrap true)
	b=$(gb_submit -H -J keeper --wrap true)
	run -0 gcancel -n victim
	gb_wait_state "$a" CANCELLED 10
	[ "$(gb_state "$b")" = HELD ]
}

@test "gcancel -s delivers a signal without cancelling" {
	id=$(gb_submit --wrap 'trap "echo got-usr1" USR1; echo trap-set; i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done')
	gb_wait_state "$id" RUNNING 20
	# The shell must have set its trap before the signal comes.
	gb_wait 10 grep -q trap-set "gbatch-$id.out"
	run -0 gcancel -s USR1 "$id"
	gb_wait 10 grep -q got-usr1 "gbatch-$id.out"
	[ "$(gb_state "$id")" = RUNNING ]
	run -0 gcancel -s SIGUSR1 "$id"
	run -0 gcancel -s 10 "$id"
}

@test "gcancel of another user's job is permission denied" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to submit as another user"
	chmod 711 "$GB_DIR"
	id=$(gb_submit -H --wrap true)
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gcancel' $id"
	[[ "$output" == *"job $id:"* ]]
	[ "$(gb_state "$id")" = HELD ]
}

@test "gcancel says where it looked when gbatchd is unreachable" {
	GBATCH_SOCKET=$GB_DIR/nosuch.sock run -3 gcancel 1
	[[ "$output" == *"cannot reach gbatchd at $GB_DIR/nosuch.sock"* ]]
}

@test "a refused cancel of another user's job leaves one audit line: who, what, from where" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to submit as another user"
	chmod 711 "$GB_DIR"
	id=$(gb_submit -H --wrap true)
	uid=$(id -u nobody)
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gcancel' $id"
	[ "$(stat -c %a "$GB_DIR/ctl/audit.log")" = 600 ]
	run -0 grep -c " refused nobody (uid $uid) from unix:nobody: cancel job $id: it belongs to root\$" "$GB_DIR/ctl/audit.log"
	[ "$output" = 1 ]
	grep -q "audit: refused nobody (uid $uid) from unix:nobody: cancel job $id" "$GB_DIR/gbatchd.log"
	# An operator's cancel of that job is recorded as done.
	su -s /bin/sh nobody -c "cd /tmp && GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gsub' -H --wrap true" >/dev/null
	nid=$(gq -u nobody --noheader -o id)
	run -0 gcancel "$nid"
	grep -q " done root (uid 0) from unix:root: cancel job $nid: of nobody\$" "$GB_DIR/ctl/audit.log"
}

@test "a job cancelled while it is being preempted ends CANCELLED, whatever its process died of" {
	# The job takes the checkpoint signal and exits 5 when told, before
	# its node hears of the cancel: gnoded is stopped meanwhile, so the
	# node's report (an exit, not a cancel) reaches gbatchd after the
	# cancel did. gbatchd once recorded such a job FAILED.
	# Its pid is written once the trap is set: a checkpoint signal sent
	# before would kill the shell, and the job would just be requeued.
	id=$(gb_submit --wrap 'trap "touch got; while [ ! -e go ]; do sleep 0.1; done; exit 5" USR1; echo $$ >pid; while :; do sleep 0.1; done')
	gb_wait_state "$id" RUNNING
	gb_wait 10 test -s pid
	gctl requeue "$id" >/dev/null
	gb_wait 20 test -e got
	gb_state_is "$id" PREEMPTING
	node=$(gq -h -j "$id" -o nodes)
	eval "gnoded=\$GB_NODE_PID_$node"
	kill -STOP "$gnoded"
	touch go
	gb_wait 10 bash -c "! kill -0 $(cat pid) 2>/dev/null"
	run -0 gcancel "$id"
	kill -CONT "$gnoded"
	gb_wait_state "$id" CANCELLED 20
	[ "$(gq -h -t all -j "$id" -o exit_code)" = 5 ]
}
