#!/usr/bin/env bats
# gacct-report.bats: gacct --report over a real local cluster. Every figure
# is recomputed here from the database (python3 + sqlite3), by the
# definitions in gacct(1), never copied from gacct's output: node states
# second by second rather than by intervals, as gbatchd does.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# threads_started N: gbatchd has started N report threads in all.
threads_started() {
	[ "$(grep -c 'the jobs are read on a thread' gbatchd.log)" -ge "$1" ]
}

# field ID FIELD: one gq field of a job, finished or not.
field() {
	gq -h -t all -j "$1" -o "$2"
}

# range_end IDS: once the second after the last of the jobs IDS (a,b,...)
# ended has come, echoes now: an END that takes in every one of them.
range_end() {
	local last
	last=$(gacct -j "$1" --json | python3 -c 'import json, sys; print(max(j["end_time"] for j in json.load(sys.stdin)["jobs"]))')
	gb_wait 5 eval "[ \$(date +%s) -gt $last ]"
	date +%s
}

# report_json NAME SINCE UNTIL: gacct --report NAME over [SINCE, UNTIL)
# as JSON, into NAME.json.
report_json() {
	gacct --report "$1" -S "@$2" -E "@$3" --json >"$1.json"
}

@test "gacct --report: a bad name, and options that do not apply, are usage errors" {
	run -2 gacct --report groups
	[[ "$output" == *'--report: expected users, cluster, nodes, timeline, accounts, partitions or qos, got "groups"'* ]]
	run -2 gacct --report nodes -s CD
	[[ "$output" == *"-s/--state does not apply"* ]]
	run -2 gacct --report cluster -u root
	[[ "$output" == *"-u/--user and --me does not apply"* ]]
	run -2 gacct --report users -j 1
	run -2 gacct --report users -o user,nope
	[[ "$output" == *'nope'*'user'*'share'* ]]
	run -2 gacct --report timeline -s CD
	[[ "$output" == *"--report timeline: -s/--state does not apply"* ]]
	run -2 gacct --report cluster --bins 4
	[[ "$output" == *"--report cluster: --bins does not apply"* ]]
	run -2 gacct --bins 4
	[[ "$output" == *"--bins goes with --report timeline"* ]]
	for n in 0 1001 x 3x; do
		run -2 gacct --report timeline --bins "$n"
		[[ "$output" == *"--bins: expected a whole number from 1 to 1000, got \"$n\""* ]]
	done
	run -2 gacct --report users -A phys
	[[ "$output" == *"--report users: -A/--accounts does not apply"* ]]
	run -2 gacct --report accounts -r gpu
	[[ "$output" == *"--report accounts: -r/--partition does not apply"* ]]
	run -2 gacct --report partitions -u root
	[[ "$output" == *"--report partitions: -u/--user and --me does not apply"* ]]
	run -2 gacct --report accounts -o account,nope
	[[ "$output" == *'nope'*'budget_hours'*'used_pct'* ]]
	run -2 gacct --report qos -A phys
	[[ "$output" == *"--report qos: -A/--accounts does not apply"*"qos -s"* ]]
	run -2 gacct --report qos -r gpu
	[[ "$output" == *"--report qos: -r/--partition does not apply"* ]]
	run -2 gacct --report qos -u root
	[[ "$output" == *"--report qos: -u/--user and --me does not apply"* ]]
	run -0 gacct --help
	[[ "$output" == *"--report REPORT"* ]]
	[[ "$output" == *"accounts: account, parent, jobs,"* ]]
	[[ "$output" == *"partitions: partition, jobs,"* ]]
	[[ "$output" == *"qos: qos, usage_factor, jobs,"*"gpu_hours, gpu_hours_charged, share"* ]]
	[[ "$output" == *"accounts: account, parent, jobs,"*"gpu_hours, gpu_hours_charged,"*"used_hours, used_hours_charged, used_pct"* ]]
	[[ "$output" == *"--bins N"* ]]
	[[ "$output" == *"timeline: start, end, jobs,"* ]]
}

@test "gacct --report users, cluster, nodes and timeline agree with the database" {
	# preempt_plain: big, a plain sleep, may be preempted.
	printf 'scheduler = {\n  thresholds = [ 2.0 ];\n  promote_knob = 0;\n  preempt_plain = true;\n};\n' >>"$GBATCH_CONF"
	# The range starts before the nodes first come up: that time is
	# theirs neither as down time nor as capacity.
	t0=$(($(date +%s) - 5))
	gb_start_cluster
	# big: 8 GPUs on 2 x 4, in Q1 after a quarter second; small, new in
	# Q0, preempts it; big is requeued and runs again.
	big=$(gb_submit -J big -G 8 --wrap 'sleep 3')
	gb_wait_state "$big" RUNNING 20
	gb_wait 10 eval "[ \"\$(field $big queue)\" = Q1 ]"
	small=$(gb_submit -J small -G 4 --wrap 'sleep 2')
	gb_wait_state "$small" COMPLETED 30
	gb_wait_state "$big" COMPLETED 40
	# n2 drained while these run on n1.
	gctl drain n2 >/dev/null
	bad=$(gb_submit -J bad --wrap 'sleep 1; exit 3')
	gone=$(gb_submit -J gone -H --wrap 'true')
	gcancel "$gone"
	late=$(gb_submit -J late -G 2 -t 0:02 --wrap 'sleep 30')
	gb_wait_state "$bad" FAILED 20
	gb_wait_state "$late" TIMEOUT 30
	gctl resume n2 >/dev/null
	# n1 goes down: silent past node_timeout.
	kill -TERM "$GB_NODE_PID_n1"
	gb_wait 30 eval "gnodes -h -o name,state | grep -q 'n1 *down'"
	# The range ends a second after the last event, so n1's down time
	# is in it.
	last=$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT MAX(time) FROM node_events")
	gb_wait 5 eval "[ \$(date +%s) -gt $last ]"
	t1=$(date +%s)

	# The preempted job's listing: two runs, a restart, a preemption.
	run -0 gacct -j "$big" --json
	python3 - "$output" <<'PY'
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
assert j["state"] == "COMPLETED" and j["gpus"] == 8, j
assert j["restarts"] == 1 and j["preemptions"] == 1, j
assert [r["end_state"] for r in j["runs"]] == ["PREEMPTED", "COMPLETED"], j
assert sorted(a["node"] for a in j["runs"][0]["alloc"]) == ["n1", "n2"], j
PY

	for r in users cluster nodes; do
		run -0 gacct --report "$r" -S "@$t0" -E "@$t1" --json
		echo "$output" >"$r.json"
	done
	# Bins of uneven length: the range is rarely a multiple of 7 s.
	run -0 gacct --report timeline --bins 7 -S "@$t0" -E "@$t1" --json
	echo "$output" >timeline.json
	python3 - "$GB_DIR/ctl/gbatch.db" "$t0" "$t1" <<'PY'
import json, math, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
since, until = int(sys.argv[2]), int(sys.argv[3])
STATES = ["COMPLETED", "FAILED", "TIMEOUT", "CANCELLED", "NODE_FAIL", "OUT_OF_MEMORY"]

def rank(v, p):
    v = sorted(v)
    return v[max(math.ceil(p * len(v) / 100), 1) - 1]

def close(a, b):
    assert (a is None and b is None) or abs(a - b) < 1e-6, (a, b)

def check_jobs(row, js, waits_all):
    assert row["jobs"] == len(js), (row, js)
    for s in STATES:
        assert row[s.lower()] == sum(1 for j in js if j[1] == s), (row, s)
    jct = [j[4] - j[3] for j in js]
    wait = [j[5] for j in js]
    if not js:
        assert row["jct_avg"] is None and row["jct_median"] is None, row
        return
    close(row["jct_avg"], sum(jct) / len(jct))
    assert row["jct_median"] == rank(jct, 50), (row, jct)
    assert row["jct_p95"] == rank(jct, 95), (row, jct)
    close(row["wait_avg"], sum(wait) / len(wait) / 1000)
    if waits_all:
        close(row["wait_median"], rank(wait, 50) / 1000)
        close(row["wait_p95"], rank(wait, 95) / 1000)
    assert row["preemptions"] == sum(j[6] for j in js), row

jobs = db.execute("SELECT user, state, gpus, submit_time, end_time,"
    " queue_delay, preemptions, last_queue FROM jobs WHERE end_time >= ?"
    " AND end_time < ? AND state IN ('COMPLETED', 'FAILED', 'TIMEOUT',"
    " 'CANCELLED', 'NODE_FAIL', 'OUT_OF_MEMORY')", (since, until)).fetchall()
assert len(jobs) == 5, jobs
assert sorted(j[1] for j in jobs) == sorted(["COMPLETED", "COMPLETED",
    "FAILED", "CANCELLED", "TIMEOUT"]), jobs

# Usage: each run clipped to the range, GPUs per node from its alloc.
used_user, used_node = {}, {}
for user, start, end, alloc in db.execute("SELECT j.user, r.start_time,"
        " r.end_time, r.alloc FROM job_runs r JOIN jobs j ON j.id = r.job_id"):
    secs = max(0, min(end or until, until) - max(start, since))
    for part in alloc.split(","):
        node, mask = part.rsplit(":", 1)
        g = bin(int(mask, 16)).count("1") * secs
        used_node[node] = used_node.get(node, 0) + g
        used_user[user] = used_user.get(user, 0) + g
total = sum(used_user.values())
assert total > 0

users = json.load(open("users.json"))
assert users["since"] == since and users["until"] == until, users
assert [r["user"] for r in users["rows"]] == sorted(used_user), users
for row in users["rows"]:
    check_jobs(row, [j for j in jobs if j[0] == row["user"]], False)
    assert row["gpu_seconds"] == used_user[row["user"]], row
    close(row["share"], 100 * used_user[row["user"]] / total)

# Node states second by second: the last event at or before each second;
# before a node's first event of a kind, the opposite of that event, but
# before a first UP the node was not in the cluster (None): neither down
# nor capacity.
nodes = dict(db.execute("SELECT name, gpus FROM nodes"))
down, drained, absent, states = {}, {}, {}, {}
for n in nodes:
    ev = db.execute("SELECT time, state FROM node_events WHERE node = ?"
                    " ORDER BY time, id", (n,)).fetchall()
    def state(t, yes, no, ev=ev):
        kind = [e for e in ev if e[1] in (yes, no)]
        if not kind:
            return False
        before = [e for e in kind if e[0] <= t]
        if before:
            return before[-1][1] == yes
        if yes == "UP" and kind[0][1] == "UP":
            return None
        return kind[0][1] == no
    states[n] = lambda t, state=state: state(t, "UP", "DOWN")
    down[n] = sum(1 for t in range(since, until) if state(t, "UP", "DOWN") is False)
    absent[n] = sum(1 for t in range(since, until) if state(t, "UP", "DOWN") is None)
    drained[n] = sum(1 for t in range(since, until)
                     if state(t, "UP", "DOWN") and state(t, "DRAINED", "RESUMED"))
assert down["n1"] > 0 and drained["n2"] > 0, (down, drained)
assert absent["n1"] >= 5 and absent["n2"] >= 5, absent
cap = {n: g * (until - since - down[n] - absent[n]) for n, g in nodes.items()}

nrows = json.load(open("nodes.json"))["rows"]
assert [r["node"] for r in nrows] == sorted(nodes), nrows
for row in nrows:
    n = row["node"]
    assert row["gpus"] == nodes[n], row
    assert row["gpu_seconds"] == used_node.get(n, 0), (row, used_node)
    assert row["down_seconds"] == down[n], (row, down)
    assert row["drained_seconds"] == drained[n], (row, drained)
    assert row["capacity_seconds"] == cap[n], (row, cap)
    close(row["utilization"], 100 * used_node.get(n, 0) / cap[n])

crows = json.load(open("cluster.json"))["rows"]
all_ = crows[0]
assert all_["group"] == "all", crows
check_jobs(all_, jobs, True)
c = sum(cap.values())
assert all_["gpu_seconds"] == total and all_["capacity_seconds"] == c, all_
assert all_["idle_seconds"] == c - total, all_
close(all_["utilization"], 100 * total / c)
assert all_["down_seconds"] == sum(nodes[n] * down[n] for n in nodes), all_
assert all_["drained_seconds"] == sum(nodes[n] * drained[n] for n in nodes)
queues = [r for r in crows if r["group"] == "queue"]
assert [r["key"] for r in queues] == ["Q%d" % i for i in range(len(queues))]
for r in queues:
    check_jobs(r, [j for j in jobs if j[7] == int(r["key"][1:])], True)
buckets = {"0": (0, 0), "1": (1, 1), "2-4": (2, 4), "5-8": (5, 8), ">8": (9, 1 << 30)}
assert [r["key"] for r in crows if r["group"] == "gpus"] == list(buckets)
for r in crows:
    if r["group"] == "gpus":
        lo, hi = buckets[r["key"]]
        check_jobs(r, [j for j in jobs if lo <= j[2] <= hi], True)
# JCT ranges: lower end included; every range has its row.
jcts = {"<1m": (0, 60), "1m-10m": (60, 600), "10m-1h": (600, 3600),
        "1h-4h": (3600, 14400), "4h-12h": (14400, 43200),
        "12h-1d": (43200, 86400), "1d-3d": (86400, 259200),
        ">3d": (259200, 1 << 40)}
assert [r["key"] for r in crows if r["group"] == "jct"] == list(jcts), crows
for r in crows:
    if r["group"] == "jct":
        lo, hi = jcts[r["key"]]
        check_jobs(r, [j for j in jobs if lo <= j[4] - j[3] < hi], True)

# The timeline, second by second: bin i starts at since + ceil(i L / 7).
tl = json.load(open("timeline.json"))
assert tl["report"] == "timeline", tl
bins = tl["rows"]
L = until - since
edges = [since + -(-i * L // 7) for i in range(8)]
assert [(b["start"], b["end"]) for b in bins] == list(zip(edges, edges[1:])), bins
runs = db.execute("SELECT start_time, end_time, alloc FROM job_runs").fetchall()
alive = db.execute("SELECT submit_time, CASE WHEN state IN ('PENDING',"
    " 'HELD', 'RUNNING', 'PREEMPTING') THEN 0 ELSE end_time END"
    " FROM jobs").fetchall()
for b in bins:
    secs = range(b["start"], b["end"])
    gpu = run = live = 0
    for start, end, alloc in runs:
        n = sum(1 for t in secs if start <= t < (end or until))
        run += n
        gpu += n * sum(bin(int(p.rsplit(":", 1)[1], 16)).count("1")
                       for p in alloc.split(","))
    for submit, end in alive:
        live += sum(1 for t in secs if submit <= t < (end or until))
    up = sum(g * sum(1 for t in secs if states[n](t))
             for n, g in nodes.items())
    ended = sum(1 for j in jobs if b["start"] <= j[4] < b["end"])
    assert b["gpu_seconds"] == gpu, (b, gpu)
    assert b["capacity_seconds"] == up, (b, up, db.execute(
        "SELECT node, time, state FROM node_events").fetchall())
    assert b["jobs"] == ended, (b, ended)
    close(b["running"], run / len(secs))
    close(b["waiting"], (live - run) / len(secs))
    close(b["utilization"], 100 * gpu / up if up else None)
assert sum(b["gpu_seconds"] for b in bins) == total
assert sum(b["capacity_seconds"] for b in bins) == c
assert sum(b["jobs"] for b in bins) == len(jobs)
assert max(b["waiting"] for b in bins) > 0, bins
PY

	# The same figures in the other formats: hours, 2 decimals.
	run -0 gacct --report users -S "@$t0" -E "@$t1" -P -o user,jobs,gpu_hours
	[ "${lines[0]}" = "user|jobs|gpu_hours" ]
	want=$(python3 -c 'import json; r = json.load(open("users.json"))["rows"][0]; print("%s|%d|%.2f" % (r["user"], r["jobs"], r["gpu_seconds"] / 3600))')
	[ "${lines[1]}" = "$want" ]
	run -0 gacct --report nodes -S "@$t0" -E "@$t1" --csv
	python3 -c 'import csv, sys; rows = list(csv.DictReader(sys.stdin)); assert [r["node"] for r in rows] == ["n1", "n2"], rows' <<<"$output"
}

@test "gacct --report accounts and partitions: a row each, jobs and GPU-hours as the jobs' own runs say, and each budget's use this month" {
	cat >>"$GBATCH_CONF" <<'CONF'
partitions = {
  gpu = { nodes = "n1"; default = true; };
  long = { nodes = "n2"; };
};
CONF
	t0=$(date +%s)
	gb_start_cluster
	# science's budget counts phys's runs, below it; chem has none;
	# idle runs nothing and still has its row.
	gctl account add science gpu_hours=100
	gctl account add phys parent=science
	gctl account add chem
	gctl account add idle gpu_hours=0.5
	a=$(gb_submit -A phys -p gpu -G 2 --wrap 'sleep 4')
	b=$(gb_submit -A chem -p long -G 1 --wrap 'sleep 4')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	# n1 has 2 GPUs free, n2 3: c, listing both, runs in long.
	c=$(gb_submit -A phys -p gpu,long -G 3 --wrap 'sleep 1')
	# No account; and a job that never ran, in its list's first.
	d=$(gb_submit -p long -G 1 --wrap 'exit 2')
	e=$(gb_submit -A chem -p long,gpu -H --wrap true)
	gcancel "$e"
	for j in "$a" "$b" "$c"; do
		gb_wait_state "$j" COMPLETED 30
	done
	gb_wait_state "$d" FAILED 20
	# The range ends after the last of them did.
	t1=$(range_end "$a,$b,$c,$d,$e")
	gacct -j "$a,$b,$c,$d,$e" -S "@$t0" -E "@$t1" --json >jobs.json
	report_json accounts "$t0" "$t1"
	report_json partitions "$t0" "$t1"
	python3 - "$t0" "$t1" "$(date -u +%Y-%m)" <<'PY'
import json, sys
since, until, month = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
jobs = json.load(open("jobs.json"))["jobs"]
assert len(jobs) == 5, jobs
PART = {"n1": "gpu", "n2": "long"}

def secs(r):
    return max(0, min(r["end_time"] or until, until) - max(r["start_time"], since))

def where(j):
    # The partition of its last run's node, or its list's first.
    if j["runs"]:
        return PART[j["runs"][-1]["alloc"][0]["node"]]
    return j["partition"].split(",")[0]

total = sum(r["gpus"] * secs(r) for j in jobs for r in j["runs"])
assert total > 0

def check(row, js, gs):
    assert row["jobs"] == len(js), (row, js)
    for s in ("COMPLETED", "FAILED", "CANCELLED"):
        assert row[s.lower()] == sum(1 for j in js if j["state"] == s), (row, s)
    assert row["gpu_seconds"] == gs, (row, gs)
    if total:
        assert abs(row["share"] - 100 * gs / total) < 1e-6, (row, gs, total)

acc = json.load(open("accounts.json"))
assert acc["report"] == "accounts" and acc["month"] == month, acc
rows = {r["account"]: r for r in acc["rows"]}
# Every account of the table, and "" for the job of none, by name.
assert [r["account"] for r in acc["rows"]] == ["", "chem", "idle", "phys", "science"], acc
for name, row in rows.items():
    js = [j for j in jobs if j["account"] == name]
    check(row, js, sum(r["gpus"] * secs(r) for j in js for r in j["runs"]))
# The month's use: phys's runs count for science's budget too.
phys = sum(r["gpus"] * (r["end_time"] - r["start_time"])
           for j in jobs if j["account"] == "phys" for r in j["runs"])
assert rows["science"]["budget_seconds"] == 360000, rows["science"]
assert rows["science"]["used_seconds"] == phys, (rows["science"], phys)
assert abs(rows["science"]["used_pct"] - 100 * phys / 360000) < 1e-6
assert rows["science"]["spent"] is False and rows["science"]["parent"] == ""
# Without a qos group every run is normal's, of factor 1: charged as run.
for row in acc["rows"]:
    assert row["gpu_seconds_charged"] == row["gpu_seconds"], row
    assert row["account"] == "" or row["used_seconds_charged"] == row["used_seconds"], row
assert rows["phys"]["used_seconds"] == phys and rows["phys"]["parent"] == "science"
assert rows["phys"]["budget_seconds"] is None and rows["phys"]["used_pct"] is None
assert rows["idle"]["budget_seconds"] == 1800 and rows["idle"]["used_seconds"] == 0
assert rows["idle"]["jobs"] == 0 and rows["idle"]["used_pct"] == 0
assert rows[""]["parent"] is None and rows[""]["budget_seconds"] is None

par = json.load(open("partitions.json"))
assert par["report"] == "partitions", par
assert [r["partition"] for r in par["rows"]] == ["gpu", "long"], par
assert where([j for j in jobs if j["name"] == "wrap" and j["gpus"] == 3][0]) == "long"
for row in par["rows"]:
    js = [j for j in jobs if where(j) == row["partition"]]
    gs = sum(r["gpus"] * secs(r) for j in jobs for r in j["runs"]
             if PART[r["alloc"][0]["node"]] == row["partition"])
    check(row, js, gs)
PY
	# -A and -r pick rows; the shares stay the cluster's.
	run -0 gacct --report accounts -A science,idle -S "@$t0" -E "@$t1" -P -o account,parent,budget_hours,used_hours,used_pct
	[ "${lines[0]}" = "account|parent|budget_hours|used_hours|used_pct" ]
	[ "${lines[1]}" = "idle||0.50|0.00|0.0" ]
	want=$(python3 -c 'import json; r = {x["account"]: x for x in json.load(open("accounts.json"))["rows"]}["science"]; print("science||100.00|%.2f|%.1f" % (r["used_seconds"] / 3600, r["used_pct"]))')
	[ "${lines[2]}" = "$want" ]
	[ "${#lines[@]}" -eq 3 ]
	run -0 gacct --report partitions -r long -S "@$t0" -E "@$t1" --csv -o partition,jobs
	python3 -c '
import csv, json, sys
want = [r for r in json.load(open("partitions.json"))["rows"] if r["partition"] == "long"][0]["jobs"]
rows = list(csv.DictReader(sys.stdin))
assert rows == [{"partition": "long", "jobs": str(want)}], rows' <<<"$output"
}

@test "gacct --report qos: a row per QOS of the settings, and one for a QOS a reload removed, jobs and GPU-hours as the jobs' own runs say, charged at each QOS's usage_factor; the accounts report charges the same" {
	cat >>"$GBATCH_CONF" <<'CONF'
qos = {
  normal = { };
  double = { usage_factor = 2.0; };
  free = { usage_factor = 0.0; };
  half = { usage_factor = 0.5; };
  old = { };
};
CONF
	t0=$(date +%s)
	gb_start_cluster
	gctl account add lab
	a=$(gb_submit -A lab -G 2 --wrap 'sleep 2')
	b=$(gb_submit -A lab -G 1 -q double --wrap 'sleep 3')
	c=$(gb_submit -G 3 -q free --wrap 'sleep 2')
	d=$(gb_submit -A lab -G 1 -q old --wrap 'sleep 1')
	e=$(gb_submit -A lab -G 1 -q half --wrap 'sleep 2; exit 3')
	for j in "$a" "$b" "$c" "$d"; do
		gb_wait_state "$j" COMPLETED 30
	done
	gb_wait_state "$e" FAILED 30
	# old leaves the settings: its job keeps a row under its name,
	# charged at 1 as a QOS not in the settings is.
	sed -i '/^  old = /d' "$GBATCH_CONF"
	run -0 gctl reconfigure
	t1=$(range_end "$a,$b,$c,$d,$e")
	gacct -j "$a,$b,$c,$d,$e" -S "@$t0" -E "@$t1" --json >jobs.json
	report_json qos "$t0" "$t1"
	report_json accounts "$t0" "$t1"
	python3 - "$t0" "$t1" <<'PY'
import json, sys
since, until = int(sys.argv[1]), int(sys.argv[2])
jobs = json.load(open("jobs.json"))["jobs"]
assert len(jobs) == 5, jobs
FACTOR = {"normal": 1, "double": 2, "free": 0, "half": 0.5, "old": 1}

def secs(r):
    return max(0, min(r["end_time"] or until, until) - max(r["start_time"], since))

def gpu_s(js):
    return sum(r["gpus"] * secs(r) for j in js for r in j["runs"])

def charged(js):
    return sum(r["gpus"] * secs(r) * FACTOR[j["qos"]] for j in js for r in j["runs"])

total = gpu_s(jobs)
assert total > 0 and all(gpu_s([j]) > 0 for j in jobs), jobs
rep = json.load(open("qos.json"))
assert rep["report"] == "qos", rep
# The settings' QOS, and old, by name.
assert [r["qos"] for r in rep["rows"]] == ["double", "free", "half", "normal", "old"], rep
for row in rep["rows"]:
    js = [j for j in jobs if j["qos"] == row["qos"]]
    assert len(js) == 1 and row["jobs"] == 1, (row, js)
    for s in ("COMPLETED", "FAILED"):
        assert row[s.lower()] == sum(1 for j in js if j["state"] == s), (row, s)
    assert row["usage_factor"] == FACTOR[row["qos"]], row
    assert row["gpu_seconds"] == gpu_s(js), (row, js)
    assert abs(row["gpu_seconds_charged"] - gpu_s(js) * FACTOR[row["qos"]]) < 1e-6, row
    assert abs(row["share"] - 100 * gpu_s(js) / total) < 1e-6, (row, total)
acc = {r["account"]: r for r in json.load(open("accounts.json"))["rows"]}
for name in ("", "lab"):
    js = [j for j in jobs if j["account"] == name]
    assert acc[name]["gpu_seconds"] == gpu_s(js), (acc[name], js)
    assert abs(acc[name]["gpu_seconds_charged"] - charged(js)) < 1e-6, (acc[name], js)
# This month's use of lab, as run and charged: its runs whole.
js = [j for j in jobs if j["account"] == "lab"]
whole = [(j["qos"], r["gpus"] * (r["end_time"] - r["start_time"])) for j in js for r in j["runs"]]
assert acc["lab"]["used_seconds"] == sum(g for q, g in whole), acc["lab"]
assert abs(acc["lab"]["used_seconds_charged"] - sum(g * FACTOR[q] for q, g in whole)) < 1e-6, acc["lab"]
PY
	# The table: the factor as given, GPU-hours as run and charged.
	run -0 gacct --report qos -S "@$t0" -E "@$t1" -P -o qos,usage_factor,gpu_hours,gpu_hours_charged
	[ "${lines[0]}" = "qos|usage_factor|gpu_hours|gpu_hours_charged" ]
	want=$(python3 -c 'import json; r = json.load(open("qos.json"))["rows"][0]; print("double|2|%.2f|%.2f" % (r["gpu_seconds"] / 3600, r["gpu_seconds_charged"] / 3600))')
	[ "${lines[1]}" = "$want" ]
	[ "${lines[2]}" = "free|0|0.00|0.00" ]
	[ "${lines[3]}" = "half|0.5|0.00|0.00" ]
	[ "${lines[4]}" = "normal|1|0.00|0.00" ]
	[ "${lines[5]}" = "old|1|0.00|0.00" ]
	[ "${#lines[@]}" -eq 6 ]
}

@test "an ordinary user's users report holds their own row only" {
	gb_start_cluster
	id -u gbacct2 >/dev/null 2>&1 || useradd -M -N gbacct2
	a=$(gb_submit -J mine -G 2 --wrap 'sleep 1')
	gb_wait_state "$a" COMPLETED 20
	# END is now and exclusive: let the second the job ended pass.
	end=$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT end_time FROM jobs WHERE id = $a")
	gb_wait 5 eval "[ \$(date +%s) -gt $end ]"
	chmod 0755 "$GB_DIR"
	# root's own report has root's row.
	run -0 gacct --report users -S midnight -n -P -o user
	[ "$output" = root ]
	asuser() {
		su gbacct2 -s /bin/sh -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF $B/bin/gacct $*"
	}
	run -0 asuser --report users -S midnight -n -P -o user
	[ -z "$output" ]
	run -4 asuser --report users -S midnight -u root
	[[ "$output" == *"your own"*"operators"* ]]
	# The cluster's figures are open to all.
	run -0 asuser --report cluster -S midnight -n -P -o group,jobs
	[ "${lines[0]}" = "all|1" ]
	userdel gbacct2
}

@test "reports asked side by side each answer in full, and gbatchd stops cleanly while they run" {
	# A history big enough that a report takes a while: bench/fill-db
	# writes it with the controller's own store code.
	mkdir -m 0700 ctl
	"$B/bench/fill-db" ctl 100000 >/dev/null
	gb_write_conf 'keep_finished_days = 0;'
	gb_start_controller
	run -0 gacct -S 2000-01-01 --report users -P
	alone=$output
	[ "$(wc -l <<<"$alone")" -gt 100 ]
	# Five reports in one write: they start in the same loop pass, so
	# two read their jobs on threads and three in the loop; each answer
	# must be the one a report alone gives.
	python3 - "$GBATCH_SOCKET" >asked <<'PY'
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def frame(o):
    t = json.dumps(o).encode()
    return struct.pack(">I", len(t)) + t
def rd(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            sys.exit("gbatchd closed the connection")
        b += c
    return b
def reply():
    return json.loads(rd(struct.unpack(">I", rd(4))[0]))
s.sendall(frame({"type": 100, "version": 1, "role": "client"}))
reply()
s.sendall(b"".join(frame({"type": 204, "seq": i, "since": 946684800,
    "report": "users"}) for i in range(5)))
got = {}
for _ in range(5):
    r = reply()
    assert r["ok"], r
    got[r["seq"]] = r["rows"]
assert sorted(got) == list(range(5)), sorted(got)
for i in range(1, 5):
    assert got[i] == got[0], i
print(json.dumps(got[0]))
PY
	[ "$(grep -c 'JOB_ACCT report: the jobs are read on a thread' gbatchd.log)" -ge 3 ]
	grep -q 'threads busy, the jobs are read in the loop' gbatchd.log
	# The same figures as gacct printed alone (user, jobs, GPU-seconds).
	python3 - "$alone" asked <<'PY'
import json, sys
rows = json.load(open(sys.argv[2]))
lines = sys.argv[1].splitlines()
head = lines[0].split("|")
alone = {l.split("|")[0]: l.split("|") for l in lines[1:]}
assert len(alone) == len(rows), (len(alone), len(rows))
for r in rows:
    a = alone[r["user"]]
    assert int(a[head.index("jobs")]) == r["jobs"], (a, r)
    assert abs(float(a[head.index("gpu_hours")]) - r["gpu_seconds"] / 3600) <= 0.005 + 1e-9, (a, r)
PY
	# Reports under way when gbatchd is told to stop: it interrupts
	# their threads, waits for them and exits 0.
	python3 - "$GBATCH_SOCKET" <<'PY' &
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def frame(o):
    t = json.dumps(o).encode()
    return struct.pack(">I", len(t)) + t
s.sendall(frame({"type": 100, "version": 1, "role": "client"}))
s.sendall(b"".join(frame({"type": 204, "seq": i, "since": 946684800,
    "report": ("users", "cluster")[i % 2]}) for i in range(4)))
while s.recv(65536):
    pass
PY
	asker=$!
	gb_wait 10 threads_started 5
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID"
	wait "$asker"
	grep -q 'gbatchd: stopped' gbatchd.log
	[ "$(grep -cE 'pthread|worker:' gbatchd.log)" = 0 ]
}
