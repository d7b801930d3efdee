#!/usr/bin/env bats
# purge.bats: retention. controller.keep_finished_days deletes the finished
# jobs older than it, with their runs, events and the texts no kept job
# shares, and never an unfinished job; gctl purge --before does it by hand.
# Jobs are aged by rewriting their times in the database while gbatchd is
# stopped; what should go or stay is read from the database with sqlite3
# before the purge, never from gbatchd's output.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	DB=$GB_DIR/ctl/gbatch.db
}

teardown() {
	gb_teardown
}

db() {
	sqlite3 "$DB" "$1"
}

stop_controller() {
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
}

gone() {
	[ "$(db "SELECT COUNT(*) FROM jobs WHERE id IN ($1)")" = 0 ]
}

# The text a job's script points at.
script_of() {
	db "SELECT text FROM job_texts WHERE id = (SELECT script_id FROM jobs WHERE id = $1)"
}

@test "keep_finished_days deletes old finished jobs with their runs, events and unshared texts, and nothing else" {
	gb_start_cluster
	cd "$GB_DIR"
	only=$(gb_submit -o only.out --wrap 'echo only-old')
	failed=$(gb_submit --wrap 'exit 3')
	shared_old=$(gb_submit --wrap 'echo shared')
	shared_kept=$(gb_submit --wrap 'echo shared')
	recent=$(gb_submit --wrap 'echo recent')
	held=$(gb_submit -H --wrap 'echo held')
	running=$(gb_submit --wrap 'sleep 600')
	for id in $only $shared_old $shared_kept $recent; do
		gb_wait_state "$id" COMPLETED
	done
	gb_wait_state "$failed" FAILED
	gb_wait_state "$running" RUNNING
	stop_controller

	old=$((EPOCHSECONDS - 40 * 86400))
	# Aged: three finished jobs, and (as no real row would be) a held
	# and a running one with an old end time, which must stay anyway.
	db "UPDATE jobs SET submit_time = $old - 60, end_time = $old
	    WHERE id IN ($only, $failed, $shared_old, $held, $running);
	    UPDATE job_runs SET start_time = $old - 30, end_time = $old
	    WHERE job_id IN ($only, $failed, $shared_old);
	    INSERT INTO node_events (node, time, state) VALUES ('n1', $old, 'DOWN');
	    INSERT INTO node_events (node, time, state, detail) VALUES ('n1', $EPOCHSECONDS, 'UP', 'by the test');"
	ne_kept=$(db "SELECT COUNT(*) FROM node_events WHERE time > $old")
	purged="$only, $failed, $shared_old"
	kept="$shared_kept, $recent, $held, $running"
	# What should go, from the rows themselves: the aged finished jobs'
	# texts that no other job names.
	want_texts=$(db "SELECT COUNT(*) FROM job_texts t WHERE t.id IN
	    (SELECT script_id FROM jobs WHERE id IN ($purged) UNION
	    SELECT env_id FROM jobs WHERE id IN ($purged)) AND NOT EXISTS
	    (SELECT 1 FROM jobs WHERE id NOT IN ($purged) AND
	    (script_id = t.id OR env_id = t.id))")
	[ "$want_texts" -ge 2 ]	# only's script, failed's script
	texts_before=$(db 'SELECT COUNT(*) FROM job_texts')
	only_script=$(db "SELECT script_id FROM jobs WHERE id = $only")
	shared_script=$(db "SELECT script_id FROM jobs WHERE id = $shared_old")
	[ "$shared_script" = "$(db "SELECT script_id FROM jobs WHERE id = $shared_kept")" ]
	kept_runs=$(db "SELECT COUNT(*) FROM job_runs WHERE job_id IN ($kept)")
	kept_events=$(db "SELECT COUNT(*) FROM job_events WHERE job_id IN ($kept)")
	((kept_events >= 7))

	gb_write_conf 'keep_finished_days = 30;'
	gb_start_controller
	gb_wait 20 gone "$purged"
	gb_wait 10 grep -q 'purge: 3 finished jobs that ended before .* deleted, and 1 node events (controller.keep_finished_days = 30;' "$GB_DIR/gbatchd.log"

	[ "$(db "SELECT COUNT(*) FROM job_runs WHERE job_id IN ($purged)")" = 0 ]
	[ "$(db "SELECT COUNT(*) FROM job_events WHERE job_id IN ($purged)")" = 0 ]
	[ "$(db 'SELECT COUNT(*) FROM job_texts')" = $((texts_before - want_texts)) ]
	[ "$(db "SELECT COUNT(*) FROM job_texts WHERE id = $only_script")" = 0 ]
	# The script the kept job shares stays, and reads back whole.
	[[ "$(script_of "$shared_kept")" == *'echo shared'* ]]
	[ "$(db "SELECT COUNT(*) FROM job_texts WHERE id = $shared_script")" = 1 ]
	# Everything of the kept jobs stays: rows, runs, events.
	[ "$(db "SELECT COUNT(*) FROM jobs WHERE id IN ($kept)")" = 4 ]
	[ "$(db "SELECT COUNT(*) FROM job_runs WHERE job_id IN ($kept)")" = "$kept_runs" ]
	[ "$(db "SELECT COUNT(*) FROM job_events WHERE job_id IN ($kept)")" = "$kept_events" ]
	# Node events: the aged one went; the recent one and those gbatchd
	# wrote itself (each node coming UP) stay.
	[ "$(db "SELECT COUNT(*) FROM node_events WHERE time < $old + 1")" = 0 ]
	[ "$(db "SELECT COUNT(*) FROM node_events WHERE node = 'n1' AND
	    state = 'UP' AND detail = 'by the test'")" = 1 ]
	[ "$(db "SELECT COUNT(*) FROM node_events")" -ge "$ne_kept" ]
	gb_state_is "$held" HELD
	gb_wait_state "$running" RUNNING

	# New jobs after the purge, one with the purged job's script again:
	# each runs its own.
	again=$(gb_submit -o again.out --wrap 'echo only-old')
	other=$(gb_submit -o other.out --wrap 'echo other')
	gb_wait_state "$again" COMPLETED
	gb_wait_state "$other" COMPLETED
	[ "$(cat again.out)" = only-old ]
	[ "$(cat other.out)" = other ]
	[[ "$(script_of "$again")" == *'echo only-old'* ]]
}

@test "gctl purge --before counts with --dry-run, then deletes; a text id SQLite reuses is never shared by mistake" {
	gb_start_cluster
	cd "$GB_DIR"
	first=$(gb_submit -o first.out --wrap 'echo one')
	gb_wait_state "$first" COMPLETED
	held=$(gb_submit -H --wrap 'echo held')
	want=$(db "SELECT COUNT(*) FROM jobs WHERE state IN ('COMPLETED',
	    'FAILED', 'TIMEOUT', 'CANCELLED', 'NODE_FAIL', 'OUT_OF_MEMORY')")
	[ "$want" = 1 ]
	rows=$(db 'SELECT COUNT(*) FROM jobs')

	run -0 gctl purge --before now+1minute --dry-run
	[[ "$output" == "$want finished job ended before "*" and would be purged" ]]
	[ "$(db 'SELECT COUNT(*) FROM jobs')" = "$rows" ]

	# Every node event so far (the nodes coming UP) is older too.
	ne=$(db 'SELECT COUNT(*) FROM node_events')
	[ "$ne" -ge 2 ]
	run -0 gctl purge --before now+1minute
	[[ "$output" == "purged $want finished job that ended before "*", and $ne node events" ]]
	[ "$(db 'SELECT COUNT(*) FROM node_events')" = 0 ]
	gone "$first"
	[ "$(db "SELECT COUNT(*) FROM job_runs WHERE job_id = $first")" = 0 ]
	gb_state_is "$held" HELD
	grep -q "audit: .*root.* purge jobs that ended before @[0-9]*" "$GB_DIR/gbatchd.log" ||
	    grep -q " purge jobs that ended before @[0-9]*" "$GB_DIR/ctl/audit.log"

	# The first job's texts are gone; SQLite hands their ids out again.
	# gbatchd remembered the first job's script by id for reuse: a job
	# with that script again must not point at what now holds the id.
	second=$(gb_submit -o second.out --wrap 'echo two')
	third=$(gb_submit -o third.out --wrap 'echo one')
	gb_wait_state "$second" COMPLETED
	gb_wait_state "$third" COMPLETED
	[[ "$(script_of "$third")" == *'echo one'* ]]
	[[ "$(script_of "$second")" == *'echo two'* ]]
	[ "$(cat third.out)" = one ]
	[ "$(cat second.out)" = two ]
}

@test "gctl purge is for operators only, and a bad date is a usage error naming the forms" {
	gb_start_controller
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	chmod 711 "$GB_DIR"
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' purge --before 2020-01-01"
	[[ "$output" == *"only operators may do this"* ]]
	grep -q "refused nobody (uid $(id -u nobody)) from unix:nobody: PURGE: operators only$" "$GB_DIR/ctl/audit.log"
	run -2 gctl purge --before 2020-13-01
	[[ "$output" == *'--before: "2020-13-01": month: expected 01-12, got 13'* ]]
	run -2 gctl purge --before lastweek
	[[ "$output" == *'expected YYYY-MM-DD[THH:MM[:SS]], HH:MM[:SS], now[{-,+}N[seconds,minutes,hours,days,weeks]]'* ]]
	run -2 gctl purge
	[[ "$output" == *'purge: expected --before DATE'* ]]
	run -2 gctl purge --before now extra
	[[ "$output" == *'unexpected argument "extra"'* ]]
}

@test "PURGE refuses a missing or bad before, and keep_finished_days is read, checked and reloaded" {
	gb_start_controller
	run -0 gb_rawask '{"type":107,"seq":1}' '{"type":107,"seq":2,"before":-1}' \
	    '{"type":107,"seq":3,"before":0,"dry_run":"yes"}' '{"type":107,"seq":4,"before":0}'
	[[ "${lines[0]}" == *'"code":"invalid"'*'before: expected a time in seconds since the epoch'* ]]
	[[ "${lines[1]}" == *'"code":"invalid"'* ]]
	[[ "${lines[2]}" == *'dry_run: expected true or false'* ]]
	[[ "${lines[3]}" == *'"ok":true'*'"more":false'*'"jobs":0'* ]]
	run -0 gctl show config
	[[ "$output" == *'controller.keep_finished_days = 365'* ]]
	gb_write_conf 'keep_finished_days = 7;'
	run -0 gctl reconfigure
	[[ "$output" == *'changed controller.keep_finished_days'* ]]
	run -0 gctl show config
	[[ "$output" == *'controller.keep_finished_days = 7'* ]]
	stop_controller
	gb_write_conf 'keep_finished_days = -1;'
	run ! gbatchd -D -f "$GBATCH_CONF" -L "$GB_DIR/gbatchd2.log"
	[[ "$output$(cat "$GB_DIR/gbatchd2.log" 2>/dev/null)" == *'controller.keep_finished_days'*'0'*'36500'* ]]
}
