#!/usr/bin/env bats
# test-only.bats: gsub --test-only (sbatch's) says where and when a job
# would start and submits nothing: at once on an idle cluster, at the time
# limit of the running job in its way, after a pending job served first,
# never foreseen behind a job without a limit; Slurm's line under sbatch's
# name; every refusal of a real submit. Times are checked against the
# running jobs' own start times and limits, read back from gq.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	gb_start_cluster
}

teardown() {
	gb_teardown
}

# at SECONDS: that time since the epoch as gsub prints it.
at() {
	date -d "@$1" +%Y-%m-%dT%H:%M:%S
}

none_submitted() {
	[ "$(gq -h -t all -o id | wc -l)" = "$1" ]
}

@test "on an idle cluster: now, on the node it would take" {
	run -0 gsub --test-only -G 2 --wrap true
	# What it said and what the cluster was, should the check fail (it
	# failed once in a loaded sanitizer run, not since, alone or looped).
	echo "$output"
	gnodes
	[[ "$output" == "gsub: the job would start now on n"[12]" GPUs 0,1; nothing was submitted" ]]
	run -0 gsub --test-only -G 6 --wrap true
	echo "$output"
	[[ "$output" == "gsub: the job would start now on n"*", n"*"; nothing was submitted" ]]
	# The reply says the controller's time the estimate is from, which
	# gsub tells "now" by: read between two readings of ours, and the
	# start on an idle cluster within its second.
	before=$(date +%s)
	reply=$(gb_rawask '{"type":200,"test_only":true,"job":{"script":"true","workdir":"/tmp","gpus":2}}')
	after=$(date +%s)
	python3 -c 'import json, sys
r = json.loads(sys.argv[1])
assert r["ok"] and r["found"], r
assert int(sys.argv[2]) <= r["now"] <= int(sys.argv[3]), r
assert r["now"] <= r["start"] <= r["now"] + 1, r' "$reply" "$before" "$after"
	none_submitted 0
}

@test "at the time limit in its way, after a pending job served first" {
	a=$(gb_submit -G 4 -w n2 -t 10 --wrap 'sleep 600')
	b=$(gb_submit -G 4 -w n1 --wrap 'sleep 600')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	start=$(gq -h -j "$a" -o start_time)
	s=$(date -d "$start" +%s)
	run -0 gsub --test-only -G 2 --wrap true
	[ "$output" = "gsub: the job would start at $(at $((s + 600))) on n2 GPUs 0,1, once running jobs reach their time limits or predicted ends (0 pending jobs going first); nothing was submitted" ]
	run -0 "$B/slurm/sbatch" --test-only --gres=gpu:2 --wrap true
	[ "$output" = "sbatch: Job 0 to start at $(at $((s + 600))) using 2 GPUs on nodes n2 in partition gbatch" ]
	# A pending 4-GPU job of 5 minutes takes n2 first.
	c=$(gb_submit -G 4 -t 5 --wrap 'sleep 600')
	gb_wait 10 gb_state_is "$c" PENDING
	run -0 gsub --test-only -G 2 -t 1 --wrap true
	[ "$output" = "gsub: the job would start at $(at $((s + 900))) on n2 GPUs 0,1, once running jobs reach their time limits or predicted ends (1 pending job going first); nothing was submitted" ]
	# Only n1, held by a job without a limit: nothing to foresee.
	run -0 gsub --test-only -w n1 --wrap true
	[ "$output" = "gsub: no start can be foreseen: the GPUs the job needs are held by jobs with neither a time limit nor a predicted run time (1 pending job would go first); nothing was submitted" ]
	none_submitted 3
}

@test "a bad job is refused as a real submit would be" {
	run -1 gsub --test-only -G 100 --wrap true
	[[ "$output" == *"the cluster has 8 GPUs in all"* ]]
	run -1 gsub --test-only -w n9 --wrap true
	[[ "$output" == *'"n9" is not a node of this cluster'* ]]
	run -2 gsub --test-only -t 99x --wrap true
	[[ "$output" == "gsub: --time: "* ]]
	none_submitted 0
}

@test "sbatch's line names the partition the job would run in: the first of its list that takes it on the nodes foreseen" {
	cat >>"$GBATCH_CONF" <<'CONF'
partitions = {
  gpu = { nodes = "n1"; default = true; max_time = "1:00:00"; };
  long = { nodes = "n[1-2]"; };
  two = { nodes = "n2"; };
};
CONF
	gctl reconfigure >/dev/null
	sbatch=$B/slurm/sbatch
	# No -p: the default.
	run -0 "$sbatch" --test-only -G 2 -w n1 --wrap true
	[[ "$output" == "sbatch: Job 0 to start at "*" using 2 GPUs on nodes n1 in partition gpu" ]]
	# Over gpu's max_time: long takes it.
	run -0 "$sbatch" --test-only -p gpu,long -t 2:00:00 -G 2 --wrap true
	[[ "$output" == "sbatch: Job 0 to start at "*" using 2 GPUs on nodes n"[12]" in partition long" ]]
	# gpu would take it but has not n2: long.
	run -0 "$sbatch" --test-only -p gpu,long -G 1 -w n2 --wrap true
	[[ "$output" == *" on nodes n2 in partition long" ]]
	# The estimate places the job on its partition's nodes alone.
	run -0 "$sbatch" --test-only -p two -G 2 --wrap true
	[[ "$output" == "sbatch: Job 0 to start at "*" using 2 GPUs on nodes n2 in partition two" ]]
	run -0 "$sbatch" --test-only -G 2 --wrap true
	[[ "$output" == "sbatch: Job 0 to start at "*" using 2 GPUs on nodes n1 in partition gpu" ]]
	run -1 "$sbatch" --test-only -p gpu -t 2:00:00 --wrap true
	[[ "$output" == *"gpu's max_time"* ]]
	none_submitted 0
}
