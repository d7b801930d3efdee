#!/usr/bin/env bats
# slurm-compat.bats: Slurm's commands over gbatch (slurm/), run from the
# build as `make install-slurm-compat` installs them: sbatch and scancel
# (gsub and gcancel under Slurm's names), squeue; each one's output
# compared field by field with what Slurm's documentation gives for the
# format asked.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
	cd "$GB_DIR"
	gb_start_cluster
}

teardown() {
	gb_teardown
}

# sq ID FORMAT: squeue -h -j ID -o FORMAT.
sq() {
	squeue -h -j "$1" -o "$2"
}

@test "sbatch prints Slurm's words and its --parsable id; output goes to slurm-%j.out" {
	printf '#!/bin/sh\n#SBATCH -J hello\necho hi from $SLURM_JOB_ID\n' >job.sh
	run -0 sbatch job.sh
	[[ "$output" =~ ^Submitted\ batch\ job\ ([0-9]+)$ ]]
	id=${BASH_REMATCH[1]}
	gb_wait_state "$id" COMPLETED 20
	[ "$(cat "slurm-$id.out")" = "hi from $id" ]
	run -0 sbatch --parsable job.sh
	[[ "$output" =~ ^[0-9]+$ ]]
	run -2 sbatch --nosuch job.sh
	[[ "$output" == "sbatch: "* ]]
	[[ "$output" == *"Try 'sbatch --help'"* ]]
	# Named as it runs, as squeue, sacct and sinfo are.
	run -0 sbatch --version
	[[ "$output" == "sbatch (gbatch) "[0-9]* ]]
}

@test "scancel cancels by id, name and user, and speaks as scancel" {
	a=$(sbatch --parsable -J keep --wrap 'sleep 60')
	b=$(sbatch --parsable -J drop --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	scancel "$a"
	gb_wait_state "$a" CANCELLED 20
	scancel -n drop
	gb_wait_state "$b" CANCELLED 20
	run -1 scancel 99999
	[[ "$output" == "scancel: job 99999: "* ]]
	run -0 scancel --version
	[[ "$output" == "scancel (gbatch) "[0-9]* ]]
	# --me, and -p with the one partition, gbatch.
	c=$(sbatch --parsable -H --wrap true)
	d=$(sbatch --parsable -H --wrap true)
	run -0 scancel --me -p gbatch -Q -t PENDING
	[ -z "$output" ]
	gb_wait_state "$c" CANCELLED 20
	gb_wait_state "$d" CANCELLED 20
	# Another partition: none of the jobs, as Slurm's, and said.
	e=$(sbatch --parsable -H --wrap true)
	run -0 scancel -p gpu --me
	[ "$output" = 'scancel: --partition: no partition "gpu" (the partitions: gbatch)' ]
	[ "$(gb_state "$e")" = HELD ]
	run -0 scancel -p gbatch
	gb_wait_state "$e" CANCELLED 20
	run -2 scancel --me -u root
	[[ "$output" == *"--me and --user exclude each other"* ]]
	run -2 scancel --me "$c"
	[[ "$output" == *"give job ids or selectors (--user, --me, --state, --name, --partition), not both"* ]]
	run -2 scancel -p gbatch "$c"
	[[ "$output" == *"not both"* ]]
}

@test "scancel -t PENDING cancels what squeue shows as PENDING, held jobs included; gcancel keeps gbatch's states" {
	run_id=$(sbatch --parsable --wrap 'sleep 60')
	gb_wait_state "$run_id" RUNNING 20
	held=$(sbatch --parsable -H --wrap true)
	held2=$(sbatch --parsable -H --wrap true)
	[ "$(sq "$held" %t)" = PD ]
	# gbatch's own PENDING is not HELD.
	run -0 gcancel -t PENDING -u root
	gb_wait_state "$held" HELD 5
	run -0 scancel -t PENDING -u root
	gb_wait_state "$held" CANCELLED 20
	gb_wait_state "$held2" CANCELLED 20
	gb_wait_state "$run_id" RUNNING 5
	run -0 scancel -t R -u root
	gb_wait_state "$run_id" CANCELLED 20
}

@test "squeue's default columns, and -o with Slurm's codes, for running, pending and held jobs" {
	big=$(sbatch --parsable -J big -G 8 --wrap 'sleep 60')
	gb_wait_state "$big" RUNNING 20
	wait1=$(sbatch --parsable -J waiting -G 1 --wrap true)
	held=$(sbatch --parsable -H -J held -G 1 --wrap true)
	gb_wait 10 sh -c "gq -h -j $wait1 -o reason | grep -q Resources"
	run -0 squeue
	# Slurm's header and widths: %.18i %.9P %.8j %.8u %.2t %.10M %.6D %R.
	[ "${lines[0]}" = "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)" ]
	line=$(grep -E "^ +$big " <<<"$output")
	[ "${#line}" -ge 71 ]
	read -r id part name user st time nodes where <<<"$line"
	[ "$id $part $name $user $st $nodes" = "$big gbatch big root R 2" ]
	[[ "$time" =~ ^[0-9]+:[0-9]{2}$ ]]
	[ "$where" = "$(gq -h -j "$big" -o nodes)" ]
	read -r id part name user st time nodes where <<<"$(grep -E "^ +$wait1 " <<<"$output")"
	[ "$st $time $nodes $where" = "PD 0:00 1 (Resources)" ]
	read -r id part name user st time nodes where <<<"$(grep -E "^ +$held " <<<"$output")"
	[ "$st $where" = "PD (JobHeldUser)" ]
	# -o: each code, no widths, any separator.
	[ "$(sq "$big" '%i|%A|%j|%u|%t|%T|%D|%b|%P|%l')" = "$big|$big|big|root|R|RUNNING|2|gpu:8|gbatch|UNLIMITED" ]
	[ "$(sq "$wait1" '%i %T %r %R')" = "$wait1 PENDING Resources (Resources)" ]
	# Widths: left-justified, right with '.', cut when longer.
	[ "$(sq "$held" '[%10j][%.6T][%3T]')" = "[held      ][PENDIN][PEN]" ]
	# -t and -u select, Slurm's pending includes held jobs.
	[ "$(squeue -h -t PD -o %i | sort | tr '\n' ' ')" = "$(printf '%s\n' "$wait1" "$held" | sort | tr '\n' ' ')" ]
	[ "$(squeue -h -t R -u root -o %i)" = "$big" ]
	[ -z "$(squeue -h -u nobody -o %i)" ]
	[ "$(squeue -h -n held,big -o %j | sort | tr '\n' ' ')" = "big held " ]
}

@test "squeue --json, and refusals in Slurm's words" {
	id=$(sbatch --parsable -J j1 --gres=gpu:1 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	cpu=$(sbatch --parsable -J j2 --hold --wrap true)
	run -0 squeue --json
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
j = [x for x in d["jobs"] if x["job_id"] == int(sys.argv[2])][0]
assert j["name"] == "j1" and j["job_state"] == "RUNNING" and j["partition"] == "gbatch", j
assert j["user_name"] == "root" and j["nodes"] != "", j
assert j["tres_per_job"] == "gpu:1", j
# A CPU job has none, as Slurm leaves it empty.
j = [x for x in d["jobs"] if x["job_id"] == int(sys.argv[3])][0]
assert j["tres_per_job"] == "", j' "$output" "$id" "$cpu"
	run -1 squeue -j 99999
	[ "$output" = "slurm_load_jobs error: Invalid job id specified" ]
	run -2 squeue -o '%i %Z'
	[[ "$output" == *"--format: %Z is not a field gbatch's squeue prints; it prints %i %A %j"* ]]
	run -2 squeue -t sleepy
	[[ "$output" == *'unknown state "sleepy"'* ]]
}

# in_line OUTPUT ID: the line of OUTPUT starting with ID|.
in_line() {
	grep "^$2|" <<<"$1"
}

@test "sacct -j -X -n -P --format: Slurm's fields of completed, failed, running and cancelled jobs" {
	ok=$(sbatch --parsable -J okjob --gres=gpu:1 --wrap true)
	bad=$(sbatch --parsable -J badjob --wrap 'exit 3')
	gb_wait_state "$ok" COMPLETED 20
	gb_wait_state "$bad" FAILED 20
	long=$(sbatch --parsable -J longjob -G 8 --wrap 'sleep 60')
	gb_wait_state "$long" RUNNING 20
	gone=$(sbatch --parsable -J gone --wrap true)
	scancel "$gone"
	gb_wait_state "$gone" CANCELLED 20
	f=JobID,JobIDRaw,JobName,State,ExitCode,Elapsed,Start,End,AllocTRES,NodeList,NNodes,Partition
	run -0 sacct -j "$ok,$bad,$long,$gone" -X -n -P --format "$f"
	[ "${#lines[@]}" -eq 4 ]
	start=$(gq -h -t all -j "$ok" -o start_time)
	end=$(gq -h -t all -j "$ok" -o end_time)
	node=$(gq -h -t all -j "$ok" -o nodes)
	[ "$(in_line "$output" "$ok")" = "$ok|$ok|okjob|COMPLETED|0:0|00:00:0$(( $(date -d "$end" +%s) - $(date -d "$start" +%s) ))|$start|$end|gres/gpu=1,node=1|$node|1|gbatch" ]
	IFS='|' read -r id raw name state code rest <<<"$(in_line "$output" "$bad")"
	[ "$state $code" = "FAILED 3:0" ]
	IFS='|' read -r id raw name state code el st en tres nodes nn part <<<"$(in_line "$output" "$long")"
	# It holds both nodes whole: every CPU of theirs.
	cpus=$(gnodes --json | python3 -c 'import json, sys; print(sum(n["cpus_total"] for n in json.load(sys.stdin)["nodes"]))')
	[ "$state $en $tres $nn" = "RUNNING Unknown cpu=$cpus,gres/gpu=8,node=2 2" ]
	[ "$(sacct -n -P -j "$long" -o AllocCPUS)" = "$cpus" ]
	[ "$(squeue -h -j "$long" -o %C)" = "$cpus" ]
	[ "$(gq -h -j "$long" -o alloc_cpus)" = "$cpus" ]
	IFS='|' read -r id raw name state code el st en tres nodes nn part <<<"$(in_line "$output" "$gone")"
	[ "$state|$st|$tres|$nodes|$nn" = "CANCELLED|Unknown||None assigned|0" ]
	# Slurm's headers: right-justified names over dashes; -p ends lines
	# with '|'; a value too long is cut with '+'.
	run -0 sacct -j "$ok" --format JobID,State%5,JobName%4
	[ "${lines[0]}" = "       JobID State JobN " ]
	[ "${lines[1]}" = "------------ ----- ---- " ]
	[ "${lines[2]}" = "$(printf '%12s' "$ok") COMP+ okj+ " ]
	[ "$(sacct -j "$ok" -n -p -o jobid,state)" = "$ok|COMPLETED|" ]
	[ "$(sacct -n -P -o JobName --name badjob)" = badjob ]
	run -2 sacct -o JobID,MaxVMSize
	[[ "$output" == *'--format: "MaxVMSize" is not a field gbatch'"'"'s sacct prints'* ]]
}

# A small pipeline, a -> b -> c, each step a file made from the one before.
snakefile() {
	cat >Snakefile <<'SNK'
rule all:
    input: "c.txt"
rule a:
    output: "a.txt"
    shell: "echo a > {output}"
rule b:
    input: "a.txt"
    output: "b.txt"
    shell: "cat {input} > {output}; echo b >> {output}"
rule c:
    input: "b.txt"
    output: "c.txt"
    shell: "cat {input} > {output}; echo c >> {output}"
SNK
}

c_done() {
	[ "$(cat c.txt 2>/dev/null)" = $'a\nb\nc' ]
}

@test "snakemake runs a pipeline on gbatch through sbatch and sacct, unchanged" {
	command -v snakemake >/dev/null || skip "snakemake is not installed (tools/deps test installs it)"
	snakefile
	# Its status polling as Slurm sites write it: sacct's State.
	cat >status.sh <<'SH'
#!/bin/sh
case $(sacct -j "$1" -X -n -P -o State) in
COMPLETED) echo success ;;
FAILED|CANCELLED*|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) echo failed ;;
*) echo running ;;
esac
SH
	chmod +x status.sh
	run -0 timeout 300 snakemake --cluster "sbatch --parsable -J {rule}" \
	    --cluster-status ./status.sh --cluster-cancel scancel --jobs 2 \
	    --latency-wait 5
	c_done
	[ "$(gq -h -t all -o name,state | sort | tr -s ' ' | tr '\n' ';')" = "a COMPLETED;b COMPLETED;c COMPLETED;" ]
}

@test "snakemake --immediate-submit hands gbatch the whole pipeline as jobs with dependencies" {
	command -v snakemake >/dev/null || skip "snakemake is not installed (tools/deps test installs it)"
	snakefile
	# {dependencies} are the ids of the jobs a job needs, the job script
	# last: sbatch --dependency=afterok:ID:ID as Slurm sites write it.
	cat >submit.sh <<'SH'
#!/bin/sh
deps=
while [ $# -gt 1 ]; do deps="$deps:$1"; shift; done
exec sbatch --parsable ${deps:+--dependency=afterok$deps} "$1"
SH
	chmod +x submit.sh
	# Debian's snakemake 7.21 submits every job, then may stop on a
	# KeyError of its own (its dag.finish, after the last submission):
	# what counts is what it handed gbatch.
	run timeout 120 snakemake --cluster "./submit.sh {dependencies}" \
	    --immediate-submit --notemp --jobs 3
	[[ "$output" == *"Submitted job 1 with external jobid '3'."* ]] || { echo "$output"; false; }
	# Submitted at once, the later ones waiting for the earlier.
	[ "$(gq -h -t all -o id | wc -l)" -eq 3 ]
	[ "$(gq -h -t all -o dependency | grep -c afterok)" -eq 2 ]
	gb_wait 120 c_done
}

@test "make install-slurm-compat installs the commands under Slurm's names, uninstall removes them" {
	d=$GB_DIR/inst
	# Only the install directories: a prefix given to make here would
	# also rebuild whatever is stale in the shared build tree (the man
	# pages) with paths of another prefix.
	make -s -C "$GBATCH_BUILDDIR" install-slurm-compat DESTDIR="$d" \
	    bindir=/usr/bin mandir=/usr/share/man >/dev/null
	[ -x "$d/usr/bin/squeue" ]
	[ -x "$d/usr/bin/sacct" ]
	[ "$(readlink "$d/usr/bin/sbatch")" = gsub ]
	[ "$(readlink "$d/usr/bin/scancel")" = gcancel ]
	[ -f "$d/usr/share/man/man7/gbatch-slurm.7" ]
	[ -x "$d/usr/bin/sinfo" ]
	[ -x "$d/usr/bin/scontrol" ]
	[ -x "$d/usr/bin/sacctmgr" ]
	[ -x "$d/usr/bin/sshare" ]
	[ "$(readlink "$d/usr/bin/sstat")" = sacct ]
	[ "$(readlink "$d/usr/bin/srun")" = grun ]
	# Their completion: links to gbatch's script, under their names.
	for c in sbatch scancel squeue sacct sinfo scontrol sstat srun sacctmgr \
	    sshare; do
		[ "$(readlink "$(find "$d" -path "*completions/$c")")" = gsub ]
	done
	# Each has a man page, pointing at gbatch-slurm(7).
	for c in sbatch scancel squeue sacct sinfo scontrol sstat srun sacctmgr \
	    sshare; do
		[ "$(cat "$d/usr/share/man/man1/$c.1")" = ".so man7/gbatch-slurm.7" ]
	done
	# Nothing else: gbatch's own commands come with make install.
	[ "$(find "$d" -type f -o -type l | wc -l)" -eq 31 ]
	make -s -C "$GBATCH_BUILDDIR" uninstall-slurm-compat DESTDIR="$d" \
	    bindir=/usr/bin mandir=/usr/share/man >/dev/null
	[ "$(find "$d" -type f -o -type l | wc -l)" -eq 0 ]
}

@test "sinfo: a line per state in Slurm's columns, -N a line per node, -o with Slurm's codes" {
	id=$(sbatch --parsable -G 1 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	busy=$(gq -h -j "$id" -o nodes)
	idle=$( [ "$busy" = n1 ] && echo n2 || echo n1 )
	gctl drain "$idle" --reason 'disk swap' >/dev/null
	run -0 sinfo
	[ "${lines[0]}" = "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST" ]
	[ "${#lines[@]}" -eq 3 ]
	grep -qxF "gbatch*      up   infinite      1    mix $busy" <<<"$output"
	grep -qxF "gbatch*      up   infinite      1  drain $idle" <<<"$output"
	run -0 sinfo -N -h
	grep -qxF "$busy      1   gbatch*    mix" <<<"$output"
	[ "$(sinfo -h -N -n "$idle" -o '%N|%T|%G|%E|%D')" = "$idle|drained|gpu:4|disk swap|1" ]
	# As Slurm's, nodes share a line unless they differ in a field the
	# format shows: a line for the partition here, one per state there.
	[ "$(sinfo -h -o '%P %D %N')" = "gbatch* 2 n1,n2" ]
	[ "$(sinfo -h -o '%P %D %t' | wc -l)" = 2 ]
	gctl resume "$idle" >/dev/null
	[ "$(sinfo -h -n "$idle" -o '%t %N')" = "idle $idle" ]
	run -2 sinfo -o '%N %Y'
	[[ "$output" == *"--format: %Y is not a field gbatch's sinfo prints"* ]]
}

array_running() {
	[ "$(squeue -h -j "$1" -t R -o %i | wc -l)" = "$2" ]
}

array_completed() {
	[ "$(squeue -h -j "$1" -t CD -o %i | wc -l)" = "$2" ]
}

@test "job arrays as Slurm shows them: squeue folds the waiting tasks (-r unfolds), sacct a record per task" {
	printf '#!/bin/sh\n#SBATCH --array=0-4%%2\nwhile [ ! -e go-$SLURM_ARRAY_TASK_ID ]; do sleep 0.05; done\n' >a.sh
	id=$(sbatch --parsable a.sh)
	gb_wait 20 array_running "$id" 2
	# Slurm's forms: a task ID_TASK, the rest ID_[TASKS%THROTTLE].
	[ "$(squeue -h -j "$id" -t PD -o '%i %t %r')" = "${id}_[2-4%2] PD JobArrayTaskLimit" ]
	[ "$(squeue -h -j "$id" -t R -o %i | sort | tr '\n' ' ')" = "${id}_0 ${id}_1 " ]
	[ "$(squeue -h -r -j "$id" -t PD -o %i | tr '\n' ' ')" = "${id}_2 ${id}_3 ${id}_4 " ]
	touch go-0 go-1 go-2 go-3 go-4
	gb_wait 30 array_completed "$id" 5
	# sacct: JobID as Slurm names a task, JobIDRaw each task's own id.
	run -0 sacct -j "$id" -n -X -P --format JobID,JobIDRaw,State
	[ "${#lines[@]}" = 5 ]
	for t in 0 1 2 3 4; do
		[[ "$output" == *"${id}_$t|"*"|COMPLETED"* ]]
	done
	[ "$(cut -d'|' -f2 <<<"$output" | sort -u | wc -l)" = 5 ]
	# One task by Slurm's name for it.
	run -0 sacct -j "${id}_3" -n -X -P --format JobID,State
	[ "$output" = "${id}_3|COMPLETED" ]
}

@test "sacct without -j asks gbatchd for the jobs that ended since -S, not a user's whole history" {
	a=$(sbatch --parsable --wrap true)
	gb_wait_state "$a" COMPLETED 20
	# An old finished job, as a past day left it.
	sqlite3 "$GB_DIR/ctl/gbatch.db" "UPDATE jobs SET end_time = end_time - 3 * 86400, start_time = start_time - 3 * 86400, submit_time = submit_time - 3 * 86400 WHERE id = $a"
	b=$(sbatch --parsable --wrap true)
	gb_wait_state "$b" COMPLETED 20
	run -0 sacct -n -X -P --format JobID
	[ "$output" = "$b" ]
	run -0 sacct -n -X -P --format JobID -S now-4days
	[ "$output" = "$a"$'\n'"$b" ]
	# gbatchd leaves the old one out itself.
	run gb_rawask "{\"type\":201,\"states\":[\"COMPLETED\"],\"ended_since\":$(($(date +%s) - 86400))}"
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert [j["id"] for j in r["jobs"]] == [int(sys.argv[2])], r' "$output" "$b"
}

@test "the partition sinfo reports is the one sbatch, #SBATCH lines and squeue -p take; another name is refused, or matches nothing" {
	# A tool's way: the default partition from sinfo, its * taken off.
	part=$(sinfo -h -o %P | head -n 1)
	[ "$part" = "gbatch*" ]
	part=${part%\*}
	id=$(sbatch --parsable -p "$part" -G 1 --wrap true)
	gb_wait_state "$id" COMPLETED 20
	printf '#!/bin/sh\n#SBATCH --partition=%s\n#SBATCH -G 1\necho ran\n' \
	    "$part" >p.sh
	id2=$(sbatch --parsable p.sh)
	gb_wait_state "$id2" COMPLETED 20
	[ "$(cat "slurm-$id2.out")" = ran ]
	[ "$(sacct -n -X -P -j "$id2" --format Partition)" = gbatch ]
	run -0 squeue -h -p "$part,$part" -t all -j "$id,$id2" -o '%i %P'
	[ "$output" = "$id gbatch
$id2 gbatch" ]
	run -0 sinfo -h -p "$part" -o %P
	[ "${lines[0]}" = "gbatch*" ]
	# Another name: gbatchd refuses it, nothing submitted.
	before=$(gq -h -t all -o id | wc -l)
	run -1 sbatch -p gpu -G 1 --wrap true
	[ "$output" = 'sbatch: partition "gpu": this cluster has no partitions but "gbatch", every node (leave -p out)' ]
	[ "$(gq -h -t all -o id | wc -l)" = "$before" ]
	# squeue: as Slurm's, no job in a partition there is not, and said.
	run -0 --separate-stderr squeue -h -t all -p gpu
	[ -z "$output" ]
	[ "$stderr" = 'squeue: --partition: no partition "gpu" (the partitions: gbatch)' ]
	# sinfo too: the partitions there are, and a word on the others.
	run -0 --separate-stderr sinfo -h -p gbatch,debug -o %P
	[ "$output" = "gbatch*" ]
	[ "$stderr" = 'sinfo: --partition: no partition "debug" (the partitions: gbatch)' ]
	run -0 --separate-stderr sinfo -h -p debug
	[ -z "$output" ]
	[ "$stderr" = 'sinfo: --partition: no partition "debug" (the partitions: gbatch)' ]
}

# forgotten ID: squeue -j ID answers as Slurm does for a job it forgot.
forgotten() {
	run squeue -h -j "$1"
	[ "$status" -eq 1 ]
	[ "$output" = "slurm_load_jobs error: Invalid job id specified" ]
}

@test "squeue -j forgets a finished job after controller.min_job_age, as Slurm after MinJobAge; gq keeps it" {
	id=$(sbatch --parsable --wrap true)
	gb_wait_state "$id" COMPLETED 20
	# The default, 300 s: still known, as CD, by id and by state.
	[ "$(squeue -h -j "$id" -o %t)" = CD ]
	squeue -h -t CD -o %i | grep -qx "$id"
	scontrol -o show job | grep -q "^JobId=$id "
	gctl show config | grep -qx 'controller.min_job_age = 300'
	sed -i 's/^controller = {/controller = {\n  min_job_age = 1;/' "$GBATCH_CONF"
	gctl reconfigure >/dev/null
	gctl show config | grep -qx 'controller.min_job_age = 1'
	gb_wait 15 forgotten "$id"
	run -0 squeue -h -t CD -o %i
	[[ "$output" != *"$id"* ]]
	run -0 scontrol -o show job
	[[ "$output" != *"JobId=$id "* ]]
	# gbatch's own listing and accounting keep it.
	[ "$(gq -h -j "$id" -o state)" = COMPLETED ]
	[ "$(sacct -n -X -P -j "$id" --format State)" = COMPLETED ]
	# A job not finished is never forgotten.
	run_id=$(sbatch --parsable --wrap 'sleep 60')
	gb_wait_state "$run_id" RUNNING 20
	[ "$(squeue -h -j "$run_id" -o %t)" = R ]
}

# kv: Slurm's Key=Value records on stdin as KEY<TAB>VALUE lines (a value
# runs to the next " Key=", as Slurm's own parsers read them).
kv() {
	python3 -c '
import re, sys
for line in sys.stdin:
    for k, v in re.findall(r"(\S+?)=(.*?)(?=\s+[A-Za-z/\[\]0-9_:]+=|\s*$)", line.strip()):
        print(k + "\t" + v)'
}

# val KEY: KEY's value in kv's output on stdin.
val() {
	awk -F'\t' -v k="$1" '$1 == k { print $2; exit }'
}

@test "scontrol show job, jobid -dd and -o: Slurm's Key=Value records of a running job" {
	id=$(sbatch --parsable -J sj -t 5 --gres=gpu:1 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	node=$(gq -h -j "$id" -o nodes)
	run -0 scontrol show job "$id"
	[[ "${lines[0]}" == "JobId=$id JobName=sj" ]]
	[[ "${lines[1]}" == "   UserId=root(0) GroupId="*"(0)" ]]
	rec=$(kv <<<"$output")
	[ "$(val JobState <<<"$rec")" = RUNNING ]
	[ "$(val Reason <<<"$rec")" = None ]
	[ "$(val TimeLimit <<<"$rec")" = 00:05:00 ]
	[ "$(val Partition <<<"$rec")" = gbatch ]
	[ "$(val NodeList <<<"$rec")" = "$node" ]
	[ "$(val BatchHost <<<"$rec")" = "$node" ]
	[ "$(val NumNodes <<<"$rec")" = 1 ]
	[ "$(val BatchFlag <<<"$rec")" = 1 ]
	[ "$(val ExitCode <<<"$rec")" = 0:0 ]
	[ "$(val WorkDir <<<"$rec")" = "$GB_DIR" ]
	[ "$(val StdOut <<<"$rec")" = "$GB_DIR/slurm-$id.out" ]
	[ "$(val TresPerJob <<<"$rec")" = gres/gpu:1 ]
	[ "$(val TRES <<<"$rec")" = node=1,gres/gpu=1 ]
	[[ "$(val SubmitTime <<<"$rec")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$ ]]
	[ "$(val EndTime <<<"$rec")" = Unknown ]
	# The same record on one line, and under show jobid -dd and job=ID
	# (but the run time, which goes on).
	rec=$(grep -v '^RunTime' <<<"$rec")
	run -0 scontrol -o show job "$id"
	[ "${#lines[@]}" -eq 1 ]
	[ "$(kv <<<"$output" | grep -v '^RunTime')" = "$rec" ]
	[ "$(scontrol show jobid -dd "$id" | kv | grep -v '^RunTime')" = "$rec" ]
	[ "$(scontrol show job="$id" | kv | grep -v '^RunTime')" = "$rec" ]
	# Every active job without an id; Slurm's words for an unknown one.
	[ "$(scontrol -o show job | grep -c "^JobId=$id ")" = 1 ]
	run -1 scontrol show job 99999
	[ "$output" = "slurm_load_jobs error: Invalid job id specified" ]
}

@test "scontrol hold, release, requeue and update NodeName act as gctl's; refusals are usage errors" {
	run_id=$(sbatch --parsable --wrap 'sleep 60')
	gb_wait_state "$run_id" RUNNING 20
	wait_id=$(sbatch --parsable -G 8 --wrap true)
	gb_wait_state "$wait_id" PENDING 10
	run -0 scontrol hold "$wait_id"
	[ -z "$output" ]
	gb_wait_state "$wait_id" HELD 10
	rec=$(scontrol show job "$wait_id" | kv)
	[ "$(val JobState <<<"$rec")" = PENDING ]
	[ "$(val Reason <<<"$rec")" = JobHeldUser ]
	run -0 scontrol release "$wait_id"
	gb_wait_state "$wait_id" PENDING 10
	# A waiting job's time limit, in Slurm's forms; recorded in its
	# history. Of a running job, the time limit alone (gctl.bats).
	run -0 scontrol update JobId="$wait_id" TimeLimit=1-00:30
	[ "$(gq -h -j "$wait_id" -o time_limit)" = 1-00:30:00 ]
	[ "$(scontrol show job "$wait_id" | kv | val TimeLimit)" = 1-00:30:00 ]
	gq -l "$wait_id" | grep -q "PENDING -> PENDING  time limit none -> 1-00:30:00, by root"
	run -0 scontrol update jobid="$wait_id" timelimit=UNLIMITED
	[ "$(scontrol show job "$wait_id" | kv | val TimeLimit)" = UNLIMITED ]
	run -1 scontrol update JobId="$run_id" TimeLimit=10 Name=x
	[[ "$output" == *"job $run_id is RUNNING: its name and time limit can change only while it waits (PENDING or HELD); of a running job, the time limit alone"* ]]
	run -2 scontrol update JobId="$wait_id" TimeLimit=soon
	[[ "${lines[0]}" == "scontrol: update: TimeLimit: "*'"soon"'* ]]
	run -2 scontrol update JobId="$wait_id" Features=a
	[[ "${lines[0]}" == 'scontrol: update: unknown key "Features"; a job takes TimeLimit, Name (or JobName), Comment, Dependency, NumNodes, Partition, QOS, Nice, Priority, Account, StartTime or GPUs, a node State and Reason' ]]
	# QOS= is gbatchd's to judge: normal alone without a qos group.
	run -1 scontrol update JobId="$wait_id" QOS=x
	[[ "$output" == *'QOS "x": this cluster has no QOS but "normal" (leave --qos out)'* ]]
	# Partition= is gbatchd's to judge: none but gbatch without any.
	run -1 scontrol update JobId="$wait_id" Partition=x
	[[ "$output" == *'partition "x": this cluster has no partitions but "gbatch", every node (leave -p out)'* ]]
	run -0 scontrol requeue "$run_id"
	gb_wait 20 gb_state_is "$run_id" RUNNING
	[ "$(gq -h -j "$run_id" -o restarts)" = 1 ]
	# A node: drained with a reason, resumed.
	run -0 scontrol update NodeName=n2 State=DRAIN Reason=maint
	rec=$(scontrol show node n2 | kv)
	[[ "$(val State <<<"$rec")" == *DRAIN ]]
	[ "$(val Reason <<<"$rec")" = maint ]
	[ "$(val Partitions <<<"$rec")" = gbatch ]
	[ "$(val Gres <<<"$rec")" = gpu:4 ]
	run -0 scontrol update nodename=n2 state=resume
	gb_wait 10 eval '[ "$(gnodes -h -N n2 -o state)" != drained ]'
	run -1 scontrol show node nosuch
	[ "$output" = "Node nosuch not found" ]
	run -1 scontrol hold 99999
	[[ "$output" == "scontrol: "*99999* ]]
	run -2 scontrol show bogus
	[[ "${lines[0]}" == 'scontrol: show: unknown "bogus"; expected job, jobid, node, partition, config, reservation, hostnames or hostlist' ]]
	run -2 scontrol frobnicate
	[[ "${lines[0]}" == 'scontrol: unknown command "frobnicate"'* ]]
}

# history ID: the details of the job's history, one a line.
history() {
	gq -l "$1" | sed -n 's/^  [0-9T:-]*  //p'
}

@test "scontrol update JobId= changes a waiting job's Name, Comment, Dependency, TimeLimit and NumNodes, all or none, each in its history" {
	# Two jobs hold 3 of each node's 4 GPUs: a job of 2 GPUs waits unless
	# split over both nodes.
	b1=$(sbatch --parsable -G 3 --wrap 'sleep 60')
	gb_wait_state "$b1" RUNNING 20
	b2=$(sbatch --parsable -G 3 --wrap 'sleep 60')
	gb_wait_state "$b2" RUNNING 20
	failed=$(sbatch --parsable -G 1 --wrap 'exit 3')
	gb_wait_state "$failed" FAILED 20
	dep=$(sbatch --parsable -H --wrap true)
	id=$(sbatch --parsable -H -J first -G 2 --wrap true)
	gb_wait_state "$id" HELD 10
	# Every key at once, in any case, a job's name under either key.
	run -0 scontrol update JobId="$id" Name=second "Comment=two words" \
	    dependency=afterok:"$dep" TimeLimit=30 numnodes=1
	[ -z "$output" ]
	rec=$(scontrol show job "$id" | kv)
	[ "$(val JobName <<<"$rec")" = second ]
	[ "$(val Comment <<<"$rec")" = "two words" ]
	[ "$(val Dependency <<<"$rec")" = "afterok:$dep" ]
	[ "$(val TimeLimit <<<"$rec")" = 00:30:00 ]
	[ "$(val NumNodes <<<"$rec")" = 1 ]
	run -0 history "$id"
	[[ "$output" == *$'\nHELD -> HELD  name "first" -> "second", by root\n'* ]]
	[[ "$output" == *$'\nHELD -> HELD  comment none -> "two words", by root\n'* ]]
	[[ "$output" == *$'\nHELD -> HELD  dependency none -> afterok:'"$dep"$', by root\n'* ]]
	[[ "$output" == *$'\nHELD -> HELD  time limit none -> 30:00, by root\n'* ]]
	[[ "$output" == *$'\nHELD -> HELD  nodes any -> 1, by root'* ]]
	run -0 scontrol update JobId="$id" JobName=third
	[ "$(scontrol show job "$id" | kv | val JobName)" = third ]
	# All or none: a value gbatchd refuses, or one not in the accepted
	# forms, and nothing changes.
	run -1 scontrol update JobId="$id" Name=fourth NumNodes=3
	[ "$output" = "scontrol: job $id: num_nodes: 2 GPUs do not split evenly over 3 nodes; expected a number of nodes that divides the GPUs" ]
	run -2 scontrol update JobId="$id" Name=fourth TimeLimit=soon
	[[ "${lines[0]}" == 'scontrol: update: TimeLimit: '*'"soon"'* ]]
	run -2 scontrol update JobId="$id" Name=fourth Name=fifth
	[ "${lines[0]}" = "scontrol: update: Name: the job's name is given twice; expected each key once" ]
	run -1 scontrol update JobId="$id" Name=fourth Dependency=afterok:99999
	[ "$output" = "scontrol: dependency: job 99999 does not exist" ]
	run -1 scontrol update JobId="$id" Name=fourth Dependency=afterok:"$id"
	[ "$output" = "scontrol: dependency: job $id cannot wait for itself; it would wait forever" ]
	rec=$(scontrol show job "$id" | kv)
	[ "$(val JobName <<<"$rec")" = third ]
	[ "$(val Dependency <<<"$rec")" = "afterok:$dep" ]
	[ "$(val NumNodes <<<"$rec")" = 1 ]
	# Released, it waits for its dependency, then for what replaces it:
	# none, a failed job's (never), none again (GPUs).
	run -0 scontrol release "$id"
	gb_wait_state "$id" PENDING 10
	[ "$(scontrol show job "$id" | kv | val Reason)" = Dependency ]
	run -0 scontrol update JobId="$id" Dependency=afterok:"$failed"
	gb_wait 10 eval '[ "$(scontrol show job "$id" | kv | val Reason)" = DependencyNeverSatisfied ]'
	run -0 scontrol update JobId="$id" Dependency=
	rec=$(scontrol show job "$id" | kv)
	[ "$(val Dependency <<<"$rec")" = "(null)" ]
	[ "$(val Reason <<<"$rec")" = Resources ]
	[ "$(val JobState <<<"$rec")" = PENDING ]
	# A shape the cluster cannot hold is refused; split over both
	# nodes, it starts at once: 1 GPU of each is free.
	big=$(sbatch --parsable -H -G 8 --wrap true)
	run -1 scontrol update JobId="$big" NumNodes=1
	[ "$output" = "scontrol: job $big: -N 1 with 8 GPUs each: the cluster has 0 nodes with 8 GPUs or more" ]
	run -0 scontrol update JobId="$id" NumNodes=2
	gb_wait_state "$id" COMPLETED 20
	rec=$(scontrol show job "$id" | kv)
	[ "$(val NumNodes <<<"$rec")" = 2 ]
	[ "$(gq -h -j "$id" -o nodes)" = n1,n2 ]
	run -0 history "$id"
	[[ "$output" == *$'\nPENDING -> PENDING  dependency afterok:'"$failed"$' -> none, by root\n'* ]]
	[[ "$output" == *$'\nPENDING -> PENDING  nodes 1 -> 2, by root\n'* ]]
	# A running job's request is its node's: refused, naming its state.
	run -1 scontrol update JobId="$b1" Name=x Comment=y
	[ "$output" = "scontrol: job $b1 is RUNNING: its name and comment can change only while it waits (PENDING or HELD); of a running job, the time limit alone" ]
	[ "$(scontrol show job "$b1" | kv | val JobName)" = wrap ]
	# Keys gbatch does not have; the update's forms.
	run -2 scontrol update JobId="$dep" Features=a
	[[ "${lines[0]}" == 'scontrol: update: unknown key "Features"; a job takes TimeLimit, Name (or JobName), Comment, Dependency, NumNodes, Partition, QOS, Nice, Priority, Account, StartTime or GPUs'* ]]
	run -2 scontrol update JobId="$dep"
	[ "${lines[0]}" = "scontrol: update: JobId=$dep: expected what to change: TimeLimit, Name (or JobName), Comment, Dependency, NumNodes, Partition, QOS, Nice, Priority, Account, StartTime or GPUs" ]
	run -1 scontrol update JobId=99999 Name=x
	[[ "$output" == "scontrol: job 99999: no such job"* ]]
}

# set ID JSON-MEMBERS: JOB_UPDATE's set of job ID, its reply's code and
# message ("ok" when it was done).
set_reply() {
	gb_rawask "{\"type\":203,\"id\":$1,\"action\":\"set\"$2}" |
	    python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("ok" if r["ok"] else r["code"] + ": " + r["message"])'
}

@test "JOB_UPDATE's set (scontrol update's): a peer's bad members are refused by the submit's bounds, all or none; gbatchd lives on" {
	id=$(sbatch --parsable -H -J first -G 1 --wrap true)
	gb_wait_state "$id" HELD 10
	[ "$(set_reply "$id" '')" = "invalid: set: expected one or more of name, comment, dependency, time_limit, num_nodes, partition, qos, nice, priority, account, gpus or begin_time" ]
	[ "$(set_reply "$id" ',"name":"a\u0007b"')" = "invalid: name: holds a control character; expected a line of text" ]
	[ "$(set_reply "$id" ',"name":"x","num_nodes":"two"')" = 'invalid: num_nodes: expected a whole number from 1 to 1024, got "two"' ]
	[[ "$(set_reply "$id" ',"name":"x","num_nodes":2')" == "invalid: job $id: num_nodes: 1 GPUs do not split evenly over 2 nodes"* ]]
	[ "$(set_reply "$id" ',"name":"x","time_limit":-1')" = "invalid: time_limit: expected a whole number from 0 to 31536000, got -1" ]
	[ "$(set_reply "$id" ',"name":"x","comment":7')" = "invalid: comment: expected a string, got 7" ]
	[ "$(set_reply "$id" ',"name":"x","mem":4')" = "invalid: set: a job's mem cannot change; expected name, comment, dependency, time_limit, num_nodes, partition, qos, nice, priority, account, gpus or begin_time" ]
	[ "$(set_reply "$id" ',"name":"x","dependency":"afterok:99999"')" = "invalid: dependency: job 99999 does not exist" ]
	[ "$(set_reply "$id" ",\"name\":\"x\",\"dependency\":\"afterany:$id\"")" = "invalid: dependency: job $id cannot wait for itself; it would wait forever" ]
	# None of it was done; gbatchd still answers.
	[ "$(gq -h -j "$id" -o name)" = first ]
	gctl ping >/dev/null
	# An empty name is the one a submit gives: the command's (--wrap's
	# command line here).
	[ "$(set_reply "$id" ',"name":"","comment":"c"')" = ok ]
	[ "$(gq -h -j "$id" -o name)" = true ]
	[ "$(gq -h -j "$id" -o comment)" = c ]
	# What changed survives a restart of the controller.
	[ "$(set_reply "$id" ',"name":"kept","time_limit":600,"dependency":""')" = ok ]
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	gb_start_controller
	[ "$(gq -h -j "$id" -o name)" = kept ]
	[ "$(gq -h -j "$id" -o time_limit)" = 10:00 ]
}

@test "scontrol show config, partition and reservation, and ping: Slurm's forms" {
	run -0 scontrol show config
	[[ "${lines[0]}" == "Configuration data as of "* ]]
	[[ "${lines[-1]}" == "Slurmctld(primary) at "*" is UP" ]]
	conf=$(sed -n 's/^\([A-Za-z_]*\(\[0\]\)\?\) *= \(.*\)$/\1\t\3/p' <<<"$output")
	[ "$(val MinJobAge <<<"$conf")" = "300 sec" ]
	[ "$(val ClusterName <<<"$conf")" = "$(gctl show config | sed -n 's/^controller.cluster_name = "\(.*\)"$/\1/p')" ]
	[ "$(val SlurmctldHost[0] <<<"$conf")" = 127.0.0.1 ]
	[ "$(val SLURM_CONF <<<"$conf")" = "$GBATCH_CONF" ]
	[ "$(val SchedulerType <<<"$conf")" = "sched/gbatch (dlas, placement consolidate)" ]
	rec=$(scontrol show partition | kv)
	[ "$(val PartitionName <<<"$rec")" = gbatch ]
	[ "$(val Nodes <<<"$rec")" = n1,n2 ]
	[ "$(val TotalNodes <<<"$rec")" = 2 ]
	[ "$(val State <<<"$rec")" = UP ]
	[ "$(val Default <<<"$rec")" = YES ]
	[ "$(val MaxTime <<<"$rec")" = UNLIMITED ]
	[ "$(val DefaultTime <<<"$rec")" = NONE ]
	[ "$(val AllowAccounts <<<"$rec")" = ALL ]
	[ "$(scontrol show partition gbatch | kv)" = "$rec" ]
	run -1 scontrol show partition gpu
	[ "$output" = "Partition gpu not found" ]
	run -0 scontrol show reservation
	[ "$output" = "No reservations in the system" ]
	run -0 scontrol ping
	[[ "$output" == "Slurmctld(primary) at "*" is UP" ]]
	run -0 scontrol --version
	[[ "$output" == "scontrol (gbatch) "[0-9]* ]]
}

@test "squeue -l, --start, -O/--Format and %E: Slurm's columns" {
	run_id=$(sbatch --parsable -J longjob -t 10 --wrap 'sleep 60')
	gb_wait_state "$run_id" RUNNING 20
	wait_id=$(sbatch --parsable -J waiter -G 8 -d "afterok:$run_id" --wrap true)
	gb_wait_state "$wait_id" PENDING 10
	# -l: the time of the call, then Slurm's long columns.
	run -0 squeue -l -j "$run_id"
	[[ "${lines[0]}" =~ ^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\ [A-Z][a-z]{2}\ [\ 0-9][0-9]\ [0-9]{2}:[0-9]{2}:[0-9]{2}\ [0-9]{4}$ ]]
	[ "${lines[1]}" = "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)" ]
	read -r id part name user state time limit nodes where <<<"${lines[2]}"
	[ "$id $part $name $user $state $limit $nodes" = "$run_id gbatch longjob root RUNNING 10:00 1" ]
	[ "$where" = "$(gq -h -j "$run_id" -o nodes)" ]
	# --start: the pending ones only.
	run -0 squeue --start
	[ "${lines[0]}" = "             JOBID PARTITION     NAME     USER ST          START_TIME  NODES NODELIST(REASON)" ]
	[ "${#lines[@]}" -eq 2 ]
	read -r id part name user st start nodes reason <<<"${lines[1]}"
	[ "$id $st $start $reason" = "$wait_id PD N/A (Dependency)" ]
	# -O: Slurm's names, 20 wide unless said, never cut.
	run -0 squeue -h -j "$wait_id" -O "JobID:10,Name,State:.9,Dependency:5"
	[ "$output" = "$(printf '%-10s %-20s %9s %-5s' "$wait_id" waiter PENDING "afterok:$run_id")" ]
	run -0 squeue -h -j "$wait_id" -o '%i|%E'
	[ "$output" = "$wait_id|afterok:$run_id" ]
	[ "$(squeue -h -j "$run_id" -o %E)" = "(null)" ]
	run -2 squeue -O JobID,Colour
	[[ "$output" == *'--Format: "Colour" is not a field gbatch'"'"'s squeue prints; it prints JobID, JobArrayID'* ]]
}

@test "sinfo -s, -l, -N -l, -R, -O/--Format, %c %m %F: Slurm's columns" {
	id=$(sbatch --parsable -G 1 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	busy=$(gq -h -j "$id" -o nodes)
	idle=$( [ "$busy" = n1 ] && echo n2 || echo n1 )
	read -r cpus mem < <(gnodes --json | python3 -c '
import json, sys
n = [x for x in json.load(sys.stdin)["nodes"] if x["name"] == sys.argv[1]][0]
print(n["cpus_total"], n["memory_mb"])' "$idle")
	run -0 sinfo -s
	[ "${lines[0]}" = "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T)  NODELIST" ]
	[ "${lines[1]}" = "gbatch*      up   infinite          1/1/0/2  $(printf '%s\n' n1 n2 | paste -sd, -)" ] ||
	    [ "${lines[1]}" = "gbatch*      up   infinite          1/1/0/2  $busy,$idle" ]
	run -0 sinfo -l
	[[ "${lines[0]}" =~ ^[A-Z][a-z]{2}\ [A-Z][a-z]{2}\ [\ 0-9][0-9]\ [0-9:]{8}\ [0-9]{4}$ ]]
	[ "${lines[1]}" = "PARTITION AVAIL  TIMELIMIT   JOB_SIZE ROOT OVERSUBS     GROUPS  NODES       STATE NODELIST" ]
	run -0 sinfo -N -l -n "$idle"
	[[ "${lines[1]}" == "NODELIST  NODES PARTITION       STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE REASON"* ]]
	read -r node nodes part state c sct m disk w feat reason <<<"${lines[2]}"
	[ "$node $nodes $part $state $c $m $w" = "$idle 1 gbatch* idle $cpus $mem 1" ]
	[ "$(sinfo -h -N -n "$idle" -o '%c|%m|%F')" = "$cpus|$mem|0/1/0/1" ]
	# -R: drained and down nodes by reason.
	gctl drain "$idle" --reason 'disk swap' >/dev/null
	run -0 sinfo -R
	[ "${lines[0]}" = "REASON               USER      TIMESTAMP           NODELIST" ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == "disk swap "*" $idle" ]]
	run -0 sinfo -h -O "NodeList:6,StateLong:.10,Reason" -N -n "$idle"
	[ "$output" = "$(printf '%-6s %10s %-20s' "$idle" drained 'disk swap')" ]
	run -2 sinfo -O Colour
	[[ "$output" == *'"Colour" is not a field gbatch'"'"'s sinfo prints'* ]]
}

@test "sacct -l and ReqMem, ReqTRES, NTasks, Reason, WorkDir: Slurm's fields" {
	mkdir w
	id=$(sbatch --parsable -D "$GB_DIR/w" -N 1 --gpus-per-node 2 --ntasks-per-node 2 -c 1 --mem 100M --wrap true)
	gb_wait_state "$id" COMPLETED 20
	run -0 sacct -n -P -j "$id" -o JobID,ReqMem,ReqTRES,NTasks,Reason,WorkDir,State
	[ "$output" = "$id|100M|cpu=2,mem=100M,node=1,gres/gpu=2|2|None|$GB_DIR/w|COMPLETED" ]
	held=$(sbatch --parsable -H --wrap true)
	[ "$(sacct -n -P -j "$held" -o Reason,ReqMem)" = "JobHeldUser|0" ]
	run -0 sacct -l -P -j "$id"
	[ "${lines[0]}" = "JobID|JobIDRaw|JobName|Partition|MaxRSS|NTasks|AllocCPUS|Elapsed|State|ExitCode|ReqMem|ReqTRES|AllocTRES|TotalCPU" ]
	[[ "${lines[1]}" == "$id|$id|wrap|gbatch|"*"|2|2|"*"|COMPLETED|0:0|100M|cpu=2,mem=100M,node=1,gres/gpu=2|cpu=2,gres/gpu=2,node=1|"* ]]
}

@test "scontrol show hostnames and hostlist: a job script's node list, one name a line, and folded back" {
	printf '#!/bin/sh\n#SBATCH -N 2 --gpus-per-node 1\nscontrol show hostnames >hosts-$SLURM_NODEID.txt\nscontrol show hostlist "$(paste -sd, hosts-$SLURM_NODEID.txt)" >list-$SLURM_NODEID.txt\n' >h.sh
	id=$(PATH="$GBATCH_BUILDDIR/slurm:$PATH" sbatch --parsable h.sh)
	gb_wait_state "$id" COMPLETED 20
	[ "$(cat hosts-0.txt)" = $'n1\nn2' ]
	[ "$(cat list-0.txt)" = "n[1-2]" ]
	run -0 scontrol show hostnames 'gpu[07-09],login'
	[ "$output" = $'gpu07\ngpu08\ngpu09\nlogin' ]
	run -0 scontrol show hostlist n3,n1,n2,n7,login
	[ "$output" = "login,n[1-3,7]" ]
	run -2 env -u SLURM_JOB_NODELIST scontrol show hostnames
	[[ "$output" == *"show hostnames: expected a node list (or SLURM_JOB_NODELIST set, as in a job)"* ]]
	run -2 scontrol show hostlist 'n[1-'
	[[ "$output" == *'show hostlist: "n[1-"'* ]]
}

@test "srun in a batch script starts a step of the job's tasks, with the job's GPUs and their ranks, and returns the highest status; outside a job it is grun" {
	cat >s.sh <<'SH'
#!/bin/sh
#SBATCH -G 2
echo "batch $SLURM_PROCID $GBATCH_STEP" >batch.txt
srun -n1 --cpu-bind=q --mpi=none --export=ALL sh -c 'echo "$SLURM_JOB_ID $SLURM_PROCID $CUDA_VISIBLE_DEVICES"' >step.txt
srun sh -c 'exit 3'
echo "status $?" >status.txt
srun -n 3 --label sh -c 'echo "rank $SLURM_PROCID of $SLURM_NTASKS"; exit $SLURM_PROCID' >label.txt
echo "label $?" >>status.txt
srun -n 2 -K sh -c '[ "$SLURM_PROCID" = 1 ] && exit 5; sleep 60' 2>/dev/null
echo "kill $?" >>status.txt
srun -G 1 true 2>gpus.txt
echo "gpus $?" >>status.txt
srun -N 2 true 2>nodes.txt
echo "nodes $?" >>status.txt
srun no-such-command-here 2>missing.txt
echo "missing $?" >>status.txt
srun -c 64 true 2>cpus.txt
echo "cpus $?" >>status.txt
FOO=no BAR=kept srun -c 1 --export=NONE,FOO=yes sh -c 'echo "$FOO ${BAR:-none}"' >export.txt
SH
	id=$(sbatch --parsable s.sh)
	gb_wait_state "$id" COMPLETED 60
	# The script ran once, as the job's batch script.
	[ "$(cat batch.txt)" = "batch 0 batch" ]
	# The step's task sees the job's id, its rank and the two GPUs.
	[ "$(cat step.txt)" = "$id 0 $(gq -h -t all -j "$id" -o gpu_ids | sed 's/^[^:]*://')" ]
	# Three tasks on the job's one node, each line after its rank; srun
	# exits with the highest status of them (2); -K stops the others
	# once one fails (the sleeper does not keep srun 60 s).
	[ "$(sort label.txt)" = "0: rank 0 of 3
1: rank 1 of 3
2: rank 2 of 3" ]
	[ "$(cat status.txt)" = "status 3
label 2
kill 143
gpus 2
nodes 2
missing 127
cpus 2" ]
	grep -q "srun: -c 64: the job gave each task [0-9]* CPUs\{0,1\}; a step's tasks share the job's CPUs" cpus.txt
	# --export as gsub takes it: the list alone, not srun's own.
	[ "$(cat export.txt)" = "yes none" ]
	grep -q "srun: -G: a step takes srun's -n, -N, --ntasks-per-node, -c, -o, -e, --export, --gpus-per-task=1, --label and --kill-on-bad-exit; its GPUs, CPUs and memory are the job's" gpus.txt
	# Its steps, as sacct lists them after the job (not with -X): each
	# srun that started tasks, JOBID.STEP, its tasks, how it ended.
	run -0 sacct -j "$id" -n -P -o JobID,JobName,State,ExitCode,NTasks
	[ "${#lines[@]}" -eq 7 ]
	[ "${lines[0]}" = "$id|s.sh|COMPLETED|0:0|1" ]
	[[ "${lines[1]}" =~ ^$id\.[0-9]+\|sh\|COMPLETED\|0:0\|1$ ]]
	[[ "${lines[2]}" =~ ^$id\.[0-9]+\|sh\|FAILED\|3:0\|1$ ]]
	[[ "${lines[3]}" =~ ^$id\.[0-9]+\|sh\|FAILED\|2:0\|3$ ]]
	[[ "${lines[4]}" =~ ^$id\.[0-9]+\|sh\|(FAILED|CANCELLED)\|5:15\|2$ ]]
	[[ "${lines[5]}" =~ ^$id\.[0-9]+\|no-such-command-here\|FAILED\|127:0\|1$ ]]
	[[ "${lines[6]}" =~ ^$id\.[0-9]+\|sh\|COMPLETED\|0:0\|1$ ]]
	[ "$(sacct -j "$id" -X -n -P -o JobID)" = "$id" ]
	# gq -l ends with them, one a line.
	gq -l "$id" >long.txt
	[ "$(sed -n '/^steps:$/,$p' long.txt | grep -c "^  $id\.[0-9]* ")" -eq 6 ]
	grep -q "^  $id\.[0-9]*  3 tasks on n[12]  FAILED 2:0  " long.txt
	grep -q "srun: -N 2: the job has 1 node; give at most -N 1" nodes.txt
	grep -q "no-such-command-here: not found" missing.txt
	# Outside a job: an allocation of its own, as grun.
	run -0 srun -G 1 -Q sh -c 'echo "out $SLURM_NTASKS"'
	[ "$output" = "out 1" ]
	run -4 srun -G 1 -Q sh -c 'exit 4'
	run -2 srun --mpi=pmi2 true
	[[ "$output" == *"--mpi=pmi2: gbatch starts no PMI server"* ]]
	run -2 srun -n 0 true
	[[ "$output" == *"--ntasks: expected a whole number from 1 to 1024, got \"0\""* ]]
	run -2 srun --label -G 1 true
	[[ "$output" == *"--label: outside a job"* ]]
}

@test "srun in a job of two nodes and two tasks a node runs the command once for each task, each with its own ranks" {
	cat >m.sh <<'SH'
#!/bin/sh
#SBATCH -N 2 --ntasks-per-node 2 --gpus-per-node 2
srun -N 2 -n 4 --ntasks-per-node=2 sh -c 'echo "$SLURM_PROCID/$SLURM_NTASKS $RANK $LOCAL_RANK $SLURM_NODEID $CUDA_VISIBLE_DEVICES"' >rank-$SLURM_PROCID.txt
SH
	id=$(sbatch --parsable m.sh)
	gb_wait_state "$id" COMPLETED 30
	[ "$(cat rank-*.txt | awk '{ print $1, $2, $3, $4 }' | sort)" = "0/4 0 0 0
1/4 1 1 0
2/4 2 0 1
3/4 3 1 1" ]
	# Each task sees its node's two GPUs, as Slurm's tasks do by default.
	[ "$(cat rank-*.txt | awk '{ print $5 }' | grep -c '^[0-9],[0-9]$')" = 4 ]
	# -o with %t: a file a task; with --gpus-per-task=1 each task has
	# its own GPU, that of its local rank. -o alone takes the errors too;
	# -e apart from -o.
	cat >f.sh <<'SH'
#!/bin/sh
#SBATCH -N 2 --ntasks-per-node 2 --gpus-per-node 2
srun -o 'task-%t.txt' --gpus-per-task=1 sh -c 'echo "$SLURM_PROCID $SLURM_LOCALID $CUDA_VISIBLE_DEVICES"'
srun -o all.txt sh -c 'echo "out $SLURM_PROCID"; echo "err $SLURM_PROCID" >&2'
srun -n 2 -o two.txt -e 'two-err-%t.txt' sh -c 'echo "o $SLURM_PROCID"; echo "e $SLURM_PROCID" >&2'
SH
	id=$(sbatch --parsable f.sh)
	gb_wait_state "$id" COMPLETED 30
	for t in 0 1 2 3; do
		read -r rank local gpu <"task-$t.txt"
		[ "$rank" = "$t" ]
		[ "$local" = $((t % 2)) ]
		gq -h -t all -j "$id" -o gpu_ids | grep -q "n[12]:.*\b$gpu\b"
	done
	[ "$(cat task-0.txt task-1.txt | awk '{ print $3 }' | sort -u | wc -l)" = 2 ]
	[ "$(sort all.txt | paste -sd' ')" = "err 0 err 1 err 2 err 3 out 0 out 1 out 2 out 3" ]
	[ "$(sort two.txt | paste -sd' ')" = "o 0 o 1" ]
	[ "$(cat two-err-1.txt)" = "e 1" ]
}

@test "squeue -w and -A, sinfo -t and sacct -b select as Slurm's do" {
	a=$(sbatch --parsable -A vision -w n1 --wrap 'sleep 60')
	b=$(sbatch --parsable -A speech -w n2 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	[ "$(squeue -h -w n1 -o %i)" = "$a" ]
	[ "$(squeue -h -w 'n[2-3]' -o %i)" = "$b" ]
	[ "$(squeue -h -A speech -o '%i %a')" = "$b speech" ]
	[ "$(squeue -h -A vision,speech -o %i | sort)" = "$(printf '%s\n' "$a" "$b" | sort)" ]
	[ "$(squeue --json -A vision | python3 -c 'import json, sys; print([j["job_id"] for j in json.load(sys.stdin)["jobs"]])')" = "[$a]" ]
	run -2 squeue -w 'n[1-'
	[[ "$output" == *'"n[1-"'* ]]
	# sinfo -t: both nodes hold a job of one GPU of four.
	[ "$(sinfo -h -N -t mix -o %N | sort | paste -sd, -)" = n1,n2 ]
	[ -z "$(sinfo -h -N -t idle,down -o %N)" ]
	run -2 sinfo -t sleepy
	[[ "$output" == *'--states: unknown state "sleepy"; expected idle, mix, alloc, drain, down, resv or maint'* ]]
	scancel "$a"
	gb_wait_state "$a" CANCELLED 20
	run -0 sacct -b -P -n -j "$a"
	# Its shell ended by gbatch's SIGTERM: Slurm's 0:15.
	[ "$output" = "$a|CANCELLED|0:15" ]
}
