#!/usr/bin/env bats
# gnoded: the node daemon. Each test runs a throwaway cluster (helpers.bash):
# a controller and two 4-GPU simulated nodes, n1 and n2.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
}

teardown() {
	gb_teardown
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
}

# gb_job_out ID: the job's output file (gbatch-ID.out in the test dir).
gb_job_out() {
	echo "$GB_DIR/work/gbatch-$1.out"
}

gb_cluster() {
	gb_start_cluster
	mkdir -p "$GB_DIR/work"
	cd "$GB_DIR/work"
}

@test "gnoded --help prints usage and exits 0" {
	run gnoded --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: gnoded"* ]]
	[[ "$output" == *"--gpus N"* ]]
}

@test "gnoded --version prints the version" {
	run gnoded --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^gnoded\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gnoded rejects an unknown flag with exit 2" {
	run gnoded --bogus
	[ "$status" -eq 2 ]
	# As every program says it (common/cmd.c).
	[ "$output" = "gnoded: unknown or ambiguous option \"--bogus\"
Try 'gnoded --help' for more information." ]
	run -2 gnoded -D -f
	[ "${lines[0]}" = "gnoded: option -f/--config needs a value" ]
	run -2 gnoded --help=yes
	[ "${lines[0]}" = "gnoded: option --help takes no value" ]
	run -2 gnoded extra
	[ "${lines[0]}" = 'gnoded: unexpected argument "extra"; gnoded takes options only' ]
}

@test "gnoded -g rejects a count that is not a number" {
	run gnoded -D -g two -d "$GB_DIR/node-x"
	[ "$status" -eq 2 ]
	[[ "$output" == *'-g: expected a whole number 0-64, got "two"'* ]]
}

@test "gnoded rejects a malformed controller address" {
	run gnoded -D -g 1 -c nowhere -d "$GB_DIR/node-x"
	[ "$status" -eq 2 ]
	[[ "$output" == *'expected HOST:PORT'* ]]
}

@test "gnoded refuses a second daemon on the same state directory" {
	gb_start_controller
	gb_start_node n1 2
	run gnoded -D -n n1 -g 2 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"another gnoded uses this state directory"* ]]
}

@test "registered nodes show in gnodes with their GPUs" {
	gb_cluster
	run gnodes --noheader
	[ "$status" -eq 0 ]
	[[ "$output" == *n1* ]]
	[[ "$output" == *n2* ]]
	run gnodes --json
	[ "$status" -eq 0 ]
	[[ "$output" == *'"GPU-sim-n1-3"'* ]]
	[[ "$output" != *'"GPU-sim-n1-4"'* ]]
}

@test "a job gets CUDA_VISIBLE_DEVICES and the GBATCH_* variables" {
	gb_cluster
	id=$(gb_submit -G 2 -J envjob --export=NONE,MYVAR=hello \
	    --wrap 'env | sort; echo "args=$#"; pwd')
	gb_wait_state "$id" COMPLETED
	out=$(cat "$(gb_job_out "$id")")
	echo "$out"
	[[ "$out" =~ CUDA_VISIBLE_DEVICES=[0-3],[0-3] ]]
	[[ "$out" == *"CUDA_DEVICE_ORDER=PCI_BUS_ID"* ]]
	[[ "$out" == *"GBATCH_JOB_ID=$id"* ]]
	[[ "$out" == *"GBATCH_JOB_NAME=envjob"* ]]
	[[ "$out" == *"GBATCH_GPUS=2"* ]]
	[[ "$out" =~ GBATCH_NODELIST=n[12] ]]
	[[ "$out" == *"GBATCH_NUM_NODES=1"* ]]
	[[ "$out" == *"GBATCH_NODE_RANK=0"* ]]
	[[ "$out" == *"GBATCH_SUBMIT_DIR=$GB_DIR/work"* ]]
	[[ "$out" == *"MYVAR=hello"* ]]
	[[ "$out" == *"$GB_DIR/work"* ]]
}

@test "output patterns expand %j %x %u %% and stderr may be its own file" {
	gb_cluster
	user=$(id -un)
	id=$(umask 022 && gb_submit -J pat -o 'o-%j-%x-%u-%%.txt' \
	    -e 'e-%j.txt' --wrap 'echo to-out; echo to-err >&2')
	gb_wait_state "$id" COMPLETED
	[ "$(cat "o-$id-pat-$user-%.txt")" = to-out ]
	[ "$(cat "e-$id.txt")" = to-err ]
	[ "$(stat -c %a "o-$id-pat-$user-%.txt")" = 644 ]
}

@test "stdout and stderr naming one file share it" {
	gb_cluster
	id=$(gb_submit -o both.txt -e both.txt \
	    --wrap 'echo one; echo two >&2; echo three')
	gb_wait_state "$id" COMPLETED
	[ "$(cat both.txt)" = "$(printf 'one\ntwo\nthree')" ]
}

@test "a non-zero exit is FAILED with its exit code" {
	gb_cluster
	id=$(gb_submit --wrap 'exit 7')
	gb_wait_state "$id" FAILED
	run gq -j "$id" --json
	[[ "$output" == *'"exit_code":7'* || "$output" == *'"exit_code": 7'* ]]
}

# Zombies among gnoded's children: the shepherds it forked and did not reap.
zombies_of() {
	ps -o stat= --ppid "$1" | grep -c '^Z' || true
}

@test "gnoded reaps the shepherds it forks: no zombie once their jobs end, however they end" {
	gb_cluster
	ok=$(gb_submit -N 2 -G 8 --wrap 'true')
	bad=$(gb_submit -G 1 --wrap 'exit 3')
	long=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$ok" COMPLETED
	gb_wait_state "$bad" FAILED
	gb_wait_state "$long" RUNNING
	# Its shepherd is a child of its node's gnoded.
	node=$(gq -j "$long" --noheader -o nodes)
	eval "pid=\$GB_NODE_PID_$node"
	[ -n "$(ps -o pid= --ppid "$pid")" ]
	gcancel "$long"
	gb_wait_state "$long" CANCELLED
	for n in n1 n2; do
		eval "pid=\$GB_NODE_PID_$n"
		gb_wait 10 eval '[ "$(zombies_of "$pid")" -eq 0 ]'
		# The node's shepherds were its children: none is left.
		[ -z "$(ps -o pid= --ppid "$pid")" ]
	done
}

@test "a job that cannot start (bad workdir) fails with a message" {
	gb_cluster
	# Hold every GPU so the job waits while its workdir disappears.
	b1=$(gb_submit -G 4 --wrap 'sleep 300')
	b2=$(gb_submit -G 4 --wrap 'sleep 300')
	gb_wait_state "$b1" RUNNING
	gb_wait_state "$b2" RUNNING
	mkdir "$GB_DIR/gone"
	id=$(gb_submit -D "$GB_DIR/gone" --wrap true)
	rmdir "$GB_DIR/gone"
	gcancel "$b1" "$b2"
	gb_wait_state "$id" FAILED 10
	run gq -j "$id" --json
	[[ "$output" == *"workdir $GB_DIR/gone: No such file or directory"* ]]
}

@test "a job past its time limit is TIMEOUT, group killed" {
	gb_cluster
	id=$(gb_submit -t 0:01 --wrap 'sleep 300 & echo $! > tl.pid; wait')
	gb_wait_state "$id" RUNNING
	gb_wait 5 test -s tl.pid
	gb_wait_state "$id" TIMEOUT 10
	gb_wait 5 gb_pid_gone "$(cat tl.pid)"
}

@test "cancel kills the whole process group, even a child ignoring SIGTERM" {
	gb_cluster
	# dash has no $BASHPID: the child writes its own pid ($$ of its sh).
	id=$(gb_submit --wrap "sh -c 'trap \"\" TERM; echo \$\$ >child.pid; exec sleep 300' & wait")
	gb_wait_state "$id" RUNNING
	gb_wait 5 test -s child.pid
	child=$(cat child.pid)
	run gcancel "$id"
	[ "$status" -eq 0 ]
	# SIGTERM leaves the child; only SIGKILL after kill_wait (2 s) ends it.
	sleep 0.5
	run ! gb_pid_gone "$child"
	gb_wait_state "$id" CANCELLED 10
	gb_pid_gone "$child"
}

@test "gcancel -s USR1 delivers the signal and the job keeps running" {
	gb_cluster
	id=$(gb_submit --wrap 'trap "echo got-usr1" USR1; touch ready; while :; do sleep 0.05; done')
	gb_wait_state "$id" RUNNING
	gb_wait 5 test -e ready
	run gcancel -s USR1 "$id"
	[ "$status" -eq 0 ]
	gb_wait 5 grep -q got-usr1 "$(gb_job_out "$id")"
	gb_state_is "$id" RUNNING
	run gcancel "$id"
	gb_wait_state "$id" CANCELLED 10
}

@test "jobs survive gnoded kill -9 and restart; the end is reported" {
	gb_cluster
	id=$(gb_submit -G 4 --wrap 'touch started; while [ ! -e release ]; do sleep 0.05; done; exit 3')
	gb_wait_state "$id" RUNNING
	gb_wait 5 test -e started
	node=$(gq -j "$id" --noheader -o nodelist 2>/dev/null || true)
	[ -n "$node" ] || node=$(gq -j "$id" --json | grep -o '"nodes": *"n[12]"' | grep -o 'n[12]')
	eval "pid=\$GB_NODE_PID_$node"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	touch release
	# The job ends while its gnoded is away; the restarted one reports it.
	gnoded -D -f "$GBATCH_CONF" -n "$node" -g 4 -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-$node" -L "$GB_DIR/gnoded-$node.log" &
	GB_NODE_PIDS+=($!)
	gb_wait_state "$id" FAILED 15
	run gq -j "$id" --json
	echo "$output"
	[[ "$output" == *'"exit_code":3'* || "$output" == *'"exit_code": 3'* ]]
}

@test "a job keeps running across a gnoded restart and then COMPLETES" {
	gb_cluster
	id=$(gb_submit --wrap 'touch started; while [ ! -e release ]; do sleep 0.05; done')
	gb_wait_state "$id" RUNNING
	gb_wait 5 test -e started
	for n in n1 n2; do
		eval "pid=\$GB_NODE_PID_$n"
		kill -TERM "$pid"
		wait "$pid" 2>/dev/null || true
	done
	gnoded -D -f "$GBATCH_CONF" -n n1 -g 4 -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-n1" -L "$GB_DIR/gnoded-n1.log" &
	GB_NODE_PIDS+=($!)
	gnoded -D -f "$GBATCH_CONF" -n n2 -g 4 -c "$GB_CTL_ADDR" \
	    -d "$GB_DIR/node-n2" -L "$GB_DIR/gnoded-n2.log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 gb_node_is_up n2
	gb_state_is "$id" RUNNING
	touch release
	gb_wait_state "$id" COMPLETED 10
}

@test "a --no-requeue job gets no GBATCH_CKPT_DIR and no checkpoint directory" {
	gb_cluster
	id=$(gb_submit --no-requeue -o nr.out \
	    --wrap 'env | grep "^GBATCH_CKPT_DIR="; ls -A')
	gb_wait_state "$id" COMPLETED
	cat nr.out
	# Looked at while the job ran, and after.
	[ "$(grep -c GBATCH_CKPT_DIR nr.out)" -eq 0 ]
	[ "$(grep -cx .gbatch nr.out)" -eq 0 ]
	[ ! -e .gbatch ]
}

@test "a job that writes no checkpoint leaves no .gbatch behind, however it ends" {
	gb_cluster
	a=$(gb_submit -o a.out \
	    --wrap 'test -d "$GBATCH_CKPT_DIR" && echo "made $GBATCH_CKPT_DIR"')
	b=$(gb_submit -o b.out --wrap 'exit 3')
	c=$(gb_submit -o c.out --wrap 'touch c.started; exec sleep 30')
	gb_wait_state "$a" COMPLETED
	gb_wait_state "$b" FAILED
	gb_wait 10 test -e c.started
	gcancel "$c"
	gb_wait_state "$c" CANCELLED
	# It was there while the job ran; its end is reported once it is gone.
	grep -qx "made $GB_DIR/work/.gbatch/ckpt/$a" a.out
	[ ! -e .gbatch ]
}

@test "a checkpoint is kept; a requeued job's next run has its directory again" {
	gb_cluster
	mkdir .gbatch
	echo mine >.gbatch/notes
	a=$(gb_submit -o a.out --wrap 'echo saved >"$GBATCH_CKPT_DIR/state"')
	gb_wait_state "$a" COMPLETED
	[ "$(cat ".gbatch/ckpt/$a/state")" = saved ]
	# Run 0 writes nothing and is requeued; run 1 finds the directory.
	cmd='test -d "$GBATCH_CKPT_DIR" && echo "run $GBATCH_RESTART_COUNT"'
	b=$(gb_submit -o b.out \
	    --wrap "$cmd; [ \$GBATCH_RESTART_COUNT -gt 0 ] || exec sleep 30")
	gb_wait 10 grep -qx "run 0" b.out
	gctl requeue "$b"
	gb_wait_state "$b" COMPLETED 20
	grep -qx "run 1" b.out
	[ ! -e ".gbatch/ckpt/$b" ]
	# What the user keeps there is left alone.
	[ "$(cat ".gbatch/ckpt/$a/state")" = saved ]
	[ "$(cat .gbatch/notes)" = mine ]
}

# conf_line KEY: the line of gbatch.conf that holds KEY.
conf_line() {
	grep -n -m 1 -- "$1" "$GBATCH_CONF" | cut -d: -f1
}

@test "gnoded refuses a typo in the node group (gpuz = 4), naming line, key and the keys accepted" {
	gb_write_conf '' 'gpuz = 4;'
	run gnoded -D -n n1 -d "$GB_DIR/node-x"
	[ "$status" -eq 2 ]
	[[ "$output" == *"gnoded: $GBATCH_CONF: line $(conf_line gpuz): node.gpuz: unknown key; expected name, controller, state_dir, socket, switch, gpu_model, gpu_source, gpu_use_file, gpus, cpus, memory_mb, gpu_shards, mps_control, cgroups, cgroup, job_pids_max, gpu_device, gpu_cpus, heartbeat_interval, kill_wait, allow_root_jobs, slurm_env, clean_shm or log_level"* ]]
	[ ! -e "$GB_DIR/node-x" ]
}

@test "gnoded refuses an mps_control that is neither a name nor an absolute path, naming what is accepted" {
	gb_write_conf '' 'mps_control = "bin/mps";'
	run -2 gnoded -D -n n1 -d "$GB_DIR/node-x"
	[[ "$output" == *"line $(conf_line mps_control): node.mps_control: expected \"\" (no MPS), a program's name on PATH or an absolute path of letters, digits and '/-_.+', e.g. \"nvidia-cuda-mps-control\", got \"bin/mps\""* ]]
	gb_write_conf '' 'mps_control = "mps; rm -rf /";'
	run -2 gnoded -D -n n1 -d "$GB_DIR/node-x"
	[[ "$output" == *"node.mps_control: expected"*"got \"mps; rm -rf /\""* ]]
	[ ! -e "$GB_DIR/node-x" ]
}

@test "gnoded's errors for gpu_source and log_level carry their line" {
	gb_write_conf '' 'gpu_source = "gpu";'
	run -2 gnoded -D -n n1
	[[ "$output" == *"line $(conf_line gpu_source): node.gpu_source: expected \"auto\", \"nvml\" or \"simulated\", got \"gpu\""* ]]
	gb_write_conf
	sed -i '/^node = {/,$ s/log_level = "debug";/log_level = "chatty";/' "$GBATCH_CONF"
	run -2 gnoded -D -n n1
	[[ "$output" == *"line $(conf_line chatty): node.log_level: expected \"error\", \"warn\", \"info\" or \"debug\", got \"chatty\""* ]]
	gb_write_conf '' 'gpus = "4";'
	run -2 gnoded -D -n n1
	[[ "$output" == *"node.gpus: expected the number of simulated GPUs, a whole number from 0 to 64, got \"4\""* ]]
}

@test "a node that finds no GPU and has no gpus setting refuses to start, saying why" {
	gb_start_controller
	gb_write_conf '' 'gpu_source = "simulated";'
	run -1 gnoded -D -n n1 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n1"
	[[ "$output" == *'node n1: no GPUs found: gpu_source is "simulated" and node.gpus is not set; set node.gpus = N (simulated GPUs) or node.gpus = 0 (a node without GPUs)'* ]]
	run gnodes --noheader
	[[ "$output" != *n1* ]]
}

@test "with gpu_source auto and no NVML, a node without gpus refuses to start" {
	if ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
		skip "NVML is installed here, so the node finds its GPUs"
	fi
	gb_start_controller
	run -1 gnoded -D -n n1 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n1"
	[[ "$output" == *"node n1: no GPUs found: NVML is not usable (libnvidia-ml.so.1"*") and node.gpus is not set; set node.gpus = N (simulated GPUs) or node.gpus = 0 (a node without GPUs)"* ]]
}

@test "gpus = 0 written, or -g 0, makes a node without GPUs" {
	gb_start_controller
	gb_write_conf '' 'gpus = 0;'
	gb_tls_issue n0
	gnoded -D -n n0 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n0" \
	    -L "$GB_DIR/gnoded-n0.log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 gb_node_is_up n0
	gb_start_node g0 0
	for n in n0 g0; do
		run -0 gnodes --noheader -N "$n" -o name,gpus
		read -r name gpus <<<"$output"
		[ "$name" = "$n" ]
		[ "$gpus" = 0/0 ]
	done
}

@test "node names are checked from the file, -n and the host name" {
	gb_write_conf '' 'name = "gpu 01";'
	run -2 gnoded -D -g 1
	[[ "$output" == *"line $(conf_line 'gpu 01'): node.name: expected 1-64 letters, digits, '-', '_' or '.', got \"gpu 01\""* ]]
	gb_write_conf
	run -2 gnoded -D -g 1 -n 'n/1'
	[[ "$output" == *"gnoded: -n: expected 1-64 letters, digits, '-', '_' or '.', got \"n/1\""* ]]
	run -2 gnoded -D -g 1 -n "$(printf 'n%.0s' $(seq 65))"
	[[ "$output" == *"-n: expected 1-64 letters"* ]]
}

@test "a host name that is not a node name asks for node.name or -n" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to give gnoded its own host name (unshare -u)"
	unshare -u true 2>/dev/null || skip "unshare -u is not permitted here"
	gb_write_conf
	gb_tls_issue gpu1
	gb_tls_issue gpu-01.example
	run -1 unshare -u sh -c 'echo "gpu#1" >/proc/sys/kernel/hostname && exec gnoded --check-config -g 1'
	[[ "$output" == *'gnoded: node name: the host name "gpu#1" is not a node name (1-64 letters, digits, '"'-', '_' or '.'"'); set node.name or give -n NAME'* ]]
	run -0 unshare -u sh -c 'echo "gpu#1" >/proc/sys/kernel/hostname && exec gnoded --check-config -g 1 -n gpu1'
	run -0 unshare -u sh -c 'echo "gpu-01.example" >/proc/sys/kernel/hostname && exec gnoded --check-config -g 1'
}

@test "gnoded beats at the interval gbatchd names, not at its own heartbeat_interval" {
	# gbatchd asks for a beat a second (a third of node_timeout); left
	# to its own 30 s, the node would be marked down after 3 s.
	GB_NODE_TIMEOUT=3 gb_write_conf
	sed -i 's/heartbeat_interval = 1;/heartbeat_interval = 30;/' "$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 4
	gb_wait 10 grep -q "node n1: a heartbeat every 1 s, as the controller asks (heartbeat_interval is 30 s)" "$GB_DIR/gnoded-n1.log"
	gb_wait 10 eval '[ "$(grep -c NODE_HEARTBEAT "$GB_DIR/gbatchd.log")" -ge 5 ]'
	gb_node_is_up n1
	run -1 grep -q "node n1: down" "$GB_DIR/gbatchd.log"
}

@test "gnoded --check-config prints FILE: OK and starts nothing" {
	gb_write_conf '' 'controller = [ "ctl1.example:6820", "[::1]:6820" ];'
	run -0 --separate-stderr gnoded --check-config -n n1 -d "$GB_DIR/node-c"
	[ "$output" = "$GBATCH_CONF: OK" ]
	[ -z "$stderr" ]
	[ ! -e "$GB_DIR/node-c" ]
	run -0 gnoded -C -n n1 -c 127.0.0.1:1,127.0.0.1:2 -c '[::1]:3'
	[ "$output" = "$GBATCH_CONF: OK" ]
}

@test "gnoded --check-config exits 1 with the error on stderr" {
	gb_write_conf '' 'controller = [ "ctl1.example:6820", "ctl2.example" ];'
	run -1 --separate-stderr gnoded --check-config -n n1
	[ -z "$output" ]
	[ "$stderr" = "gnoded: $GBATCH_CONF: line $(conf_line ctl2): node.controller: element 2: expected HOST:PORT with a port of 1-65535, got \"ctl2.example\"" ]
	gb_write_conf '' 'controller = [ ];'
	run -1 --separate-stderr gnoded --check-config -n n1
	[[ "$stderr" == *'node.controller: expected HOST:PORT or a list of them, as [ "host1:6820", "host2:6820" ], got an empty list' ]]
	gb_write_conf
	run -1 --separate-stderr gnoded --check-config -n n1 -c 127.0.0.1:1,ctl
	[ "$stderr" = 'gnoded: -c: expected HOST:PORT with a port of 1-65535, got "ctl"' ]
	run -1 --separate-stderr gnoded --check-config -f "$GB_DIR/nope.conf"
	[ "$stderr" = "gnoded: $GB_DIR/nope.conf: No such file or directory" ]
	run -2 gnoded --check-config --bogus
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# registered N LOG: the node registered N times or more.
registered() {
	[ "$(grep -c 'registered with' "$2")" -ge "$1" ]
}

@test "gnoded tries its controllers in turn and comes back after a restart" {
	gb_start_controller
	dead=127.0.0.1:$(free_port)
	log="$GB_DIR/gnoded-n1.log"
	gb_write_conf '' "controller = [ \"$dead\", \"$GB_CTL_ADDR\" ];"
	gnoded -D -n n1 -g 2 -d "$GB_DIR/node-n1" -L "$log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 gb_node_is_up n1
	grep -q "controller $dead: cannot connect: .* (trying the next)" "$log"
	grep -q "controller $GB_CTL_ADDR: connected" "$log"
	run ! grep -q "controller $dead: connected" "$log"
	# The controller restarts on its port: the node goes through the
	# dead address again and registers once more.
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	gb_start_controller -l "$GB_CTL_ADDR"
	gb_wait 20 registered 2 "$log"
	gb_wait 10 gb_node_is_up n1
	[ "$(grep -c "controller $GB_CTL_ADDR: connected" "$log")" -eq 2 ]
}

@test "gnoded -c takes several controllers, repeated or comma-separated" {
	gb_start_controller
	dead=127.0.0.1:$(free_port)
	gnoded -D -n n1 -g 1 -c "$dead" -c "$GB_CTL_ADDR" -d "$GB_DIR/node-n1" \
	    -L "$GB_DIR/gnoded-n1.log" &
	GB_NODE_PIDS+=($!)
	gnoded -D -n n2 -g 1 -c "$dead,$GB_CTL_ADDR" -d "$GB_DIR/node-n2" \
	    -L "$GB_DIR/gnoded-n2.log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 gb_node_is_up n1
	gb_wait 10 gb_node_is_up n2
	for n in n1 n2; do
		grep -q "controller $dead: cannot connect" "$GB_DIR/gnoded-$n.log"
		grep -q "controller $GB_CTL_ADDR: connected" "$GB_DIR/gnoded-$n.log"
	done
}

@test "gnoded resolves the controller's name again on every reconnect" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to give gnoded its own /etc/hosts (unshare -m)"
	unshare -m true 2>/dev/null || skip "unshare -m is not permitted here"
	hosts="$GB_DIR/hosts"
	log="$GB_DIR/gnoded-n1.log"
	echo "127.0.0.2 gbt-ctl" >"$hosts"
	gb_start_controller -l 127.0.0.2:0
	port=${GB_CTL_ADDR##*:}
	# Only gnoded sees this hosts file, through a bind mount in its own
	# mount namespace; writing the file in place changes what it sees.
	unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec gnoded "$@"' \
	    sh "$hosts" -D -n n1 -g 1 -c "gbt-ctl:$port" -d "$GB_DIR/node-n1" \
	    -L "$log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 gb_node_is_up n1
	# The controller moves to another address under the same name.
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	echo "127.0.0.3 gbt-ctl" >"$hosts"
	gb_start_controller -l "127.0.0.3:$port"
	gb_wait 20 registered 2 "$log"
	gb_wait 10 gb_node_is_up n1
	[ "$(grep -c "controller gbt-ctl:$port: connected" "$log")" -eq 2 ]
}

@test "a job's checkpoint directory is removed as its user: a symlink it plants leads root nowhere" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	gb_cluster
	GB_USER=gbt$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0755 "$GB_DIR"
	mkdir "$GB_DIR/u" "$GB_DIR/victim"
	chown "$GB_USER" "$GB_DIR/u"
	# The job swaps its ckpt folder for a link to a root-owned directory
	# holding an empty one of the job's id, the one removed at its end.
	cat >"$GB_DIR/u/swap.sh" <<'SCRIPT'
#!/bin/sh
until [ -e go ]; do sleep 0.05; done
rmdir "$GBATCH_CKPT_DIR" && rmdir "$(dirname "$GBATCH_CKPT_DIR")" &&
    ln -s "$VICTIM" "$(dirname "$GBATCH_CKPT_DIR")" && echo swapped
SCRIPT
	chmod 0755 "$GB_DIR/u/swap.sh"
	id=$(su -s /bin/sh "$GB_USER" -c "cd '$GB_DIR/u' && VICTIM='$GB_DIR/victim' PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gsub --parsable -o out.txt ./swap.sh")
	gb_wait_state "$id" RUNNING
	mkdir "$GB_DIR/victim/$id"
	touch "$GB_DIR/u/go"
	gb_wait_state "$id" COMPLETED 20
	grep -qx swapped "$GB_DIR/u/out.txt"
	[ -L "$GB_DIR/u/.gbatch/ckpt" ]
	# Root would have followed the link; the job's user may not.
	[ -d "$GB_DIR/victim/$id" ]
}

@test "a launch the node refuses leaves an audit line in gnoded's log" {
	gb_write_conf
	# The controller takes root's job; the node does not run it.
	sed -i '/^node = {/,/^};/s/allow_root_jobs = true;/allow_root_jobs = false;/' "$GBATCH_CONF"
	gb_cluster
	id=$(gb_submit --wrap true)
	gb_wait_state "$id" FAILED 20
	gb_wait 10 grep -q "audit: refused launch of job $id as root (uid 0) from the controller: root jobs are not allowed" \
	    "$GB_DIR"/gnoded-n*.log
}
