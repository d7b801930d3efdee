#!/usr/bin/env bats
# Shapes and tasks on a real local cluster: -N with --gpus-per-node gets
# exactly that; a job that asks for no shape takes an even split or waits,
# --any-shape takes any; --ntasks-per-node starts the processes with the
# ranks torchrun would give them; a failing task stops the others; a
# preempted job's tasks all stop and all start again.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# Three 4-GPU nodes.
three_nodes() {
	gb_start_controller
	gb_start_node n1 4
	gb_start_node n2 4
	gb_start_node n3 4
}

# GPUs on each node of a job's allocation, "n1:2 n2:2", from gpu_ids.
per_node() {
	gq -h -t all -j "$1" -o gpu_ids | tr ';' '\n' |
	    awk -F: '{ print $1 ":" split($2, a, ",") }' | sort | paste -sd' '
}

# A task's environment in task-ID-RANK.env, then it waits for the file go.
task_script() {
	cat <<EOF
#!/bin/sh
f="$GB_DIR/task-\$GBATCH_JOB_ID-\$RANK.env"
env | grep -E '^(RANK|LOCAL_RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|NODE_RANK|GROUP_RANK|MASTER_ADDR|MASTER_PORT|CUDA_VISIBLE_DEVICES|SLURM_PROCID|SLURM_LOCALID|SLURM_NTASKS|SLURM_NTASKS_PER_NODE|SLURMD_NODENAME|GBATCH_RESTART_COUNT)=' | sort >"\$f.tmp"
echo "PID=\$\$" >>"\$f.tmp"
mv "\$f.tmp" "\$f"
echo "rank \$RANK says hello"
until [ -e "$GB_DIR/go-\$GBATCH_JOB_ID" ]; do
	[ -e "$GB_DIR/fail-\$GBATCH_JOB_ID-\$RANK" ] && exit 5
	sleep 0.05
done
EOF
}

reason_is() {
	[ "$(gq -h -j "$1" -o reason)" = "$2" ]
}

# var FILE NAME: the value of NAME in a task's env file.
var() {
	sed -n "s/^$2=//p" "$1"
}

@test "-N with --gpus-per-node gets exactly that shape; one no node set can hold is refused" {
	three_nodes
	id=$(gb_submit -N 2 --gpus-per-node 2 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING 20
	[ "$(per_node "$id" | wc -w)" -eq 2 ]
	[[ "$(per_node "$id")" =~ ^n[123]:2\ n[123]:2$ ]]
	[ "$(gq -h -j "$id" -o gpus,num_nodes | awk '{ print $1, $2 }')" = "4 2" ]
	# -N alone: a GPU on each.
	id2=$(gb_submit -N 3 --wrap 'sleep 300')
	gb_wait_state "$id2" RUNNING 20
	[ "$(per_node "$id2")" = "n1:1 n2:1 n3:1" ]
	# -G with --gpus-per-node: the nodes follow.
	held=$(gb_submit --hold -G 8 --gpus-per-node 4 --wrap true)
	[ "$(gq -h -j "$held" -o gpus,num_nodes | awk '{ print $1, $2 }')" = "8 2" ]
	run -1 gsub -N 4 --gpus-per-node 2 --wrap true
	[[ "$output" == *"-N 4 with 2 GPUs each: the cluster has 3 nodes with 2 GPUs or more"* ]]
	run -1 gsub -N 2 --gpus-per-node 5 --wrap true
	[[ "$output" == *"the cluster has 0 nodes with 5 GPUs or more"* ]]
}

@test "a job that asks for no shape takes an even split, or waits for one; --any-shape does not" {
	three_nodes
	# 2 GPUs held on one node leave 2, 4, 4 free.
	a=$(gb_submit -G 2 --wrap 'sleep 300')
	gb_wait_state "$a" RUNNING 20
	# 9 GPUs: 3 x 3 needs three nodes with 3 free; it waits.
	b=$(gb_submit -G 9 --wrap 'sleep 300')
	gb_wait 10 reason_is "$b" Resources
	[ "$(gb_state "$b")" = PENDING ]
	# The same with --any-shape starts at once on 4 + 4 + 1.
	c=$(gb_submit -G 9 --any-shape --wrap 'sleep 300')
	gb_wait_state "$c" RUNNING 20
	[ "$(per_node "$c" | tr ' ' '\n' | cut -d: -f2 | sort -n | paste -sd' ')" = "1 4 4" ]
	gcancel "$a" "$c"
	gb_wait_state "$b" RUNNING 20
	[ "$(per_node "$b")" = "n1:3 n2:3 n3:3" ]
	gcancel "$b"
	# 8 on idle 4-GPU nodes: two whole nodes, never 4 + 2 + 2.
	d=$(gb_submit -G 8 --wrap 'sleep 300')
	gb_wait_state "$d" RUNNING 20
	[ "$(per_node "$d" | tr ' ' '\n' | cut -d: -f2 | paste -sd' ')" = "4 4" ]
	# 7 has no even split three 4-GPU nodes can ever hold.
	run -1 gsub -G 7 --wrap true
	[[ "$output" == *"--gpus 7: no even split of them fits the cluster's 3 nodes"*"--any-shape"* ]]
	run -0 gsub --any-shape -G 7 --hold --wrap true
}

@test "--ntasks-per-node gpu starts a process per GPU with torchrun's ranks, each its own GPU" {
	gb_start_cluster
	task_script >task.sh
	id=$(gb_submit -N 2 --gpus-per-node 2 --ntasks-per-node gpu -o 'out-%t.txt' task.sh)
	for r in 0 1 2 3; do gb_wait 20 test -e "task-$id-$r.env"; done
	[ "$(gq -h -j "$id" -o tasks_per_node)" = gpu ]
	port=$(var "task-$id-0.env" MASTER_PORT)
	addr=$(var "task-$id-0.env" MASTER_ADDR)
	[ -n "$port" ]
	[ -n "$addr" ]
	for r in 0 1 2 3; do
		f=task-$id-$r.env
		[ "$(var "$f" RANK)" = "$r" ]
		[ "$(var "$f" SLURM_PROCID)" = "$r" ]
		[ "$(var "$f" LOCAL_RANK)" = "$((r % 2))" ]
		[ "$(var "$f" SLURM_LOCALID)" = "$((r % 2))" ]
		[ "$(var "$f" NODE_RANK)" = "$((r / 2))" ]
		[ "$(var "$f" GROUP_RANK)" = "$((r / 2))" ]
		[ "$(var "$f" WORLD_SIZE)" = 4 ]
		[ "$(var "$f" SLURM_NTASKS)" = 4 ]
		[ "$(var "$f" LOCAL_WORLD_SIZE)" = 2 ]
		[ "$(var "$f" SLURM_NTASKS_PER_NODE)" = 2 ]
		[ "$(var "$f" MASTER_PORT)" = "$port" ]
		[ "$(var "$f" MASTER_ADDR)" = "$addr" ]
		# One GPU each, of its node's part.
		[[ "$(var "$f" CUDA_VISIBLE_DEVICES)" =~ ^[0-3]$ ]]
	done
	# The two tasks of a node see different GPUs, those of its part.
	for n in 0 1; do
		node=$(var "task-$id-$((2 * n)).env" SLURMD_NODENAME)
		mine=$(gq -h -j "$id" -o gpu_ids | tr ';' '\n' | sed -n "s/^$node://p")
		got=$(for r in $((2 * n)) $((2 * n + 1)); do var "task-$id-$r.env" CUDA_VISIBLE_DEVICES; done | sort -n | paste -sd,)
		[ "$got" = "$mine" ]
	done
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 20
	# %t: a file per task.
	for r in 0 1 2 3; do [ "$(cat "out-$r.txt")" = "rank $r says hello" ]; done
}

@test "--ntasks-per-node K on one node, --gpu-bind=none, and -n; tasks share one output file" {
	gb_start_cluster
	task_script >task.sh
	id=$(gb_submit -G 2 --ntasks-per-node 3 -o shared.out task.sh)
	for r in 0 1 2; do gb_wait 20 test -e "task-$id-$r.env"; done
	for r in 0 1 2; do
		[ "$(var "task-$id-$r.env" LOCAL_RANK)" = "$r" ]
		[ "$(var "task-$id-$r.env" WORLD_SIZE)" = 3 ]
		[ "$(var "task-$id-$r.env" LOCAL_WORLD_SIZE)" = 3 ]
		# K tasks share the node's GPUs.
		[[ "$(var "task-$id-$r.env" CUDA_VISIBLE_DEVICES)" =~ ^[0-3],[0-3]$ ]]
	done
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 20
	[ "$(sort shared.out | paste -sd/)" = "rank 0 says hello/rank 1 says hello/rank 2 says hello" ]
	# --gpu-bind=none: a task per GPU that sees them all.
	id=$(gb_submit -G 2 --ntasks-per-node gpu --gpu-bind=none task.sh)
	for r in 0 1; do gb_wait 20 test -e "task-$id-$r.env"; done
	for r in 0 1; do
		[[ "$(var "task-$id-$r.env" CUDA_VISIBLE_DEVICES)" =~ ^[0-3],[0-3]$ ]]
	done
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 20
	# sbatch's -n 8 -N 2: four tasks on each node.
	id=$(gb_submit -n 8 -N 2 -G 2 task.sh)
	[ "$(gq -h -j "$id" -o tasks_per_node)" = 4 ]
	for r in 0 1 2 3 4 5 6 7; do gb_wait 20 test -e "task-$id-$r.env"; done
	[ "$(var "task-$id-7.env" NODE_RANK)" = 1 ]
	[ "$(var "task-$id-7.env" LOCAL_RANK)" = 3 ]
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 20
}

@test "a failing task stops the others, and the job fails as that task did" {
	gb_start_cluster
	task_script >task.sh
	id=$(gb_submit -N 2 --gpus-per-node 2 --ntasks-per-node gpu task.sh)
	for r in 0 1 2 3; do gb_wait 20 test -e "task-$id-$r.env"; done
	touch "fail-$id-3"
	gb_wait_state "$id" FAILED 30
	[ "$(gq -h -t all -j "$id" -o exit_code)" = 5 ]
	run -0 gq -l "$id"
	[[ "$output" == *"task 1 (rank 3) exited with status 5"* ]]
	# No task is left running, on either node.
	for r in 0 1 2; do
		pid=$(var "task-$id-$r.env" PID)
		gb_wait 10 bash -c "! kill -0 $pid"
	done
}

@test "a preempted job's tasks all stop, and all start again on its next run" {
	gb_start_cluster
	task_script >task.sh
	id=$(gb_submit -G 2 --ntasks-per-node gpu --ckpt-grace 0 task.sh)
	for r in 0 1; do gb_wait 20 test -e "task-$id-$r.env"; done
	old0=$(var "task-$id-0.env" PID)
	old1=$(var "task-$id-1.env" PID)
	rm -f task-"$id"-*.env
	gctl requeue "$id"
	for r in 0 1; do gb_wait 30 test -e "task-$id-$r.env"; done
	for r in 0 1; do [ "$(var "task-$id-$r.env" GBATCH_RESTART_COUNT)" = 1 ]; done
	! kill -0 "$old0" 2>/dev/null
	! kill -0 "$old1" 2>/dev/null
	touch "go-$id"
	gb_wait_state "$id" COMPLETED 20
}

# port_of ID: the MASTER_PORT a running job's first task saw.
port_of() {
	var "task-$1-0.env" MASTER_PORT
}

@test "gangs sharing a first node never get the same MASTER_PORT, across a restart too" {
	# Three ports: ids 1 and 4 start from the same one (1 % 3 = 4 % 3).
	gb_write_conf 'master_ports = "29500-29502";'
	gb_start_cluster
	task_script >task.sh
	a=$(gb_submit -N 2 --gpus-per-node 1 task.sh)
	gb_wait 20 test -e "task-$a-0.env"
	for i in 2 3; do gcancel "$(gb_submit --hold --wrap true)"; done
	b=$(gb_submit -N 2 --gpus-per-node 1 task.sh)
	[ "$a" = 1 ]
	[ "$b" = 4 ]
	gb_wait 20 test -e "task-$b-0.env"
	# Both start on n1 (rank 0 there), each with a port of its own.
	[ "$(var "task-$a-0.env" SLURMD_NODENAME)" = n1 ]
	[ "$(var "task-$b-0.env" SLURMD_NODENAME)" = n1 ]
	[ "$(port_of "$a")" = 29501 ]
	[ "$(port_of "$b")" = 29502 ]
	[ "$(gq -h -j "$b" -o master_port)" = 29502 ]
	# gbatchd restarts: the ports held stay held. Job 5 starts from
	# 29502 (b's) and 29500 is the next free.
	gctl shutdown >/dev/null
	wait "$GB_CTL_PID" || true
	gb_start_controller
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 gb_node_is_up n2
	gb_wait 10 gb_state_is "$b" RUNNING
	c=$(gb_submit -N 2 --gpus-per-node 1 task.sh)
	[ "$c" = 5 ]
	gb_wait 20 test -e "task-$c-0.env"
	[ "$(port_of "$c")" = 29500 ]
	# A port is free again once its job has ended.
	touch "go-$a"
	gb_wait_state "$a" COMPLETED 20
	[ "$(gq -h -t all -j "$a" -o master_port)" = 0 ]
	d=$(gb_submit -N 2 --gpus-per-node 1 task.sh)
	gb_wait 20 test -e "task-$d-0.env"
	[ "$(port_of "$d")" = 29501 ]
	# A range that is none is refused, saying what is accepted.
	gb_write_conf 'master_ports = "30000-2000";'
	run gbatchd -C -f "$GBATCH_CONF"
	[ "$status" -ne 0 ]
	[[ "$output" == *"controller.master_ports: expected LOW-HIGH, ports from 1024 to 65535"*'got "30000-2000"'* ]]
}
