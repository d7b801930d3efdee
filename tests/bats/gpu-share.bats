#!/usr/bin/env bats
# Shared GPUs (gsub --gpu-share N, sbatch --gres=shard:N): a node offers
# each GPU in node.gpu_shards shards (gnoded --gpu-shards); jobs of shards
# run side by side on one GPU, each seeing it, and no job of whole GPUs is
# placed on a GPU while a shard of it is held. The packing rules are
# tests/unit/place-shard-test.c's and sched-shard-test.c's; this is what a
# user sees on a live cluster.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# A job that writes what it sees of its GPU to env-$1, then waits.
share_job() {
	local tag=$1; shift
	gb_submit "$@" --wrap "echo \"\$CUDA_VISIBLE_DEVICES \$GBATCH_GPU_SHARE \$GBATCH_GPU_SHARDS \$SLURM_SHARDS_ON_NODE\" > env-$tag.tmp && mv env-$tag.tmp env-$tag; exec sleep 1000"
}

# gnodes' GPU:JOB column for node $1.
node_jobs() {
	gnodes -h -N "$1" -o jobs | tr -d ' '
}

node_jobs_are() {
	[ "$(node_jobs "$1")" = "$2" ]
}

@test "two shard jobs share one GPU; a whole-GPU job waits until the last shard is given back" {
	gb_start_controller
	gb_start_node n1 1 --gpu-shards 4
	[ "$(gnodes -h -N n1 -o gpu_shards | tr -d ' ')" = 4 ]
	a=$(share_job a --gpu-share 2)
	b=$(share_job b --gres=shard:2)
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	gb_wait 20 test -f env-a
	gb_wait 20 test -f env-b
	# Both see GPU 0, and their share of its 4 shards (Slurm's name too).
	[ "$(cat env-a)" = "0 2 4 2" ]
	[ "$(cat env-b)" = "0 2 4 2" ]
	[ "$(gq -h -j "$a" -o gpu_share)" = 2 ]
	[ "$(gq -h -j "$b" -o gpu_share)" = 2 ]
	# gnodes lists both on GPU 0; the GPU counts as allocated once.
	node_jobs_are n1 "0:$a,$b"
	[ "$(gnodes -h -N n1 -o gpus | tr -d ' ')" = 1/1 ]
	# The 4 shards are held: a third shard job and a whole-GPU job wait.
	c=$(gb_submit -G 1 --wrap 'touch ran-c; exec sleep 1000')
	d=$(gb_submit --gpu-share 1 --wrap 'touch ran-d; exec sleep 1000')
	gb_wait 20 gb_field_is "$c" reason Resources
	gb_wait 20 gb_field_is "$d" reason Resources
	# One shard job leaves: the shard job fits beside the other; the
	# whole-GPU job still waits (a shard of the GPU is held).
	gcancel "$a"
	gb_wait_state "$d" RUNNING 20
	gb_state_is "$c" PENDING
	node_jobs_are n1 "0:$b,$d"
	gcancel "$b"
	gb_wait 20 node_jobs_are n1 "0:$d"
	gb_state_is "$c" PENDING
	[ ! -e ran-c ]
	# The last shard given back, the GPU is free again, and whole.
	gcancel "$d"
	gb_wait_state "$c" RUNNING 20
	gb_wait 20 test -f ran-c
	node_jobs_are n1 "0:$c"
	gcancel "$c"
}

@test "shard jobs go only to nodes that offer shards, packed onto the GPU already shared" {
	gb_start_controller
	gb_start_node n1 2
	gb_start_node n2 2 --gpu-shards 2
	a=$(share_job a --gpu-share 1)
	b=$(share_job b --gpu-share 1)
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	# Both on n2, on the same GPU; n1 offers no shards.
	[ "$(gq -h -j "$a" -o nodes)" = n2 ]
	[ "$(gq -h -j "$b" -o nodes)" = n2 ]
	gb_wait 20 test -f env-a
	gb_wait 20 test -f env-b
	[ "$(cut -d' ' -f1 env-a)" = "$(cut -d' ' -f1 env-b)" ]
	# The other GPU of n2 is still free for a whole-GPU job.
	c=$(gb_submit -G 1 -w n2 --wrap 'exec sleep 1000')
	gb_wait_state "$c" RUNNING 20
	gcancel "$a" "$b" "$c"
}

@test "gsub refuses shards that cannot be, naming what is accepted" {
	gb_start_controller
	run -2 gsub -G 2 --gpu-share 2 --wrap true
	[[ "$output" == *"gpu_share (gsub --gpu-share, --gres=shard:N): a job of several GPUs takes them whole; expected a rigid job of one GPU on one node"* ]]
	run -2 gsub --gpu-share 1 --time-slice --wrap true
	[[ "$output" == *"holds its GPU whole in its turn"* ]]
	run -2 gsub --gpu-share 65 --wrap true
	[[ "$output" == *"--gpu-share: expected a whole number from 1 to 64"* ]]
	run -2 gsub --gres=shard:0 --wrap true
	[[ "$output" == *"expected shard or shard:N with N a whole number from 1 to 64"* ]]
	# gbatchd checks the same for a request that does not come from gsub.
	run gb_rawask '{"type":200,"job":{"script":"true","workdir":"/tmp","gpus":2,"gpu_share":2}}'
	[[ "$output" == *'"ok":false'* ]]
	[[ "$output" == *"a job of several GPUs takes them whole"* ]]
	[ "$(gq -h -t all | wc -l)" = 0 ]
}
