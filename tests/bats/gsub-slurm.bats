#!/usr/bin/env bats
# gsub-slurm.bats: sbatch's options and #SBATCH lines, as a Slurm user's
# scripts use them. Each option is honoured, mapped to gsub's own, or
# refused with a message of its own; none is unknown, none is ignored.
# What a job got is read back with gq, never from gsub's output.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	WAITERS=()
}

teardown() {
	local p
	for p in "${WAITERS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	gb_teardown
}

# script FILE LINES...: a job script with a shebang.
script() {
	local f=$1
	shift
	{ echo '#!/bin/sh'; printf '%s\n' "$@"; } >"$f"
}

# field ID FIELD: one gq field of a job.
field() {
	gq -h -t all -j "$1" -o "$2"
}

# refused OPTION [VALUE]: gsub refuses --OPTION (=VALUE) on its command
# line and in an #SBATCH line, as a usage error naming the option, with a
# message of its own (not getopt's). Leaves the message in $why.
refused() {
	local opt=$1 arg=${2+=$2}
	run -2 gsub "--$opt$arg" --wrap true
	[[ "$output" == "gsub: --$opt"*": "* ]] || { echo "$output"; return 1; }
	[[ "$output" != *"unknown or ambiguous"* ]] || { echo "$output"; return 1; }
	why=${output#"gsub: --$opt: "}
	why=${why%%$'\n'*}
	script s.sh "#SBATCH --$opt$arg" true
	run -2 gsub s.sh
	[[ "$output" == "gsub: s.sh:2: #SBATCH --$opt"*": $why" ]] || { echo "$output"; return 1; }
}

@test "sbatch's common options are never unknown: each is taken or refused with why" {
	gb_start_controller
	# The options a Slurm user's scripts carry (sbatch(1)), with a value
	# gbatch takes where it takes one.
	for o in gres=gpu:1 gpus=1 gpus-per-node=1 gpus-per-task=1 nodes=1 \
	    ntasks=1 ntasks-per-node=1 time=5 job-name=x output=o.txt \
	    error=e.txt chdir=. export=ALL hold parsable requeue no-requeue \
	    quiet open-mode=truncate spread-job use-min-nodes ignore-pbs \
	    wait-all-nodes=1 account=a comment=c begin=now+60 \
	    dependency=afterok:1 kill-on-invalid-dep=yes signal=B:USR1@60 \
	    array=0-3%2 cpus-per-task=1 cpus-per-gpu=1 mem=100M \
	    mem-per-gpu=100M ntasks-per-node=gpu partition=gbatch qos=normal \
	    nice=5; do
		run -0 gsub -H "--$o" --wrap true
	done
	run -0 gsub -H -b now --wrap true
	run -0 gsub -H -d afterany:1 --wrap true
	for o in \
	    mail-type=END mail-user=a@b mem-per-cpu=1G \
	    constraint=a100 licenses=l clusters=c no-kill \
	    exclusive oversubscribe uid=1 gid=1 get-user-env input=in.txt \
	    deadline=now time-min=5 gpu-bind=closest distribution=block \
	    hint=nomultithread threads-per-core=1 tmp=10G switches=1 \
	    propagate verbose; do
		if [[ $o == *=* ]]; then
			refused "${o%%=*}" "${o#*=}"
		else
			refused "$o"
		fi || { echo "--$o was not refused properly"; false; }
	done
	# The short spellings too.
	for o in \
	    "-C a100" "-k" "-s" "-i in.txt" "-v" "-L l" \
	    "-M c" "-m block"; do
		run -2 gsub $o --wrap true
		[[ "$output" == "gsub: --"[a-z]*": "* ]] || { echo "$o: $output"; false; }
	done
	# -p is gbatchd's to judge, against the partitions it has: here
	# gbatch's one alone, so another name is refused there, a line or
	# the command line alike, and nothing is submitted.
	before=$(gq -h -t all -o id | wc -l)
	run -1 gsub -p gpu --wrap true
	[ "$output" = 'gsub: partition "gpu": this cluster has no partitions but "gbatch", every node (leave -p out)' ]
	run -1 gsub -p gbatch,gpu --wrap true
	[ "$output" = 'gsub: partition "gbatch,gpu": this cluster has no partitions but "gbatch", every node (leave -p out)' ]
	script p.sh "#SBATCH -p gpu" true
	run -1 gsub p.sh
	[ "$output" = 'gsub: partition "gpu": this cluster has no partitions but "gbatch", every node (leave -p out)' ]
	# --qos likewise: without a qos group, normal alone.
	run -1 gsub -q high --wrap true
	[ "$output" = 'gsub: QOS "high": this cluster has no QOS but "normal" (leave --qos out)' ]
	script q.sh "#SBATCH --qos=high" true
	run -1 gsub q.sh
	[ "$output" = 'gsub: QOS "high": this cluster has no QOS but "normal" (leave --qos out)' ]
	[ "$(gq -h -t all -o id | wc -l)" = "$before" ]
	# What is no partition name at all is gsub's usage error.
	run -2 gsub -p 'g p' --wrap true
	[[ "$output" == "gsub: --partition: "* ]]
}

@test "refusals say what gbatch does instead, or that it has no such thing" {
	refused mail-type END
	[[ "$why" == *"gbatch sends no mail"*"gq"*"gtop"* ]]
	refused mem-per-cpu 16G
	[[ "$why" == *"CPUs and memory per GPU or per node"*"--mem-per-gpu"*"leave it out"* ]]
	refused exclusive
	[[ "$why" == *"all its GPUs"*"--consolidate"* ]]
	# Shapes: what cannot be one is refused before gbatchd is asked.
	run -2 gsub -N 2-4 --wrap true
	[[ "$output" == *'--nodes: "2-4" is a range; gbatch gives a job an exact number of nodes'*"-N 4"* ]]
	run -2 gsub -N 2 -G 5 --wrap true
	[[ "$output" == *"-N 2 -G 5: 5 GPUs do not split evenly over 2 nodes"* ]]
	run -2 gsub -N 2 --gpus-per-node 4 -G 6 --wrap true
	[[ "$output" == *"-G 6 disagrees with -N and --gpus-per-node 4 (8 GPUs in all)"* ]]
	run -2 gsub -N 2 --any-shape --wrap true
	[[ "$output" == *"--any-shape and -N/--gpus-per-node exclude each other"* ]]
	run -2 gsub -n 3 -N 2 -G 4 --wrap true
	[[ "$output" == *"--ntasks 3: gbatch starts the same tasks on each node"* ]]
	run -2 gsub --ntasks-per-node=two --wrap true
	[[ "$output" == *'--ntasks-per-node: expected a whole number from 1 to 1024, or gpu (one process per GPU), got "two"'* ]]
	run -2 gsub --gpu-bind=closest --wrap true
	[[ "$output" == *'--gpu-bind: expected none'*'got "closest"'* ]]
	run -2 gsub --gpu-bind=none -G 2 --wrap true
	[[ "$output" == *"--gpu-bind=none: every task sees all its node's GPUs already"* ]]
	run -2 gsub --gpus-per-node 65 --wrap true
	[[ "$output" == *'--gpus-per-node: expected a whole number from 1 to 64, got "65"'* ]]
	run -2 gsub --ntasks-per-core=2 --wrap true
	[[ "$output" == *"--ntasks-per-core: gbatch starts the same tasks on each node (--ntasks-per-node K or gpu)"* ]]
	run -2 gsub --gres=gpu:a/100:2 --wrap true
	[[ "$output" == *'--gres: expected gpu, gpu:N or gpu:TYPE:N with TYPE a GPU model'*'got "gpu:a/100:2"'* ]]
	run -2 gsub --gpus=:2 --wrap true
	[[ "$output" == *'--gpus: expected N or TYPE:N with TYPE a GPU model'*'got ":2"'* ]]
	# A type no node has is gbatchd's to refuse (nodes-chosen.bats).
	run -2 gsub --gres=mps:100 --wrap true
	[[ "$output" == *'--gres: gbatch schedules GPUs and their shards only; expected gpu, gpu:N or gpu:TYPE:N, or shard:N alone, got "mps:100"'* ]]
	run -2 gsub --gres=gpu:x --wrap true
	[[ "$output" == *'--gres: expected gpu, gpu:N or gpu:TYPE:N with N a whole number from 0 to 65536, got "gpu:x"'* ]]
	run -2 gsub --gres=gpu:2,gpu:1 --wrap true
	[[ "$output" == *'GPUs asked for twice'* ]]
	run -2 gsub --open-mode=sideways --wrap true
	[[ "$output" == *'--open-mode: expected append or truncate, got "sideways"'* ]]
	script s.sh '#SBATCH --usage' true
	run -2 gsub s.sh
	[[ "$output" == *"s.sh:2: #SBATCH --usage: not allowed in a script"* ]]
	script s.sh '#SBATCH' true
	run -2 gsub s.sh
	[[ "$output" == *"s.sh:2: #SBATCH: no option given"* ]]
	script s.sh '#SBATCH --gres=gpu:2 stray' true
	run -2 gsub s.sh
	[[ "$output" == *'s.sh:2: #SBATCH: unexpected "stray"; a #SBATCH line holds options only'* ]]
}

@test "an sbatch script runs with what its #SBATCH lines ask: GPUs, time limit, name, files" {
	gb_start_cluster
	# The issue's script: it ran with 1 GPU, no limit and the default
	# name, without a word.
	script job.sh '#SBATCH --gres=gpu:2 -t 0:05:00 -J x' \
	    '#SBATCH --output=out-%j.txt' \
	    '#SBATCH --requeue --open-mode=truncate' \
	    'echo "gpus=$CUDA_VISIBLE_DEVICES"'
	id=$(gb_submit job.sh)
	gb_wait_state "$id" COMPLETED 20
	[ "$(field "$id" gpus)" = 2 ]
	[ "$(field "$id" time_limit)" = 5:00 ]
	[ "$(field "$id" name)" = x ]
	[ "$(cat "out-$id.txt")" = "gpus=$(field "$id" gpu_ids | sed 's/^n[0-9]*://')" ]
	# sbatch's forms of a GPU count: --gpus, --gres=gpu (one), per task.
	for o in --gpus=3 --gres=gpu --gpus-per-task=2; do
		id=$(gb_submit -H "$o" --wrap true)
		want=${o##*[=:]}
		[ "$want" = gpu ] && want=1
		[ "$(field "$id" gpus)" = "$want" ] || { echo "$o: $(field "$id" gpus)"; false; }
	done
	# -Q prints nothing, and the job is there.
	run -0 gsub -Q -H -J quiet --wrap true
	[ -z "$output" ]
	[ "$(gq -h -t all -o name | grep -c '^quiet$')" = 1 ]
}

@test "the command line wins over #GSUB lines, #GSUB lines over #SBATCH lines, in any order" {
	gb_start_cluster
	script p.sh '#SBATCH -J sbatch -t 10 --gres=gpu:2' \
	    '#GSUB -J gsub' \
	    '#SBATCH -J sbatch-again -t 20' \
	    true
	id=$(gb_submit -H p.sh)
	[ "$(field "$id" name)" = gsub ]
	[ "$(field "$id" time_limit)" = 20:00 ]
	[ "$(field "$id" gpus)" = 2 ]
	id=$(gb_submit -H -J cmdline -G 3 p.sh)
	[ "$(field "$id" name)" = cmdline ]
	[ "$(field "$id" gpus)" = 3 ]
	# #SBATCH lines end where sbatch's end: at the first command.
	script q.sh 'echo hi' '#SBATCH -J late' true
	id=$(gb_submit -H q.sh)
	[ "$(field "$id" name)" = q.sh ]
	# A bad value in an #SBATCH line is an error with its line even
	# when the command line sets the option.
	script r.sh '#SBATCH -t soon' true
	run -2 gsub -t 5 r.sh
	[[ "$output" == *"r.sh:2: #SBATCH --time: "* ]]
}

@test "-N 1 and --gpus-per-node keep a job on one node: it waits rather than span two" {
	gb_start_cluster
	a=$(gb_submit -G 3 --wrap 'sleep 30')
	gb_wait_state "$a" RUNNING 20
	b=$(gb_submit -G 3 --wrap 'sleep 30')
	gb_wait_state "$b" RUNNING 20
	# One GPU is free on each node: a plain 2-GPU job spans both.
	[ "$(field "$a" nodes)" != "$(field "$b" nodes)" ]
	script one.sh '#SBATCH -N 1 --gres=gpu:2' 'sleep 30'
	c=$(gb_submit one.sh)
	script pernode.sh '#SBATCH --nodes=1 --gpus-per-node=2' 'sleep 30'
	d=$(gb_submit pernode.sh)
	e=$(gb_submit -G 2 --wrap 'sleep 30')
	gb_wait_state "$e" RUNNING 20
	[ "$(field "$e" nodes)" = "n1,n2" ]
	[ "$(gb_state "$c")" = PENDING ]
	[ "$(gb_state "$d")" = PENDING ]
	[ "$(field "$d" gpus)" = 2 ]
	# A node frees up: each gets one node.
	gcancel "$a" "$e"
	gb_wait_state "$c" RUNNING 20
	[[ "$(field "$c" nodes)" != *,* ]]
}

@test "gsub --help carries the Slurm-to-gbatch table" {
	run -0 gsub --help
	[[ "$output" == *"#GSUB line wins over an #SBATCH line, the command line over both"* ]]
	[[ "$output" == *"--gres=gpu[:TYPE]:N"*"-G [TYPE:]N"* ]]
	[[ "$output" == *"the same in gsub: "*"nodes"*"ntasks-per-node"* ]]
	[[ "$output" == *"refused, each saying why and the gbatch way:"*"mail-type"* ]]
}

@test "gsub(1) documents each sbatch option gsub --help lists" {
	page=$GBATCH_BUILDDIR/man/gsub.1
	run -0 gsub --help
	names=$(sed -n '/^  the same in gsub: /,/^      --/p; /^  refused, each/,/^$/p' <<<"$output" |
	    sed 's/^.*: //' | grep -o '[a-z][a-z-]*' | grep -v '^--')
	[ "$(wc -w <<<"$names")" -gt 60 ]
	for n in $names; do
		# As troff writes it: \-\-name, each - escaped.
		pat="\\-\\-${n//-/\\-}"
		grep -qF -- "$pat" "$page" ||
		    { echo "gsub(1) does not mention --$n ($pat)"; false; }
	done
}

@test "-A/--account and --comment are kept with the job; gacct -A selects by account" {
	gb_start_cluster
	script acct.sh '#SBATCH -A vision --comment "sweep 3, lr 0.1"' true
	a=$(gb_submit acct.sh)
	b=$(gb_submit --account=nlp --wrap true)
	c=$(gb_submit --wrap true)
	for id in "$a" "$b" "$c"; do
		gb_wait_state "$id" COMPLETED 20
	done
	[ "$(field "$a" account)" = vision ]
	[ "$(gq -h -t all -j "$a" -o comment)" = "sweep 3, lr 0.1" ]
	[ "$(field "$b" account)" = nlp ]
	# None: gq shows an empty field as "-".
	[ "$(field "$c" account)" = - ]
	run -0 gq -l "$a"
	[[ "$output" == *"account:"*"vision"* ]]
	# The command line wins over the script's account.
	d=$(gb_submit -H -A other acct.sh)
	[ "$(field "$d" account)" = other ]
	# Accounting: the field, and -A as sacct's.
	run -0 gacct -S now-1hour -P -n -o id,account
	[[ "$output" == *"$a|vision"* && "$output" == *"$b|nlp"* && "$output" == *"$c|"* ]]
	run -0 gacct -S now-1hour -A vision,nlp -P -n -o id
	[ "$(sort -n <<<"$output" | paste -sd' ')" = "$(printf '%s\n' "$a" "$b" | sort -n | paste -sd' ')" ]
	run -0 gacct -S now-1hour --accounts nlp -P -n -o id
	[ "$output" = "$b" ]
	# Names gacct can select by: plain letters, refused otherwise, by
	# gsub and by gbatchd alike.
	run -2 gsub -A 'my account' --wrap true
	[[ "$output" == *"--account: expected 1 to 64 letters, digits, '.', '-' or '_', got \"my account\""* ]]
	run -2 gacct -A 'a;b'
	[[ "$output" == *"--accounts: expected account names"* ]]
	run -2 gacct --report users -A vision
	[[ "$output" == *"-A/--accounts does not apply"* ]]
	python3 - "$GBATCH_SOCKET" <<'PY'
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
def call(msg):
    b = json.dumps(msg).encode()
    s.sendall(struct.pack(">I", len(b)) + b)
    n = struct.unpack(">I", s.recv(4, socket.MSG_WAITALL))[0]
    return json.loads(s.recv(n, socket.MSG_WAITALL))
call({"type": 100, "version": 1, "role": "client"})
r = call({"type": 200, "job": {"script": "#!/bin/sh\ntrue\n", "workdir": "/",
     "account": "a b"}})
assert not r["ok"] and "account: expected 1 to 64 letters" in r["message"], r
r = call({"type": 200, "job": {"script": "#!/bin/sh\ntrue\n", "workdir": "/",
     "comment": "x" * 1025}})
assert not r["ok"] and "comment: longer than 1024 bytes" in r["message"], r
PY
}


@test "jobs see the SLURM_* variables of their GBATCH_* ones; node.slurm_env = false turns them off" {
	gb_start_cluster
	# An 8-GPU job on the two 4-GPU nodes: a part per node, each
	# writing its own file (%t, its rank).
	script env.sh 'env | grep -E "^(SLURM|SLURMD|GBATCH|CUDA_VISIBLE)" | sort' \
	    'echo "host=$(hostname)"'
	id=$(SLURM_ARRAY_TASK_ID=9 SLURM_CPUS_ON_NODE=64 gb_submit -G 8 -J envjob -o 'env-%t.txt' env.sh)
	gb_wait_state "$id" COMPLETED 20
	for t in 0 1; do
		python3 - "env-$t.txt" "$t" "$id" "$GB_DIR/work" <<'PY' || false
import sys
path, rank, job, _ = sys.argv[1:]
env = dict(l.rstrip("\n").split("=", 1) for l in open(path) if "=" in l and not l.startswith("host="))
g = lambda k: env[k]
# Each SLURM_* variable says what its GBATCH_* one says.
assert g("SLURM_JOB_ID") == g("SLURM_JOBID") == g("GBATCH_JOB_ID") == job, env
assert g("SLURM_JOB_NAME") == g("GBATCH_JOB_NAME") == "envjob", env
assert g("SLURM_SUBMIT_DIR") == g("GBATCH_SUBMIT_DIR"), env
assert g("SLURM_JOB_NODELIST") == g("SLURM_NODELIST") == g("GBATCH_NODELIST") == "n1,n2", env
assert g("SLURM_NNODES") == g("SLURM_JOB_NUM_NODES") == g("GBATCH_NUM_NODES") == "2", env
# One task per node: a node's rank is its task's.
assert g("SLURM_NTASKS") == g("SLURM_NPROCS") == "2", env
assert g("SLURM_NTASKS_PER_NODE") == "1" and g("SLURM_LOCALID") == "0", env
assert g("SLURM_NODEID") == g("SLURM_PROCID") == g("GBATCH_NODE_RANK") == rank, env
assert g("SLURMD_NODENAME") == "n%d" % (int(rank) + 1), env
assert g("SLURM_GPUS_ON_NODE") == "4" and g("SLURM_JOB_GPUS") == g("CUDA_VISIBLE_DEVICES"), env
assert g("SLURM_RESTART_COUNT") == g("GBATCH_RESTART_COUNT") == "0", env
assert g("SLURM_JOB_USER") == "root" and g("SLURM_JOB_UID") == "0", env
# What the submitter's shell had of Slurm's is not the job's.
assert "SLURM_ARRAY_TASK_ID" not in env, env
# The node's CPUs are the job's share of them, not the submitter's 64.
assert g("SLURM_CPUS_ON_NODE") == g("GBATCH_CPUS") != "64", env
# Per node in Slurm's "N(xM)" form; one task a node has them all.
assert g("SLURM_JOB_CPUS_PER_NODE") == g("GBATCH_CPUS") + "(x2)", env
assert g("SLURM_CPUS_PER_TASK") == g("GBATCH_CPUS"), env
assert g("SLURM_TASKS_PER_NODE") == "1(x2)", env
assert g("SLURM_JOB_PARTITION") == "gbatch", env
PY
	done
	# Off, on a node started with it off (the others drained): the
	# GBATCH_* ones only.
	sed -i '/^node = {/,/^};/ s/^  log_level = "debug";/&\n  slurm_env = false;/' "$GBATCH_CONF"
	grep -q "slurm_env = false" "$GBATCH_CONF"
	gb_start_node n3 1
	gctl drain n1 >/dev/null
	gctl drain n2 >/dev/null
	off=$(gb_submit -G 1 -o off.txt env.sh)
	gb_wait_state "$off" COMPLETED 20
	[ "$(field "$off" nodes)" = n3 ]
	grep -q "^GBATCH_JOB_ID=$off$" off.txt
	[ "$(grep -c '^SLURM' off.txt)" = 0 ]
}

@test "gsub --wait returns when the job ends, with its exit status, saying why when it did not complete" {
	gb_start_cluster
	run -0 gsub --wait -J ok --wrap 'sleep 1'
	[[ "$output" =~ ^Submitted\ job\ [0-9]+$ ]]
	ok=${output##* }
	# It returned once the job had ended, not before.
	[ "$(field "$ok" state)" = COMPLETED ]
	run -3 --separate-stderr gsub -W --wrap 'exit 3'
	[[ "$stderr" =~ ^gsub:\ job\ [0-9]+\ FAILED:\ exited\ with\ status\ 3$ ]]
	run -137 --separate-stderr gsub --parsable -W --wrap 'kill -KILL $$'
	[[ "$output" =~ ^[0-9]+$ ]]
	[[ "$stderr" == "gsub: job $output FAILED: killed by signal 9"* ]]
	run -143 --separate-stderr gsub -W -t 0:02 --wrap 'sleep 60'
	[[ "$stderr" == *"TIMEOUT: time limit of 0:02 reached"* ]]
	# As in an #SBATCH line; cancelled meanwhile.
	script w.sh '#SBATCH --wait' 'sleep 60'
	gsub --parsable w.sh >w.out 2>w.err 3>&- &
	waiter=$!
	WAITERS+=("$waiter")
	gb_wait 10 test -s w.out
	id=$(cat w.out)
	gb_wait_state "$id" RUNNING 20
	gcancel "$id"
	rc=0
	wait "$waiter" || rc=$?
	[ "$rc" = 143 ]
	grep -q "^gsub: job $id CANCELLED: " w.err
}

@test "a wait outlives a controller restart; gq --wait waits for jobs already submitted" {
	gb_start_cluster
	a=$(gb_submit --wrap 'sleep 3')
	b=$(gb_submit --wrap 'sleep 3; exit 5')
	# Not holding bats' own descriptor (3): a wait left behind by a
	# failure must not hold up the run; teardown ends them.
	gsub --wait --wrap 'sleep 4' >gw.out 2>gw.err 3>&- &
	gw=$!
	WAITERS+=("$gw")
	gq --wait "$a" "$b" >qw.out 2>qw.err 3>&- &
	qw=$!
	WAITERS+=("$qw")
	gb_wait 10 test -s gw.out
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	# Both notice, and go on waiting.
	gb_wait 10 grep -q "^gsub: .*; still waiting" gw.err
	gb_wait 10 grep -q "^gq: .*; still waiting" qw.err
	gb_start_controller -l "$GB_CTL_ADDR"
	rc=0
	wait "$gw" || rc=$?
	[ "$rc" = 0 ] || { cat gw.err; false; }
	rc=0
	wait "$qw" || rc=$?
	[ "$rc" = 5 ]
	[ "$(grep -v 'still waiting' qw.err)" = "gq: job $b FAILED: exited with status 5" ]
	[ "$(field "$a" state)" = COMPLETED ]
	run -0 gq --wait -j "$a"
	run -1 gq --wait 999999
	[[ "$output" == *"job 999999: no such job"* ]]
	run -2 gq --wait
	[[ "$output" == *"--wait: which jobs? expected job ids"* ]]
}

@test "--begin holds a job back until its time: BeginTime, then it runs; a time gone by runs at once" {
	gb_start_cluster
	t0=$(date +%s)
	late=$(gb_submit --begin now+3 --wrap 'date +%s > begun.txt')
	[ "$(gq -h -j "$late" -o state,reason | awk '{ print $1, $2 }')" = "PENDING BeginTime" ]
	[ "$(gq -h -j "$late" -o queue)" = - ]
	# gq shows the begin time as it shows any time.
	want=$(date -d "@$((t0 + 3))" +%Y-%m-%dT%H:%M:%S)
	got=$(field "$late" begin_time)
	[ "$got" = "$want" ] || [ "$got" = "$(date -d "@$((t0 + 4))" +%Y-%m-%dT%H:%M:%S)" ]
	past=$(gb_submit --begin 2000-01-01 --wrap true)
	gb_wait_state "$past" COMPLETED 20
	gb_wait_state "$late" COMPLETED 30
	# Not before its time; the wait counts from then, not from submit.
	[ "$(cat begun.txt)" -ge $((t0 + 3)) ]
	[[ "$(field "$late" queue_delay)" == 0:0[0-2] ]]
}

@test "--begin in #SBATCH lines, a held job released before its time, a restart in between" {
	gb_start_cluster
	script s.sh '#SBATCH --begin=now+4' '#SBATCH -J later' 'date +%s > s.txt'
	t0=$(date +%s)
	a=$(gb_submit s.sh)
	b=$(gb_submit -H --begin now+4 --wrap 'date +%s > h.txt')
	[ "$(field "$a" reason)" = BeginTime ]
	[ "$(field "$b" state)" = HELD ]
	gctl release "$b"
	[ "$(gq -h -j "$b" -o state,reason | awk '{ print $1, $2 }')" = "PENDING BeginTime" ]
	# gbatchd restarts: the begin times are kept, not forgotten.
	gctl shutdown >/dev/null
	wait "$GB_CTL_PID" || true
	gb_start_controller
	gb_wait 10 gb_node_is_up n1
	[ "$(field "$a" reason)" = BeginTime ]
	[ "$(field "$b" reason)" = BeginTime ]
	gb_wait_state "$a" COMPLETED 30
	gb_wait_state "$b" COMPLETED 30
	[ "$(cat s.txt)" -ge $((t0 + 4)) ]
	[ "$(cat h.txt)" -ge $((t0 + 4)) ]
	[ "$(field "$a" name)" = later ]
}

@test "--begin refuses what is no time, saying what it takes" {
	run -2 gsub --begin tomorow --wrap true
	[[ "$output" == 'gsub: --begin: "tomorow": expected YYYY-MM-DD[THH:MM[:SS]], HH:MM[:SS], '*'teatime or @EPOCH'* ]]
	run -2 gsub --begin 25:00 --wrap true
	[[ "$output" == *'"25:00": expected a time of day from 00:00:00 to 23:59:59'* ]]
	script s.sh '#SBATCH --begin=soon' true
	run -2 gsub s.sh
	[[ "$output" == *'s.sh:2: #SBATCH --begin: "soon": expected'* ]]
	# gbatchd refuses a begin time out of range from any client.
	gb_start_controller
	run gb_rawask '{"type":200,"job":{"script":"#!/bin/sh\ntrue\n","workdir":"/tmp","begin_time":-5}}'
	[[ "$output" == *'"ok":false'*'begin_time: expected a whole number from 0 to 253402300799'* ]]
}

@test "--open-mode=append keeps what the output files held; truncate, the default, starts them afresh" {
	gb_start_cluster
	echo old >a.out
	echo old >t.out
	echo old >s.out
	a=$(gb_submit --open-mode=append -o a.out --wrap 'echo new')
	t=$(gb_submit --open-mode=truncate -o t.out --wrap 'echo new')
	script s.sh '#SBATCH --open-mode=append' '#SBATCH -o s.out' 'echo new'
	s=$(gb_submit s.sh)
	gb_wait_state "$a" COMPLETED 20
	gb_wait_state "$t" COMPLETED 20
	gb_wait_state "$s" COMPLETED 20
	[ "$(cat a.out)" = $'old\nnew' ]
	[ "$(cat t.out)" = new ]
	[ "$(cat s.out)" = $'old\nnew' ]
	# gbatchd refuses another mode from any client.
	run gb_rawask '{"type":200,"job":{"script":"#!/bin/sh\ntrue\n","workdir":"/tmp","open_mode":"sideways"}}'
	[[ "$output" == *'"ok":false'*'open_mode: expected \"append\" or \"truncate\"'* ]]
}

@test "--signal warns SECONDS before the time limit: the process group, or with B: the batch shell alone" {
	gb_start_cluster
	# The shell and a child each say which of them got the signal.
	script g.sh 'trap "echo shell >> g.txt" USR1' \
	    'sh -c '"'"'trap "echo child >> g.txt" USR1; while :; do sleep 0.05; done'"'"' &' \
	    'while :; do sleep 0.05; done'
	sed 's/g\.txt/b.txt/' g.sh >b.sh
	g=$(gb_submit -t 0:04 --signal=USR1@2 g.sh)
	b=$(gb_submit -t 0:04 --signal=B:SIGUSR1@2 b.sh)
	gb_wait_state "$g" TIMEOUT 20
	gb_wait_state "$b" TIMEOUT 20
	[ "$(sort g.txt)" = $'child\nshell' ]
	[ "$(cat b.txt)" = shell ]
	grep -q "job $g: signal 10, 2 s before its time limit" "$GB_DIR"/gnoded-n*.log
	run -2 gsub --signal=NOPE --wrap true
	[[ "$output" == *"--signal: "*"NOPE"*"expected [B:]SIG[@SECONDS]"* ]]
	run -2 gsub --signal=USR1@soon --wrap true
	[[ "$output" == *'--signal: expected SECONDS from 0 to 65535 after '"'"'@'"'"', got "soon"'* ]]
	run -2 gsub --signal=R:USR1 --wrap true
	[[ "$output" == *"--signal: R: is for Slurm's reservations of a MaxStartDelay, which gbatch has not"* ]]
	# The warning's seconds are also the checkpoint grace: above the
	# cluster's most, refused, saying where it came from.
	run -1 gsub --signal=USR1@900 --wrap true
	[[ "$output" == *"(gsub --ckpt-grace, or --signal's @SECONDS) is above the cluster's most, scheduler.max_ckpt_grace = 600 s"* ]]
}
