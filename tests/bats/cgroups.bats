#!/usr/bin/env bats
# Each job in a cgroup of its own on its node (node-confine.c): a job over
# its memory limit ends OUT_OF_MEMORY, not FAILED; what it forked off is
# killed with it on cancel; it cannot open another job's GPU device file;
# accounting gets its peak memory and CPU time. Needs root and usable
# cgroups (v1 or v2); skipped, saying why, where gnoded runs jobs
# unconfined.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	local d=${GB_DIR##*/}

	gb_teardown
	rm -rf "$GB_DIR/dev"
	# The node's cgroups: a job still running at the end was killed
	# with its node, its cgroup left empty; then the parents.
	rmdir /sys/fs/cgroup/*/"gbt-$d-"*/job_* /sys/fs/cgroup/"gbt-$d-"*/job_* \
	    2>/dev/null || true
	rmdir /sys/fs/cgroup/*/"gbt-$d-"* /sys/fs/cgroup/"gbt-$d-"* 2>/dev/null || true
}

# The cluster, or a skip when its node confines nothing. Extra gnoded
# flags go to the node, GB_NODE_KEYS into its node group.
confined_cluster() {
	# On a cgroup v2 host gnoded makes its parent cgroup beside its own
	# and moves its cgroup's processes (the test runner's) into a leaf:
	# the host's business, not a test's, unless it runs in the root.
	if [ -f /sys/fs/cgroup/cgroup.controllers ] &&
	    [ "$(sed -n 's/^0:://p' /proc/self/cgroup)" != / ]; then
		skip "a cgroup v2 host whose tests do not run in the root cgroup"
	fi
	GB_CGROUPS=true gb_write_conf "" "${GB_NODE_KEYS:-}"
	gb_start_controller
	gb_start_node n1 4 --cpus 2 --memory-mb 4096 "$@"
	grep -q "jobs in cgroups" "$GB_DIR/gnoded-n1.log" || {
		grep -h "unconfined" "$GB_DIR/gnoded-n1.log" >&3 || true
		skip "gnoded runs jobs unconfined here (no root or no cgroups)"
	}
}

state_is() {
	[ "$(gq -h -t all -j "$1" -o state)" = "$2" ]
}

@test "a job over its memory limit ends OUT_OF_MEMORY, with its peak memory and CPU time kept" {
	confined_cluster
	# 64 MB allowed; 512 MB touched.
	id=$(gb_submit -G 1 --mem 64M --wrap '/usr/bin/python3 -c "a = bytearray(512 << 20); print(len(a))"')
	gb_wait 60 state_is "$id" OUT_OF_MEMORY
	run -0 gq -h -t all -j "$id" -o message
	[[ "$output" == *"out of memory: a process was killed over the job's limit of 64 MB"* ]]
	peak=$(gq -h -t all -j "$id" -o mem_peak)
	[ "$peak" -ge 32 ]
	[ "$peak" -le 128 ]
	# The same program within its limit completes, and is counted.
	# ... and burns a few seconds of CPU.
	printf 'import time\na = bytearray(256 << 20)\nwhile time.process_time() < 2.5:\n    pass\n' >burn.py
	id=$(gb_submit -G 1 --mem 1G --wrap '/usr/bin/python3 burn.py')
	gb_wait 120 state_is "$id" COMPLETED
	peak=$(gq -h -t all -j "$id" -o mem_peak)
	[ "$peak" -ge 200 ]
	[ "$peak" -le 1024 ]
	cpu=$(gq -h -t all -j "$id" -o cpu_time)
	[[ "$cpu" =~ ^0:0[2-9]$ ]] || { echo "cpu_time $cpu"; false; }
	# sacct (slurm-compat) says the same in Slurm's words.
	run -0 "$B/slurm/sacct" -j "$id" -n -P -o MaxRSS,TotalCPU
	[ "$output" = "$((peak * 1024))K|00:00:0${cpu#0:0}" ]
}

@test "a cancel kills what the job forked off into a session of its own" {
	confined_cluster
	id=$(gb_submit -G 1 --wrap 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! >daemon.pid; sleep 1000')
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -s daemon.pid
	pid=$(cat daemon.pid)
	kill -0 "$pid"
	gcancel "$id"
	gb_wait 20 state_is "$id" CANCELLED
	gb_wait 10 bash -c "! kill -0 $pid 2>/dev/null"
}

@test "a job can open its own GPUs' device files and no other job's" {
	mkdir -p "$GB_DIR/dev"
	for i in 0 1 2 3; do mknod "$GB_DIR/dev/gpu$i" c 240 "$i"; done
	confined_cluster --gpu-device "$GB_DIR/dev/gpu%u"
	cat >open.py <<'PY'
import errno, os
mine = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
for i in range(4):
    try:
        os.close(os.open(os.environ["D"] + "/gpu%d" % i, os.O_RDONLY))
        what = "opened"
    except OSError as e:
        what = errno.errorcode[e.errno]
    print(i, "mine" if str(i) in mine else "other", what)
PY
	id=$(D="$GB_DIR/dev" gb_submit -G 2 -o open.out --wrap '/usr/bin/python3 open.py')
	gb_wait 30 state_is "$id" COMPLETED
	cat open.out
	# Its own: no driver behind the node (ENXIO), but allowed; the
	# others: refused by the cgroup (EPERM).
	[ "$(grep -c ' mine ENXIO$' open.out)" -eq 2 ]
	[ "$(grep -c ' other EPERM$' open.out)" -eq 2 ]
}

@test "jobs are pinned to CPUs of their own, as many as they asked for" {
	confined_cluster
	grep -q "pinned to CPUs of their own" "$GB_DIR/gnoded-n1.log" ||
	    skip "gnoded may use fewer than 2 CPUs here"
	for i in 1 2; do
		id[$i]=$(gb_submit -G 1 -c 1 --wrap 'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status >cpus-$GBATCH_JOB_ID; sleep 300')
	done
	for i in 1 2; do gb_wait 20 test -s "cpus-${id[$i]}"; done
	a=$(cat "cpus-${id[1]}")
	b=$(cat "cpus-${id[2]}")
	[[ "$a" =~ ^[0-9]+$ ]]
	[[ "$b" =~ ^[0-9]+$ ]]
	[ "$a" != "$b" ]
	# A job that asks for both has both.
	gcancel "${id[1]}" "${id[2]}"
	gb_wait 20 eval '[ "$(gq -h -o id | wc -l)" -eq 0 ]'
	c=$(gb_submit -G 1 -c 2 --wrap 'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status >cpus-$GBATCH_JOB_ID; sleep 300')
	gb_wait 20 test -s "cpus-$c"
	# Two CPUs: a range or a list of two.
	[[ "$(cat "cpus-$c")" =~ ^[0-9]+[-,][0-9]+$ ]]
}

@test "a shepherd killed -9 leaves nothing of its job running: gnoded empties the cgroup" {
	confined_cluster
	id=$(gb_submit -G 1 --wrap 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! >daemon.pid; sleep 1000')
	gb_wait_state "$id" RUNNING 20
	gb_wait 10 test -s daemon.pid
	pid=$(cat daemon.pid)
	shep=$(gb_node_record n1 "$id" run | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["shepherd_pid"])')
	kill -9 "$shep"
	gb_wait 20 state_is "$id" FAILED
	run -0 gq -h -t all -j "$id" -o message
	[[ "$output" == *"ended without recording the job's end"* ]]
	gb_wait 10 bash -c "! kill -0 $pid 2>/dev/null"
}

@test "grun --jobid runs in the job's cgroup; grun's own job is confined as any" {
	confined_cluster
	id=$(gb_submit -G 1 --mem 256M --wrap 'cat /proc/self/cgroup >cg-job; sleep 300')
	gb_wait 20 test -s cg-job
	run -0 grun --jobid "$id" cat /proc/self/cgroup
	echo "$output"
	# Every hierarchy the job is in, the attached command is in too.
	[ "$(grep -c "job_$id" <<<"$output")" -ge 1 ]
	[ "$(grep "job_$id" <<<"$output" | sort)" = "$(grep "job_$id" cg-job | sort)" ]
	run -0 grun -G 1 sh -c 'cat /proc/self/cgroup'
	g=$(gq -h -t all -o id --sort=-id | head -n 1)
	grep -q "job_$g" <<<"$output"
}

@test "a job's CPUs are those near its GPUs (node.gpu_cpus), not merely the lowest free" {
	# GPUs 0 and 1 near CPU 1, GPUs 2 and 3 near CPU 0: the reverse of
	# what the lowest-first choice gives.
	GB_NODE_KEYS='gpu_cpus = [ "1", "1", "0", "0" ];' confined_cluster
	grep -q "pinned to CPUs of their own" "$GB_DIR/gnoded-n1.log" ||
	    skip "gnoded may use fewer than 2 CPUs here"
	grep -q "jobs get CPUs near their GPUs" "$GB_DIR/gnoded-n1.log"
	a=$(gb_submit -G 1 -c 1 --wrap 'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status >cpus-$GBATCH_JOB_ID; echo $CUDA_VISIBLE_DEVICES >gpus-$GBATCH_JOB_ID; sleep 300')
	gb_wait 20 test -s "cpus-$a"
	gb_wait 20 test -s "gpus-$a"
	# GPUs 0 and 1 are near CPU 1, 2 and 3 near CPU 0.
	case $(cat "gpus-$a") in
	0 | 1) [ "$(cat "cpus-$a")" = 1 ] ;;
	*) [ "$(cat "cpus-$a")" = 0 ] ;;
	esac
	# A bad list is refused, naming the key and what it takes.
	GB_CGROUPS=true gb_write_conf "" 'gpu_cpus = [ "0-", "1" ];'
	run -1 gnoded --check-config -f "$GBATCH_CONF" -n n9
	[[ "$output" == *"gpu_cpus"*"expected a CPU list such as"*'"0-"'* ]]
}

@test "gnoded stopping removes its jobs' parent cgroup once no job is in it, and keeps it while one is" {
	local d=${GB_DIR##*/}
	confined_cluster
	parents() { ls -d /sys/fs/cgroup/gbt-"$d"-n1 /sys/fs/cgroup/*/gbt-"$d"-n1 2>/dev/null || true; }
	[ -n "$(parents)" ]
	# A job outlives gnoded: its cgroup, and so the parent, stay. The
	# controller says RUNNING once it sends the job, before its shepherd
	# makes its cgroup; the job's own file says it runs in it.
	id=$(gb_submit --wrap 'touch up; while [ ! -e go ]; do sleep 0.05; done')
	gb_wait 20 test -e up
	kill "$GB_NODE_PID_n1"
	gb_wait 10 gb_pid_gone "$GB_NODE_PID_n1"
	[ -n "$(parents)" ]
	# Back, the job ends; stopped again, gnoded leaves nothing behind.
	gb_start_node n1 4 --cpus 2 --memory-mb 4096
	touch go
	gb_wait 30 state_is "$id" COMPLETED
	kill "$GB_NODE_PID_n1"
	gb_wait 10 gb_pid_gone "$GB_NODE_PID_n1"
	# Gone by then: gnoded removes it as it stops. What is left, and
	# what gnoded said of it, is printed should it not be.
	left=$(parents)
	[ -z "$left" ] || {
		find $left -maxdepth 1 >&2
		grep -i cgroup "$GB_DIR/gnoded-n1.log" >&2
		false
	}
}

# sstat ID: its MaxRSS (KiB) and TotalCPU's seconds, "KIB SECS", once
# both are above 0.
counted_live() {
	local out
	out=$("$B/slurm/sstat" -n -P -j "$1" -o MaxRSS,TotalCPU) || return 1
	[[ "$out" =~ ^([0-9]+)K\|00:00:0*([0-9]+)$ ]] || return 1
	[ "${BASH_REMATCH[1]}" -gt 100000 ] && [ "${BASH_REMATCH[2]}" -ge 1 ]
}

@test "sstat and gq show what a running job's cgroup has counted so far, from the node's heartbeats" {
	confined_cluster
	# 256 MiB held and CPU burnt until told to stop.
	printf 'import os, time\na = bytearray(256 << 20)\nwhile not os.path.exists("stop"):\n    sum(range(10000))\n' >hold.py
	id=$(gb_submit -G 1 --mem 1G --wrap '/usr/bin/python3 hold.py')
	gb_wait 20 state_is "$id" RUNNING
	gb_wait 30 counted_live "$id"
	# gq's columns say the same while it runs.
	[ "$(gq -h -j "$id" -o mem_peak)" -ge 200 ]
	run -0 "$B/slurm/sstat" -j "$id"
	[[ "${lines[0]}" == *"JobID"*"NTasks"*"MaxRSS"*"AveCPU"*"TotalCPU"* ]]
	touch stop
	gb_wait 30 state_is "$id" COMPLETED
	# Once ended, sstat has nothing to say; sacct has the end record's.
	run -1 "$B/slurm/sstat" -j "$id"
	[[ "$output" == *"sstat: error: couldn't get steps for job $id: it is COMPLETED, not running"* ]]
	[ "$(gq -h -t all -j "$id" -o mem_peak)" -ge 200 ]
	run -2 "$B/slurm/sstat"
	[[ "$output" == *"no jobs to stat: give -j ID[,ID] (running jobs)"* ]]
}
