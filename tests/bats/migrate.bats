#!/usr/bin/env bats
# migrate.bats: gbatchd upgrades a database made by the previous schema
# (version 4, tests/bats/data/schema4.sql: a real gbatch.db of that version,
# dumped) and keeps every job, giving the finished ones their accounting.
# Expected values are read from the fixture itself with sqlite3, never from
# gbatchd's output.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	mkdir -m 0700 ctl
	sqlite3 ctl/gbatch.db <"$S/tests/bats/data/schema4.sql"
	chmod 0600 ctl/gbatch.db
	sqlite3 old.db <"$S/tests/bats/data/schema4.sql"
}

teardown() {
	gb_teardown
}

# old SQL: a value from the fixture as schema 4 had it.
old() {
	sqlite3 old.db "$1"
}

new() {
	sqlite3 ctl/gbatch.db "$1"
}

@test "a schema-4 database is upgraded to version 24 keeping every job" {
	[ "$(old 'PRAGMA user_version')" = 4 ]
	gb_start_controller
	grep -q 'schema migrated to version 5' gbatchd.log
	grep -q 'schema migrated to version 6' gbatchd.log
	grep -q 'schema migrated to version 24' gbatchd.log
	[ "$(new 'PRAGMA user_version')" = 27 ]
	# Versions 5 and 7: the index gacct --report reads jobs from alone,
	# in the order gacct lists them.
	[ "$(new "SELECT sql FROM sqlite_master WHERE name = 'jobs_acct'")" = \
	    'CREATE INDEX jobs_acct ON jobs (end_time, id, user, state, gpus, submit_time, queue_delay, preemptions, last_queue)' ]
	# Version 6: the indexes the purge searches by.
	[ "$(new "SELECT group_concat(name, ' ') FROM (SELECT name FROM
	    sqlite_master WHERE name IN ('jobs_script', 'jobs_env',
	    'node_events_time') ORDER BY name)")" = 'jobs_env jobs_script node_events_time' ]
	# Every job, every column it had, unchanged.
	cols="id, name, user, uid, gid, state, gpus, time_limit, submit_time,
	    start_time, end_time, exit_code, signal, node, gpu_mask, restarts,
	    attained, run_total, first_start, alloc"
	[ "$(new "SELECT $cols FROM jobs WHERE state != 'RUNNING' ORDER BY id")" = \
	    "$(old "SELECT $cols FROM jobs WHERE state != 'RUNNING' ORDER BY id")" ]
	[ "$(new 'SELECT COUNT(*) FROM jobs')" = "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# Version 8: no job had an account or a comment; 9: every job could
	# start at once.
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE account = '' AND comment = ''")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE begin_time = 0")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# 10: no job waited for another; 11: none asked for a warning.
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE dependency = ''")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE warn_signal = 0 AND warn_time = 0")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# 12: no job was of an array; 13: none chose its nodes.
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE req_nodes = '' AND exclude_nodes = '' AND gpu_type = ''")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE array_job_id = 0 AND array_task_id IS NULL AND array_tasks = '' AND array_spec = ''")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# 14: none asked for a shape or tasks, and every one keeps taking
	# its GPUs split any way (flag 0x80), its other flags as they were.
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE num_nodes = 0 AND tasks_per_node = '' AND flags & 128 = 128 AND master_port = 0 AND cpus_per_gpu = 0 AND cpus_per_task = 0 AND mem = 0 AND mem_per_gpu = 0 AND mem_peak = 0 AND cpu_time = 0")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	[ "$(new "SELECT group_concat(flags & ~128) FROM jobs ORDER BY id")" = \
	    "$(old "SELECT group_concat(flags) FROM jobs ORDER BY id")" ]
	# 15: the CPUs no old run's record kept; 17: no job named a
	# partition (the default takes them).
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE alloc_cpus = 0 AND partition = ''")" = \
	    "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# 18: no accounts and no users' associations yet.
	[ "$(new 'SELECT COUNT(*) FROM accounts') $(new 'SELECT COUNT(*) FROM account_users')" = "0 0" ]
	# 19: no job named a QOS (the default takes them).
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE qos = ''")" = "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# 20: no job niced or given a priority.
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE nice = 0 AND priority = 0")" = "$(old 'SELECT COUNT(*) FROM jobs')" ]
	# gq still lists them, finished ones from the database.
	run -0 gq -t all -h -o id,name,state
	[ "${#lines[@]}" -eq "$(old 'SELECT COUNT(*) FROM jobs')" ]
	for id in $(old 'SELECT id FROM jobs'); do
		name=$(old "SELECT name FROM jobs WHERE id = $id")
		[[ "$output" == *"$id  $name"* ]] || [[ "$output" =~ $id\ +$name ]]
	done
}

@test "migrated jobs get their last run and their wait, as the old rows tell" {
	gb_start_controller
	# One run per job that started, its GPUs as node:mask for every part.
	[ "$(new 'SELECT COUNT(*) FROM job_runs')" = \
	    "$(old 'SELECT COUNT(*) FROM jobs WHERE start_time > 0 AND node IS NOT NULL')" ]
	for id in $(old 'SELECT id FROM jobs WHERE start_time > 0'); do
		node=$(old "SELECT node FROM jobs WHERE id = $id")
		mask=$(old "SELECT gpu_mask FROM jobs WHERE id = $id")
		alloc=$(old "SELECT alloc FROM jobs WHERE id = $id")
		[ -n "$alloc" ] || alloc=$(printf '%s:0x%x' "$node" "$mask")
		[ "$(new "SELECT alloc FROM job_runs WHERE job_id = $id")" = "$alloc" ]
		[ "$(new "SELECT start_time FROM job_runs WHERE job_id = $id")" = \
		    "$(old "SELECT start_time FROM jobs WHERE id = $id")" ]
	done
	# Each run carries its job's user; 21: its account (none), and
	# the partition it ran in, its job's first (the default's, none
	# named).
	[ "$(new 'SELECT COUNT(*) FROM job_runs r JOIN jobs j ON j.id = r.job_id
	    WHERE r.user = j.user')" = "$(new 'SELECT COUNT(*) FROM job_runs')" ]
	[ "$(new "SELECT COUNT(*) FROM job_runs WHERE account = '' AND
	    partition = 'gbatch'")" = "$(new 'SELECT COUNT(*) FROM job_runs')" ]
	# 22: its QOS, its job's: '' for jobs from before QOS, which the
	# reports take as the default's.
	[ "$(new 'SELECT COUNT(*) FROM job_runs r JOIN jobs j ON j.id = r.job_id
	    WHERE r.qos = j.qos')" = "$(new 'SELECT COUNT(*) FROM job_runs')" ]
	[ "$(new "SELECT COUNT(*) FROM job_runs WHERE qos = ''")" = \
	    "$(new 'SELECT COUNT(*) FROM job_runs')" ]
	# 23: no reservation, and none asked for by the jobs before.
	[ "$(new 'SELECT COUNT(*) FROM reservations')" = 0 ]
	[ "$(new "SELECT COUNT(*) FROM jobs WHERE reservation = ''")" = \
	    "$(new 'SELECT COUNT(*) FROM jobs')" ]
	# The gang's run names both of its nodes.
	gang=$(old "SELECT id FROM jobs WHERE name = 'gang'")
	[[ "$(new "SELECT alloc FROM job_runs WHERE job_id = $gang")" == *n1:*,n2:* ]]
	# Finished runs end as their jobs did, with their exit status.
	for id in $(old "SELECT id FROM jobs WHERE end_time > 0 AND start_time > 0"); do
		[ "$(new "SELECT end_state, end_time, exit_code FROM job_runs WHERE job_id = $id")" = \
		    "$(old "SELECT state, end_time, exit_code FROM jobs WHERE id = $id")" ]
	done
	# The wait of a job that started: submit to first start.
	for id in $(old 'SELECT id FROM jobs WHERE first_start > 0'); do
		want=$(old "SELECT first_start - submit_time * 1000 FROM jobs WHERE id = $id")
		((want >= 0)) || want=0
		[ "$(new "SELECT queue_delay FROM jobs WHERE id = $id")" = "$want" ]
	done
	# JOB_LIST sends the accounting members; JCT is end - submit.
	done_id=$(old "SELECT id FROM jobs WHERE name = 'done'")
	run -0 gq -j "$done_id" --json
	jct=$(old "SELECT end_time - submit_time FROM jobs WHERE id = $done_id")
	python3 -c '
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
assert j["jct"] == int(sys.argv[2]), j
for k in ("first_start", "run_time", "queue_delay", "last_queue"):
    assert k in j, (k, j)' "$output" "$jct"
}

@test "after the upgrade new runs are recorded with their transitions" {
	gb_start_controller
	gb_start_node n1 4
	held=$(old "SELECT id FROM jobs WHERE name = 'held'")
	gctl release "$held"
	gb_wait_state "$held" COMPLETED 20
	[ "$(new "SELECT COUNT(*) FROM job_runs WHERE job_id = $held")" = 1 ]
	[ "$(new "SELECT end_state, exit_code FROM job_runs WHERE job_id = $held")" = "COMPLETED|0" ]
	[[ "$(new "SELECT alloc FROM job_runs WHERE job_id = $held")" == n1:0x* ]]
	# Its wait began when it was released, not at its old submit time.
	submit=$(old "SELECT submit_time FROM jobs WHERE id = $held")
	delay=$(new "SELECT queue_delay FROM jobs WHERE id = $held")
	start=$(new "SELECT start_time FROM jobs WHERE id = $held")
	((delay / 1000 <= start - submit))
	((delay < 20000))
}

@test "after the upgrade gacct's listing and the purge read jobs in order from jobs_acct, sorting nothing; a series searches" {
	gb_start_controller
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	# bench/store-plans explains every statement the store prepares,
	# through the store's own code: a statement line, then its plan.
	run -0 "$B/bench/store-plans" ctl
	plans=$(awk '/^\[[0-9]+\] statement:/ { keep = /ORDER BY end_time, id( LIMIT :max)?$/; n += keep }
	    keep { print } END { print "statements:", n }' <<<"$output")
	# The listing (gacct), and the purge: its batch and where it ends.
	[[ "$plans" == *"statements: 3"* ]]
	[ "$(grep -c 'USING .*INDEX jobs_acct (end_time>? AND end_time<?)' <<<"$plans")" = 3 ]
	[ "$(grep -c 'TEMP B-TREE' <<<"$plans")" = 0 ]
	# A series' jobs alive at its end: searches of jobs_state (the
	# scheduler's jobs) and of jobs_acct (those that ended later).
	alive=$(awk '/^\[[0-9]+\] statement:/ { keep = /^\[[0-9]+\] statement: SELECT submit_time FROM jobs WHERE/ }
	    keep { print }' <<<"$output")
	[ "$(grep -c 'statement:' <<<"$alive")" = 2 ]
	[ "$(grep -c 'SEARCH jobs USING INDEX jobs_state (state=?)' <<<"$alive")" = 1 ]
	[ "$(grep -c 'SEARCH jobs USING COVERING INDEX jobs_acct (end_time>?)' <<<"$alive")" = 1 ]
	# Nothing else scans a table that grows with the history (the
	# purge's own batch is a temporary table of one batch).
	[ "$(grep 'full scan$' <<<"$output" | grep -vc 'SCAN temp.purge_batch')" = 0 ] ||
	    { grep -B4 'full scan$' <<<"$output"; false; }
}

@test "a database newer than this gbatchd is refused, untouched" {
	new 'PRAGMA user_version = 99'
	before=$(sqlite3 ctl/gbatch.db .dump | md5sum)
	run ! gbatchd -D -f "$GBATCH_CONF" -L "$GB_DIR/gbatchd.log"
	grep -q 'schema version 99, newer than this gbatchd knows (27)' gbatchd.log ||
	    [[ "$output" == *'schema version 99, newer than this gbatchd knows (9)'* ]]
	[ "$(sqlite3 ctl/gbatch.db .dump | md5sum)" = "$before" ]
}
