#!/usr/bin/env bats
# QOS (gbatch.conf's qos group), as a user and an admin meet them on a
# local cluster: --qos and the default, shown by gq and the Slurm-named
# commands; the limits that refuse a job at submit or hold it back; a
# higher QOS first, preempting only the QOS its list names, each QOS's
# preempt_mode; a partition's QOS; gctl update job QOS=; a reload. The
# rules themselves are unit-tested (qos.t, job-preempt.t, sched-part.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	# The Slurm-named commands, beside gbatch's own.
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
}

teardown() {
	gb_teardown
}

QOS_GROUP='  normal = { };
  high = { priority = 10; preempt = ["scavenger"]; max_time = "1-00:00:00"; };
  scavenger = { usage_factor = 0.0; preempt_mode = "requeue"; };
  capped = { max_jobs_per_user = 1; max_gpus_per_user = 2; };
  keep = { preempt_mode = "off"; };'

# qos_conf [GROUP] [PARTITIONS]: the qos group (the test's, or the one
# above) and a partitions group, after the rest of the file.
qos_conf() {
	gb_write_conf
	printf 'qos = {\n%s\n};\n' "${1:-$QOS_GROUP}" >>"$GBATCH_CONF"
	[ -z "${2:-}" ] || printf 'partitions = {\n%s\n};\n' "$2" >>"$GBATCH_CONF"
}

# field ID FIELD: one gq field of a job, whatever its state.
field() {
	gq -h -t all -j "$1" -o "$2"
}

field_is() {
	[ "$(field "$1" "$2")" = "$3" ]
}

@test "--qos picks a QOS, none the default; gq, squeue, scontrol and sacct show it; an unknown one is refused naming those there are" {
	qos_conf
	gb_start_cluster
	d=$(gb_submit -G 1 --wrap true)
	h=$(gb_submit -G 1 --qos high -t 10 --wrap true)
	s=$(gb_submit -G 1 -q scavenger --wrap true)
	gb_wait_state "$d" COMPLETED
	gb_wait_state "$h" COMPLETED
	gb_wait_state "$s" COMPLETED
	[ "$(field "$d" qos)" = normal ]
	[ "$(field "$h" qos)" = high ]
	[ "$(field "$s" qos)" = scavenger ]
	[ "$(sacct -n -X -P -j "$h" -o QOS)" = high ]
	# #SBATCH --qos, and squeue's %q and scontrol's QOS= while it waits.
	printf '#!/bin/sh\n#SBATCH --qos=scavenger\n#SBATCH -G 1\nsleep 30\n' >q.sh
	w=$(sbatch --parsable -H q.sh)
	[ "$(squeue -h -j "$w" -o %q)" = scavenger ]
	scontrol show job "$w" | grep -q ' QOS=scavenger'
	run -1 gsub -G 1 --qos gold --wrap true
	[[ "$output" == *'QOS "gold": no such QOS; expected one of normal, high, scavenger, capped, keep'* ]]
	run -0 gq -h -t all -o id
	[ "$(echo "$output" | wc -l)" -eq 4 ]
}

@test "without a qos group, normal is the only QOS and others are refused" {
	gb_start_cluster
	j=$(gb_submit -G 1 --qos normal --wrap true)
	gb_wait_state "$j" COMPLETED
	[ "$(field "$j" qos)" = normal ]
	[ "$(sacct -n -X -P -j "$j" -o QOS)" = normal ]
	run -1 gsub -G 1 --qos high --wrap true
	[[ "$output" == *'QOS "high": this cluster has no QOS but "normal" (leave --qos out)'* ]]
	run -0 gctl show config
	[[ "$output" == *'qos.normal = {"default":true,"priority":0'* ]]
}

@test "a QOS's max_time and max_gpus_per_user refuse a job at submit; no time limit takes its max_time" {
	qos_conf
	gb_start_cluster
	run -1 gsub -G 1 --qos high -t 2-00:00:00 --wrap true
	[[ "$output" == *'QOS high does not take the job: the time limit 2-00:00:00 is over its max_time 1-00:00:00'* ]]
	run -1 gsub -G 4 --qos capped --wrap true
	[[ "$output" == *'QOS capped does not take the job: 4 GPUs is over its max_gpus_per_user 2, so it could never start'* ]]
	j=$(gb_submit -G 1 --qos high -H --wrap true)
	[ "$(field "$j" time_limit)" = 1-00:00:00 ]
	run -0 gq -h -t all -o id
	[ "$(echo "$output" | wc -l)" -eq 1 ]
}

@test "a QOS's max_jobs_per_user holds a user's second job with QOSMaxJobsPerUserLimit until the first ends" {
	qos_conf
	gb_start_cluster
	a=$(gb_submit -G 1 --qos capped --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING
	b=$(gb_submit -G 1 --qos capped --wrap true)
	gb_wait 10 field_is "$b" reason QOSMaxJobsPerUserLimit
	# Another QOS is not held by it.
	c=$(gb_submit -G 1 --wrap true)
	gb_wait_state "$c" COMPLETED
	gcancel "$a"
	gb_wait_state "$b" COMPLETED 20
}

@test "a higher QOS outranks and preempts only the QOS its list names, each as its preempt_mode says" {
	qos_conf
	gb_start_controller
	gb_start_node n1 4
	# The GPUs held by a plain scavenger job (requeue: it may be
	# stopped), a checkpointing normal one (not in high's list) and a
	# checkpointing one of keep (off: never).
	s=$(gb_submit -G 2 --qos scavenger -J scav --wrap 'sleep 60')
	gb_wait_state "$s" RUNNING
	n=$(gb_submit -G 1 -J norm --ckpt-signal USR2 --wrap 'trap "exit 0" USR2; sleep 60 & wait')
	k=$(gb_submit -G 1 --qos keep -J keep --ckpt-signal USR2 --wrap 'trap "exit 0" USR2; sleep 60 & wait')
	gb_wait_state "$n" RUNNING
	gb_wait_state "$k" RUNNING
	[ "$(field "$s" preempt)" = requeue ]
	[ "$(field "$n" preempt)" = checkpoint ]
	[ "$(field "$k" preempt)" = no ]
	gq -l "$s" | grep -qx 'preempt: *requeue'
	# A high job of two GPUs: the scavenger's two are the ones it may take.
	h=$(gb_submit -G 2 --qos high -t 10 -J high --wrap 'sleep 60')
	gb_wait_state "$h" RUNNING 20
	[ "$(field "$s" preemptions)" = 1 ]
	gb_wait 10 field_is "$s" state PENDING
	# A second one waits: normal is not high's to preempt, keep never.
	h2=$(gb_submit -G 1 --qos high -t 10 -J high2 --wrap true)
	gb_wait 10 eval '[ "$(gq -h -j '"$h2"' -o reason)" != None ]'
	[ "$(field "$n" preemptions)" = 0 ]
	[ "$(field "$k" preemptions)" = 0 ]
	[ "$(gb_state "$n")" = RUNNING ]
	[ "$(gb_state "$k")" = RUNNING ]
	# Once the high job ends, the second takes its GPU.
	gcancel "$h"
	gb_wait_state "$h2" COMPLETED 20
}

@test "a partition's qos list takes those QOS alone; gctl update job QOS= moves a waiting job, higher only by an operator" {
	qos_conf "$QOS_GROUP" '  gpu = { default = true; };
  fast = { qos = ["high"]; tier = 1; };'
	gb_start_cluster
	run -1 gsub -G 1 -p fast --wrap true
	[[ "$output" == *'partition fast does not take the job: fast is for the QOS high; give one with --qos'* ]]
	j=$(gb_submit -G 1 -p fast --qos high -t 10 --wrap true)
	gb_wait_state "$j" COMPLETED
	# An operator moves a held job up; the user cannot; anyone may
	# move their own down; a QOS that is none is refused; an event says it.
	w=$(gb_submit -G 1 -H -t 10 --wrap true)
	run -0 gctl update job "$w" QOS=high
	[ "$(field "$w" qos)" = high ]
	run -0 gctl update job "$w" qos=scavenger
	[ "$(field "$w" qos)" = scavenger ]
	run -1 gctl update job "$w" QOS=gold
	[[ "$output" == *'QOS "gold": no such QOS'* ]]
	run -0 scontrol update JobId="$w" QOS=normal
	[ "$(field "$w" qos)" = normal ]
	gq -l "$w" | grep -q 'QOS scavenger -> normal'
	run -1 gctl update job "$w" Partition=fast
	[[ "$output" == *'fast is for the QOS high'* ]]
	[ "$(field "$w" partition)" = gpu ]
}

@test "a user may move a job to a QOS of lower priority, not higher (exit 4), and is audited" {
	qos_conf
	gb_start_cluster
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	[ "$(id -u)" = 0 ] || skip "needs root to act as another user"
	chmod 755 "$GB_DIR"
	w=$(su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gsub --parsable -H -G 1 -t 10 --qos high -D /tmp --wrap true")
	run su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gctl update job $w QOS=normal"
	[ "$status" -eq 0 ]
	[ "$(field "$w" qos)" = normal ]
	run su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gctl update job $w QOS=high"
	[ "$status" -eq 4 ]
	[[ "$output" == *'only an operator may move a job to a QOS of a higher priority (high is 10, normal 0)'* ]]
	[ "$(field "$w" qos)" = normal ]
	grep -F "refused nobody (uid $(id -u nobody)) from unix:nobody: set job $w: job $w: only an operator may move a job to a QOS of a higher priority" "$GB_DIR/ctl/audit.log"
	gq -l "$w" | grep -q 'QOS high -> normal, by nobody'
	gq -l "$w" | grep -q 'QOS normal -> high' && false
	true
}

@test "bad QOS in gbatch.conf stop gbatchd naming the line; a reload that removes a QOS keeps its running jobs, holds its pending ones InvalidQOS, and says so" {
	qos_conf '  a = { priority = 2; preempt = ["b"]; };
  b = { priority = 2; };'
	run -1 gbatchd -f "$GBATCH_CONF" -C
	[[ "$output" == *'qos.a.preempt: b has priority 2, not below a'"'"'s 2'* ]]
	qos_conf
	gb_start_cluster
	w=$(gb_submit -G 1 --qos scavenger -H --wrap true)
	r=$(gb_submit -G 1 --qos scavenger --wrap 'sleep 60')
	gb_wait_state "$r" RUNNING
	qos_conf '  normal = { };'
	run -0 gctl reconfigure
	[[ "$output" == *qos.scavenger* ]]
	[[ "$output" == *"1 running job ($r) of QOS no longer in the file: they keep running"* ]]
	gctl release "$w"
	gb_wait 10 field_is "$w" reason InvalidQOS
	[ "$(gb_state "$r")" = RUNNING ]
	run -1 gsub -G 1 --qos scavenger --wrap true
	[[ "$output" == *'no such QOS; expected one of normal'* ]]
}

@test "nice and priority order the waiting jobs of a tier and queue; gq, squeue and scontrol show them; an operator alone gives a negative nice or a priority" {
	gb_start_controller
	gb_start_node n1 1
	b=$(gb_submit -G 1 --wrap 'sleep 60')
	gb_wait_state "$b" RUNNING
	a=$(gb_submit -G 1 -J plain --wrap true)
	n=$(gb_submit -G 1 -J niced --nice 100 --wrap true)
	p=$(gb_submit -G 1 -J urgent --priority 10 --wrap true)
	# priority - nice first, then the queue's own order (submit time).
	gb_wait 10 field_is "$p" rank 1
	gb_wait 10 field_is "$a" rank 2
	gb_wait 10 field_is "$n" rank 3
	[ "$(field "$n" nice) $(field "$p" priority)" = "100 10" ]
	[ "$(squeue -h -j "$n" -o '%y %Q')" = "100 0" ]
	scontrol show job "$p" | grep -q ' Priority=10 Nice=0 '
	# An operator lowers the urgent one; it goes behind the plain one.
	run -0 gctl update job "$p" Priority=0 Nice=200
	gb_wait 10 field_is "$a" rank 1
	gb_wait 10 field_is "$p" rank 3
	gq -l "$p" | grep -q 'priority 10 -> 0, by root'
	run -2 gsub -G 1 --nice 20000 --wrap true
	[[ "$output" == *'--nice: expected a whole number from -10000 to 10000, got "20000"'* ]]
	gcancel "$b"
	gb_wait_state "$n" COMPLETED 20
}

@test "a user may nice their own jobs, not give a negative nice or a priority (exit 4)" {
	gb_start_cluster
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	[ "$(id -u)" = 0 ] || skip "needs root to act as another user"
	chmod 755 "$GB_DIR"
	as_nobody() {
		su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF $*"
	}
	run as_nobody gsub -D /tmp -H --nice -5 --wrap true
	[ "$status" -eq 4 ]
	[[ "$output" == *'nice: only an operator may give a job a negative nice; a user may lower their own jobs with a nice of 0 to 10000'* ]]
	run as_nobody gsub -D /tmp -H --priority 5 --wrap true
	[ "$status" -eq 4 ]
	[[ "$output" == *'priority: only an operator may give a job a priority'* ]]
	w=$(as_nobody gsub --parsable -D /tmp -H --nice 50 --wrap true)
	[ "$(field "$w" nice)" = 50 ]
	run as_nobody gctl update job "$w" Nice=0
	[ "$status" -eq 0 ]
	run as_nobody gctl update job "$w" Nice=-1
	[ "$status" -eq 4 ]
	run as_nobody gctl update job "$w" Priority=3
	[ "$status" -eq 4 ]
	[[ "$output" == *"job $w: only an operator may give a priority"* ]]
	[ "$(field "$w" nice) $(field "$w" priority)" = "0 0" ]
}
