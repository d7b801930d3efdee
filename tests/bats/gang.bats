#!/usr/bin/env bats
# Multi-node gang jobs on a real local cluster of two 4-GPU nodes: all parts
# start at once with consistent rank variables; a part that fails or is
# killed stops the others; the parts share one output file, or write one
# each with %t or %N. Which part a gang ends as, and what a lost node or a
# kill means for it, are gang.t's rules; node-return.bats has a gang losing
# a node end to end.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# The environment a part sees, one file per rank, written before it waits
# for the file go (or forever).
part_script() {
	cat <<EOF
#!/bin/sh
f="$GB_DIR/part-\$GBATCH_JOB_ID-\$GBATCH_NODE_RANK"
env | grep -E '^(GBATCH_|CUDA_VISIBLE_DEVICES|MASTER_|RANK=|NODE_RANK=|GROUP_RANK=|WORLD_SIZE=|LOCAL_)' | sort >"\$f.tmp"
echo "PID=\$\$" >>"\$f.tmp"
mv "\$f.tmp" "\$f"
until [ -e "$GB_DIR/go" ]; do
	[ -e "$GB_DIR/fail-\$GBATCH_NODE_RANK" ] && exit 3
	sleep 0.05
done
exit \${1:-0}
EOF
}

# lines_script N: every part prints N lines tagged with its rank, one
# write each, once both parts have started, so that their writes overlap.
lines_script() {
	cat <<EOF
#!/bin/sh
touch "$GB_DIR/ready-\$GBATCH_JOB_ID-\$GBATCH_NODE_RANK"
until [ -e "$GB_DIR/go-\$GBATCH_JOB_ID" ]; do sleep 0.02; done
i=1
while [ \$i -le $1 ]; do
	echo "rank \$GBATCH_NODE_RANK line \$i of $1"
	i=\$((i + 1))
done
EOF
}

# run_lines N GSUB_ARGS...: submits lines_script N as an 8-GPU job, lets
# both parts print at once and waits for the job to complete; its id is
# left in $id.
run_lines() {
	local n=$1
	shift
	lines_script "$n" >lines.sh
	id=$(gb_submit -G 8 "$@" lines.sh)
	gb_wait 20 test -e "ready-$id-0"
	gb_wait 20 test -e "ready-$id-1"
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 30
	[ "$(gq -h -t all -j "$id" -o nodes)" = "n1,n2" ]
}

# rank_lines_are FILE RANK N: FILE holds rank RANK's N lines, whole and in
# order.
rank_lines_are() {
	diff <(grep "^rank $2 " "$1") \
	    <(seq 1 "$3" | sed "s/.*/rank $2 line & of $3/") >lines.diff ||
	    { head -n 20 lines.diff; return 1; }
}

@test "the parts of a multi-node job append to one shared file: no line lost or cut" {
	gb_start_cluster
	# A file of the same name is appended to, as Slurm's
	# --open-mode=append does (docs/job-files.md).
	echo stale >shared.out
	run_lines 3000 -o shared.out
	rank_lines_are shared.out 0 3000
	rank_lines_are shared.out 1 3000
	[ "$(head -n 1 shared.out)" = stale ]
	# Nothing else: every other line is whole.
	[ "$(wc -l <shared.out)" -eq 6001 ]
	# Rank 0 removed the checkpoint directory the job left empty.
	[ ! -e .gbatch ]
}

@test "-o with %t or %N gives every part a file of its own" {
	gb_start_cluster
	echo stale >out-0.txt
	run_lines 500 -o 'out-%t.txt' -e 'err-%N.txt'
	rank_lines_are out-0.txt 0 500
	rank_lines_are out-1.txt 1 500
	# A part's own file is truncated on the job's first run.
	[ "$(wc -l <out-0.txt)" -eq 500 ]
	[ "$(wc -l <out-1.txt)" -eq 500 ]
	[ -e err-n1.txt ]
	[ -e err-n2.txt ]
	# %N names the node: rank 0 ran on n1.
	run_lines 500 -o 'node-%j-%N.txt'
	rank_lines_are "node-$id-n1.txt" 0 500
	rank_lines_are "node-$id-n2.txt" 1 500
	[ "$(wc -l <"node-$id-n1.txt")" -eq 500 ]
	[ "$(wc -l <"node-$id-n2.txt")" -eq 500 ]
}

@test "an 8-GPU job on two 4-GPU nodes starts on both at once with consistent ranks" {
	gb_start_cluster
	part_script >part.sh
	id=$(gb_submit -G 8 part.sh)
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -e "part-$id-0"
	gb_wait 10 test -e "part-$id-1"
	[ "$(gq -h -j "$id" -o nodes)" = "n1,n2" ]
	[ "$(gq -h -j "$id" -o gpu_ids)" = "n1:0,1,2,3;n2:0,1,2,3" ]
	for r in 0 1; do
		grep -qx "GBATCH_NODE_RANK=$r" "part-$id-$r"
		grep -qx "GBATCH_NUM_NODES=2" "part-$id-$r"
		grep -qx "GBATCH_NODELIST=n1,n2" "part-$id-$r"
		grep -qx "CUDA_VISIBLE_DEVICES=0,1,2,3" "part-$id-$r"
		grep -qx "GBATCH_GPUS=4" "part-$id-$r" || grep -qx "GBATCH_GPUS=8" "part-$id-$r"
		grep -q "^MASTER_ADDR=." "part-$id-$r"
		grep -q "^MASTER_PORT=[0-9]" "part-$id-$r"
		# torch.distributed's env://, one process per node.
		grep -qx "RANK=$r" "part-$id-$r"
		grep -qx "NODE_RANK=$r" "part-$id-$r"
		grep -qx "GROUP_RANK=$r" "part-$id-$r"
		grep -qx "WORLD_SIZE=2" "part-$id-$r"
		grep -qx "LOCAL_RANK=0" "part-$id-$r"
		grep -qx "LOCAL_WORLD_SIZE=1" "part-$id-$r"
	done
	# Both parts agree on the rendezvous.
	[ "$(grep ^MASTER_ "part-$id-0")" = "$(grep ^MASTER_ "part-$id-1")" ]
	# The gang holds every GPU: nothing else starts.
	other=$(gb_submit -G 1 --wrap true)
	gb_wait 10 eval "[ \"\$(gq -h -j $other -o reason)\" = Resources ]"
	touch go
	gb_wait_state "$id" COMPLETED 20
	gb_wait_state "$other" COMPLETED 20
}

@test "killing one part stops the other and requeues the job, which runs again" {
	gb_start_cluster
	part_script >part.sh
	id=$(gb_submit -G 8 -o "$GB_DIR/gang-%r.out" part.sh)
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -e "part-$id-0"
	gb_wait 10 test -e "part-$id-1"
	first0=$(sed -n 's/^PID=//p' "part-$id-0")
	rm "part-$id-0"
	kill -KILL "$(sed -n 's/^PID=//p' "part-$id-1")"
	# Rank 0 is stopped, and the gang starts again as a whole.
	gb_wait 20 eval "[ \"\$(gq -h -j $id -o restarts)\" = 1 ]"
	run ! kill -0 "$first0" 2>/dev/null
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -e "part-$id-0"
	grep -qx "GBATCH_RESTART_COUNT=1" "part-$id-0"
	touch go
	gb_wait_state "$id" COMPLETED 20
}

@test "a part that fails stops the others and the gang fails as that part did" {
	gb_start_cluster
	part_script >part.sh
	id=$(gb_submit -G 8 part.sh)
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -e "part-$id-0"
	gb_wait 10 test -e "part-$id-1"
	touch fail-1
	gb_wait_state "$id" FAILED 30
	run -0 gq -h -t all -j "$id" -o message,exit_code
	[[ "$output" == *"rank 1 on n2 ended FAILED"*" 3" ]]
	# No part runs on: every GPU is free again.
	gb_wait 10 eval "[ \"\$(gnodes -h -o gpus | sort -u)\" = 0/4 ]"
	run ! kill -0 "$(sed -n 's/^PID=//p' "part-$id-0")" 2>/dev/null
}

@test "a job spans nodes when GPUs are scattered; gsub --consolidate waits instead" {
	gb_start_cluster
	a=$(gb_submit -G 3 --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	b=$(gb_submit -G 3 --wrap 'sleep 30')
	gb_wait_state "$b" RUNNING 20
	# One GPU is free on each node.
	[ "$(gq -h -j "$a" -o nodes)" != "$(gq -h -j "$b" -o nodes)" ]
	c=$(gb_submit -G 2 --consolidate --wrap 'sleep 30')
	d=$(gb_submit -G 2 --wrap 'sleep 30')
	gb_wait_state "$d" RUNNING 20
	[ "$(gq -h -j "$d" -o nodes)" = "n1,n2" ]
	[ "$(gb_state "$c")" = PENDING ]
	[ "$(gq -h -j "$c" -o reason)" = Resources ]
	# Once a node frees up, c gets one node to itself.
	gcancel "$a"
	gb_wait_state "$c" RUNNING 20
	[[ "$(gq -h -j "$c" -o nodes)" != *,* ]]
}

@test "a gang is kept under one switch when one has room" {
	gb_start_controller
	gb_start_node n1 4 --switch rackA
	gb_start_node n2 4 --switch rackB
	gb_start_node n3 4 --switch rackA
	[ "$(gnodes -h -N n2 -o switch)" = rackB ]
	id=$(gb_submit -G 8 --wrap 'sleep 30')
	gb_wait_state "$id" RUNNING 20
	[ "$(gq -h -j "$id" -o nodes)" = "n1,n3" ]
	run -2 gnoded -D -n n4 -g 1 --switch 'rack A' -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n4"
	[[ "$output" == *"--switch: expected 1-64 letters"* ]]
}

@test "gsub --spread takes the emptiest node where consolidation would pack" {
	gb_start_cluster
	a=$(gb_submit -G 1 --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	b=$(gb_submit -G 1 --wrap 'sleep 30')
	gb_wait_state "$b" RUNNING 20
	# Best fit packs b beside a.
	[ "$(gq -h -j "$b" -o nodes)" = "$(gq -h -j "$a" -o nodes)" ]
	c=$(gb_submit -G 1 --spread --wrap 'sleep 30')
	gb_wait_state "$c" RUNNING 20
	[ "$(gq -h -j "$c" -o nodes)" != "$(gq -h -j "$a" -o nodes)" ]
}
