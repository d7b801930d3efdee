#!/usr/bin/env bats
# A distributed program nobody here wrote: torch.distributed, Debian's
# python3-torch with the gloo backend on CPU tensors, rendezvous through
# env:// from the variables gnoded gives each task, none mapped by hand.
# The local cluster's nodes share this machine, so the "network" is
# loopback, but every rank still finds the others through MASTER_ADDR and
# MASTER_PORT as it would across machines. Each test's job is job 1, whose
# MASTER_PORT is 20001: two copies of this file run at once on one machine
# would meet there.

load helpers

# Debian's python3-torch installs for Debian's python3 only; a python3
# earlier on PATH (pyenv, a venv) would not see it.
PY=/usr/bin/python3

setup() {
	bats_require_minimum_version 1.5.0
	"$PY" -c 'import torch.distributed as d; assert d.is_gloo_available()' \
	    2>/dev/null ||
	    skip "python3-torch is not installed (tools/deps test installs it)"
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# allreduce_script [FAIL_RANK]: each rank joins the group from env:// alone,
# all-reduces rank + 1 and prints what it got. FAIL_RANK, if given, leaves
# with status 3 right after joining instead, and the others all-reduce only
# once it is gone (reaped by its shepherd: /proc has no entry for it left),
# so its failure comes first, not in a race with theirs, which its loss
# causes (a shepherd that wakes late would find both dead at once).
allreduce_script() {
	cat <<EOF
#!$PY
import os
import sys
import time
import torch
import torch.distributed as dist

dist.init_process_group(backend="gloo", init_method="env://")
rank, world = dist.get_rank(), dist.get_world_size()
fail = ${1:--1}
if rank == fail:
    with open("failed.pid.tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename("failed.pid.tmp", "failed.pid")
    sys.exit(3)
deadline = time.monotonic() + 60
while fail >= 0 and time.monotonic() < deadline:
    try:
        with open("failed.pid") as f:
            if not os.path.exists("/proc/" + f.read()):
                break
    except OSError:
        pass
    time.sleep(0.02)
t = torch.tensor([rank + 1])
dist.all_reduce(t)
print("allreduce rank=%d world=%d sum=%d" % (rank, world, t.item()), flush=True)
dist.destroy_process_group()
EOF
}

# result R: what rank R printed into its own output file, torch-R.out.
result() {
	sed -n 's/^allreduce //p' "torch-$1.out"
}

@test "torch.distributed all_reduce over 2 nodes x 2 tasks through env://" {
	gb_start_cluster
	allreduce_script >allreduce.py
	id=$(gb_submit -t 2 -N 2 --gpus-per-node 2 --ntasks-per-node gpu \
	    -o 'torch-%t.out' allreduce.py)
	gb_wait_state "$id" COMPLETED 90 || {
		gq -l "$id"; tail -n 20 torch-*.out; false
	}
	for r in 0 1 2 3; do
		[ "$(result "$r")" = "rank=$r world=4 sum=10" ]
	done
	[ "$(gq -h -t all -j "$id" -o exit_code)" = 0 ]
}

@test "torch.distributed all_reduce over 1 node x 2 tasks through env://" {
	gb_start_cluster
	allreduce_script >allreduce.py
	id=$(gb_submit -t 2 -G 2 --ntasks-per-node gpu -o 'torch-%t.out' \
	    allreduce.py)
	gb_wait_state "$id" COMPLETED 90 || {
		gq -l "$id"; tail -n 20 torch-*.out; false
	}
	for r in 0 1; do
		[ "$(result "$r")" = "rank=$r world=2 sum=3" ]
	done
}

@test "a rank that exits after joining the group fails the job, with its status" {
	gb_start_cluster
	# Rank 1, on the first node: the others fail too once their
	# all_reduce loses it, and a gang's end is its first failed part's,
	# in node order, not the first to fail in time. Rank 3 would race
	# rank 1's own "Connection closed by peer" failure.
	allreduce_script 1 >allreduce.py
	id=$(gb_submit -t 2 -N 2 --gpus-per-node 2 --ntasks-per-node gpu \
	    -o 'torch-%t.out' allreduce.py)
	gb_wait_state "$id" FAILED 90 || {
		gq -l "$id"; tail -n 20 torch-*.out; false
	}
	[ "$(gq -h -t all -j "$id" -o exit_code)" = 3 ] || {
		gq -l "$id"; tail -n 20 torch-*.out; false
	}
	run -0 gq -l "$id"
	[[ "$output" == *"rank 0 on "*" ended FAILED: task 1 (rank 1) exited with status 3"* ]]
}

@test "a Slurm script runs once and its srun python3 starts four ranks that join torch.distributed over 2 nodes through env://" {
	gb_start_cluster
	allreduce_script >allreduce.py
	chmod +x allreduce.py
	# As Slurm users write it: the job's shape in #SBATCH lines, setup
	# lines that run once, the program started by srun, no rank mapped
	# by hand; every rank's output comes to the job's one file.
	cat >train.sh <<SH
#!/bin/sh
#SBATCH -N 2 --ntasks-per-node 2 --gpus-per-node 2 -t 2
#SBATCH -o torch.out
echo "setup on node \$SLURM_NODEID of \$SLURM_JOB_NUM_NODES, \$SLURM_NTASKS tasks"
srun $PY allreduce.py
SH
	id=$(PATH="$B/slurm:$PATH" sbatch --parsable train.sh)
	gb_wait_state "$id" COMPLETED 90 || {
		gq -l "$id"; tail -n 20 torch.out; false
	}
	[ "$(grep -c '^setup' torch.out)" = 1 ]
	grep -qx 'setup on node 0 of 2, 4 tasks' torch.out
	[ "$(sed -n 's/^allreduce //p' torch.out | sort)" = "rank=0 world=4 sum=10
rank=1 world=4 sum=10
rank=2 world=4 sum=10
rank=3 world=4 sum=10" ] || {
		cat -A torch.out; false
	}
}

# field_is ID NAME VALUE: whether a job's gq column is that now.
field_is() {
	[ "$(gq -h -t all -j "$1" -o "$2" | tr -d ' ')" = "$3" ]
}

@test "examples/elastic-train.py: started on 2 ranks beside a rigid job, resized to 4 when it ends, its steps going on; its reports reach gq" {
	printf 'scheduler = {\n  elastic_interval = 1;\n  elastic_overhead = 0;\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 4
	r=$(gb_submit -G 2 --wrap "until [ -e '$GB_DIR/go-r' ]; do sleep 0.05; done")
	gb_wait_state "$r" RUNNING 20
	e=$(gb_submit -G 1-4 --ntasks-per-node gpu --ckpt-signal USR1 \
	    -o "$GB_DIR/el-%r.out" "$S/examples/elastic-train.py" \
	    --steps 1000000 --sample-time 0.0001 --report 5)
	gb_wait_state "$e" RUNNING 20
	gb_wait 60 grep -q "^run 0: world 2, local batch 128, starting at step 0$" el-0.out || {
		cat el-0.out; false
	}
	# Its reports: a step time and a goodput.
	gb_wait 60 eval '! field_is "$e" step_time -'
	run ! field_is "$e" goodput -
	# The rigid job ends: the elastic one checkpoints, and its second
	# run, on 4 ranks, starts at the step its first one saved.
	touch go-r
	gb_wait_state "$r" COMPLETED 20
	gb_wait 90 grep -q "^run 1: world 4" el-1.out || {
		gq -l "$e"; cat el-0.out el-1.out; false
	}
	saved=$(sed -n 's/^run 0: checkpointed at step \([0-9]*\); exiting$/\1/p' el-0.out)
	[ -n "$saved" ]
	[ "$saved" -gt 0 ]
	grep -qx "run 1: world 4, local batch 64, starting at step $saved" el-1.out
	field_is "$e" gpus 4
	field_is "$e" resizes 1
	gcancel "$e"
	gb_wait_state "$e" CANCELLED 30
}
