#!/usr/bin/env bats
# Elastic jobs (gsub -G MIN-MAX) on a real local cluster of two 4-GPU
# nodes: the scheduler chooses the count at the start from what is free,
# the job sees it in its variables, gq and gacct show it beside the range,
# and what is not a range is refused by gsub and by gbatchd alike. Which
# count a pass gives, and how the count follows a job through preemption,
# are sched-elastic.t's rules.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# The variables each part sees, one file per rank, then it waits for the
# file go.
part_script() {
	cat <<EOF
#!/bin/sh
f="$GB_DIR/part-\$GBATCH_JOB_ID-\$GBATCH_NODE_RANK"
env | grep -E '^(GBATCH_GPUS|GBATCH_NUM_NODES|CUDA_VISIBLE_DEVICES|WORLD_SIZE)=' | sort >"\$f.tmp"
mv "\$f.tmp" "\$f"
until [ -e "$GB_DIR/go" ]; do sleep 0.05; done
EOF
}

# field ID NAME: one gq column of a job, whatever its state.
field() {
	gq -h -t all -j "$1" -o "$2" | tr -d ' '
}

# field_is ID NAME VALUE: whether it is that now (for gb_wait).
field_is() {
	[ "$(field "$1" "$2")" = "$3" ]
}

@test "gsub -G 2-8 on an idle cluster runs on all 8 GPUs, both nodes; gq and gacct show 8 and the range" {
	gb_start_cluster
	part_script >part.sh
	id=$(gb_submit -G 2-8 part.sh)
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -e "part-$id-0"
	gb_wait 10 test -e "part-$id-1"
	for r in 0 1; do
		grep -qx "CUDA_VISIBLE_DEVICES=0,1,2,3" "part-$id-$r"
		grep -qx "GBATCH_NUM_NODES=2" "part-$id-$r"
	done
	run -0 gq -h -j "$id" -o gpus,gpus_range,nodes
	[[ "$output" =~ ^8[[:space:]]+2-8[[:space:]]+n1,n2$ ]]
	run -0 gq -l "$id"
	[[ "$output" == *$'\ngpus_range:'*' 2-8'* ]]
	# Slurm's commands say the same count.
	run -0 env PATH="$B/slurm:$PATH" squeue -h -j "$id" -o %b
	[ "$output" = gpu:8 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	# The run's GPUs are what it ran on: 8 in gacct, and its GPU-seconds.
	run -0 gacct -n -j "$id" -o gpus,gpus_range
	[[ "$output" =~ ^8[[:space:]]+2-8$ ]]
}

@test "beside a rigid job an elastic job takes what is left where its shape fits; 2-2 is a rigid 2" {
	gb_start_cluster
	r=$(gb_submit -G 3 --wrap 'sleep 300')
	gb_wait_state "$r" RUNNING 20
	# 1 GPU left on one node and 4 on the other: 5 split evenly over
	# two nodes is no shape, 4 on one node is.
	e=$(gb_submit -G 1-8 --wrap 'echo "$CUDA_VISIBLE_DEVICES" >gpus-$GBATCH_JOB_ID; sleep 300')
	gb_wait_state "$e" RUNNING 20
	[ "$(gq -h -j "$e" -o gpus)" = 4 ]
	gb_wait 10 test -s "gpus-$e"
	[ "$(cat "gpus-$e")" = 0,1,2,3 ]
	[ "$(gq -h -j "$e" -o nodes)" != "$(gq -h -j "$r" -o nodes)" ]
	# One GPU left: a job of 2-2 asks for exactly 2 and waits.
	t=$(gb_submit -G 2-2 --wrap 'sleep 300')
	gb_wait 10 gb_field_is "$t" reason Resources
	[ "$(gq -h -j "$t" -o gpus)" = 2 ]
	[ -z "$(gq -h -j "$t" -o gpus_range | tr -d ' -')" ]
	# Waiting, an elastic job shows its range.
	w=$(gb_submit -G 2-4 --wrap 'sleep 300')
	gb_wait 10 gb_field_is "$w" state PENDING
	[ "$(gq -h -j "$w" -o gpus)" = 2-4 ]
	# Its fewest may change within its range, not past its most.
	run -1 gctl update job "$w" GPUs=6
	[[ "$output" == *"job $w: 6 GPUs is more than its elastic range's most (gsub -G 2-4); expected 1 to 4"* ]]
	run -0 gctl update job "$w" GPUs=3
	[ "$(gq -h -j "$w" -o gpus)" = 3-4 ]
	gcancel "$r" "$e" "$t" "$w"
}

@test "#GSUB -G 1-4 in a script makes it elastic" {
	gb_start_controller
	gb_start_node n1 4
	printf '#!/bin/sh\n#GSUB -G 1-4\n#GSUB -J el\necho "$CUDA_VISIBLE_DEVICES" >gpus-$GBATCH_JOB_ID\n' >el.sh
	id=$(gb_submit el.sh)
	gb_wait_state "$id" COMPLETED 20
	[ "$(cat "gpus-$id")" = 0,1,2,3 ]
	[ "$(gacct -n -j "$id" -o gpus_range | tr -d ' ')" = 1-4 ]
}

@test "a running elastic job grows when GPUs free up and is shrunk for a higher job, keeping its id and its steps" {
	printf 'scheduler = {\n  thresholds = [ 2.0 ];\n  elastic_interval = 1;\n  elastic_overhead = 0;\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 8
	r=$(gb_submit -G 4 --wrap "until [ -e '$GB_DIR/go-r' ]; do sleep 0.05; done")
	gb_wait_state "$r" RUNNING 20
	# The example's loop, its GPUs said first; 100 steps of 0.1 s.
	printf '#!/bin/sh\necho "gpus $CUDA_VISIBLE_DEVICES"\nexec python3 %s/examples/train-ckpt.py --steps 1000 --step-time 0.1 --every 1000\n' "$S" >train.sh
	e=$(gb_submit -G 2-8 --ckpt-signal USR1 -o "$GB_DIR/e-%r.out" train.sh)
	gb_wait_state "$e" RUNNING 20
	[ "$(field "$e" gpus)" = 4 ]
	gb_wait 10 grep -q "step 3$" e-0.out
	grep -qx "gpus 4,5,6,7" e-0.out || grep -qx "gpus 0,1,2,3" e-0.out
	# The rigid job ends: its 4 GPUs free, e is stopped at its
	# checkpoint and restarts on all 8, its id kept, its steps going on.
	touch go-r
	gb_wait_state "$r" COMPLETED 20
	gb_wait 20 test -s e-1.out
	gb_wait 20 grep -q "^run 1: step" e-1.out
	grep -qx "gpus 0,1,2,3,4,5,6,7" e-1.out
	saved=$(sed -n 's/^run 0: checkpointed at step \([0-9]*\);.*/\1/p' e-0.out)
	[ -n "$saved" ]
	[ "$saved" -ge 3 ]
	grep -qx "run 1: starting at step $saved" e-1.out
	[ "$(field "$e" gpus)" = 8 ]
	[ "$(field "$e" resizes)" = 1 ]
	[ "$(field "$e" preemptions)" = 0 ]
	# A job of a higher queue (e is past Q0) takes 4 of them: e is
	# preempted whole and restarts on the 4 left, from its checkpoint.
	h=$(gb_submit -G 4 --wrap "until [ -e '$GB_DIR/go-h' ]; do sleep 0.05; done")
	gb_wait_state "$h" RUNNING 30
	gb_wait 20 grep -q "^run 2: step" e-2.out
	[ "$(field "$e" gpus)" = 4 ]
	[ "$(field "$e" preemptions)" = 1 ]
	saved2=$(sed -n 's/^run 1: checkpointed at step \([0-9]*\);.*/\1/p' e-1.out)
	[ "$saved2" -gt "$saved" ]
	grep -qx "run 2: starting at step $saved2" e-2.out
	# When h ends, e grows back to 8.
	touch go-h
	gb_wait_state "$h" COMPLETED 20
	gb_wait 20 grep -q "^run 3: step" e-3.out
	[ "$(field "$e" gpus)" = 8 ]
	[ "$(field "$e" resizes)" = 2 ]
	run -0 gq -l "$e"
	[[ "$output" == *$'\nresizes:'*' 2'* ]]
	gcancel "$e"
	gb_wait_state "$e" CANCELLED 20
	# Its record keeps them: gacct counts the resizes, and a run for
	# each count.
	[ "$(gacct -n -j "$e" -o resizes,gpus_range | tr -s ' \t' ' ')" = "2 2-8" ]
	runs=$(gacct -n -j "$e" -o runs | tr -d ' ')
	[ "$(awk -F/ '{ for (i = 1; i <= NF; i++) { sub(/^n1:/, "", $i); printf "%d ", split($i, g, ",") } }' <<<"$runs")" = "4 8 4 8 " ]
	# gctl shows the setting.
	run -0 gctl show config --json
	[[ "$output" == *'"elastic_interval": 1'* ]]
	[[ "$output" == *'"avoid_interference": true'* ]]
}

@test "a job's GBATCH_PROGRESS lines reach gq: the step time it said and the goodput its model expects; bad lines are skipped, logged once" {
	gb_start_controller
	gb_start_node n1 4
	# A good line, then two bad ones (not key=value; a step of a
	# billion seconds), then it waits.
	cat >prog.sh <<'EOF'
#!/bin/sh
echo "$GBATCH_PROGRESS" >path-$GBATCH_JOB_ID
echo "step_time=0.5 sync_time=0.1 local_bsz=32 samples=6400" >>"$GBATCH_PROGRESS"
echo "fast, honest" >>"$GBATCH_PROGRESS"
echo "step_time=1e9 sync_time=0 local_bsz=32" >>"$GBATCH_PROGRESS"
until [ -e go ]; do sleep 0.05; done
EOF
	id=$(gb_submit -G 2 prog.sh)
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -s "path-$id"
	[ "$(cat "path-$id")" = "$GB_DIR/node-n1/progress/$id" ]
	[ "$(stat -c %a "$GB_DIR/node-n1/progress/$id")" = 600 ]
	# One report on 2 GPUs of one node at 32 each: a step 0.5 s, so 2
	# steps of 64 samples a second, 128 (its first batch, all of it
	# useful: no gradient statistics).
	gb_wait 10 field_is "$id" step_time 0.500
	[ "$(gq -h -j "$id" -o goodput | tr -d ' ')" = 128 ]
	# The first bad line of the run is logged, the second is not.
	gb_wait 10 grep -q "job $id: a line of GBATCH_PROGRESS ignored: word 1 is not key=value" gnoded-n1.log
	[ "$(grep -c "job $id: a line of GBATCH_PROGRESS ignored" gnoded-n1.log)" = 1 ]
	touch go
	gb_wait_state "$id" COMPLETED 20
	# Its run over, the file is gone.
	gb_wait 10 test ! -e "$GB_DIR/node-n1/progress/$id"
	# A job that says nothing shows nothing.
	q=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$q" RUNNING 20
	[ "$(field "$q" step_time)" = - ]
	[ "$(field "$q" goodput)" = - ]
	gcancel "$q"
}

@test "gsub refuses what is not a range of GPUs, naming what it takes; gbatchd refuses the same sent straight" {
	gb_start_controller
	run -2 gsub -G 4-2 --wrap true
	[[ "$output" == *'--gpus: "4-2": expected MIN-MAX with 1 <= MIN <= MAX, such as 2-8'* ]]
	run -2 gsub -G 0-4 --wrap true
	[[ "$output" == *'"0-4": expected MIN-MAX with 1 <= MIN <= MAX'* ]]
	run -2 gsub -G 2-x --wrap true
	[[ "$output" == *'--gpus: expected a whole number from 0 to 65536, got "x"'* ]]
	run -2 gsub -G 2-8 --gpus-per-node 4 --wrap true
	[[ "$output" == *'expected -G MIN-MAX without --gpus-per-node or --gpus-per-task'* ]]
	run -2 gsub --gpus-per-task 1-2 -n 2 --wrap true
	[[ "$output" == *'"1-2" is a range; a range of GPUs (an elastic job) is -G MIN-MAX'* ]]
	run -2 gsub -N 2 -G 2-7 --wrap true
	[[ "$output" == *'-G 2-7: gpus_max: 7 GPUs do not split evenly over 2 nodes; expected a multiple of 2'* ]]
	[ -z "$(gq -h -t all -o id)" ]
	job='"script":"#!/bin/sh\ntrue\n","workdir":"/","hold":true'
	run -0 gb_rawask "{\"type\":200,\"job\":{$job,\"gpus\":4,\"gpus_max\":2}}" \
	    "{\"type\":200,\"job\":{$job,\"gpus\":0,\"gpus_max\":2}}" \
	    "{\"type\":200,\"job\":{$job,\"gpus\":2,\"gpus_max\":-1}}" \
	    "{\"type\":200,\"job\":{$job,\"gpus\":2,\"gpus_max\":4}}"
	python3 -c '
import json, sys
r = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(r) == 4, r
assert r[0]["ok"] is False and r[0]["message"] == "gpus_max: 2 is fewer than gpus, 4; expected 4 to 65536", r[0]
assert r[1]["ok"] is False and r[1]["message"].startswith("gpus_max: a job of no GPU does not grow"), r[1]
assert r[2]["ok"] is False and r[2]["message"] == "gpus_max: expected a whole number from 0 to 65536, got -1", r[2]
assert r[3]["ok"] is True, r[3]' "$output"
	[ "$(gq -h -t HELD -o gpus)" = 2-4 ]
}
