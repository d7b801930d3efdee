#!/usr/bin/env bats
# The tools bench/ rests its figures on: they run, and they print what
# bench/README.md says they print; and every bench script runs once at its
# smallest size. No timing is checked here.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	T=$(mktemp -d /tmp/gbt.XXXXXX)
}

teardown() {
	rm -rf "$T"
}

@test "sync-page writes one page and waits for it, and says what went wrong otherwise" {
	local sp="$GBATCH_BUILDDIR/bench/sync-page"

	run -0 "$sp" "$T/page"
	[ -z "$output" ]
	[ "$(stat -c %s "$T/page")" -eq 4096 ]
	[ "$(tr -d g <"$T/page" | wc -c)" -eq 0 ]
	# Again over the same file: still one page.
	run -0 "$sp" "$T/page"
	[ "$(stat -c %s "$T/page")" -eq 4096 ]

	run -1 "$sp" "$T/no/such/dir/page"
	[ "$output" = "sync-page: $T/no/such/dir/page: No such file or directory" ]
	run -2 "$sp"
	[ "$output" = "usage: sync-page FILE" ]
	run -2 "$sp" "$T/a" "$T/b"
	[ ! -e "$T/a" ]
}

@test "bench/cmd-speed prints every command beside /bin/true, and gsub and gcancel beside sync-page" {
	local c n=2

	BENCH_CMD_LOOPS=3 run -0 "$GBATCH_SRCDIR/bench/cmd-speed" "$GBATCH_BUILDDIR"
	for c in "gsub --version (no request)" "gsub -H --wrap true" "gq -j ID" \
	    "gctl ping" "gnodes" "gcancel ID, a call per job" \
	    "  squeue -j ID (its Slurm twin)" "  scontrol ping (its Slurm twin)" \
	    "  sinfo (its Slurm twin)"; do
		grep -Eq "^$(printf '%s' "$c" | sed 's/[().-]/\\&/g') +[0-9]+/s, [0-9]+% of /bin/true \([0-9]+/s\) +target >= 85%$" <<<"$output" ||
		    { echo "no line for $c in: $output"; false; }
	done
	# What gbatchd adds to each command, from a running program.
	grep -Eq "^a connection's round trip \(HELLO, PING\) +median [0-9]+ us, p90 [0-9]+ us \(n=3\) +target -$" <<<"$output"
	# With the store in tmpfs too where /dev/shm is one.
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ] || n=4
	[ "$(grep -Ec '^  sync-page \(one durable page a call\) +[0-9]+/s, [0-9]+% of /bin/true$' <<<"$output")" -eq "$n" ]
	[ "$(grep -Ec '^  the command against sync-page +[0-9]+%, gbatchd CPU [0-9]+\.[0-9]{2} ms a call$' <<<"$output")" -eq "$n" ]
	# Each pair right under its command's line.
	[ "$(grep -A1 -E '^(gsub -H|gcancel ID)' <<<"$output" | grep -c '^  sync-page')" -eq "$n" ]
}

# Every benchmark script, once at its smallest size: a bench that no
# longer runs (a cluster it cannot start, a tool that moved) fails here,
# not months later when someone wants its figures. Only that it runs and
# prints its figures is checked; never how fast.

# bench_smoke SCRIPT LABEL... (with its BENCH_* sizes in the environment):
# runs bench/SCRIPT on this build, which must exit 0 and print each LABEL
# (the start of a figure's line, or the whole of a fixed part of it).
bench_smoke() {
	local script=$1 label
	shift
	run -0 timeout 300 "$GBATCH_SRCDIR/bench/$script" "$GBATCH_BUILDDIR"
	for label in "$@"; do
		grep -qF -- "$label" <<<"$output" ||
		    { printf 'bench/%s printed no "%s" line:\n%s\n' "$script" "$label" "$output"; false; }
	done
}

@test "every script in bench/ has a smoke test here" {
	local f name
	for f in "$GBATCH_SRCDIR"/bench/*; do
		name=${f##*/}
		[ -f "$f" ] && [ -x "$f" ] || continue
		grep -qF -e "bench_smoke $name " -e "/bench/$name\" \"\$GBATCH_BUILDDIR\"" \
		    "$BATS_TEST_FILENAME" ||
		    { echo "bench/$name has no smoke test in bench.bats"; false; }
	done
}

@test "bench/run runs at its smallest size" {
	BENCH_SUBMITS=20 BENCH_PIPELINED=200 BENCH_PENDING=100 BENCH_RUNS=3 \
	    BENCH_E2E=20 BENCH_LINK=200 \
	bench_smoke run "(a) gsub --wrap" "(b) pipelined submits" "(c) gq, 100 pending" \
	    "(d) submit to start" "(e) trivial jobs" "(f) gbatchd RSS" \
	    "(g1) relayed submits" "(g2) trivial jobs end to end" \
	    "(d2) sbatch script to its first line" \
	    "(d3) job's first process into its cgroup"
}

@test "cgroup-fork times a child moved into a cgroup and one born there, or says why it cannot" {
	local cf="$GBATCH_BUILDDIR/bench/cgroup-fork"

	run "$cf" 3
	if [ "$status" -eq 1 ]; then
		# Not root, or no cgroup2 mount here.
		[[ "$output" == "cgroup-fork: "* ]]
		[ "${#lines[@]}" -eq 1 ]
	else
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 3 ]
		[[ "${lines[0]}" == "fork, then write cgroup.procs"$'\t'"median "*" ms, p95 "*" ms (n=3)" ]]
		[[ "${lines[1]}" == "born in it (clone3 CLONE_INTO_CGROUP)"$'\t'"median "*" ms, p95 "*" ms (n=3)" ]]
		[[ "${lines[2]}" == "made, with its device program"$'\t'"median "*" ms, p95 "*" ms (n=3)" ]]
		# It leaves no cgroup of its own behind.
		[ -z "$(find /sys/fs/cgroup -maxdepth 3 -name 'gbbench-cgfork-*')" ]
	fi
	run -2 "$cf" 0
	[ "$output" = "usage: cgroup-fork [ROUNDS, 1-1000]" ]
}

@test "bench/gsim-speed runs at its smallest size" {
	BENCH_GSIM_JOBS=200 BENCH_GSIM_RUNS=1 \
	bench_smoke gsim-speed "gsim dlas, 200 jobs, 250 x 8 GPUs"
}

@test "bench/gsim-vs-live runs at its smallest size, its cluster with the CA every cluster has" {
	BENCH_SCALE=1 bench_smoke gsim-vs-live "start order, live: " \
	    "average JCT: gsim " "live vs gsim: " "a restart costs live: launch "
	# The overhead gsim replays with is the one measured live.
	[[ "$output" =~ a\ restart\ costs\ live:\ launch\ ([0-9.]+)\ s.*stop\ ([0-9.]+)\ s.*--overhead\ ([0-9.]+)\ s ]]
	# All twelve jobs ran live, each with its JCT.
	[ "$(grep -cE '^ +[0-9]+ +[1248] +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ ' <<<"$output")" -eq 12 ]
}

@test "bench/grun-speed runs at its smallest size" {
	BENCH_GRUN_RUNS=2 BENCH_GRUN_MB=1 BENCH_GRUN_ECHOES=5 \
	bench_smoke grun-speed "grun -G 1 true, start to exit" "grun output, 1 MB" \
	    "a byte through grun cat and back"
}

@test "bench/list-speed runs at its smallest size" {
	BENCH_LIST_SIZES=100 BENCH_LIST_RUNS=2 BENCH_LIST_RESTARTS=1 \
	bench_smoke list-speed "gq's first job line" "gq --json's peak memory" \
	    "squeue (slurm-compat), in turns with gq" "squeue's peak memory" \
	    "gbatchd restart, until it answers"
}

@test "bench/history runs at its smallest size" {
	BENCH_HISTORY_JOBS=1000 BENCH_HISTORY_ROUNDS=1 BENCH_HISTORY_RUNS=3 \
	bench_smoke history "fill-db, 1000 finished jobs" "gsub -H latency" \
	    "scheduling pass, mean"
}

@test "bench/gtop-speed runs at its smallest size" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	BENCH_GTOP_NODES=4 BENCH_GTOP_JOBS=40 BENCH_GTOP_SECONDS=2 \
	bench_smoke gtop-speed "gtop"
}

@test "bench/depend-speed runs at its smallest size" {
	BENCH_DEPEND_JOBS=100 BENCH_DEPEND_RUNS=3 \
	bench_smoke depend-speed "100 dependent jobs submitted" \
	    "trivial jobs, 100 waiting beside them"
}

@test "bench/array-speed runs at its smallest size" {
	BENCH_ARRAY_TASKS=100 BENCH_ARRAY_RUN=16 BENCH_ARRAY_GQ=2 \
	bench_smoke array-speed "one 100-task array submitted" "gq -r, unfolded (100 rows)" \
	    "16 trivial array tasks, submit to end"
}

@test "bench/failover runs at its smallest size" {
	BENCH_FAILOVER_TRIALS=1 BENCH_FAILOVER_JOBS=20 BENCH_FAILOVER_PIPELINED=100 \
	    BENCH_FAILOVER_RUNS=3 BENCH_FAILOVER_ONE=20 BENCH_FAILOVER_ROUNDS=2 \
	bench_smoke failover "first election: replica 127.0.0." \
	    "pipelined, 100 held, one connection" \
	    "  its latency, p50" "  its latency, p99" "round 2 of 2" \
	    "median ratio of the means (3 replicas)" \
	    "median ratio of the p50s (3 replicas)" "trial 1: 127.0.0." \
	    "acknowledged ids missing (lost)" "ids listed more than once (duplicated)"
	# The two lines a script reads, last.
	[[ "${lines[-2]}" =~ ^failover_ms\ [0-9]+$ ]]
	[[ "${lines[-1]}" =~ ^lost\ [0-9]+\ duplicated\ [0-9]+$ ]]
	# Percentiles are figures, p50 no more than p99 on each side; the
	# control runs where /dev/shm is tmpfs, and its state went with it.
	local p50 p99 col
	for col in 4 6; do
		p50=$(awk -v c="$col" '$1 == "its" && $3 == "p50" { print $c }' <<<"$output")
		p99=$(awk -v c="$col" '$1 == "its" && $3 == "p99" { print $c }' <<<"$output")
		[[ "$p50" =~ ^[0-9]+\.[0-9]+$ && "$p99" =~ ^[0-9]+\.[0-9]+$ ]]
		awk -v a="$p50" -v b="$p99" 'BEGIN { exit !(a <= b) }'
	done
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		[[ "$output" == *"median ratio of the p50s (control)"* ]]
		! compgen -G "/dev/shm/gbbench-fo.*" >/dev/null
	fi
}

@test "gen-fair-trace draws jobs from a source trace, a ten to one mix or a tree of accounts, the same bytes each time" {
	local g="$GBATCH_BUILDDIR/bench/gen-fair-trace"

	printf 'job_id,num_gpu,submit_time,duration\n0,1,0,100\n1,4,5,50\n2,64,9,10\n' >"$T/src.csv"
	run -0 "$g" ten-to-one "$T/src.csv" 16 220
	[ "${lines[0]}" = "job_id,submit_time,num_gpus,duration,user,account" ]
	[ "${#lines[@]}" -eq 221 ]
	# Exactly ten of a's jobs for each of b's, all in account lab.
	[ "$(grep -c ',a,lab$' <<<"$output")" -eq 200 ]
	[ "$(grep -c ',b,lab$' <<<"$output")" -eq 20 ]
	# Only the source's sizes and durations that fit 16 GPUs.
	[ "$(tail -n +2 <<<"$output" | cut -d, -f3,4 | sort -u | tr '\n' ' ')" = "1,100 4,50 " ]
	"$g" ten-to-one "$T/src.csv" 16 220 >"$T/again.csv"
	[ "$output" = "$(cat "$T/again.csv")" ]
	run -0 "$g" tree "$T/src.csv" 16 100
	[ "$(tail -n +2 <<<"$output" | cut -d, -f5,6 | sort -u | tr '\n' ' ')" = "n1,nlp s1,speech v1,vision v2,vision " ]

	printf 'name,time,num_replicas\nx,0,2\n' >"$T/pollux.csv"
	run -1 "$g" tree "$T/pollux.csv" 16
	[ "$output" = "gen-fair-trace: $T/pollux.csv:1: the header has: name, time, num_replicas (expected num_gpus or num_gpu, and duration)" ]
	run -2 "$g" fair "$T/src.csv" 16
	[[ "$output" == "usage: gen-fair-trace ten-to-one|tree "* ]]
}

@test "bench/pollux replays Pollux's workloads, or says its data is absent" {
	BENCH_POLLUX_DATA=$T/none bench_smoke pollux "bench/pollux: $T/none is absent"
	[ -d "$GBATCH_SRCDIR/../shared/pollux/workloads" ] ||
	    skip "../shared/pollux is absent"
	bench_smoke pollux "workload-1 " "workload-8 " "mean " "elastic: gsim --elastic"
	# Every workload's figures, none a replay gsim warned of.
	[ "$(grep -c '^workload-[1-8] ' <<<"$output")" = 8 ]
	[ "$(grep -cE '[0-9]!' <<<"$output")" = 0 ]
}

@test "bench/fairness runs at its smallest size, or says the source trace is absent" {
	BENCH_FAIR_TRACE=$T/none.csv bench_smoke fairness "bench/fairness: $T/none.csv is absent"
	[ -r "$GBATCH_SRCDIR/../shared/traces/tiresias/60_job.csv" ] ||
	    skip "../shared/traces/tiresias/60_job.csv is absent"
	BENCH_FAIR_JOBS=300 bench_smoke fairness "ten-to-one, dlas: " \
	    "ten-to-one, gittins: " "tree, dlas: " "tree, gittins: " \
	    "Jain's index" "min window share" "user b (lab) got/due" \
	    "account speech got/due" "wait 1 GPU avg/max (s)" "fs0 bf1"
}

@test "bench/interference prints the average JCT apart and together at each slowdown, or says the source trace is absent" {
	BENCH_ITF_TRACE=$T/none.csv bench_smoke interference "bench/interference: $T/none.csv is absent"
	[ -r "$GBATCH_SRCDIR/../shared/traces/tiresias/60_job.csv" ] ||
	    skip "../shared/traces/tiresias/60_job.csv is absent"
	BENCH_ITF_JOBS=300 bench_smoke interference "slowdown" "apart (s)" \
	    "together (s)"
	[ "$(grep -cE '^(0|0\.25|0\.5) +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$output")" = 3 ]
}

@test "bench/suspend-switch times a freeze and a thaw of a busy process's cgroup, or says why it cannot" {
	run -0 env BENCH_SWITCH_ROUNDS=3 "$GBATCH_SRCDIR/bench/suspend-switch" "$GBATCH_BUILDDIR"
	if [[ "$output" == *"nothing measured"* ]]; then
		skip "$output"
	fi
	[[ "${lines[0]}" == "suspend-switch: 3 rounds, cgroup v"* ]]
	[[ "${lines[1]}" =~ ^\ \ freeze\ +median\ +[0-9]+\.[0-9]{2}\ ms\ +worst\ +[0-9]+\.[0-9]{2}\ ms$ ]]
	[[ "${lines[2]}" == "  thaw "* ]]
	[[ "${lines[3]}" == "  switch (both) "* ]]
	[ "${#lines[@]}" -eq 4 ]
	# Nothing is left behind.
	run ls -d /sys/fs/cgroup/freezer/gb-bench-switch-* /sys/fs/cgroup/gb-bench-switch-*
	[ "$status" -ne 0 ]
}
