#!/usr/bin/env bats
# gsim: its CLI, its errors (with file and line), determinism, the schedules
# of small traces worked out by hand, and the published Tiresias figures.

load helpers

# The public Tiresias trace, cluster specs and GPU-time samples are read
# from ../shared/traces (GBATCH_SHARED), never copied into the project:
# where they are absent, the tests that need them skip, and the others run
# on a trace of 60 jobs in the same format, made here.
setup() {
	bats_require_minimum_version 1.5.0
	SHARED=${GBATCH_SHARED:-$S/../shared}
	TIRESIAS=$SHARED/traces/tiresias
	GB_DIR=$(mktemp -d /tmp/gbt.XXXXXX)
	cd "$GB_DIR"
	T60=$TIRESIAS/60_job.csv
	if [ ! -r "$T60" ]; then
		awk 'BEGIN { print "job_id,num_gpu,submit_time,iterations,model_name,duration,interval"
		    for (i = 0; i < 60; i++)
			printf "%d,%d,%d,1000,resnet50,%d,1\n", i, 2 ^ (i % 3), i * 37, 100 + (i * 7919) % 3000 }' >t60.csv
		T60=$GB_DIR/t60.csv
	fi
}

need_tiresias() {
	[ -r "$TIRESIAS/60_job.csv" ] ||
	    skip "$TIRESIAS is absent: the published Tiresias trace is read from there, never copied into the project"
}

teardown() {
	rm -rf "$GB_DIR"
}

# json_get FILE EXPR: prints EXPR evaluated over the JSON in FILE as j.
json_get() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "gsim --help lists every option and --version names the package" {
	run -0 gsim --help
	for o in --policy --cluster --cluster-spec --thresholds --queues \
	    --promote --placement --strict --no-strict --samples --overhead --backfill \
	    --fairshare --fairshare-half-life --fairshare-preempt --gittins-history \
	    --seed --shape --node-cpus --node-mem-gb --gpu-shards --conf --nodes --shares --predictions --json --jobs --plot \
	    --apps --app-max-local --interval --preempt-in-queue --elastic --elastic-oracle \
	    --interference --no-avoid-interference \
	    --time-slice --slice-jobs --slice-share --switch-cost \
	    --quiet --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
	run -0 gsim --version
	[[ "$output" =~ ^gsim\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gsim matches the published Tiresias figures on 60_job.csv within 2%" {
	need_tiresias
	run -0 gsim --json -p fifo,fifo:yarn,dlas,srtf -T 3250,7200,18000 \
	    -c 3x4 "$T60"
	echo "$output" >out.json
	# label avg_jct median_jct makespan, as the public simulator reports.
	python3 - out.json <<'PY'
import json, sys
want = {
    "fifo": (423.5, 374.5, 3645),
    "fifo:yarn": (560.8, 500, 3876),
    "dlas": (310.4, 194, 3304),
    "srtf": (273.5, 145, 3433),
}
runs = {r["label"]: r for r in json.load(open(sys.argv[1]))["runs"]}
assert sorted(runs) == sorted(want), runs.keys()
bad = 0
for label, figs in want.items():
    got = (runs[label]["avg_jct"], runs[label]["median_jct"], runs[label]["makespan"])
    for name, g, w in zip(("avg", "median", "makespan"), got, figs):
        if abs(g - w) > 0.02 * w:
            print(f"{label} {name}: got {g}, published {w}")
            bad = 1
sys.exit(bad)
PY
}

@test "gsim prints the policies side by side, one figure per line" {
	run -0 gsim -p srtf,dlas,fifo -c 3x4 "$T60"
	header=$(grep -E '^ +srtf +dlas +fifo$' <<<"$output")
	[ -n "$header" ]
	for row in "avg JCT (s)" "median JCT (s)" "p95 JCT (s)" "p99 JCT (s)" \
	    "avg queueing (s)" "makespan (s)" "GPU utilization" "preemptions" \
	    "promotions"; do
		line=$(grep -F "$row" <<<"$output")
		# The row's label, then three figures.
		[ "$(wc -w <<<"${line#"$row"}")" -eq 3 ] || { echo "row: $line"; false; }
	done
	[[ "$output" == "60 jobs; 3 nodes x 4 GPUs = 12 GPUs on 1 switch;"* ]]
}

@test "gsim is deterministic: same input and seed, same output byte for byte" {
	for i in 1 2; do
		gsim -p fifo:random,dlas:random,gittins,srtf:spread -T 100,1000 \
		    --promote 2 --overhead 5 --seed 7 -c 2x3x4 --jobs jobs$i.csv \
		    "$T60" >out$i
	done
	cmp out1 out2
	cmp jobs1.csv jobs2.csv
	# And the seed matters to random placement: the jobs file has the
	# nodes of each first placement.
	gsim -p fifo:random -c 2x3x4 --seed 8 --jobs jobs3.csv "$T60" >/dev/null
	gsim -p fifo:random -c 2x3x4 --seed 7 --jobs jobs4.csv "$T60" >/dev/null
	grep -q '^fifo:random,' jobs3.csv
	run ! cmp -s jobs3.csv jobs4.csv
}

@test "gsim on a trace worked out by hand: demotion, preemption and its overhead" {
	# One GPU; queue 0 ends at 5 GPU-s. A (100 s) runs from 0 and drops to
	# queue 1 at 5 s; B (3 s) arrives at 10 in queue 0 and preempts A; A
	# resumes at 13 with 90 s to go and ends at 103. With --overhead 2 it
	# loses 2 s on its restart and ends at 105. Under fifo B waits for A.
	cat >hand.csv <<'CSV'
duration,user,num_gpus,name,submit_time
100,alice,1,long,0
3,bob,1,"short, quick",10
CSV
	run -0 gsim --json -p dlas,fifo -T 5 -c 1x1 --jobs jobs.csv hand.csv
	echo "$output" >out.json
	[ "$(json_get out.json 'j["runs"][0]["avg_jct"]')" = 53.0 ]
	[ "$(json_get out.json 'j["runs"][0]["preemptions"]')" = 1 ]
	[ "$(json_get out.json 'j["runs"][0]["makespan"]')" = 103.0 ]
	[ "$(json_get out.json 'j["runs"][1]["avg_jct"]')" = 96.5 ]
	[ "$(json_get out.json 'j["runs"][1]["preemptions"]')" = 0 ]
	grep -qx 'dlas,0,long,alice,1,0.000,100.000,0.000,103.000,103.000,3.000,1,0,1' jobs.csv
	grep -qx 'dlas,1,"short, quick",bob,1,10.000,3.000,10.000,13.000,3.000,0.000,0,0,1' jobs.csv
	grep -qx 'fifo,1,"short, quick",bob,1,10.000,3.000,100.000,103.000,93.000,90.000,0,0,1' jobs.csv

	run -0 gsim --json -p dlas -T 5 --overhead 2 -c 1x1 hand.csv
	echo "$output" >out.json
	[ "$(json_get out.json 'j["runs"][0]["makespan"]')" = 105.0 ]
	[ "$(json_get out.json 'j["runs"][0]["avg_queueing"]')" = 1.5 ]
}

@test "gsim time-slices the jobs that opt in, on a timeline worked out by hand" {
	# One GPU, turns of 10 s, no switch cost. A, B and C (25 s each) come
	# at 0 and opt in (no time_slice column: every job). A runs 0-10, B
	# 10-20, C 20-30, then the turns go round: A 30-40, B 40-50, C 50-60,
	# A 60-65 (ends), B 65-70, C 70-75. First starts 0, 10, 20 (median
	# 10); JCTs 65, 70, 75 (avg 70); 6 switches; suspended A 40 s, B 35,
	# C 30. Without slicing they run one after another: first starts 0,
	# 25, 50 (median 25), JCTs 25, 50, 75 (avg 50).
	printf 'submit_time,num_gpus,duration\n0,1,25\n0,1,25\n0,1,25\n' >ts.csv
	run -0 gsim --json -p gittins,gittins+slice --time-slice 10 \
	    --switch-cost 0 -c 1x1 --jobs ts-jobs.csv ts.csv
	echo "$output" >ts.json
	[ "$(json_get ts.json 'j["runs"][1]["avg_jct"]')" = 70.0 ]
	[ "$(json_get ts.json 'j["runs"][1]["time_slicing"]["first_start_median"]')" = 10.0 ]
	[ "$(json_get ts.json 'j["runs"][1]["time_slicing"]["switches"]')" = 6 ]
	[ "$(json_get ts.json 'j["runs"][1]["time_slicing"]["suspended"]')" = 105.0 ]
	[ "$(json_get ts.json 'j["runs"][1]["time_slicing"]["opted_in"]')" = 3 ]
	[ "$(json_get ts.json 'j["runs"][0]["avg_jct"]')" = 50.0 ]
	[ "$(json_get ts.json 'j["runs"][0]["time_slicing"]["first_start_median"]')" = 25.0 ]
	[ "$(json_get ts.json 'j["runs"][0]["time_slicing"]["switches"]')" = 0 ]
	# A switch cost of 1 s: each of the 6 resumes costs its job 1 s more.
	# A resumes at 30 (+1) and 60 (+1): ends at 67; the rest slide after.
	run -0 gsim --json -p gittins+slice --time-slice 10 --switch-cost 1 \
	    -c 1x1 ts.csv
	echo "$output" >ts1.json
	[ "$(json_get ts1.json 'j["runs"][0]["makespan"]')" = 81.0 ]
	# Only every third job opts in: the third alone (C), which has no
	# ring of a job that opted in to join: the schedule is gittins'.
	run -0 gsim --json -p gittins+slice --slice-share 0.34 --time-slice 10 \
	    -c 1x1 ts.csv
	echo "$output" >ts3.json
	[ "$(json_get ts3.json 'j["runs"][0]["time_slicing"]["opted_in"]')" = 1 ]
	[ "$(json_get ts3.json 'j["runs"][0]["avg_jct"]')" = 50.0 ]
	# A time_slice column names who opts in; a bad value is refused.
	printf 'submit_time,num_gpus,duration,time_slice\n0,1,25,1\n0,1,25,1\n0,1,25,0\n' >tc.csv
	run -0 gsim --json -p gittins+slice --time-slice 10 --switch-cost 0 -c 1x1 tc.csv
	echo "$output" >tc.json
	[ "$(json_get tc.json 'j["runs"][0]["time_slicing"]["opted_in"]')" = 2 ]
	printf 'submit_time,num_gpus,duration,time_slice\n0,1,25,yes\n' >bad.csv
	run -1 gsim -p gittins+slice -c 1x1 bad.csv
	[[ "$output" == *"bad.csv:2"*"time_slice"* ]]
	run -2 gsim -p gittins+slice --slice-jobs 1 -c 1x1 ts.csv
	[[ "$output" == *'--slice-jobs "1": expected a whole number of jobs, 2 or more'* ]]
	run -2 gsim -p gittins+slice --slice-share 2 -c 1x1 ts.csv
	[[ "$output" == *'--slice-share "2": expected a fraction of the jobs, 0 to 1'* ]]
}

@test "gsim replays jobs of shards of a GPU (gpu_share, --gpu-shards) on a timeline worked out by hand" {
	# One node of one GPU, offered in 4 shards; fifo. A (alice) and B
	# (bob) take 2 shards each for 100 s, C (carol) the GPU whole for
	# 50 s, all at 0. A and B fill the GPU's 4 shards at 0 and end at
	# 100; C needs the GPU free of shards and runs 100-150. GPU-time: A
	# and B 100 s x 2/4 = 50 GPU-s each, C 50: 150 GPU-s over 1 GPU x
	# 150 s of makespan, 100%; JCTs 100, 100, 150 (avg 350/3).
	cat >sh.csv <<'CSV'
job_id,user,submit_time,num_gpus,duration,gpu_share
1,alice,0,1,100,2
2,bob,0,1,100,2
3,carol,0,1,50,
CSV
	run -0 gsim --json -p fifo -c 1x1 --gpu-shards 4 --jobs sh.jobs sh.csv
	echo "$output" >sh.json
	grep -qx 'fifo,1,,alice,1,0.000,100.000,0.000,100.000,100.000,0.000,0,0,1' sh.jobs
	grep -qx 'fifo,2,,bob,1,0.000,100.000,0.000,100.000,100.000,0.000,0,0,1' sh.jobs
	grep -qx 'fifo,3,,carol,1,0.000,50.000,100.000,150.000,150.000,100.000,0,0,1' sh.jobs
	[ "$(json_get sh.json 'j["runs"][0]["makespan"]')" = 150.0 ]
	[ "$(json_get sh.json 'j["runs"][0]["utilization"]')" = 1.0 ]
	[ "$(json_get sh.json 'j["cluster"]["gpu_shards"]')" = 4 ]
	# Fairness counts the same GPU-time: 50 GPU-s each.
	[ "$(json_get sh.json '[round(u["gpu_hours"] * 3600) for u in j["runs"][0]["fairness"]["users"]]')" = "[50, 50, 50]" ]
	run -0 gsim -p fifo -c 1x1 --gpu-shards 4 sh.csv
	[[ "$output" == "3 jobs; 1 node x 1 GPUs = 1 GPUs on 1 switch, each GPU in 4 shards;"* ]]
	# Two GPUs: A and B pack onto one and leave the other whole to C,
	# which runs 0-50. 150 GPU-s over 2 GPUs x 100 s: 75%.
	run -0 gsim --json -p fifo -c 1x2 --gpu-shards 4 --jobs two.jobs sh.csv
	echo "$output" >two.json
	grep -qx 'fifo,3,,carol,1,0.000,50.000,0.000,50.000,50.000,0.000,0,0,1' two.jobs
	grep -q '^fifo,2,,bob,1,0.000,100.000,0.000,100.000,' two.jobs
	[ "$(json_get two.json 'j["runs"][0]["utilization"]')" = 0.75 ]
	# +slice: with no time_slice column every job opts in but A and B,
	# which share their GPU already: C alone, with no ring to join, so
	# the schedule is the same.
	run -0 gsim --json -p fifo+slice -c 1x1 --gpu-shards 4 --jobs sl.jobs sh.csv
	echo "$output" >sl.json
	[ "$(json_get sl.json 'j["runs"][0]["time_slicing"]["opted_in"]')" = 1 ]
	grep -q '^fifo+slice,1,,alice,1,0.000,100.000,0.000,100.000,' sl.jobs
	grep -q '^fifo+slice,3,,carol,1,0.000,50.000,100.000,150.000,' sl.jobs

	# Nodes that offer no shards, or too few, are refused before any
	# replay, naming the job and the remedy.
	run -1 gsim -c 1x1 sh.csv
	[[ "$output" == *"sh.csv:2: job 1 takes gpu_share 2 of a GPU, but the nodes offer no shards: give --gpu-shards N"* ]]
	run -1 gsim -c 1x1 --gpu-shards 1 sh.csv
	[[ "$output" == *"sh.csv:2: job 1 takes gpu_share 2 of a GPU, but the nodes offer no shards"* ]]
	printf 'submit_time,num_gpus,duration,gpu_share\n0,1,10,3\n' >three.csv
	run -1 gsim -c 1x1 --gpu-shards 2 three.csv
	[[ "$output" == *"three.csv:2: job 0 takes gpu_share 3 of a GPU; the nodes offer each GPU in 2 shards (give --gpu-shards 3 or more)"* ]]
	# Bad rows name their line and column.
	printf 'submit_time,num_gpus,duration,gpu_share\n0,1,10,1\n0,2,10,2\n' >two-gpus.csv
	run -1 gsim -c 1x2 --gpu-shards 4 two-gpus.csv
	[[ "$output" == *"two-gpus.csv:3: gpu_share 2 takes shards of one GPU: num_gpus must be 1, got 2"* ]]
	printf 'submit_time,num_gpus,duration,time_slice,gpu_share\n0,1,10,1,2\n' >ts-share.csv
	run -1 gsim -c 1x1 --gpu-shards 4 ts-share.csv
	[[ "$output" == *"ts-share.csv:2: gpu_share 2 with time_slice 1: a job takes shards of a GPU, or whole GPUs in turns, not both"* ]]
	printf 'submit_time,num_gpus,duration,gpu_share\n0,1,10,65\n' >many.csv
	run -1 gsim -c 1x1 --gpu-shards 4 many.csv
	[[ "$output" == *'many.csv:2: gpu_share "65": expected a whole number from 0 to 64'* ]]
	run -2 gsim -c 1x1 --gpu-shards 65 sh.csv
	[[ "$output" == *'--gpu-shards "65": expected the shards of a GPU, 1 (none) to 64'* ]]
	run -2 gsim -c 1x1 --gpu-shards 0 sh.csv
	[[ "$output" == *'--gpu-shards "0": expected'* ]]
}

@test "gsim places a gang across nodes and skips a job that does not fit" {
	# Two nodes of 2 GPUs. A (1 GPU, 10 s) at 0; B (4 GPUs, 10 s) at 1
	# needs both nodes and waits for A; C (1 GPU, 5 s) at 2 fits beside A.
	# Strict fifo: C waits behind B (B 10..20, C 20..25). dlas and
	# non-strict fifo skip B: C runs 2..7, B 10..20.
	printf 'submit_time,num_gpus,duration\n0,1,10\n1,4,10\n2,1,5\n' >gang.csv
	gsim --json -p fifo,dlas -c 2x2 --no-strict gang.csv >nostrict.json
	gsim --json -p fifo -c 2x2 --jobs strict.csv gang.csv >strict.json
	[ "$(json_get strict.json 'j["runs"][0]["makespan"]')" = 25.0 ]
	grep -q '^fifo,2,,,1,2.000,5.000,20.000,25.000,' strict.csv
	grep -q '^fifo,1,,,4,1.000,10.000,10.000,20.000,19.000,9.000,0,0,2$' strict.csv
	[ "$(json_get nostrict.json 'j["runs"][0]["makespan"]')" = 20.0 ]
	[ "$(json_get nostrict.json 'j["runs"][0]["strict"]')" = False ]
	# (10 + 19 + 5) / 3
	[ "$(json_get nostrict.json 'round(j["runs"][1]["avg_jct"], 3)')" = 11.333 ]
}

@test "gsim --backfill promises a waiting gang its GPUs and starts behind it only what ends in time" {
	# Two nodes of 2 GPUs. A (2 GPUs, 100 s, limit 100) runs from 0; B
	# (4 GPUs, limit 10) at 1 waits for A; C (1 GPU, limit 50) at 2 and
	# D (1 GPU, 200 s, no limit) at 3. Without backfill C and D skip
	# ahead and B waits for both: 203..213. With depth 1, B is promised
	# A's end (100); C ends at 52, before it, and is backfilled; D's end
	# is not known (nothing like it ended yet), so it waits: B 100..110,
	# then D 110..310.
	printf 'submit_time,num_gpus,duration,time_limit,name\n0,2,100,100,a\n1,4,10,10,b\n2,1,50,50,c\n3,1,200,0,d\n' >bf.csv
	run -0 gsim --json -p dlas -c 2x2 --jobs skip.csv bf.csv
	echo "$output" >skip.json
	grep -q '^dlas,1,b,,4,1.000,10.000,203.000,213.000,' skip.csv
	grep -q '^dlas,3,d,,1,3.000,200.000,3.000,203.000,' skip.csv
	[ "$(json_get skip.json 'j["runs"][0]["backfill_depth"]')" = 0 ]
	run -0 gsim --json -p dlas -c 2x2 --backfill 1 --jobs bf.jobs bf.csv
	echo "$output" >bf.json
	[ "$(json_get bf.json 'j["runs"][0]["backfill_depth"]')" = 1 ]
	grep -q '^dlas,1,b,,4,1.000,10.000,100.000,110.000,109.000,99.000,' bf.jobs
	grep -q '^dlas,2,c,,1,2.000,50.000,2.000,52.000,' bf.jobs
	grep -q '^dlas,3,d,,1,3.000,200.000,110.000,310.000,' bf.jobs
	# (100 + 109 + 50 + 307) / 4
	[ "$(json_get bf.json 'j["runs"][0]["avg_jct"]')" = 141.5 ]
	run -2 gsim -c 2x2 --backfill 65 bf.csv
	[[ "$output" == *'--backfill "65": expected a whole number of jobs, 0 to 64'* ]]
}

@test "gsim --predictions measures the run times predicted at submit, per rule, learnt only from jobs ended before" {
	# Eight GPUs: every job starts on arrival and ends at submit +
	# duration. Rules: x's similar name from 1 run, a user's GPU count
	# from 2, a GPU count from 5; the median of the runs (of two, their
	# mean). 1 train-1 (x) at 0: nothing ended, none. 2 train-2 at 200:
	# train from [100]: 100 for 120, err 20, short. 3 train-3 at 400:
	# median of [100, 120] 110 for 80, err 30. 4 eval-1 (x) at 500: no
	# eval yet; x's 1-GPU jobs [100, 120, 80]: 100 for 50, err 50 (2x
	# exactly: within). 5 eval-2 (y, 2 GPUs) at 600: y's eval is not x's,
	# none of 2 GPUs ended: none. 6 test-1 (y) at 700: four 1-GPU runs,
	# fewer than 5: none. 7 other (z) at 800: five 1-GPU runs [100, 120,
	# 80, 50, 60]: 80 for 40, err 40. 8 train-4 (x) at 810: [100, 120,
	# 80]: 100 for 300, err 200, short, not within 2x. 9 train-5 at 820,
	# while train-4 runs: still 100 (its 300 is not known before it
	# ends; were it, 110), for 100: err 0.
	# By name (2, 3, 8, 9): errors 20, 30, 200, 0: median 25, mean 62.5;
	# ratios 1/6, 3/8, 2/3, 0: median (1/6 + 3/8) / 2 = 0.270833; 3 of 4
	# within 2x, 2 short. User's GPU count (4): 50, ratio 1. GPU count
	# (7): 40, ratio 1. None: 1, 5, 6. In all, 6 of 9 predicted: errors
	# 0, 20, 30, 40, 50, 200: median 35, mean 340 / 6; ratios 0, 1/6,
	# 3/8, 2/3, 1, 1: median (3/8 + 2/3) / 2; 5 within 2x, 2 short.
	cat >pred.csv <<'CSV'
submit_time,num_gpus,duration,name,user
0,1,100,train-1,x
200,1,120,train-2,x
400,1,80,train-3,x
500,1,50,eval-1,x
600,2,30,eval-2,y
700,1,60,test-1,y
800,1,40,other,z
810,1,300,train-4,x
820,1,100,train-5,x
CSV
	run -0 gsim --json --predictions -p fifo,dlas -c 1x8 --jobs pred.jobs pred.csv
	echo "$output" >pred.json
	p='j["runs"][0]["predictions"]'
	[ "$(json_get pred.json "[r['rule'] for r in $p['by_rule']]")" = "[\"user's similar name\", \"user's jobs of this GPU count\", 'jobs of this GPU count', 'none']" ]
	[ "$(json_get pred.json "[r['jobs'] for r in $p['by_rule']]")" = '[4, 1, 1, 3]' ]
	name="$p['by_rule'][0]"
	[ "$(json_get pred.json "$name['median_abs_error']")" = 25.0 ]
	[ "$(json_get pred.json "$name['mean_abs_error']")" = 62.5 ]
	[ "$(json_get pred.json "$name['median_rel_error']")" = 0.270833 ]
	[ "$(json_get pred.json "$name['within_2x']")" = 0.75 ]
	[ "$(json_get pred.json "$name['under']")" = 0.5 ]
	[ "$(json_get pred.json "$name['share']")" = 0.444444 ]
	[ "$(json_get pred.json "$p['by_rule'][1]['median_abs_error']")" = 50.0 ]
	[ "$(json_get pred.json "$p['by_rule'][1]['median_rel_error']")" = 1.0 ]
	[ "$(json_get pred.json "$p['by_rule'][2]['median_abs_error']")" = 40.0 ]
	[ "$(json_get pred.json "$p['by_rule'][2]['within_2x']")" = 1.0 ]
	[ "$(json_get pred.json "$p['by_rule'][3]['predicted']")" = 0 ]
	[ "$(json_get pred.json "$p['by_rule'][3]['median_abs_error']")" = None ]
	[ "$(json_get pred.json "$p['total']['jobs']")" = 9 ]
	[ "$(json_get pred.json "$p['total']['predicted']")" = 6 ]
	[ "$(json_get pred.json "$p['total']['median_abs_error']")" = 35.0 ]
	[ "$(json_get pred.json "$p['total']['mean_abs_error']")" = 56.666667 ]
	[ "$(json_get pred.json "$p['total']['median_rel_error']")" = 0.520833 ]
	[ "$(json_get pred.json "$p['total']['within_2x']")" = 0.833333 ]
	[ "$(json_get pred.json "$p['total']['under']")" = 0.333333 ]
	# dlas guessed alike: the same figures.
	[ "$(json_get pred.json 'j["runs"][0]["predictions"] == j["runs"][1]["predictions"]')" = True ]

	# The table: after the policies', one heading for both runs.
	run -0 gsim --predictions -p fifo,dlas -c 1x8 pred.csv
	[[ "$output" == *$'\n\n'*' jobs '*$'\nrun time predicted at submit, errors in s: fifo, dlas\n'* ]]
	grep -Eq "^user's similar name +4 +44\.4% +25\.0 +62\.5 +0\.271 +75\.0% +50\.0%$" <<<"$output"
	grep -Eq "^user's jobs of this GPU count +1 +11\.1% +50\.0 +50\.0 +1\.000 +100\.0% +0\.0%$" <<<"$output"
	grep -Eq '^none +3 +33\.3% +- +- +- +- +-$' <<<"$output"
	grep -Eq '^total +9 +100\.0% +35\.0 +56\.7 +0\.521 +83\.3% +33\.3%$' <<<"$output"

	# Without the flag, none of it; with it, the same schedule.
	run -0 gsim --json -p fifo,dlas -c 1x8 --jobs plain.jobs pred.csv
	[[ "$output" != *predictions* ]]
	cmp plain.jobs pred.jobs
	run -0 gsim -p fifo -c 1x8 pred.csv
	[[ "$output" != *"predicted at submit"* ]]
}

@test "gsim --fairshare serves the user furthest below their share first" {
	# One GPU; jobs of 100 s. alice's a1 runs 0..100; a2, a3 (alice) and
	# b1 (bob) wait. Without fair share they run in the order they came:
	# b1 300..400. With it, at 100 alice has used 100 GPU-s and bob none:
	# bob ranks first, b1 runs 100..200; then both have used 100, they
	# tie, and a2 (first come) runs 200..300, a3 300..400.
	printf 'submit_time,num_gpus,duration,user\n0,1,100,alice\n1,1,100,alice\n2,1,100,alice\n3,1,100,bob\n' >fs.csv
	gsim -p dlas -c 1x1 --jobs plain.jobs fs.csv >/dev/null
	grep -q '^dlas,3,,bob,1,3.000,100.000,300.000,400.000,' plain.jobs
	run -0 gsim --json -p dlas -c 1x1 --fairshare 0 --jobs fs.jobs fs.csv
	echo "$output" >fs.json
	[ "$(json_get fs.json 'j["runs"][0]["fairshare"]')" = 0 ]
	grep -q '^dlas,3,,bob,1,3.000,100.000,100.000,200.000,' fs.jobs
	grep -q '^dlas,1,,alice,1,1.000,100.000,200.000,300.000,' fs.jobs
	grep -q '^dlas,2,,alice,1,2.000,100.000,300.000,400.000,' fs.jobs
	# A trace of one user (60_job.csv has none) replays as without.
	cmp <(gsim -c 2x4 -p dlas,gittins "$T60") \
	    <(gsim -c 2x4 -p dlas,gittins --fairshare 0 "$T60")
	run -2 gsim -c 1x1 --gittins-history mine fs.csv
	[[ "$output" == *'--gittins-history "mine": expected cluster or similar'* ]]
	run -2 gsim -c 1x1 --fairshare -1 fs.csv
	[[ "$output" == *'--fairshare "-1": expected a queue'* ]]
}

@test "gsim --fairshare-preempt gives a user their part of the GPUs now, preempting one who keeps theirs" {
	# Two GPUs; alice's a1, a2 (1 GPU, 100 s) start at 0; bob's b1 (1 GPU,
	# 50 s) comes at 10. Parts: alice wants 2, bob 1, one share each: 1
	# and 1. Without the guarantee b1 waits for a GPU: 100..150. With it,
	# bob holds 0 of 1 and alice, without one job, 1 of 1: b1 preempts
	# one of alice's at 10 and runs 10..60; that job, 10 s done, runs its
	# 90 s left from 60 to 150; the other ends at 100. alice, at her part
	# from 10 on, preempts nothing back.
	printf 'submit_time,num_gpus,duration,user
0,1,100,alice
0,1,100,alice
10,1,50,bob
' >g.csv
	gsim -p dlas -c 1x2 --fairshare 0 --jobs plain.jobs g.csv >/dev/null
	grep -q '^dlas,2,,bob,1,10.000,50.000,100.000,150.000,' plain.jobs
	run -0 gsim --json -p dlas -c 1x2 --fairshare 0 --fairshare-preempt --jobs g.jobs g.csv
	echo "$output" >g.json
	[ "$(json_get g.json 'j["runs"][0]["fairshare_preempt"]')" = True ]
	[ "$(json_get g.json 'j["runs"][0]["preemptions"]')" = 1 ]
	[ "$(json_get g.json 'j["runs"][0]["unsettled_instants"]')" = 0 ]
	grep -q '^dlas,2,,bob,1,10.000,50.000,10.000,60.000,50.000,0.000,0,' g.jobs
	# job_id,...,start_time,end_time,jct,queueing,preemptions: one of
	# alice's ends at 100 unpreempted, the other at 150 preempted once.
	[ "$(grep -c '^dlas,[01],,alice,1,0.000,100.000,0.000,100.000,100.000,0.000,0,' g.jobs)" = 1 ]
	[ "$(grep -c '^dlas,[01],,alice,1,0.000,100.000,0.000,150.000,150.000,50.000,1,' g.jobs)" = 1 ]
	# A trace of one user replays as without.
	cmp <(gsim -c 2x4 -p dlas,gittins "$T60") \
	    <(gsim -c 2x4 -p dlas,gittins --fairshare 0 --fairshare-preempt "$T60")
	run -2 gsim -c 1x2 --fairshare-preempt g.csv
	[[ "$output" == *'--fairshare-preempt preempts for fair share: it needs --fairshare WEIGHT'* ]]
}

@test "gsim --elastic shares the GPUs by speedup, resizing jobs where the time saved pays for the restart" {
	# Three applications with toy_app's steps; grad_sqr 1 and grad_var
	# 3, so a batch of 16 (scale 2) gains 4 / 2.5 = 1.6 a step. el
	# trains 20 units, elmid 120, ellong 600. Batch sizes 8 to 16, local
	# 8 to 16: at most 2 GPUs. On 1 GPU the best is batch 8, a 1 s step
	# gaining 1: 1 a second (16 takes two steps of 8: 1.6 in 2 s); on the
	# node's 2, batch 16 at 8 each, a 1 s step: 1.6. Speedups 1 and 1.6.
	# A growth from 1 GPU to 2 pays for its 30 s restart where it saves
	# the job 2 x 30 = 60 s: L - L / 1.6 >= 60 for L seconds of work
	# left on one GPU, so L >= 160.
	toy_app apps
	for app in el elmid ellong; do
		mkdir -p "apps/$app"
		cp apps/toy/placements.csv apps/toy/scalability.csv "apps/$app/"
	done
	for b in 8 16; do
		printf 'progress,iteration,metric,grad_sqr,grad_var\n10,10,0.5,1,3\n20,20,0.6,1,3\n' >"apps/el/validation-$b.csv"
		printf 'progress,iteration,metric,grad_sqr,grad_var\n60,60,0.5,1,3\n120,120,0.6,1,3\n' >"apps/elmid/validation-$b.csv"
		printf 'progress,iteration,metric,grad_sqr,grad_var\n300,300,0.5,1,3\n600,600,0.6,1,3\n' >"apps/ellong/validation-$b.csv"
	done
	# Knowing the speedups (--elastic-oracle): a (ellong) alone at 0
	# takes both GPUs; after its 30 s start it trains 1.6 a second: 48
	# units by the pass at 60, when b (el, come at 10) takes one GPU
	# (least work left first: 20 s against 552), and a keeps the other
	# (a shrink stands where its GPUs are wanted). b: 30 s, then 20 units
	# at 1: ends at 110. a on 1 GPU from 60: 30 s, 30 units by 120, 78 in
	# all; at 120, alone again, 2 GPUs save it 522 - 522 / 1.6 = 195.75
	# s: it grows: 30 s, then 522 units at 1.6: 326.25 s: ends at 476.25,
	# two restarts.
	# Learning them (--elastic): a knows nothing at 0 and runs on one
	# GPU (at most twice what it reported from; batch 8): 30 units by
	# 60, when it reports a 1 s step on 1 GPU, no sync, and its
	# gradients; b, new (its work guessed at a minute), takes the other
	# GPU and ends at 110. At 120 a has 90 units and, alone, its model
	# (compute 1/8 s a sample, sync not seen yet: none) says 2 GPUs at
	# batch 16 train 1.6 a second, saving 510 - 318.75 = 191.25 s: it
	# grows, and the truth agrees: 30 s, then 510 units at 1.6: 318.75
	# s: ends at 468.75, one restart.
	printf 'name,time,application,num_replicas,batch_size\na,0,ellong,1,8\nb,10,el,1,8\n' >e.csv
	run -0 gsim -q --json -p dlas -c 1x2 --apps apps --overhead 30 --interval 60 --elastic --elastic-oracle --jobs e.jobs e.csv
	echo "$output" >e.json
	[ "$(json_get e.json 'j["runs"][1]["policy"]')" = elastic ]
	[ "$(json_get e.json 'j["runs"][2]["policy"]')" = elastic-oracle ]
	[ "$(json_get e.json 'j["runs"][2]["preemptions"]')" = 2 ]
	grep -q '^elastic-oracle,1,b,,1,10.000,[0-9.]*,60.000,110.000,100.000,' e.jobs
	grep -q '^elastic-oracle,0,a,,1,0.000,[0-9.]*,0.000,476.250,476.250,.*,2,' e.jobs
	[ "$(json_get e.json 'j["runs"][1]["preemptions"]')" = 1 ]
	grep -q '^elastic,1,b,,1,10.000,[0-9.]*,60.000,110.000,100.000,' e.jobs
	grep -q '^elastic,0,a,,1,0.000,[0-9.]*,0.000,468.750,468.750,.*,1,' e.jobs
	# The same with a (elmid) of 120 units: by the oracle as above to
	# 120, with 42 units left: 2 GPUs would save 42 - 26.25 = 15.75 s,
	# under 60: it stays on 1 and ends at 162, one restart (a growth at
	# half the speedup or more, the old rule, ended it at 176.25).
	printf 'name,time,application,num_replicas,batch_size\na,0,elmid,1,8\nb,10,el,1,8\n' >m.csv
	run -0 gsim -q -p dlas -c 1x2 --apps apps --overhead 30 --interval 60 --elastic-oracle --jobs m.jobs m.csv
	grep -q '^elastic-oracle,0,a,,1,0.000,[0-9.]*,0.000,162.000,162.000,.*,1,' m.jobs
	# Alone, a (elmid) runs on both GPUs, faster than the trace's 1 GPU
	# (120 s): a 29.5 s start, then 120 units at 1.6: ends at 104.5, its
	# queueing (JCT - duration) -15.5 s, written with one sign.
	printf 'name,time,application,num_replicas,batch_size\na,0,elmid,1,8\n' >one.csv
	run -0 gsim -q -p dlas -c 1x2 --apps apps --overhead 29.5 --elastic-oracle --jobs one.jobs one.csv
	grep -qx 'elastic-oracle,0,a,,1,0.000,120.000,0.000,104.500,104.500,-15.500,0,0,1' one.jobs
	# Rigid, as the trace says (1 GPU, batch 8): a 30 + 600 s, b from
	# its pass at 60 on the other GPU: 30 + 20.
	grep -q '^dlas,0,a,,1,0.000,600.000,0.000,630.000,630.000,' e.jobs
	grep -q '^dlas,1,b,,1,10.000,20.000,60.000,110.000,100.000,' e.jobs
	# It needs applications to resize.
	run -2 gsim -q -c 1x2 --elastic e.csv
	[[ "$output" == *"--elastic replays jobs that train applications: it needs --apps DIR"* ]]
	printf 'submit_time,num_gpus,duration\n0,1,10\n' >d.csv
	run -1 gsim -q -c 1x2 --apps apps --elastic d.csv
	[[ "$output" == *"--elastic replays jobs that train an application (--apps); this one runs a duration"* ]]
}

@test "gsim --preempt-in-queue runs dlas's queues as the Tiresias and Pollux simulators do" {
	# One node of 2 GPUs, one queue. b (1 GPU, 100 s) starts at 0; a
	# (2 GPUs, 50 s) comes at 1 and does not fit; c (1 GPU, 100 s)
	# comes at 2 and starts on the free GPU. At 100 b ends: as gbatch
	# runs dlas, a waits for c (102..152); with --preempt-in-queue a,
	# which came before c, preempts it and runs 100..150, and c runs
	# its 2 s left from 150 to 152.
	printf 'submit_time,num_gpus,duration\n0,1,100\n1,2,50\n2,1,100\n' >q.csv
	gsim -q -p dlas -c 1x2 --jobs plain.jobs q.csv >/dev/null
	grep -q '^dlas,1,,,2,1.000,50.000,102.000,152.000,151.000,101.000,0,' plain.jobs
	grep -q '^dlas,2,,,1,2.000,100.000,2.000,102.000,100.000,0.000,0,' plain.jobs
	run -0 gsim -q --json -p dlas,gittins -c 1x2 --preempt-in-queue --jobs q.jobs q.csv
	echo "$output" >q.json
	[ "$(json_get q.json 'j["runs"][0]["preempt_in_queue"]')" = True ]
	[ "$(json_get q.json 'j["runs"][1]["preempt_in_queue"]')" = False ]
	[ "$(json_get q.json 'j["runs"][0]["unsettled_instants"]')" = 0 ]
	grep -q '^dlas,1,,,2,1.000,50.000,100.000,150.000,149.000,99.000,0,' q.jobs
	grep -q '^dlas,2,,,1,2.000,100.000,2.000,152.000,150.000,50.000,1,' q.jobs
	# gittins orders its queues by index: the flag is dlas's alone.
	grep -q '^gittins,1,,,2,1.000,50.000,102.000,152.000,' q.jobs
}

@test "gsim --interference slows jobs on several nodes that share one; placed apart, they are not" {
	# Four nodes of 4 GPUs; a and b each 2 + 2 on two nodes, 100 s. Placed
	# apart (the default), they share no node: both end at 100. Placed
	# together (b on the 2 GPUs a leaves on each of its nodes), each runs
	# at 1 / 1.5 while the other does: both end at 150.
	printf 'job_id,num_gpu,submit_time,duration,num_nodes\n1,4,0,100,2\n2,4,0,100,2\n' >itf.csv
	run -0 gsim -q --json -p fifo -c 4x4 --interference 0.5 --jobs apart.jobs itf.csv
	echo "$output" >apart.json
	[ "$(json_get apart.json 'j["runs"][0]["avoid_interference"]')" = True ]
	grep -q '^fifo,1,,,4,0.000,100.000,0.000,100.000,100.000,' apart.jobs
	grep -q '^fifo,2,,,4,0.000,100.000,0.000,100.000,100.000,' apart.jobs
	gsim -q -p fifo -c 4x4 --interference 0.5 --no-avoid-interference --jobs together.jobs itf.csv >/dev/null
	grep -q '^fifo,1,,,4,0.000,100.000,0.000,150.000,150.000,' together.jobs
	grep -q '^fifo,2,,,4,0.000,100.000,0.000,150.000,150.000,' together.jobs
	# b, 26.667 s of work, ends at 40.001 (at 2/3, to the ms); until then
	# a runs at 2/3 too (26.667 s of work), the rest (73.333 s) at full
	# speed, to 113.334.
	printf 'job_id,num_gpu,submit_time,duration,num_nodes\n1,4,0,100,2\n2,4,0,26.667,2\n' >early.csv
	gsim -q -p fifo -c 4x4 --interference 0.5 --no-avoid-interference --jobs early.jobs early.csv >/dev/null
	grep -q '^fifo,2,,,4,0.000,26.667,0.000,40.001,' early.jobs
	grep -q '^fifo,1,,,4,0.000,100.000,0.000,113.334,' early.jobs
	# Without --interference, the two placements run alike.
	gsim -q -p fifo -c 4x4 --no-avoid-interference --jobs plain.jobs itf.csv >/dev/null
	grep -q '^fifo,1,,,4,0.000,100.000,0.000,100.000,100.000,' plain.jobs
	run -2 gsim -q -c 4x4 --interference 11 itf.csv
	[[ "$output" == *'--interference "11": expected a slowdown from 0 to 10 (0.25: a quarter slower)'* ]]
}

# toy_app DIR: an application's tables worked out by hand. Two epochs of
# 10 progress units each; the first validated batch size is 8, the
# largest 16; grad_sqr 1 and grad_var 1, so a batch of 16 (scale 2) gains
# (1 + 1) / (1 / 2 + 1) = 4/3 a step. A step at local batch size 8 takes
# 1 s on one GPU, 1 s on two of a node (0.5 of it syncing), 1.5 s on one
# GPU of each of two nodes (1 syncing).
toy_app() {
	mkdir -p "$1/toy"
	printf 'placement,local_bsz,step_time,sync_time\n1,8,1.0,0.0\n1,16,2.0,0.0\n2,8,1.0,0.5\n2,16,2.0,0.5\n11,8,1.5,1.0\n11,16,2.5,1.0\n' >"$1/toy/placements.csv"
	printf 'num_nodes,num_replicas,local_bsz,step_time,sync_time\n6,6,8,3.0,2.0\n6,6,16,4.0,2.0\n' >"$1/toy/scalability.csv"
	for b in 8 16; do
		printf 'progress,iteration,metric,grad_sqr,grad_var\n10,10,0.5,1,1\n20,20,0.6,1,1\n' >"$1/toy/validation-$b.csv"
	done
}

@test "gsim --apps replays Pollux's workloads: a job trains its epochs at its placement's speed" {
	toy_app apps
	# a (1 GPU, batch 8): a 1 s step gains 1: 20 s for 20 units, after
	# 30 s of start. b (2 GPUs, batch 16): local 8 on each, a 1 s step
	# gains 4/3: 15 s, after its 30 s. On one node of 2, every 60 s: a
	# starts at 0 and ends at 50; b, come at 10, starts at the pass at
	# 60 and ends at 105 (JCT 95). At each event instead: b starts at
	# a's end, 50, and ends at 95 (JCT 85).
	printf 'name,time,application,num_replicas,batch_size\na,0,toy,1,8\nb,10,toy,2,16\n' >w.csv
	run -0 gsim -q -p fifo -c 1x2 --apps apps --overhead 30 --interval 60 --jobs tick.jobs w.csv
	grep -q '^fifo,0,a,,1,0.000,20.000,0.000,50.000,50.000,' tick.jobs
	grep -q '^fifo,1,b,,2,10.000,15.000,60.000,105.000,95.000,' tick.jobs
	run -0 gsim -q -p fifo -c 1x2 --apps apps --overhead 30 --jobs each.jobs w.csv
	grep -q '^fifo,1,b,,2,10.000,15.000,50.000,95.000,85.000,' each.jobs
	# Spread over two nodes of one GPU, b's step takes 1.5 s: 22.5 s.
	run -0 gsim -q -p fifo -c 2x1 --apps apps --overhead 30 --jobs spread.jobs w.csv
	grep -q '^fifo,1,b,,2,10.000,.*,50.000,102.500,92.500,' spread.jobs
	# Preempted, a job keeps the epochs and units it trained, and pays
	# the start again: dlas at 30 GPU-s on one GPU, a (1 GPU) demoted
	# at 30 s, c (1 GPU, come at 40) preempts it at 40: a trained
	# 10 s of its 20 after its start; c runs 40..90; a restarts at 90
	# and ends at 90 + 30 + 10 = 130.
	printf 'name,time,application,num_replicas,batch_size\na,0,toy,1,8\nc,40,toy,1,8\n' >p.csv
	run -0 gsim -q -p dlas -T 30 -c 1x1 --apps apps --overhead 30 --jobs p.jobs p.csv
	grep -q '^dlas,1,c,,1,40.000,20.000,40.000,90.000,50.000,' p.jobs
	grep -q '^dlas,0,a,,1,0.000,20.000,0.000,130.000,130.000,.*,1,' p.jobs
	# What is wrong is named: no --apps, an application it does not
	# have, a bad cap, a bad interval.
	run -1 gsim -q -c 1x2 w.csv
	[[ "$output" == *"w.csv:2: the job trains application toy: gsim replays it with --apps DIR"* ]]
	printf 'name,time,application,num_replicas,batch_size\na,0,nope,1,8\n' >n.csv
	run -1 gsim -q -c 1x2 --apps apps n.csv
	[[ "$output" == *"n.csv:2: application nope: "*"apps/nope"* ]]
	run -1 gsim -q -c 1x2 --apps apps --app-max-local toy w.csv
	[[ "$output" == *'--app-max-local "toy": expected NAME=N'* ]]
	run -2 gsim -q -c 1x2 --apps apps --interval -1 w.csv
	[[ "$output" == *'--interval'* ]]
}

@test "gsim reports the wait of each GPU-size class: first start less submit, avg and max" {
	# Two nodes of 16 GPUs, strict fifo. Job 1 (32 GPUs, 100 s) at 0
	# starts at once: wait 0. Job 2 (1 GPU) at 5 and job 3 (28 GPUs) at
	# 7 wait for it: at 100 both start (1 + 28 of 32), waits 95 and 93.
	# Job 4 (1 GPU) at 200 finds the cluster idle: wait 0. So 1 GPU: two
	# jobs, (95 + 0) / 2 = 47.5, max 95; 2-8: none; 9-31: 93; 32+: 0.
	printf 'job_id,submit_time,num_gpus,duration\n1,0,32,100\n2,5,1,10\n3,7,28,10\n4,200,1,10\n' >w.csv
	run -0 gsim -q -p fifo -c 2x16 w.csv
	[[ "$output" == *$'\nwait avg/max (s)\n'* ]]
	grep -Eq '^  1 GPU +47\.5/95\.0$' <<<"$output"
	grep -Eq '^  2-8 GPUs +-$' <<<"$output"
	grep -Eq '^  9-31 GPUs +93\.0/93\.0$' <<<"$output"
	grep -Eq '^  32\+ GPUs +0\.0/0\.0$' <<<"$output"
	# A trace without users has no fairness section.
	[[ "$output" != *fairness* ]]
	run -0 gsim --json -p fifo -c 2x16 w.csv
	echo "$output" >w.json
	[ "$(json_get w.json 'j["runs"][0]["waits"]["1"]')" = "{'jobs': 2, 'avg': 47.5, 'max': 95.0}" ]
	[ "$(json_get w.json 'j["runs"][0]["waits"]["2-8"]')" = None ]
	[ "$(json_get w.json 'j["runs"][0]["waits"]["9-31"]["max"]')" = 93.0 ]
	[ "$(json_get w.json 'j["runs"][0]["waits"]["32+"]["jobs"]')" = 1 ]
	# One user, nobody to be unfair to: nothing measured.
	[ "$(json_get w.json 'j["runs"][0]["fairness"]["jain"]')" = None ]
	[ "$(json_get w.json 'j["runs"][0]["fairness"]["min_window_share"]')" = None ]

	# The wait is until the first start; time waiting to restart after a
	# preemption is in avg queueing only. One GPU, dlas, queue 0 ends at
	# 5 GPU-s: A (100 s) starts at 0, B (3 s) at 10 preempts it on
	# arrival; both waits 0, while A queues 3 s (10..13).
	printf 'submit_time,num_gpus,duration\n0,1,100\n10,1,3\n' >p.csv
	run -0 gsim --json -p dlas -T 5 -c 1x1 p.csv
	echo "$output" >p.json
	[ "$(json_get p.json 'j["runs"][0]["waits"]["1"]')" = "{'jobs': 2, 'avg': 0.0, 'max': 0.0}" ]
	[ "$(json_get p.json 'j["runs"][0]["avg_queueing"]')" = 1.5 ]
}

@test "gsim measures fairness between users: GPU-time received against entitled, Jain's index, the lowest window share" {
	# One node of 2 GPUs, fifo, all jobs at 0. User a: job 1 (2 GPUs,
	# 100 s) and job 2 (1 GPU, 100 s); user b: job 3 (1 GPU, 100 s). Job
	# 1 runs 0..100; jobs 2 and 3 wait and run 100..200. One 6-hour
	# window; both users waited in it. Delivered: 2 x 100 + 100 + 100 =
	# 400 GPU-s. Wanted (GPUs x time waiting or running): a 200 + 200 =
	# 400, b 200; equal shares give 200 each, which neither wants less
	# than: each is entitled to 200. a received 300: 1.5; b 100: 0.5.
	# Lowest window share 0.5; Jain (1.5 + 0.5)^2 / (2 x (1.5^2 +
	# 0.5^2)) = 4 / 5 = 0.8.
	printf 'job_id,submit_time,num_gpus,duration,user\n1,0,2,100,a\n2,0,1,100,a\n3,0,1,100,b\n' >two.csv
	run -0 gsim -q -p fifo -c 1x2 two.csv
	[[ "$output" == *$'\n\nfairness, 6 h windows'* ]]
	grep -Eq "^Jain's index +0\.800$" <<<"$output"
	grep -Eq '^min window share +0\.500$' <<<"$output"
	grep -Eq '^user a +1\.500$' <<<"$output"
	grep -Eq '^user b +0\.500$' <<<"$output"
	# No account: no account rows.
	[[ "$output" != *$'\naccount '* ]]
	run -0 gsim --json -p fifo -c 1x2 two.csv
	echo "$output" >two.json
	[ "$(json_get two.json 'j["runs"][0]["fairness"]["jain"]')" = 0.8 ]
	[ "$(json_get two.json 'j["runs"][0]["fairness"]["min_window_share"]')" = 0.5 ]
	[ "$(json_get two.json 'j["runs"][0]["fairness"]["window"]')" = 21600 ]
	# GPU-hours: a received 300 GPU-s = 0.083333 h, entitled 200 =
	# 0.055556 h.
	[ "$(json_get two.json '[(u["user"], u["received"], u["entitled"], u["ratio"]) for u in j["runs"][0]["fairness"]["users"]]')" = \
	    "[('a', 0.083333, 0.055556, 1.5), ('b', 0.027778, 0.055556, 0.5)]" ]
	# Users in account lab with 3 shares to 1: a is due 300 (it wants
	# 400) and received it, b 100 (it wants 200) and received it: both
	# 1, Jain 1.
	printf 'kind,name,parent,shares\naccount,lab,,1\nuser,a,lab,3\nuser,b,lab,1\n' >ab.csv
	sed '1s/$/,account/; 2,$s/$/,lab/' two.csv >lab.csv
	run -0 gsim --json -p fifo -c 1x2 --shares ab.csv lab.csv
	echo "$output" >lab.json
	[ "$(json_get lab.json 'j["runs"][0]["fairness"]["jain"]')" = 1.0 ]
	[ "$(json_get lab.json 'j["runs"][0]["fairness"]["min_window_share"]')" = 1.0 ]

	# A user is due no more than it wants: with a's job 2 alone beside b
	# (b's job 3 submitted at 150, when a GPU is free), b wants and gets
	# 100 of the 400; only a waited, and a window of one user waiting
	# and b running still counts: a is due 300 and got 300: 1.
	printf 'job_id,submit_time,num_gpus,duration,user\n1,0,2,100,a\n2,0,1,100,a\n3,150,1,100,b\n' >sat.csv
	run -0 gsim --json -p fifo -c 1x2 sat.csv
	echo "$output" >sat.json
	[ "$(json_get sat.json '[(u["user"], u["entitled"], u["ratio"]) for u in j["runs"][0]["fairness"]["users"]]')" = \
	    "[('a', 0.083333, 1.0), ('b', 0.0, None)]" ]

	# Accounts x (a) and y (b), y with 3 shares to x's 1, and b with a
	# second job (4: 1 GPU, 100 s at 0, run 200..300). Delivered 500;
	# wanted: a 400, b 200 + (200 + 100) = 500. The root gives x 1/4 and
	# y 3/4 of 500: 125 and 375, each under what it wants. a received 300:
	# 2.4; b 200: 0.533333. Jain (12/5 + 8/15)^2 / (2 x (144/25 +
	# 64/225)) = (1936/225) / (2720/225) = 0.711765.
	printf 'job_id,submit_time,num_gpus,duration,user,account\n1,0,2,100,a,x\n2,0,1,100,a,x\n3,0,1,100,b,y\n4,0,1,100,b,y\n' >acc.csv
	printf 'kind,name,parent,shares\naccount,x,,1\naccount,y,,3\n' >xy.csv
	run -0 gsim --json -p fifo -c 1x2 --shares xy.csv acc.csv
	echo "$output" >acc.json
	[ "$(json_get acc.json 'j["runs"][0]["fairness"]["jain"]')" = 0.711765 ]
	[ "$(json_get acc.json '[(a["account"], a["shares"], a["ratio"]) for a in j["runs"][0]["fairness"]["accounts"]]')" = \
	    "[('x', 1, 2.4), ('y', 3, 0.533333)]" ]
	run -0 gsim -q -p fifo -c 1x2 --shares xy.csv acc.csv
	grep -Eq '^user a \(x\) +2\.400$' <<<"$output"
	grep -Eq '^account y +0\.533$' <<<"$output"
	# With equal shares, 250 each: a 1.2, b 0.8.
	run -0 gsim -q -p fifo -c 1x2 acc.csv
	grep -Eq '^user a \(x\) +1\.200$' <<<"$output"
	grep -Eq '^user b \(y\) +0\.800$' <<<"$output"

	# A tree: x and y under the root, z under y. Job 1 (a in x, 2 GPUs)
	# starts at 0 and never waits; jobs 2 (b in y) and 3 (c in z), 1 GPU
	# each, wait for it and run 100..200. All three compete; 400 GPU-s
	# delivered; wanted: a 200, b 99 + 100, c 98 + 100. x and y get half
	# each (x wants no more than its 200); y's half splits between b and
	# z: b and c are entitled to 100 each, and received it: 1.0, Jain 1.
	# a never waited: not measured, and x shows "-". Flat (no --shares:
	# x, y and z equal siblings) each is entitled to 400 / 3: b and c
	# 0.75.
	printf 'job_id,submit_time,num_gpus,duration,user,account\n1,0,2,100,a,x\n2,1,1,100,b,y\n3,2,1,100,c,z\n' >tree.csv
	printf 'kind,name,parent,shares\naccount,z,y,1\naccount,y,,1\naccount,x,,1\n' >tree-shares.csv
	run -0 gsim -q -p fifo -c 1x2 --shares tree-shares.csv tree.csv
	grep -Eq '^min window share +1\.000$' <<<"$output"
	grep -Eq "^Jain's index +1\.000$" <<<"$output"
	grep -Eq '^user a \(x\) +-$' <<<"$output"
	grep -Eq '^account x +-$' <<<"$output"
	grep -Eq '^account y/z +1\.000$' <<<"$output"
	run -0 gsim --json -p fifo -c 1x2 tree.csv
	echo "$output" >flat.json
	[ "$(json_get flat.json 'j["runs"][0]["fairness"]["min_window_share"]')" = 0.75 ]
	[ "$(json_get flat.json '[a["parent"] for a in j["runs"][0]["fairness"]["accounts"]]')" = "[None, None, None]" ]
}

@test "gsim --fairshare schedules by the shares of --shares" {
	# One GPU, jobs of 100 s, no decay. a (account x) submits jobs 1-3 at
	# 0, 1, 2; b (account y) jobs 4 and 5 at 3, 4. Job 1 runs 0..100; at
	# 100 b has used nothing: job 4 runs 100..200. With one share each,
	# a and b have then used 100 each and tie: job 2 (first come) runs
	# 200..300, job 5 300..400. With y 3 shares to x's 1, at 200 y's
	# level fair share is (3/4) / (100/200) = 1.5 against x's (1/4) /
	# (100/200) = 0.5: job 5 runs 200..300, then jobs 2 and 3.
	printf 'job_id,submit_time,num_gpus,duration,user,account\n1,0,1,100,a,x\n2,1,1,100,a,x\n3,2,1,100,a,x\n4,3,1,100,b,y\n5,4,1,100,b,y\n' >fs.csv
	printf 'kind,name,parent,shares\naccount,x,,1\naccount,y,,3\n' >fs-shares.csv
	run -0 gsim -q -p dlas -c 1x1 --fairshare 0 --fairshare-half-life 0 --jobs eq.jobs fs.csv
	grep -q '^dlas,2,,a,1,1.000,100.000,200.000,300.000,' eq.jobs
	grep -q '^dlas,5,,b,1,4.000,100.000,300.000,400.000,' eq.jobs
	run -0 gsim -q -p dlas -c 1x1 --fairshare 0 --fairshare-half-life 0 --shares fs-shares.csv --jobs sh.jobs fs.csv
	grep -q '^dlas,4,,b,1,3.000,100.000,100.000,200.000,' sh.jobs
	grep -q '^dlas,5,,b,1,4.000,100.000,200.000,300.000,' sh.jobs
	grep -q '^dlas,2,,a,1,1.000,100.000,300.000,400.000,' sh.jobs
	grep -q '^dlas,3,,a,1,2.000,100.000,400.000,500.000,' sh.jobs
}

# shares_refused ROWS WANT: gsim --shares of a file s.csv holding the
# header kind,name,parent,shares and ROWS (printf's \n between them)
# exits 1 with "gsim: --shares: s.csv:" and WANT.
shares_refused() {
	printf "kind,name,parent,shares\n$1\n" >s.csv
	run -1 gsim -q -c 1x2 --shares s.csv t.csv
	[ "$output" = "gsim: --shares: s.csv:$2" ] ||
	    { echo "rows: $1"; echo "got:  $output"; echo "want: gsim: --shares: s.csv:$2"; false; }
}

@test "gsim --shares names the file and line of a bad row and exits 1" {
	printf 'submit_time,num_gpus,duration,user\n0,1,10,a\n0,1,10,b\n' >t.csv
	printf 'kind,name,shares\naccount,x,1\n' >hdr.csv
	run -1 gsim -q -c 1x2 --shares hdr.csv t.csv
	[ "$output" = "gsim: --shares: hdr.csv:1: no parent column; the header has: kind, name, shares (expected kind, name, parent, shares)" ]
	shares_refused 'account,x,,1\naccount,z,nope,1' \
	    '3: account "z": parent "nope" is no account of this file'
	shares_refused 'account,x,,1\nuser,a,lab,2' \
	    '3: user "a": account "lab" is no account of this file'
	shares_refused 'account,x,,0' \
	    '2: shares "0": expected a whole number from 1 to 1000000'
	shares_refused 'account,x,y,1\naccount,y,x,1' \
	    '2: account "x" is its own ancestor: its parents loop back to it'
	shares_refused 'group,x,,1' '2: kind "group": expected account or user'
	shares_refused 'account,x,,1\nuser,a,,1\naccount,x,,2' \
	    '4: account "x" is given twice (first on line 2)'
	shares_refused 'user,a,,1\nuser,a,,2' \
	    '3: user "a" under the root is given twice (first on line 2)'
	shares_refused 'account,x,,1\nuser,a,x,1\nuser,a,x,2' \
	    '4: user "a" in account "x" is given twice (first on line 3)'
	shares_refused ',x,,1' '2: kind "": expected account or user'
	shares_refused 'account,,,1' "2: name is empty; expected the account's name"
	run -1 gsim -q -c 1x2 --shares missing.csv t.csv
	[ "$output" = 'gsim: --shares: missing.csv: No such file or directory' ]
}

@test "gsim honours a job array's throttle, as gbatchd's core does" {
	# 4 GPUs; array 7 has 5 one-GPU tasks of 10 s at 0, throttle 2; job
	# 9 (1 GPU, 10 s) comes at 1. Tasks run two at a time: 0..10 (ids
	# 0, 1), 10..20 (2, 3), 20..30 (4); job 9 runs 1..11 beside them.
	# Without the throttle four tasks start at 0 and the fifth at 10.
	{
		echo 'job_id,submit_time,num_gpus,duration,array_id,array_throttle'
		for i in 0 1 2 3 4; do echo "$i,0,1,10,7,2"; done
		echo '9,1,1,10,,'
	} >arr.csv
	run -0 gsim --json -p dlas -c 1x4 --jobs arr-jobs.csv arr.csv
	for i in 0 1; do grep -q "^dlas,$i,,,1,0.000,10.000,0.000,10.000," arr-jobs.csv; done
	for i in 2 3; do grep -q "^dlas,$i,,,1,0.000,10.000,10.000,20.000," arr-jobs.csv; done
	grep -q '^dlas,4,,,1,0.000,10.000,20.000,30.000,' arr-jobs.csv
	grep -q '^dlas,9,,,1,1.000,10.000,1.000,11.000,' arr-jobs.csv
	sed 's/,7,2$/,7,0/' arr.csv >free.csv
	run -0 gsim --json -p dlas -c 1x4 --jobs free-jobs.csv free.csv
	[ "$(grep -c '^dlas,[0-3],,,1,0.000,10.000,0.000,10.000,' free-jobs.csv)" = 4 ]
	grep -q '^dlas,4,,,1,0.000,10.000,10.000,20.000,' free-jobs.csv
	run -1 gsim -c 1x4 <(printf 'submit_time,num_gpus,duration,array_id\n0,1,5,x\n')
	[[ "$output" == *":2:"*"array_id"* ]]
}

@test "gsim places jobs in shapes: num_nodes exactly, --shape even or any" {
	# Three nodes of 4 GPUs. Job 1 (2 GPUs, 10 s) at 0 leaves 2, 4, 4
	# free. Job 2 (9 GPUs, 10 s) at 1: any shape takes 4 + 4 + 1 at once;
	# even needs 3 x 3 and waits for job 1 (10..20).
	printf 'job_id,submit_time,num_gpus,duration\n1,0,2,10\n2,1,9,10\n' >s.csv
	run -0 gsim -q -p dlas -c 3x4 --jobs any.csv s.csv
	[[ "$output" == *"any shapes"* ]]
	grep -q '^dlas,2,,,9,1.000,10.000,1.000,11.000,.*,3$' any.csv
	run -0 gsim --json -p dlas -c 3x4 --shape even --jobs even.csv s.csv
	[ "$(json_get <(echo "$output") 'j["shape"]')" = even ]
	grep -q '^dlas,2,,,9,1.000,10.000,10.000,20.000,.*,3$' even.csv
	# num_nodes: exactly that many nodes, whatever --shape says.
	printf 'job_id,submit_time,num_gpus,duration,num_nodes\n1,0,2,10,2\n2,0,4,10,1\n3,0,2,5,\n' >n.csv
	for shape in any even; do
		run -0 gsim -q -p dlas -c 3x4 --shape $shape --jobs n-$shape.csv n.csv
		grep -q '^dlas,1,,,2,0.000,10.000,0.000,10.000,.*,2$' n-$shape.csv
		grep -q '^dlas,2,,,4,0.000,10.000,0.000,10.000,.*,1$' n-$shape.csv
		grep -q '^dlas,3,,,2,0.000,5.000,0.000,5.000,.*,1$' n-$shape.csv
	done
	# What can never run is refused before the replay, naming the line.
	run -1 gsim -q -c 3x4 <(printf 'submit_time,num_gpus,duration,num_nodes\n0,3,5,2\n')
	[[ "$output" == *":2:"*"num_nodes 2"*"multiple"* ]]
	run -1 gsim -q -c 3x4 <(printf 'submit_time,num_gpus,duration,num_nodes\n0,4,5,4\n')
	[[ "$output" == *":2:"*"no such shape over 3 nodes of 4 GPUs"* ]]
	run -1 gsim -q -c 3x4 --shape even <(printf 'submit_time,num_gpus,duration\n0,7,5\n')
	[[ "$output" == *":2:"*"7 GPUs have no even split"* ]]
	run -0 gsim -q -c 3x4 <(printf 'submit_time,num_gpus,duration\n0,7,5\n')
	run -2 gsim -q -c 3x4 --shape odd s.csv
	[[ "$output" == *'--shape: expected a shape (any or even), got "odd"'* ]]
}

@test "gsim places CPUs and memory beside GPUs when the nodes have them" {
	# One node of 4 GPUs and 8 CPUs. Job 1 (1 GPU, 8 CPUs, 10 s) at 0
	# takes every CPU; job 2 (1 GPU, 2 CPUs, 10 s) at 1 waits for them
	# (10..20) though 3 GPUs are free. Without --node-cpus CPUs are not
	# simulated and job 2 runs at once (1..11).
	printf 'job_id,submit_time,num_gpus,duration,num_cpu\n1,0,1,10,8\n2,1,1,10,2\n' >c.csv
	run -0 gsim -q -p fifo -c 1x4 --node-cpus 8 --jobs cpus.csv c.csv
	grep -q '^fifo,2,,,1,1.000,10.000,10.000,20.000,' cpus.csv
	run -0 gsim -q -p fifo -c 1x4 --jobs free.csv c.csv
	grep -q '^fifo,2,,,1,1.000,10.000,1.000,11.000,' free.csv
	# Memory the same way; a job without it takes the node's share (a
	# quarter of 32 GB a GPU), so two 2-GPU jobs fill 32 GB.
	printf 'job_id,submit_time,num_gpus,duration,mem_gb\n1,0,1,10,24\n2,1,1,10,16\n3,2,1,10,\n' >m.csv
	run -0 gsim -q -p fifo --no-strict -c 1x4 --node-mem-gb 32 --jobs mem.csv m.csv
	grep -q '^fifo,2,,,1,1.000,10.000,10.000,20.000,' mem.csv
	grep -q '^fifo,3,,,1,2.000,10.000,2.000,12.000,' mem.csv
	# The cluster spec's columns count too.
	printf 'num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n1,1,4,8,32\n' >spec.csv
	run -0 gsim -q -p fifo --cluster-spec spec.csv --jobs spec-jobs.csv c.csv
	grep -q '^fifo,2,,,1,1.000,10.000,10.000,20.000,' spec-jobs.csv
	# What no node could hold is refused before the replay.
	run -1 gsim -q -c 1x4 --node-cpus 8 <(printf 'submit_time,num_gpus,duration,num_cpu\n0,1,5,9\n')
	[[ "$output" == *":2:"*"with the CPUs and memory it needs"*"or fewer CPUs or memory"* ]]
	run -2 gsim -q -c 1x4 --node-cpus x c.csv
	[[ "$output" == *'--node-cpus "x": expected a'* ]]
}

@test "gsim replays CPU jobs (num_gpus 0) beside GPU jobs, on CPUs alone" {
	# One node of 4 GPUs and 16 CPUs. Job 1 (4 GPUs, 8 CPUs) at 0 holds
	# every GPU; job 2 (no GPU, 8 CPUs) at 1 starts at once beside it;
	# job 3 (4 CPUs) at 2 and job 4 (no num_cpu: 1 CPU) at 3 wait for
	# CPUs until job 1 ends at 10.
	printf 'job_id,submit_time,num_gpus,duration,num_cpu\n1,0,4,10,8\n2,1,0,10,8\n3,2,0,10,4\n4,3,0,10,\n' >cj.csv
	run -0 gsim -q -p fifo --no-strict -c 1x4 --node-cpus 16 --jobs cj-out.csv cj.csv
	grep -q '^fifo,1,,,4,0.000,10.000,0.000,10.000,' cj-out.csv
	grep -q '^fifo,2,,,0,1.000,10.000,1.000,11.000,' cj-out.csv
	grep -q '^fifo,3,,,0,2.000,10.000,10.000,20.000,' cj-out.csv
	grep -q '^fifo,4,,,0,3.000,10.000,10.000,20.000,' cj-out.csv
	# No GPU is busy for a CPU job: 40 GPU-s of 80 over the makespan.
	[[ "$output" == *"GPU utilization"*"50.0%"* ]]
	# What no node could hold is refused before the replay.
	run -1 gsim -q -c 1x4 --node-cpus 16 <(printf 'submit_time,num_gpus,duration,num_cpu\n0,0,5,17\n')
	[[ "$output" == *":2: job 0, of no GPU, finds no node with the CPUs and memory it needs"* ]]
}

@test "gsim --conf replays partitions as gbatchd runs them: a list in order, limits, accounts, a higher tier first" {
	cat >p.conf <<'CONF'
partitions = {
  gpu = { nodes = "gpu1"; default = true; max_time = "1:00:00"; };
  long = { nodes = "gpu2"; };
  prio = { nodes = "gpu1"; tier = 3; accounts = ["vip"]; };
};
CONF
	# Two nodes of 4 GPUs, gpu1 and gpu2. Jobs 1 and 2 (gpu, the
	# default) take gpu1 in turn; job 3 (gpu,long) finds gpu1 full and
	# runs on gpu2 at once; job 4 (prio, tier 3) at 10 preempts job 1
	# (tier 0, same queue) and runs 10-60; job 1 comes back at 60, then
	# job 2 at 150.
	printf 'job_id,submit_time,num_gpus,duration,user,account,partition,time_limit\n1,0,4,100,a,,,0\n2,0,4,100,a,,gpu,3600\n3,0,4,100,b,,"gpu,long",0\n4,10,4,50,c,vip,prio,0\n' >pt.csv
	run -0 gsim -q -p dlas -c 2x4 --conf p.conf --nodes 'gpu[1-2]' --jobs pt-out.csv pt.csv
	grep -q '^dlas,1,,a,4,0.000,100.000,0.000,150.000,150.000,50.000,1,' pt-out.csv
	grep -q '^dlas,2,,a,4,0.000,100.000,150.000,250.000,' pt-out.csv
	grep -q '^dlas,3,,b,4,0.000,100.000,0.000,100.000,' pt-out.csv
	grep -q '^dlas,4,,c,4,10.000,50.000,10.000,60.000,' pt-out.csv
	# Without --conf the columns are read and change nothing: job 3
	# takes the free node, job 4 waits its turn.
	run -0 gsim -q -p dlas -c 2x4 --jobs plain-out.csv pt.csv
	grep -q '^dlas,4,,c,4,10.000,50.000,100.000,150.000,' plain-out.csv
	# What no partition takes, each named with its line and why.
	printf 'submit_time,num_gpus,duration,partition,time_limit,account\n0,1,5,gpu,7200,\n' >over.csv
	run -1 gsim -q -c 2x4 --conf p.conf over.csv
	[[ "$output" == *"over.csv:2: job 0: no partition of gpu takes it: the time limit 2:00:00 is over gpu's max_time 1:00:00"* ]]
	printf 'submit_time,num_gpus,duration,partition\n0,1,5,nope\n' >nope.csv
	run -1 gsim -q -c 2x4 --conf p.conf nope.csv
	[[ "$output" == *'nope.csv:2: partition "nope": no such partition; expected one of gpu, long, prio'* ]]
	printf 'submit_time,num_gpus,duration,partition,account\n0,1,5,prio,\n' >acct.csv
	run -1 gsim -q -c 2x4 --conf p.conf acct.csv
	[[ "$output" == *"acct.csv:2: job 0: no partition of prio takes it: prio is for the accounts vip; give one with -A"* ]]
	# Nodes the partitions do not name: nothing holds the job.
	run -1 gsim -q -c 2x4 --conf p.conf pt.csv
	[[ "$output" == *"pt.csv:2: job 1's 4 GPUs fit no partition of gpu on an idle cluster (--nodes names the nodes its partitions hold)"* ]]
	run -1 gsim -q -c 2x4 --conf p.conf --nodes 'gpu[1-3]' pt.csv
	[[ "$output" == *"--nodes: 3 names for the cluster's 2 nodes; expected one name a node, in the cluster's order"* ]]
	run -2 gsim -q -c 2x4 --nodes 'gpu[1-2]' pt.csv
	[[ "$output" == *"--nodes names the nodes of --conf's partitions; give --conf FILE too"* ]]
	printf 'partitions = { a = { default = true; }; b = { default = true; }; };\n' >bad.conf
	run -1 gsim -q -c 2x4 --conf bad.conf pt.csv
	[[ "$output" == *"bad.conf: line 1: partitions: a and b are both the default"* ]]
}

@test "gsim --conf replays QOS as gbatchd runs them: a higher priority first, preempting only what its list names, per-user limits" {
	cat >q.conf <<'CONF'
qos = {
  normal = { };
  high = { priority = 10; preempt = ["scavenger"]; };
  scavenger = { preempt_mode = "requeue"; };
  keep = { preempt_mode = "off"; };
  capped = { max_jobs_per_user = 1; max_time = "1:00:00"; };
};
CONF
	# One node of 4 GPUs. Job 1 (scavenger) runs from 0; job 2 (high)
	# at 10 preempts it and runs 10-60; job 1 comes back at 60 with 90
	# left, to 150.
	printf 'job_id,submit_time,num_gpus,duration,user,qos\n1,0,4,100,a,scavenger\n2,10,4,50,b,high\n' >s.csv
	run -0 gsim -q -p dlas -c 1x4 --conf q.conf --jobs s-out.csv s.csv
	grep -q '^dlas,1,,a,4,0.000,100.000,0.000,150.000,' s-out.csv
	grep -q '^dlas,2,,b,4,10.000,50.000,10.000,60.000,' s-out.csv
	# A normal job is not high's to preempt, nor one of keep: job 2
	# waits for job 1 to end, 100-150.
	for q in normal keep; do
		printf 'job_id,submit_time,num_gpus,duration,user,qos\n1,0,4,100,a,%s\n2,10,4,50,b,high\n' "$q" >n.csv
		run -0 gsim -q -p dlas -c 1x4 --conf q.conf --jobs n-out.csv n.csv
		grep -q '^dlas,1,,a,4,0.000,100.000,0.000,100.000,' n-out.csv
		grep -q '^dlas,2,,b,4,10.000,50.000,100.000,150.000,' n-out.csv
	done
	# capped: one job a user at once; user a's second waits for the
	# first (0-100, then 100-200), user b's runs beside it.
	printf 'job_id,submit_time,num_gpus,duration,user,qos\n1,0,1,100,a,capped\n2,0,1,100,a,capped\n3,0,1,100,b,capped\n' >c.csv
	run -0 gsim -q -p dlas -c 1x4 --conf q.conf --jobs c-out.csv c.csv
	grep -q '^dlas,2,,a,1,0.000,100.000,100.000,200.000,' c-out.csv
	grep -q '^dlas,3,,b,1,0.000,100.000,0.000,100.000,' c-out.csv
	# Without --conf the qos column changes nothing: FIFO within Q0.
	run -0 gsim -q -p dlas -c 1x4 --jobs plain-out.csv s.csv
	grep -q '^dlas,2,,b,4,10.000,50.000,100.000,150.000,' plain-out.csv
	# A QOS that is none, or whose limit refuses the job, names its line.
	printf 'submit_time,num_gpus,duration,qos\n0,1,5,gold\n' >g.csv
	run -1 gsim -q -c 1x4 --conf q.conf g.csv
	[[ "$output" == *'g.csv:2: job 0: QOS "gold": no such QOS; expected one of normal, high, scavenger, keep, capped'* ]]
	printf 'submit_time,num_gpus,duration,qos,time_limit\n0,1,5,capped,7200\n' >t.csv
	run -1 gsim -q -c 1x4 --conf q.conf t.csv
	[[ "$output" == *'t.csv:2: job 0: QOS capped does not take the job: the time limit 2:00:00 is over its max_time 1:00:00'* ]]
}

@test "gsim -K alone spaces thresholds tenfold; -T sets K" {
	run -0 gsim --json -p dlas -K 4 -c 3x4 "$T60"
	echo "$output" >k.json
	[ "$(json_get k.json 'j["runs"][0]["thresholds"]')" = "[3600.0, 36000.0, 360000.0]" ]
	run -0 gsim --json -p dlas -T 10,20 -K 3 -c 3x4 "$T60"
	run -2 gsim -p dlas -T 10,20 -K 2 -c 3x4 "$T60"
	[[ "$output" == *"--queues 2 but --thresholds gives 3 queues"* ]]
}

@test "gsim reads a Tiresias cluster spec and a GPU-time sample file" {
	need_tiresias
	run -0 gsim --json -p gittins --cluster-spec "$TIRESIAS/cluster_specs/n160g8.csv" \
	    -S "$TIRESIAS/yarn-gput1000.csv" "$T60"
	echo "$output" >out.json
	[ "$(json_get out.json 'j["cluster"]["gpus"]')" = 1280 ]
	[ "$(json_get out.json 'j["cluster"]["switches"]')" = 5 ]
	printf 'num_switch,num_node_p_switch\n1,2\n' >spec.csv
	run -1 gsim --cluster-spec spec.csv "$T60"
	[[ "$output" == *"spec.csv:1: the header has: num_switch, num_node_p_switch (expected"* ]]
	printf 'duration\n121\nlots\n' >samples.csv
	run -1 gsim -p gittins -S samples.csv -c 3x4 "$T60"
	[[ "$output" == *'samples.csv:3: duration "lots": expected a positive number'* ]]
}

@test "gsim names the file and line of bad trace input and exits 1" {
	printf 'job_id,num_gpu,submit_time\n1,2,3\n' >nodur.csv
	run -1 gsim -c 3x4 nodur.csv
	[[ "$output" == *"nodur.csv:1: no duration column; the header has: job_id, num_gpu, submit_time"* ]]

	printf 'submit_time,num_gpus,duration\n0,2,10\n5,two,3\n' >zero.csv
	run -1 gsim -c 3x4 zero.csv
	[[ "$output" == *'zero.csv:3: num_gpus "two": expected a whole number from 0'* ]]

	printf 'submit_time,num_gpus,duration\n0,2,10\n\n5,1,-3\n' >neg.csv
	run -1 gsim -c 3x4 neg.csv
	[[ "$output" == *'neg.csv:4: duration "-3": expected a positive number of seconds'* ]]

	printf 'submit_time,num_gpus,duration\n-1,2,10\n' >negsub.csv
	run -1 gsim -c 3x4 negsub.csv
	[[ "$output" == *'negsub.csv:2: submit_time "-1": expected a non-negative'* ]]

	printf 'job_id,submit_time,num_gpus,duration\n7,0,2,10\n8,5,13,3\n' >big.csv
	run -1 gsim -c 3x4 big.csv
	[[ "$output" == *"big.csv:3: job 8 asks for 13 GPUs; the cluster has 12"* ]]

	printf 'job_id,submit_time,num_gpus,duration\n7,0,2,10\n7,5,1,3\n' >dup.csv
	run -1 gsim -c 3x4 dup.csv
	[[ "$output" == *"dup.csv:3: job_id 7 is taken by line 2"* ]]

	printf 'submit_time,num_gpus,duration\n0,2,10,9\n' >wide.csv
	run -1 gsim -c 3x4 wide.csv
	[[ "$output" == *"wide.csv:2: 4 fields; the header names 3 columns"* ]]

	printf 'submit_time,num_gpus,duration,name\n0,2,10,"open\n' >quote.csv
	run -1 gsim -c 3x4 quote.csv
	[[ "$output" == *"quote.csv:2: a quoted field is not closed"* ]]

	printf 'submit_time,num_gpus,duration\n' >empty.csv
	run -1 gsim -c 3x4 empty.csv
	[[ "$output" == *"empty.csv: no jobs after the header"* ]]

	run -1 gsim -c 3x4 missing.csv
	[[ "$output" == *"missing.csv: No such file or directory"* ]]
}

@test "gsim rejects bad options with exit status 2" {
	run -2 gsim -p fifo,lottery -c 3x4 "$T60"
	[[ "$output" == *'--policy: expected a policy (fifo, srtf, dlas or gittins), got "lottery"'* ]]
	run -2 gsim -p dlas:tetris -c 3x4 "$T60"
	[[ "$output" == *"--policy dlas:tetris: expected a placement"* ]]
	run -2 gsim -p fifo,,dlas -c 3x4 "$T60"
	[[ "$output" == *"empty item"* ]]
	run -2 gsim -p dlas,fifo,dlas -c 3x4 "$T60"
	[[ "$output" == *"--policy: dlas is given twice"* ]]
	run -2 gsim -c 3x4 -T 3600,100 "$T60"
	[[ "$output" == *"--thresholds:"*"3600,100"* ]]
	run -2 gsim -c 3y4 "$T60"
	[[ "$output" == *'--cluster: cluster "3y4": expected NODESxGPUS'* ]]
	run -2 gsim -c 3x65 "$T60"
	[[ "$output" == *"65 GPUs per node: expected 1 to 64"* ]]
	run -2 gsim "$T60"
	[[ "$output" == *"give the cluster once"* ]]
	run -2 gsim -c 3x4
	[[ "$output" == *"no trace given"* ]]
	run -2 gsim -c 3x4 "$T60" extra.csv
	[[ "$output" == *'unexpected argument "extra.csv"'* ]]
	run -2 gsim --promote -1 -c 3x4 "$T60"
	[[ "$output" == *'--promote "-1": expected a number >= 0'* ]]
	run -2 gsim --frobnicate -c 3x4 "$T60"
	[[ "$output" == *"--frobnicate"* ]]
}

@test "gsim --plot draws a PNG with gnuplot, or says gnuplot is missing" {
	run -1 env PATH=/nonexistent "$B/sim/gsim" -c 3x4 --plot cdf.png "$T60"
	[[ "$output" == *"--plot needs gnuplot"*"gnuplot-nox"* ]]
	[ ! -e cdf.png ]
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	run -0 gsim -q -p fifo,dlas -c 3x4 --plot cdf.png "$T60"
	[ "$(head -c 4 cdf.png | od -An -c | tr -d ' ')" = '211PNG' ]
}

@test "gsim writes nothing to stderr when it is not a terminal" {
	run -0 --separate-stderr gsim -p dlas -c 3x4 "$T60"
	[ -z "$stderr" ]
	[ -n "$output" ]
}
