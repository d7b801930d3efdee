#!/usr/bin/env bats
# nodes-chosen.bats: jobs that may run on some nodes only: gsub -w/--nodelist
# and -x/--exclude (sbatch's, with Slurm's n[1-3] lists), and GPU models
# (-G TYPE:N, sbatch's --gres=gpu:TYPE:N and --gpus=TYPE:N) matched against
# what each node's GPUs are called (simulated here with gnoded --gpu-model).
# Jobs end when the test says (a file appears), never after a sleep.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	gb_start_controller
	gb_start_node n1 2 --gpu-model "NVIDIA A100-SXM4-80GB"
	gb_start_node n2 2 --gpu-model "NVIDIA H100 80GB HBM3"
	gb_start_node n3 2 --gpu-model "NVIDIA A100-SXM4-80GB"
}

teardown() {
	gb_teardown
}

held() {
	gb_submit "$@" --wrap 'while [ ! -e go ]; do sleep 0.05; done'
}

nodes_of() {
	gq -h -t all -j "$1" -o nodes
}

@test "-w runs a job on the nodes named, -x away from them" {
	a=$(held -w n2)
	gb_wait_state "$a" RUNNING 20
	[ "$(nodes_of "$a")" = n2 ]
	[ "$(gq -h -j "$a" -o req_nodes)" = n2 ]
	b=$(held -x 'n[1-2]')
	gb_wait_state "$b" RUNNING 20
	[ "$(nodes_of "$b")" = n3 ]
	[ "$(gq -h -j "$b" -o exclude_nodes)" = n1,n2 ]
	# One GPU is left on each of n2 and n3, none of them a whole node;
	# n1 stays idle beside it.
	c=$(held --nodelist=n2,n3 -G 2 --consolidate)
	gb_wait 10 gb_state_is "$c" PENDING
	[ "$(gq -h -j "$c" -o reason)" = Resources ]
	d=$(held -G 2)
	gb_wait_state "$d" RUNNING 20
	[ "$(nodes_of "$d")" = n1 ]
	touch go
	gb_wait_state "$c" COMPLETED 30
	[[ "$(nodes_of "$c")" == n[23] ]]
}

@test "a GPU model: -G TYPE:N, --gres=gpu:TYPE:N and --gpus=TYPE:N" {
	run -0 gnodes -h -o name,gpu_model
	[ "$(echo "$output" | awk '{ $1 = $1; print }' | tr '\n' '|')" = "n1 NVIDIA A100-SXM4-80GB|n2 NVIDIA H100 80GB HBM3|n3 NVIDIA A100-SXM4-80GB|" ]
	a=$(held -G h100:2)
	gb_wait_state "$a" RUNNING 20
	[ "$(nodes_of "$a")" = n2 ]
	[ "$(gq -h -j "$a" -o gpu_type,gpus | awk '{ print $1, $2 }')" = "h100 2" ]
	printf '#!/bin/sh\n#SBATCH --gres=gpu:a100:4\ntrue\n' >s.sh
	b=$(gb_submit s.sh)
	gb_wait_state "$b" COMPLETED 20
	[ "$(nodes_of "$b")" = n1,n3 ]
	c=$(gb_submit --gpus=A100:1 --wrap true)
	gb_wait_state "$c" COMPLETED 20
	[[ "$(nodes_of "$c")" == n[13] ]]
	touch go
}

@test "unknown nodes and GPU models are refused at submit, naming them" {
	run -1 gsub -w n9 --wrap true
	[[ "$output" == *'nodelist: "n9" is not a node of this cluster (gnodes lists them)'* ]]
	run -1 gsub -x 'n[1-4]' --wrap true
	[[ "$output" == *'exclude: "n4" is not a node of this cluster'* ]]
	run -2 gsub -w 'n[1-' --wrap true
	[[ "$output" == "gsub: --nodelist: "*"one range list in brackets"* ]]
	run -1 gsub --gres=gpu:v100:1 --wrap true
	[[ "$output" == *'gpu_type: no node seen since gbatchd started has GPUs of type "v100"'* ]]
	run -2 gsub -G 'a1/00:1' --wrap true
	[[ "$output" == "gsub: --gpus: expected N or TYPE:N"* ]]
	[ -z "$(gq -h -t all -o id)" ]
	run -1 gnoded -C -n n4 --gpu-model 'bad/name'
	[[ "$output" == *"--gpu-model: expected a GPU model name"* ]]
}
