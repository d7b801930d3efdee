#!/usr/bin/env bats
# CPUs and memory beside GPUs on a real local cluster: nodes say what they
# have (gnoded --cpus, --memory-mb), jobs ask (-c, --cpus-per-gpu, --mem,
# --mem-per-gpu) or get the node's share per GPU; the scheduler places by
# all three, names the one that is short, gnodes shows them, the job sees
# what it got. CPU jobs (no GPU) take CPUs and memory alone, beside GPU
# jobs, and sbatch's jobs are CPU jobs unless they name GPUs.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

reason_is() {
	[ "$(gq -h -j "$1" -o reason)" = "$2" ]
}

state_is() {
	[ "$(gq -h -t all -j "$1" -o state)" = "$2" ]
}

node_col() {
	gnodes -h -o name,"$2" | awk -v n="$1" '$1 == n { print $2 }'
}

@test "nodes say their CPUs and memory; jobs hold their share, or what they ask, and see it" {
	gb_start_controller
	# 4 GPUs, 8 CPUs, 16 GB: a GPU's share is 2 CPUs and 4 GB.
	gb_start_node n1 4 --cpus 8 --memory-mb 16384
	[ "$(node_col n1 cpus)" = 0/8 ]
	[ "$(node_col n1 memory)" = 0/16G ]
	a=$(gb_submit -G 1 --wrap 'echo "cpus=$GBATCH_CPUS mem=$GBATCH_MEM_MB slurm=$SLURM_CPUS_ON_NODE/$SLURM_MEM_PER_NODE"; sleep 300')
	gb_wait_state "$a" RUNNING 20
	gb_wait 10 test -s "gbatch-$a.out"
	[ "$(cat "gbatch-$a.out")" = "cpus=2 mem=4096 slurm=2/4096" ]
	[ "$(node_col n1 cpus)" = 2/8 ]
	[ "$(node_col n1 memory)" = 4/16G ]
	# 6 more CPUs for one GPU: all the node has left.
	b=$(gb_submit -G 1 --cpus-per-gpu 6 --mem 2G --wrap 'sleep 300')
	gb_wait_state "$b" RUNNING 20
	[ "$(node_col n1 cpus)" = 8/8 ]
	[ "$(node_col n1 memory)" = 6/16G ]
	[ "$(gq -h -j "$b" -o cpus_per_gpu,mem | awk '{ print $1, $2 }')" = "6 2048" ]
	# Two GPUs are free, no CPU is: the job says so.
	c=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait 10 reason_is "$c" CPUs
	gnodes -h -o name,gpus | grep -q '^n1 *2/4$'
	gcancel "$a"
	gb_wait_state "$c" RUNNING 20
	# 6 CPUs free once b ends, but not 13 GB of memory beside them: c
	# holds 4 of the 16.
	gcancel "$b"
	gb_wait 10 eval '[ "$(node_col n1 cpus)" = 2/8 ]'
	d=$(gb_submit -G 1 -c 1 --mem 13G --wrap 'sleep 300')
	gb_wait 10 reason_is "$d" Memory
	gcancel "$c"
	gb_wait_state "$d" RUNNING 20
	[ "$(node_col n1 memory)" = 13/16G ]
}

@test "-c counts per task: one per node, K per node, or per GPU" {
	gb_start_controller
	gb_start_node n1 4 --cpus 16 --memory-mb 16384
	id=$(gb_submit -G 2 --ntasks-per-node gpu -c 3 --wrap 'echo "$RANK $GBATCH_CPUS"; sleep 300')
	gb_wait_state "$id" RUNNING 20
	[ "$(node_col n1 cpus)" = 6/16 ]
	gb_wait 10 eval '[ "$(wc -l <gbatch-'"$id"'.out)" -eq 2 ]'
	[ "$(sort "gbatch-$id.out" | paste -sd' ')" = "0 6 1 6" ]
	gcancel "$id"
	id=$(gb_submit -G 1 --ntasks-per-node 3 -c 2 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING 20
	[ "$(node_col n1 cpus)" = 6/16 ]
	[ "$(gq -h -j "$id" -o cpus_per_task)" = 2 ]
}

@test "what no node could give is refused at submit, and bad requests say what is accepted" {
	gb_start_controller
	gb_start_node n1 4 --cpus 8 --memory-mb 16384
	run -1 gsub --mem 32G --wrap true
	[[ "$output" == *"--mem 32768 MB: no node has that much memory (the most is 16384 MB)"* ]]
	run -1 gsub --cpus-per-gpu 9 --wrap true
	[[ "$output" == *"--cpus-per-gpu 9: no node has that many CPUs (the most is 8)"* ]]
	run -1 gsub -c 3 --ntasks-per-node 3 --wrap true
	[[ "$output" == *"-c 9: no node has that many CPUs"* ]]
	run -2 gsub --mem 16X --wrap true
	[[ "$output" == *'--mem: expected a size: a whole number with K, M (the default), G or T after it (16G, 512M), got "16X"'* ]]
	run -2 gsub -c 2 --cpus-per-gpu 2 --wrap true
	[[ "$output" == *"-c/--cpus-per-task and --cpus-per-gpu exclude each other"* ]]
	run -2 gsub --mem 1G --mem-per-gpu 1G --wrap true
	[[ "$output" == *"--mem and --mem-per-gpu exclude each other"* ]]
	run -1 gnoded --cpus 0 -C
	[[ "$output" == *"--cpus: expected a whole number 1-65536"* ]]
	# sbatch's spellings are the same options.
	id=$(gsub --parsable --hold --mem-per-gpu=512 --wrap true)
	[ "$(gq -h -j "$id" -o mem_per_gpu)" = 512 ]
}

# gpu_jobs NODE: the jobs gnodes shows on NODE's GPUs, sorted, once each.
gpu_jobs() {
	gnodes -h -N "$1" -o jobs | tr ' ' '\n' | sed -n 's/^[0-9]*://p' |
	    grep -v '^-$' | sort -u | paste -sd' '
}

@test "a CPU job runs beside GPU jobs on CPUs alone, never a GPU, and waits for CPUs" {
	# GPU jobs take 2 CPUs and 2 GB a GPU, not the node's share: CPUs
	# and memory are left for CPU jobs.
	printf 'scheduler = {\n  cpus_per_gpu = 2;\n  mem_per_gpu = 2048;\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 4 --cpus 16 --memory-mb 16384
	# Every GPU held, 8 of the 16 CPUs with them (2 a GPU).
	g=$(gb_submit -G 4 --wrap 'sleep 300')
	gb_wait_state "$g" RUNNING 20
	[ "$(node_col n1 cpus)" = 8/16 ]
	# A CPU job of 2 tasks x 3 CPUs starts beside it.
	c=$(gb_submit -G 0 -n 2 -c 3 --wrap 'echo "gpus=[$CUDA_VISIBLE_DEVICES] n=$GBATCH_GPUS cpus=$SLURM_CPUS_ON_NODE mem=$GBATCH_MEM_MB"; sleep 300')
	gb_wait_state "$c" RUNNING 20
	[ "$(node_col n1 cpus)" = 14/16 ]
	[ "$(node_col n1 gpus)" = 4/4 ]
	# The node's memory for 6 of its 16 CPUs: 6144 MB.
	gb_wait 10 test -s "gbatch-$c.out"
	[ "$(head -n 1 "gbatch-$c.out")" = "gpus=[] n=0 cpus=6 mem=6144" ]
	[ "$(gq -h -j "$c" -o gpus,nodes | awk '{ print $1, $2 }')" = "0 n1" ]
	# No GPU is the CPU job's; gnodes and gtop list it on its node.
	[ "$(gpu_jobs n1)" = "$g" ]
	[ "$(gnodes -h -N n1 -o cpu_jobs)" = "$c" ]
	run -0 gtop --once
	[[ "$output" == *"CPUs 14/16  mem 14/16G  CPU jobs $c"* ]]
	# 4 more CPUs are not free: it waits for CPUs, as a GPU job would.
	d=$(gb_submit -G 0 -c 4 --wrap 'sleep 300')
	gb_wait 10 reason_is "$d" CPUs
	gcancel "$c"
	gb_wait_state "$d" RUNNING 20
	[ "$(node_col n1 cpus)" = 12/16 ]
	[ "$(gnodes -h -N n1 -o cpu_jobs)" = "$d" ]
	# With the GPU job gone and only CPU jobs on it, the node is mixed,
	# not idle.
	gcancel "$g"
	gb_wait 10 eval '[ "$(node_col n1 gpus)" = 0/4 ]'
	[ "$(gnodes -h -N n1 -o state)" = mixed ]
}

@test "-G 0 and sbatch without GPUs are CPU jobs; what a CPU job cannot ask is refused" {
	gb_start_controller
	gb_start_node n1 4 --cpus 8 --memory-mb 16384
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
	id=$(gsub --parsable --hold --wrap true)
	[ "$(gq -h -j "$id" -o gpus)" = 1 ]
	id=$(sbatch --parsable --hold --wrap true)
	[ "$(gq -h -j "$id" -o gpus)" = 0 ]
	id=$(sbatch --parsable --hold -N 1 --gres=gpu:2 --wrap true)
	[ "$(gq -h -j "$id" -o gpus)" = 2 ]
	id=$(sbatch --parsable --hold --gpus=0 -n 4 --wrap true)
	[ "$(gq -h -j "$id" -o gpus,tasks_per_node | awk '{ print $1, $2 }')" = "0 4" ]
	# Slurm's views of a CPU job: no GRES, no gres/gpu in its TRES.
	[ "$(squeue -h -j "$id" -o %b)" = N/A ]
	[ "$(squeue -h -j "$id" -o %C)" = 4 ]
	run -0 scontrol show job "$id"
	[[ "$output" == *" TRES=cpu=4,node=1"$'\n'* ]]
	[[ "$output" != *TresPerJob* ]]
	# Refused before anything is sent, naming what a CPU job takes.
	run -2 gsub -G 0 --cpus-per-gpu 2 --wrap true
	[[ "$output" == *"--cpus-per-gpu with no GPU: a CPU job asks for CPUs with -c (per task) and memory with --mem (per node)"* ]]
	run -2 gsub -G 0 --ntasks-per-node gpu --wrap true
	[[ "$output" == *"--ntasks-per-node gpu with no GPU"* ]]
	# What no node has, by gbatchd.
	run -1 gsub -G 0 -n 9 --wrap true
	[[ "$output" == *"-n 9: no node has that many CPUs (the most is 8)"* ]]
	run -1 gsub -G 0 -N 2 --wrap true
	[[ "$output" == *"-N 2: the cluster has 1 node"* ]]
}
