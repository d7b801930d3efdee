#!/usr/bin/env bats
# gacct.bats: accounting over a real local cluster. Expected values come
# from the jobs' own timestamps in the database (sqlite3), never from
# gacct's output.

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

db() {
	sqlite3 "$GB_DIR/ctl/gbatch.db" "$1"
}

@test "gacct --help lists every option and field; a bad option is exit 2" {
	run -0 gacct --help
	for o in --starttime --endtime --user --me --state --jobs --format \
	    --noheader --parsable --csv --json --trace --timeout; do
		[[ "$output" == *"$o"* ]]
	done
	[[ "$output" == *"Fields: "*"queue_delay"*"jct"*"gpu_hours"* ]]
	run -2 gacct --colour
	[[ "$output" == *"--colour"* ]]
	run -2 gacct -P --csv
	[[ "$output" == *"choose one output"* ]]
}

@test "finished jobs are listed with their costs, sorted by end time" {
	a=$(gb_submit -J ok -G 2 --wrap 'sleep 2')
	b=$(gb_submit -J bad --wrap 'sleep 1; exit 3')
	c=$(gb_submit -J gone -H --wrap 'true')
	gcancel "$c"
	d=$(gb_submit -J late -t 0:01 --wrap 'sleep 30')
	e=$(gb_submit -J gang -G 8 --wrap 'sleep 1')
	for j in "$a" "$b" "$c" "$e"; do
		gb_wait 30 bash -c "gq -h -j $j -o state | grep -qvE 'PENDING|RUNNING|HELD'"
	done
	gb_wait 90 gb_state_is "$d" TIMEOUT
	run -0 gacct -P -o id,state,exit_code,gpus,jct,run_time,queue_delay,runs
	[ "${lines[0]}" = "id|state|exit_code|gpus|jct|run_time|queue_delay|runs" ]
	[ "${#lines[@]}" -eq 6 ]
	# Order: by end time, then id, as the database has them.
	[ "$(printf '%s\n' "${lines[@]:1}" | cut -d'|' -f1 | paste -sd,)" = \
	    "$(db "SELECT id FROM jobs WHERE end_time > 0 ORDER BY end_time, id" | paste -sd,)" ]
	row() { printf '%s\n' "${lines[@]}" | awk -F'|' -v id="$1" '$1 == id'; }
	[[ "$(row "$a")" == "$a|COMPLETED|0|2|"* ]]
	[[ "$(row "$b")" == "$b|FAILED|3|1|"* ]]
	[[ "$(row "$c")" == "$c|CANCELLED||1|"* ]]
	[[ "$(row "$d")" == "$d|TIMEOUT|"* ]]
	# The gang's one run names both nodes.
	[[ "$(row "$e")" == *"|n1:0,1,2,3;n2:0,1,2,3" || "$(row "$e")" == *"|n2:0,1,2,3;n1:0,1,2,3" ]]
	# JSON: every figure against the row's own timestamps.
	run -0 gacct --json
	python3 - "$output" "$GB_DIR/ctl/gbatch.db" <<'PY'
import json, sqlite3, sys
jobs = json.loads(sys.argv[1])["jobs"]
db = sqlite3.connect(sys.argv[2])
assert len(jobs) == 5, jobs
for j in jobs:
    submit, first, end, runt, delay, att, gpus = db.execute(
        "SELECT submit_time, first_start, end_time, run_total, queue_delay,"
        " attained, gpus FROM jobs WHERE id = ?", (j["id"],)).fetchone()
    assert j["jct"] == end - submit, j
    assert j["first_start"] == first // 1000, j
    assert j["run_time"] == runt // 1000, j
    assert j["queue_delay"] == delay // 1000, j
    assert j["attained"] == att // 1000, j
    runs = db.execute("SELECT start_time, end_time, end_state FROM job_runs"
                      " WHERE job_id = ? ORDER BY id", (j["id"],)).fetchall()
    assert [(r["start_time"], r["end_time"], r["end_state"]) for r in j["runs"]] == runs, (j, runs)
    if j["state"] != "CANCELLED":
        assert runs and runs[-1][2] == j["state"], (j, runs)
        # A run of GPUs x seconds is within a second per GPU of attained.
        assert abs(j["attained"] - gpus * j["run_time"]) <= gpus, j
    # What billing reads, beside attained.
    assert j["gpu_seconds"] == j["attained"], j
    assert abs(j["gpu_hours"] - j["attained"] / 3600) < 1e-6, j
PY
}

@test "how a job ended reads as sacct's exit:signal, and CSV and JSON carry numbers a machine reads" {
	killed=$(gb_submit -J killed --wrap 'kill -9 $$')
	failed=$(gb_submit -J failed --wrap 'sleep 1; exit 3')
	gb_wait_state "$killed" FAILED 20
	gb_wait_state "$failed" FAILED 20
	# The default columns end with EXIT, "code:signal".
	run -0 gacct -n
	row() { printf '%s\n' "${lines[@]}" | awk -v id="$1" '$1 == id { print $NF }'; }
	[ "$(row "$killed")" = 0:9 ]
	[ "$(row "$failed")" = 3:0 ]
	# CSV: durations in whole seconds, GPU-hours to six decimals (a
	# second of one GPU is not 0.00); the table keeps the human form.
	gacct --csv -o id,run_time,jct,queue_delay,gpu_hours,gpu_seconds >out.csv
	python3 - out.csv "$failed" <<'PY'
import csv, sys
rows = {r["id"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
r = rows[sys.argv[2]]
for k in ("run_time", "jct", "queue_delay", "gpu_seconds"):
    assert r[k].isdigit(), (k, r)
assert int(r["run_time"]) >= 1, r
h = r["gpu_hours"]
assert len(h.split(".")[1]) == 6 and float(h) > 0, r
assert abs(float(h) - int(r["gpu_seconds"]) / 3600) < 1e-6, r
PY
	run -0 gacct -n -o id,run_time -j "$failed"
	[[ "$output" =~ ^$failed[[:space:]]+0:0[0-9]$ ]]
	# --json with -o: those fields' members alone, with gpu_hours when
	# asked.
	run -0 gacct --json -o id,state,gpu_hours -j "$failed"
	python3 - "$output" <<'PY'
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
# id reads the array members too (a task's id is ARRAY_TASK).
ids = {"id", "array_job_id", "array_task_id", "array_tasks", "array_spec"}
assert set(j) == ids | {"state", "attained", "gpu_hours", "gpu_seconds"}, j
PY
	run -0 gacct --json -o id,state -j "$failed"
	python3 -c 'import json, sys; j = json.loads(sys.argv[1])["jobs"][0]; assert set(j) == {"id", "state", "array_job_id", "array_task_id", "array_tasks", "array_spec"}, j' "$output"
}

@test "time windows select by end time, START inclusive and END exclusive" {
	a=$(gb_submit -J one --wrap 'true')
	gb_wait_state "$a" COMPLETED 20
	b=$(gb_submit -J two --wrap 'true')
	gb_wait_state "$b" COMPLETED 20
	ea=$(db "SELECT end_time FROM jobs WHERE id = $a")
	eb=$(db "SELECT end_time FROM jobs WHERE id = $b")
	run -0 gacct -n -P -o id -S "@$ea" -E "@$((ea + 1))"
	[ "$output" = "$a" ] || [ "$ea" = "$eb" ]
	run -0 gacct -n -P -o id -S "@$((ea + 1))" -E "@$((eb + 1))"
	[[ "$output" != *"$a"* ]] || [ "$ea" = "$eb" ]
	run -0 gacct -n -P -o id -S "@$ea" -E "@$ea"
	[ -z "$output" ]
	# Nothing in the window: the header only, exit 0.
	run -0 gacct -P -o id,name -S 2001-01-01 -E 2001-01-02
	[ "$output" = "id|name" ]
	# Default: since midnight.
	run -0 gacct -n -P -o id
	[[ "$output" == *"$a"* && "$output" == *"$b"* ]]
	run -0 gacct -n -P -o id -S yesterday -E now-1days
	[ -z "$output" ] || [ "$(date +%H)" = 00 ]
}

@test "CSV and -P carry a name with a comma and a quote, an argument with a newline" {
	name='odd, "name"|pipe'
	printf '#!/bin/sh\ntrue\n' > job.sh
	a=$(gb_submit -J "$name" job.sh $'true\ntrue')
	gb_wait_state "$a" COMPLETED 20
	gacct --csv -o id,name,argv,state > out.csv
	python3 - out.csv "$name" "$a" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["id", "name", "argv", "state"], rows
assert rows[1] == [sys.argv[3], sys.argv[2], "true\ntrue", "COMPLETED"], rows
assert len(rows) == 2, rows
PY
	run -0 gacct -P -n -o id,name,argv,state
	[ "${#lines[@]}" -eq 1 ]
	[ "$(awk -F'|' '{ print NF }' <<<"$output")" = 4 ]
	[[ "$output" == *'odd, "name"\x7cpipe|true\ntrue|'* ]]
}

@test "--json escapes C1 controls and DEL from an argument, as every other view does" {
	printf '#!/bin/sh\ntrue\n' > job.sh
	# An argument may hold anything; CSI (U+009B) must not reach the
	# terminal raw.
	a=$(gb_submit job.sh $'a\xc2\x9b2Jb\x7fc')
	gb_wait_state "$a" COMPLETED 20
	gacct --json >out.json
	gb_no_controls out.json
	grep -qF 'a\u009b2Jb\u007fc' out.json
	python3 - out.json "$a" <<'PY'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
j = [j for j in jobs if str(j["id"]) == sys.argv[2]][0]
assert j["argv"] == ["a\u009b2Jb\u007fc"], j["argv"]
PY
}

@test "users see their own jobs; asking for another user's is refused" {
	id -u gbacct1 >/dev/null 2>&1 || useradd -M -N gbacct1
	a=$(gb_submit -J mine --wrap 'true')
	gb_wait_state "$a" COMPLETED 20
	chmod 0755 "$GB_DIR"
	run -4 su gbacct1 -s /bin/sh -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF $B/bin/gacct -u root"
	[[ "$output" == *"your own jobs"*"operators"* ]]
	run -0 su gbacct1 -s /bin/sh -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF $B/bin/gacct -n -P -o id"
	[ -z "$output" ]
	# A user since removed keeps their history; a name nobody ever had
	# is refused by gbatchd (gacct reads no account database).
	mkdir "$GB_DIR/u1"
	chown gbacct1 "$GB_DIR/u1"
	b=$(su gbacct1 -s /bin/sh -c "cd $GB_DIR/u1 && GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF $B/bin/gsub --parsable -o /dev/null --wrap true")
	gb_wait_state "$b" COMPLETED 20
	userdel gbacct1
	run -0 gacct -u gbacct1 -n -P -o id
	[ "$output" = "$b" ]
	run -1 gacct -u no-such-user-here
	[ "$output" = 'gacct: no such user "no-such-user-here"' ]
}

@test "bad dates, fields and states are usage errors naming what is accepted" {
	run -2 gacct -S 2026-02-30
	[[ "$output" == *"--starttime"*"2026-02-30"* ]]
	run -2 gacct -E next-week
	[[ "$output" == *"--endtime"*"now"*"yesterday"* ]]
	run -2 gacct -o id,colour
	[[ "$output" == *"colour"* ]]
	run -2 gacct -s RUNNING
	[[ "$output" == *"COMPLETED (CD)"* ]]
	run -2 gacct -S now -E yesterday
	[[ "$output" == *"after --endtime"* ]]
}

@test "an unreachable controller is exit 3 with where it looked" {
	run -3 env GBATCH_SOCKET=/nonexistent/gbatchd.sock gacct --timeout 1
	[[ "$output" == *"/nonexistent/gbatchd.sock"* ]]
}

@test "--trace replays in gsim" {
	a=$(gb_submit -J t1 -G 2 --wrap 'sleep 2')
	b=$(gb_submit -J t2 --qos normal --wrap 'sleep 3')
	gb_wait_state "$a" COMPLETED 20
	gb_wait_state "$b" COMPLETED 20
	gacct --trace > week.csv
	[ "$(head -n 1 week.csv)" = "submit_time,num_gpus,duration,name,user,account,partition,time_limit,qos" ]
	[ "$(wc -l < week.csv)" -eq 3 ]
	# Each row ends with the job's QOS, which gsim --conf judges.
	[ "$(cut -d, -f9 week.csv | tail -n 2 | sort -u)" = normal ]
	run -0 gsim -p dlas,fifo -c 2x4 week.csv
	[[ "$output" == *dlas* ]]
}

@test "JOB_ACCT streams thousands of jobs in frames of 128 kB at most, whole and in end-time order" {
	"$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n 3000 >/dev/null
	gcancel -t held
	gb_wait 20 eval '[ "$(db "SELECT count(*) FROM jobs WHERE state = '"'CANCELLED'"'")" -eq 3000 ]'
	db "SELECT id FROM jobs ORDER BY end_time, id" >expected
	gb_rawask '{"type":204,"seq":5,"since":946684800}' >frames
	python3 - <<'PY' >got
import json
lines = open("frames", "rb").read().split(b"\n")[:-1]
frames = [json.loads(l) for l in lines]
assert all(f["ok"] and f["seq"] == 5 for f in frames), frames[0]
assert frames[-1]["more"] is False and all(f["more"] for f in frames[:-1])
# A frame ends once past 128 kB (a record here is well under 2 kB) or at
# 1,024 jobs, so it fits in a socket buffer.
sizes = [len(l) for l in lines]
counts = [len(f["jobs"]) for f in frames]
assert all(n <= 128 * 1024 + 2048 for n in sizes), sizes
assert all(n > 128 * 1024 or c == 1024 for n, c in zip(sizes[:-1], counts[:-1])), (sizes, counts)
assert len(counts) >= 3 and max(counts) <= 1024, counts
print("\n".join(str(j["id"]) for f in frames for j in f["jobs"]))
PY
	diff expected got
}
