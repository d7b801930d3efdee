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
	# Its GPUs are simulated: no MPS, and gnoded says why.
	grep -q "node n1: shared GPUs run without MPS: the GPUs are configured, not NVML's" "$GB_DIR/gnoded-n1.log"
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

# Whether the record of job $2's run on node $1 is its shepherd's (the
# job's pid in it) and gives share $3.
record_share_is() {
	gb_node_record "$1" "$2" run | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
sys.exit(0 if r.get("pid", 0) > 0 and r.get("gpu_share") == int(sys.argv[1]) else 1)' "$3"
}

@test "a gnoded restart keeps its shard jobs' shares: another still fits beside them on the GPU" {
	gb_start_controller
	gb_start_node n1 1 --gpu-shards 4
	a=$(share_job a --gpu-share 2)
	gb_wait_state "$a" RUNNING 20
	gb_wait 20 test -f env-a
	# The shepherd has written the run's record again, share and all.
	gb_wait 20 record_share_is n1 "$a" 2
	n=$(grep -c 'node n1: up from' "$GB_DIR/gbatchd.log")
	kill -9 "$GB_NODE_PID_n1"
	wait "$GB_NODE_PID_n1" 2>/dev/null || true
	gnoded -D -f "$GBATCH_CONF" -n n1 -g 1 -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-n1" -u "$GB_DIR/gnoded-n1.sock" \
	    -L "$GB_DIR/gnoded-n1.log" --gpu-shards 4 &
	GB_NODE_PIDS+=($!)
	gb_wait 30 eval '[ "$(grep -c "node n1: up from" "$GB_DIR/gbatchd.log")" -gt "$n" ]'
	grep -q "job $a: re-attached" "$GB_DIR/gnoded-n1.log"
	# The new gnoded knows a holds 2 of the GPU's 4 shards, not all of
	# it: a job of the other 2 starts beside it.
	b=$(share_job b --gpu-share 2)
	gb_wait_state "$b" RUNNING 20
	gb_wait 20 test -f env-b
	[ "$(cat env-b)" = "0 2 4 2" ]
	node_jobs_are n1 "0:$a,$b"
	gb_state_is "$a" RUNNING
	! grep -q "refused launch of job $b" "$GB_DIR/gnoded-n1.log"
	gcancel "$a" "$b"
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

# json_get EXPR: EXPR of the JSON on stdin (d), printed.
json_get() {
	python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"
}

# The GPU-seconds gacct(1) charges runs of user $1 that ended in [$2, $3),
# from the database: each run's seconds within the range x its GPUs, or
# x N/S for a run of N of its GPU's S shards ("*N/S" in its alloc), to
# the nearest thousandth and then the nearest GPU-second.
db_gpu_seconds() {
	python3 - "$GB_DIR/ctl/gbatch.db" "$@" <<'PY'
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
user, since, until = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
total = 0
for start, end, gpus, alloc in db.execute("SELECT start_time, end_time,"
        " gpus, alloc FROM job_runs WHERE user = ? AND end_time > ? AND"
        " start_time < ?", (user, since, until)):
    secs = min(end, until) - max(start, since)
    m = re.search(r"\*(\d+)/(\d+)$", alloc)
    if m:
        n, s = int(m.group(1)), int(m.group(2))
        total += ((secs * 1000 * n + s // 2) // s + 500) // 1000
    else:
        total += gpus * secs
print(total)
PY
}

@test "accounting charges a shard job its share of the GPU: the run's record, gacct --report and the job's GPU-seconds" {
	gb_start_controller
	gb_start_node n1 1 --gpu-shards 4
	me=$(id -un)
	t0=$(date +%s)
	a=$(gb_submit --gpu-share 2 --wrap 'sleep 4')
	b=$(gb_submit --gpu-share 1 --wrap 'sleep 4')
	gb_wait_state "$a" COMPLETED 30
	gb_wait_state "$b" COMPLETED 30
	# The runs' records name their shards: 2 and 1 of GPU 0's 4.
	[ "$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT alloc FROM job_runs WHERE job_id = $a")" = "n1:0x1*2/4" ]
	[ "$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT alloc FROM job_runs WHERE job_id = $b")" = "n1:0x1*1/4" ]
	# gacct's record of a's run gives them too.
	[ "$(gacct -j "$a" --json | json_get "[(p['node'], p['gpus'], p['share'], p['shards']) for p in d['jobs'][0]['runs'][0]['alloc']]")" = "[('n1', [0], 2, 4)]" ]
	gb_wait 5 eval "[ \$(date +%s) -gt \$(sqlite3 '$GB_DIR/ctl/gbatch.db' 'SELECT MAX(end_time) FROM job_runs') ]"
	t1=$(date +%s)
	# gacct --report charges each its share, not a whole GPU: the
	# user's, the node's and the cluster's figures.
	want=$(db_gpu_seconds "$me" "$t0" "$t1")
	whole=$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT SUM(end_time - start_time) FROM job_runs")
	[ "$whole" -ge 8 ]
	[ "$want" -lt "$whole" ]
	run -0 gacct --report users -S "@$t0" -E "@$t1" --json
	[ "$(json_get "[u['gpu_seconds'] for u in d['rows'] if u['user'] == '$me'][0]" <<<"$output")" = "$want" ]
	run -0 gacct --report cluster -S "@$t0" -E "@$t1" --json
	[ "$(json_get "d['rows'][0]['gpu_seconds']" <<<"$output")" = "$want" ]
	run -0 gacct --report nodes -S "@$t0" -E "@$t1" --json
	[ "$(json_get "[n['gpu_seconds'] for n in d['rows'] if n['node'] == 'n1'][0]" <<<"$output")" = "$want" ]
	# The job's own GPU-seconds (its attained service) are its share of
	# its run time (whole seconds): half of a's, a quarter of b's, not the
	# whole GPU's.
	for x in "$a:2" "$b:1"; do
		id=${x%:*} n=${x#*:}
		secs=$(sqlite3 "$GB_DIR/ctl/gbatch.db" "SELECT end_time - start_time FROM job_runs WHERE job_id = $id")
		got=$(gacct -j "$id" --json | json_get "d['jobs'][0]['attained']")
		python3 -c "import sys; got, secs, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]); assert abs(got - secs * n / 4) <= 1, (got, secs, n)" "$got" "$secs" "$n"
	done
}
