#!/usr/bin/env bats
# Partitions (gbatch.conf's partitions group), as a user and an admin meet
# them on a local cluster of two 4-GPU nodes: -p and the default, the
# limits that refuse a job at submit, a list taken in order, a higher tier
# first, and a reload that removes a partition or tightens its limits.
# The rules themselves are unit-tested (part.t, sched-part.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# parts_conf [GROUP TEXT]: the partitions group (the test's, or this one)
# after the rest of the file.
parts_conf() {
	local group=${1:-}

	if [ -z "$group" ]; then
		group='  gpu = { nodes = "n1"; default = true; max_time = "1:00:00";
    max_gpus_per_job = 4; };
  long = { nodes = "n2"; max_time = "2-00:00:00";
    default_time = "1-00:00:00"; };
  vip = { nodes = "n[1-2]"; accounts = ["vision"]; max_nodes_per_job = 1; };'
	fi
	gb_write_conf
	printf 'partitions = {\n%s\n};\n' "$group" >>"$GBATCH_CONF"
}

# field ID FIELD: one gq field of a job, whatever its state.
field() {
	gq -h -t all -j "$1" -o "$2"
}

# reason_is ID REASON: the job waits for that reason now.
reason_is() {
	[ "$(field "$1" reason)" = "$2" ]
}

# The script a job runs: where it ran, and the partition it was told.
where_script() {
	printf '#!/bin/sh\necho "$SLURMD_NODENAME $SLURM_JOB_PARTITION" >where-$GBATCH_JOB_ID\nexec sleep "${1:-0}"\n'
}

@test "-p picks the partition and its nodes; none: the default, with its time limit; gq shows and filters them" {
	parts_conf
	gb_start_cluster
	where_script >w.sh
	d=$(gb_submit -G 1 w.sh)
	l=$(gb_submit -G 1 -p long w.sh)
	gb_wait_state "$d" COMPLETED
	gb_wait_state "$l" COMPLETED
	[ "$(cat "where-$d")" = "n1 gpu" ]
	[ "$(cat "where-$l")" = "n2 long" ]
	[ "$(field "$d" partition)" = gpu ]
	[ "$(field "$l" partition)" = long ]
	# No -t: the partition's default_time, else its max_time.
	[ "$(field "$l" time_limit)" = 1-00:00:00 ]
	[ "$(field "$d" time_limit)" = 1:00:00 ]
	run -0 gq -h -t all -p long -o id
	[ "$output" = "$l" ]
	run -0 gq -h -t all -p gpu,vip -o id
	[ "$output" = "$d" ]
	run -2 gq -p 'gpu long'
	[[ "${lines[0]}" == "gq: --partition: expected partition names joined by ',', got \"gpu long\"" ]]
	# Nodes: their partitions, and those of some partitions.
	run -0 gnodes -h -o name,partitions
	[ "$output" = $'n1  gpu,vip\nn2  long,vip' ]
	run -0 gnodes -h -p long -o name
	[ "$output" = n2 ]
	run -0 gnodes -h -p gpu,long -o name
	[ "$output" = $'n1\nn2' ]
	run -1 gnodes -p gpx
	[ "$output" = 'gnodes: --partition: no partition "gpx" (the partitions: gpu, long, vip)' ]
	# Accounting keeps them: gacct shows and filters by partition.
	run -0 gacct -n -r long -o id,partition
	[ "$(echo $output)" = "$l long" ]
	run -0 gacct -n -r gpu,vip -o id
	[ "$(echo $output)" = "$d" ]
	run -2 gacct -r 'a b'
	[[ "${lines[0]}" == "gacct: --partition: expected partition names of 1 to 64 letters, digits, '.', '-' or '_', got \"a b\"" ]]
}

@test "a job no partition of its list takes is refused at submit, naming each limit; nothing is submitted" {
	parts_conf
	gb_start_cluster
	run -1 gsub -G 1 -t 2:00:00 --wrap true
	[ "$output" = "gsub: partition gpu does not take the job: the time limit 2:00:00 is over gpu's max_time 1:00:00" ]
	run -1 gsub -G 1 -t 3-00:00:00 -p gpu,long --wrap true
	[ "$output" = "gsub: no partition of gpu,long takes the job: the time limit 3-00:00:00 is over gpu's max_time 1:00:00; the time limit 3-00:00:00 is over long's max_time 2-00:00:00" ]
	run -1 gsub -G 8 -t 10 --wrap true
	[ "$output" = "gsub: partition gpu does not take the job: 8 GPUs is over gpu's max_gpus_per_job 4" ]
	run -1 gsub -G 1 -p vip --wrap true
	[ "$output" = "gsub: partition vip does not take the job: vip is for the accounts vision; give one with -A" ]
	run -1 gsub -N 2 --gpus-per-node 1 -p vip -A vision --wrap true
	[ "$output" = "gsub: partition vip does not take the job: 2 nodes is over vip's max_nodes_per_job 1" ]
	run -1 gsub -G 1 -p gpu -w n2 --wrap true
	[ "$output" = "gsub: partition gpu does not take the job: gpu does not hold the nodes n2" ]
	# Within every limit, yet more GPUs than the partitions' nodes have.
	run -1 gsub -G 5 -p long --wrap true
	[ "$output" = "gsub: 5 GPUs: partition long has 4 GPUs in all; ask for fewer, or another partition" ]
	run -1 gsub -G 5 -t 10 -p gpu,long --wrap true
	# gpu's cap refuses it, long has too few GPUs.
	[ "$output" = "gsub: 5 GPUs: the largest partition of gpu,long has 4 GPUs in all; ask for fewer, or another partition" ]
	run -1 gsub -G 1 -p nope --wrap true
	[ "$output" = 'gsub: partition "nope": no such partition; expected one of gpu, long, vip' ]
	run -2 gsub -G 1 -p 'a;b' --wrap true
	[[ "${lines[0]}" == "gsub: --partition: expected partition names of 1 to 64 letters, digits, '.', '-' or '_', joined by ',' (\"gpu,long\"), got \"a;b\"" ]]
	run -0 gq -h -t all -o id
	[ "$output" = "" ]
	# Given an account it may use, and a name the user typed: it runs.
	id=$(gb_submit -G 1 -p vip -A vision --wrap true)
	gb_wait_state "$id" COMPLETED
}

@test "a list of partitions runs in the first that holds the job, never across two" {
	parts_conf '  gpu = { nodes = "n1"; };
  long = { nodes = "n2"; };
  both = { nodes = "n[1-2]"; };'
	gb_start_cluster
	where_script >w.sh
	full=$(gb_submit -G 4 -p gpu w.sh 300)
	gb_wait_state "$full" RUNNING
	# gpu is full: the second of the list.
	l=$(gb_submit -G 2 -p gpu,long w.sh)
	gb_wait_state "$l" COMPLETED
	[ "$(cat "where-$l")" = "n2 long" ]
	# 2 + 2 GPUs free over gpu and long: neither holds 4, so it waits;
	# both, one partition of the two nodes, would.
	half=$(gb_submit -G 2 -p long w.sh 300)
	gb_wait_state "$half" RUNNING
	gcancel "$full"
	gb_wait_state "$full" CANCELLED
	held=$(gb_submit -G 2 -p gpu w.sh 300)
	gb_wait_state "$held" RUNNING
	wide=$(gb_submit -G 4 --any-shape -p gpu,long w.sh)
	gb_wait 10 reason_is "$wide" Resources
	b=$(gb_submit -G 4 --any-shape -p both w.sh)
	gb_wait_state "$b" COMPLETED
	[ "$(field "$wide" state)" = PENDING ]
	[ "$(field "$wide" reason)" = Resources ]
}

@test "a partition of a higher tier starts first, whatever was submitted before" {
	parts_conf '  low = { nodes = "n1"; default = true; };
  high = { nodes = "n1"; tier = 3; };'
	gb_start_cluster
	hold=$(gb_submit -G 4 --wrap "sleep 300")
	gb_wait_state "$hold" RUNNING
	a=$(gb_submit -G 4 --wrap "sleep 300")
	b=$(gb_submit -G 4 -p high --wrap "sleep 300")
	gb_wait 10 reason_is "$b" Resources
	gcancel "$hold"
	gb_wait_state "$b" RUNNING
	[ "$(field "$a" state)" = PENDING ]
}

@test "a reload that removes a partition keeps its running jobs, holds its pending ones with a reason, and says so" {
	parts_conf
	gb_start_cluster
	r=$(gb_submit -G 4 -p long --wrap "sleep 300")
	t=$(gb_submit -G 4 -t 50 --wrap "sleep 300")
	gb_wait_state "$r" RUNNING
	gb_wait_state "$t" RUNNING
	p=$(gb_submit -G 4 -p long --wrap "sleep 300")
	t2=$(gb_submit -G 1 -t 50 --wrap "sleep 300")
	# long and vip go; gpu keeps its node, its time limit down to 30
	# minutes.
	parts_conf '  gpu = { nodes = "n1"; default = true; max_time = 30; };'
	run -0 gctl reconfigure
	[[ "${lines[0]}" == "gbatchd read $GBATCH_CONF again: changed "*partitions.gpu*partitions.long*partitions.vip* ]]
	[ "${lines[1]}" = "1 running job ($r) ran in partitions no longer in the file: they keep running where they are" ]
	[ "${lines[2]}" = "2 pending jobs ($p, $t2): no partition they list takes them now; they wait until one does (gq -o reason says why)" ]
	gb_wait 10 reason_is "$p" PartitionConfig
	gb_wait 10 reason_is "$t2" PartitionTimeLimit
	[ "$(field "$r" state)" = RUNNING ]
	[ "$(field "$t" state)" = RUNNING ]
	grep -q "reconfigure: 1 running job ($r) ran in partitions no longer" "$GB_DIR/gbatchd.log"
	# The partitions back: the pending jobs run again.
	gcancel "$r" "$t"
	parts_conf
	run -0 gctl reconfigure
	gb_wait_state "$p" RUNNING
	gb_wait_state "$t2" RUNNING
}

@test "bad partitions in gbatch.conf stop gbatchd at start, and a reload keeps the ones in force" {
	parts_conf '  a = { default = true; };
  b = { default = true; };'
	run -1 gbatchd -f "$GBATCH_CONF" --check-config
	[[ "$output" == *"$GBATCH_CONF: line "*": partitions: a and b are both the default; expected default = true in one partition at most"* ]]
	parts_conf
	gb_start_cluster
	parts_conf '  gpu = { max_time = "forever"; };'
	run -1 gctl reconfigure
	[[ "$output" == *"partitions.gpu.max_time: "* ]]
	[[ "$output" == *"the settings in force are unchanged"* ]]
	run -0 gctl show config
	[[ "$output" == *'partitions.long = {"nodes":"n2","default":false,"default_time":86400,"max_time":172800,'* ]]
}

@test "gctl update job moves a waiting job to another partition; one that would not take it is refused, and nothing changes" {
	parts_conf
	gb_start_cluster
	full=$(gb_submit -G 4 --wrap "sleep 300")
	gb_wait_state "$full" RUNNING
	id=$(gb_submit -G 2 -t 30 --wrap "sleep 300")
	gb_wait 10 reason_is "$id" Resources
	run -1 gctl update job "$id" TimeLimit=3:00:00
	[[ "$output" == *"update: job $id: partition gpu takes it so: the time limit 3:00:00 is over gpu's max_time 1:00:00"* ]]
	run -1 gctl update job "$id" Partition=nope
	[[ "$output" == *'update: partition "nope": no such partition; expected one of gpu, long, vip'* ]]
	run -1 gctl update job "$id" Partition=vip
	[[ "$output" == *"update: job $id: partition vip takes it so: vip is for the accounts vision; give one with -A"* ]]
	[ "$(field "$id" partition)" = gpu ]
	[ "$(field "$id" time_limit)" = 30:00 ]
	run -0 gctl update job "$id" Partition=long TimeLimit=3:00:00
	gb_wait_state "$id" RUNNING
	[ "$(field "$id" nodes)" = n2 ]
	[ "$(field "$id" partition)" = long ]
	gq -l "$id" | grep -q 'partition gpu -> long, by root'
}
