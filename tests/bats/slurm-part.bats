#!/usr/bin/env bats
# slurm-part.bats: the Slurm-named commands on a cluster with partitions
# (gbatch.conf's partitions group): sinfo's line per partition and node
# state, squeue's %P and -p, sacct's Partition, scontrol show partition
# and node, scancel -p, each compared with what Slurm's print for the same
# partitions. slurm-compat.bats has the cluster without partitions.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
	# gpu the default, of n1 alone; long of both; prio of n2, for vip's
	# jobs, in a higher tier; spare of a node that never comes.
	cat >>"$GBATCH_CONF" <<'CONF'
partitions = {
  gpu = { nodes = "n1"; default = true; max_time = "1:00:00"; max_gpus_per_job = 4; };
  long = { nodes = "n[1-2]"; max_time = "2-00:00:00"; default_time = "1-00:00:00"; max_nodes_per_job = 2; };
  prio = { nodes = "n2"; tier = 5; accounts = ["vip"]; };
  spare = { nodes = "n9"; };
};
CONF
	cd "$GB_DIR"
	gb_start_cluster
}

teardown() {
	gb_teardown
}

# The partitions sinfo and scancel name when a name is none of them.
NAMES='(the partitions: gpu, long, prio, spare)'

@test "sinfo: a line per partition and node state, the default marked *, TIMELIMIT its max_time, a node under each of its partitions" {
	id=$(sbatch --parsable -p gpu -G 1 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	[ "$(gq -h -j "$id" -o nodes)" = n1 ]
	run -0 sinfo
	[ "${lines[0]}" = "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST" ]
	[ "${lines[1]}" = "gpu*         up   01:00:00      1    mix n1" ]
	[ "${lines[2]}" = "long         up 2-00:00:00      1    mix n1" ]
	[ "${lines[3]}" = "long         up 2-00:00:00      1   idle n2" ]
	[ "${lines[4]}" = "prio         up   infinite      1   idle n2" ]
	# Slurm's line for a partition without a node to show.
	[ "${lines[5]}" = "spare        up   infinite      0    n/a " ]
	[ "${#lines[@]}" -eq 6 ]
	# -N: a line per node and partition, by node.
	run -0 sinfo -N -h
	[ "$output" = "n1      1      gpu*    mix
n1      1      long    mix
n2      1      long   idle
n2      1      prio   idle" ]
	run -0 sinfo -s -h
	[ "$output" = "gpu*         up   01:00:00          1/0/0/1  n1
long         up 2-00:00:00          1/1/0/2  n1,n2
prio         up   infinite          0/1/0/1  n2
spare        up   infinite          0/0/0/0  " ]
	# Each partition once where no node field is shown, as tools list
	# them.
	[ "$(sinfo -h -o %P)" = "gpu*
long
prio
spare" ]
	run -0 sinfo -h -p long,prio -o '%P %l %D %N'
	[ "$output" = "long 2-00:00:00 2 n1,n2
prio infinite 1 n2" ]
	# -t: gpu has no idle node, spare none at all.
	run -0 sinfo -h -t idle -o '%P|%D|%t|%N'
	[ "$output" = "gpu*|0|n/a|
long|1|idle|n2
prio|1|idle|n2
spare|0|n/a|" ]
	# Without the partition in the format, each node once.
	run -0 sinfo -h -o '%N %t'
	[ "$output" = "n1 mix
n2 idle" ]
	# A name that is none: nothing, as Slurm's, but said.
	run -0 --separate-stderr sinfo -h -p gpx
	[ -z "$output" ]
	[ "$stderr" = "sinfo: --partition: no partition \"gpx\" $NAMES" ]
	run -0 --separate-stderr sinfo -h -p spare,gpu -o %P
	[ "$output" = "gpu*
spare" ]
	[ -z "$stderr" ]
}

@test "squeue %P, -O, -l and --json print a job's partitions; -p lists the jobs that may run in one of them; sacct and scontrol show job name them too" {
	a=$(sbatch --parsable -p gpu -G 1 --wrap 'sleep 60')
	b=$(sbatch --parsable -p long,prio -A vip -G 1 -w n2 --wrap 'sleep 60')
	c=$(sbatch --parsable -G 1 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	gb_wait_state "$c" RUNNING 20
	# No -p: the default partition.
	[ "$(squeue -h -o '%i %P' | sort -n)" = "$a gpu
$b long,prio
$c gpu" ]
	[ "$(squeue -h -p long -o %i)" = "$b" ]
	[ "$(squeue -h -p prio -o %i)" = "$b" ]
	[ "$(squeue -h -p gpu -o %i | sort -n)" = "$a
$c" ]
	[ "$(squeue -h -p prio,gpu -o %i | sort -n | paste -sd, -)" = "$a,$b,$c" ]
	[ "$(squeue -h -p gpu -j "$a,$b" -o %i)" = "$a" ]
	# A partition of no job: none, and nothing said.
	run -0 --separate-stderr squeue -h -p spare
	[ -z "$output" ]
	[ -z "$stderr" ]
	run -0 --separate-stderr squeue -h -p gpx
	[ -z "$output" ]
	[ "$stderr" = "squeue: --partition: no partition \"gpx\" $NAMES" ]
	[ "$(squeue -h -j "$b" -O Partition:12)" = "long,prio   " ]
	run -0 squeue -l -h -j "$a"
	read -r id part _ <<<"$output"
	[ "$id $part" = "$a gpu" ]
	run -0 squeue --json -j "$b"
	python3 -c 'import json,sys; j=json.loads(sys.argv[1])["jobs"][0]; assert j["partition"] == "long,prio", j' "$output"
	[ "$(sacct -n -X -P -j "$a,$b,$c" --format JobID,Partition)" = "$a|gpu
$b|long,prio
$c|gpu" ]
	[ "$(scontrol show job "$b" | grep -o 'Partition=[^ ]*')" = "Partition=long,prio" ]
	# gbatchd refuses a name that is none, naming those there are.
	run -1 sbatch -p gpx --wrap true
	[ "$output" = 'sbatch: partition "gpx": no such partition; expected one of gpu, long, prio, spare' ]
}

@test "scontrol show partition: each partition as Slurm's records, in gbatch.conf's order; an unknown name is Slurm's error; show node names a node's partitions" {
	cpus=$(scontrol show node n1 | sed -n 's/.*CPUTot=\([0-9]*\).*/\1/p')
	[ -n "$cpus" ]
	run -0 scontrol show partition long
	[ "$output" = "PartitionName=long
   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
   Default=NO DefaultTime=1-00:00:00 MaxNodes=2 MaxTime=2-00:00:00
   Nodes=n[1-2]
   PriorityTier=0 PreemptMode=REQUEUE
   State=UP TotalCPUs=$((2 * cpus)) TotalNodes=2
   TRES=cpu=$((2 * cpus)),node=2,gres/gpu=8" ]
	run -0 scontrol -o show partition prio
	[ "$output" = "PartitionName=prio AllowGroups=ALL AllowAccounts=vip AllowQos=ALL Default=NO DefaultTime=NONE MaxNodes=UNLIMITED MaxTime=UNLIMITED Nodes=n2 PriorityTier=5 PreemptMode=REQUEUE State=UP TotalCPUs=$cpus TotalNodes=1 TRES=cpu=$cpus,node=1,gres/gpu=4" ]
	run -0 scontrol -o show partition=gpu
	[[ "$output" == "PartitionName=gpu "*" Default=YES DefaultTime=NONE MaxNodes=UNLIMITED MaxTime=01:00:00 Nodes=n1 PriorityTier=0 "* ]]
	run -0 scontrol -o show partition spare
	[[ "$output" == *" Nodes=n9 "*" TotalCPUs=0 TotalNodes=0 TRES=cpu=0,node=0,gres/gpu=0" ]]
	[ "$(scontrol -o show partition | cut -d' ' -f1)" = "PartitionName=gpu
PartitionName=long
PartitionName=prio
PartitionName=spare" ]
	run -1 scontrol show partition gpx
	[ "$output" = "Partition gpx not found" ]
	[ "$(scontrol show node n1 | grep -o 'Partitions=[^ ]*')" = "Partitions=gpu,long" ]
	[ "$(scontrol show node n2 | grep -o 'Partitions=[^ ]*')" = "Partitions=long,prio" ]
}

@test "scancel -p cancels the jobs that may run in those partitions and no other; a name that is none cancels nothing, and is said" {
	a=$(sbatch --parsable -p gpu -H --wrap true)
	b=$(sbatch --parsable -p long -H --wrap true)
	c=$(sbatch --parsable -p long,prio -A vip -H --wrap true)
	run -0 scancel -p prio
	[ -z "$output" ]
	gb_wait_state "$c" CANCELLED 10
	[ "$(gb_state "$a") $(gb_state "$b")" = "HELD HELD" ]
	run -0 scancel -p gpx
	[ "$output" = "scancel: --partition: no partition \"gpx\" $NAMES" ]
	[ "$(gb_state "$a") $(gb_state "$b")" = "HELD HELD" ]
	run -0 scancel -p gpu -t RUNNING
	[ "$(gb_state "$a") $(gb_state "$b")" = "HELD HELD" ]
	run -0 scancel -p long,gpu
	gb_wait_state "$a" CANCELLED 10
	gb_wait_state "$b" CANCELLED 10
}
