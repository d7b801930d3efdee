#!/usr/bin/env bats
# gq: columns, filters, formats, the long view, exit statuses.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

@test "gq --help lists every option and field" {
	run -0 gq --help
	for o in --user --me --states --jobs --format --noheader --json \
	    --long --sort --timeout --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
	for f in id user name state gpus nodes time reason time_limit \
	    submit_time start_time end_time exit_code workdir command stdout \
	    stderr gpu_ids; do
		[[ "$output" == *"$f"* ]] || { echo "missing field $f"; false; }
	done
}

@test "gq --version names the program and package" {
	run -0 gq --version
	[[ "$output" =~ ^gq\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gq with an unknown option or stray argument is a usage error" {
	run -2 gq --frobnicate
	[[ "$output" == *"--frobnicate"* ]]
	run -2 gq 42
	[[ "$output" == *"42"* ]]
}

@test "gq shows running and pending jobs with their nodes and reasons" {
	a=$(gb_submit -G 4 --wrap 'sleep 60')
	b=$(gb_submit -G 4 --wrap 'sleep 60')
	c=$(gb_submit -G 4 -J waiter --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	run -0 gq
	read -r -a head <<<"${lines[0]}"
	[ "${head[*]}" = "JOBID USER NAME STATE GPUS NODES TIME QUEUE GPU_TIME RESTARTS PREEMPTED REASON" ]
	[ "${#lines[@]}" -eq 4 ]
	run -0 gq -h -j "$a"
	read -r id user name state gpus nodes time queue attained restarts preempted reason <<<"$output"
	[ "$id" = "$a" ]
	[ "$user" = "$(id -un)" ]
	[ "$state" = RUNNING ]
	[ "$gpus" = 4 ]
	[[ "$nodes" == n1 || "$nodes" == n2 ]]
	[[ "$time" =~ ^[0-9]+:[0-5][0-9]$ ]]
	# A new job starts in the top queue; GPU_TIME is GPUs x run time.
	[ "$queue" = Q0 ]
	[[ "$attained" =~ ^[0-9]+:[0-5][0-9]$ ]]
	[ "$restarts" = 0 ]
	[ "$preempted" = 0 ]
	run -0 gq -h -j "$c"
	read -r id user name state gpus nodes time queue attained restarts preempted reason <<<"$output"
	[ "$name" = waiter ]
	[ "$state" = PENDING ]
	[ "$nodes" = - ]
	[ "$time" = 0:00 ]
	[ "$queue" = Q0 ]
	[ "$attained" = 0:00 ]
	[ "$reason" = Resources ]
}

@test "gq columns computed from other members (gpu_ids, time, reason) are filled" {
	a=$(gb_submit -G 3 -t 2:00:00 --wrap 'sleep 60')
	b=$(gb_submit -G 4 --wrap 'sleep 60')
	c=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	gb_wait_state "$b" RUNNING 20
	run -0 gq -h -j "$a" -o gpu_ids,time,time_limit
	read -r gpu_ids time limit <<<"$output"
	[[ "$gpu_ids" =~ ^n[12]:[0-3],[0-3],[0-3]$ ]]
	[[ "$time" =~ ^[0-9]+:[0-5][0-9]$ ]]
	[ "$limit" = 2:00:00 ]
	run -0 gq -h -j "$c" -o reason
	[ "$output" = Resources ]
}

@test "gq --noheader and -h print no header" {
	gb_submit -H --wrap true >/dev/null
	run -0 gq --noheader
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" != *JOBID* ]]
	run -0 gq -h
	[ "${#lines[@]}" -eq 1 ]
}

@test "gq -h -o id prints each id as it is, for \$(...) in scripts: a column alone is not padded" {
	# Ids of one and two digits: an aligned column would pad the short.
	for i in $(seq 10); do gb_submit -H --wrap true >/dev/null; done
	run -0 gq -h -o id
	[ "$output" = "$(seq 10)" ]
	first=$(gq -h -o id | head -1)
	[ "$first" = 1 ]
	gcancel "$first"
	# With a header, the column is the header's width, still unpadded.
	run -0 gq -o id
	[ "${lines[0]}" = JOBID ]
	[ "${lines[1]}" = 2 ]
	# Beside another column, ids stay aligned for the eye.
	run -0 gq -h -o id,state
	[ "${lines[0]}" = " 2  HELD" ]
}

@test "gq -o picks fields and widths, and refuses an unknown field" {
	id=$(gb_submit -H -J abcdefgh -t 90 --wrap true)
	run -0 gq -h -j "$id" -o id,name:3,time_limit,gpus
	read -r f1 f2 f3 f4 <<<"$output"
	[ "$f1" = "$id" ]
	[ "$f2" = abc ]
	[ "$f3" = 1:30:00 ]
	[ "$f4" = 1 ]
	run -2 gq -o id,bogus
	[[ "$output" == *'"bogus"'* && "$output" == *"accepted:"*"time_limit"* ]]
	run -2 gq -o id:0
	[[ "$output" == *"width"* ]]
}

@test "gq -t filters by state and refuses an unknown state" {
	held=$(gb_submit -H --wrap true)
	done_=$(gb_submit --wrap true)
	gb_wait_state "$done_" COMPLETED 20
	run -0 gq -h -o id
	[ "$output" = "$held" ]
	run -0 gq -h -o id -t CD
	[ "$output" = "$done_" ]
	run -0 gq -h -o id -t all
	[ "${#lines[@]}" -eq 2 ]
	run -0 gq -h -o id -t held,completed
	[ "${#lines[@]}" -eq 2 ]
	run -2 gq -t SLEEPING
	[[ "$output" == *'"SLEEPING"'* && "$output" == *PENDING*RUNNING* ]]
}

@test "gq -j finds a finished job and reports an unknown one" {
	id=$(gb_submit --wrap 'exit 3')
	gb_wait_state "$id" FAILED 20
	run -0 gq -h -j "$id" -o state,exit_code
	[ "$output" = "FAILED  3" ]
	run -1 gq -j 987654
	[[ "$output" == *"job 987654: not found"* ]]
	run -2 gq -j abc
	[[ "$output" == *'"abc"'*"job id"* ]]
}

@test "gq -u and --me select by user" {
	id=$(gb_submit -H --wrap true)
	run -0 gq -h -o id -u "$(id -un)"
	[ "$output" = "$id" ]
	run -0 gq -h -o id --me
	[ "$output" = "$id" ]
	other=$(getent passwd | awk -F: -v me="$(id -un)" '$1 != me { print $1; exit }')
	run -0 gq -h -o id -u "$other"
	[ -z "$output" ]
	# gq reads no account database: gbatchd says there is no such user,
	# for one name or any of several.
	run -1 gq -u no-such-user-xyz
	[ "$output" = 'gq: no such user "no-such-user-xyz"' ]
	run -1 gq -u "$(id -un),no-such-user-xyz"
	[ "$output" = 'gq: no such user "no-such-user-xyz"' ]
	run -0 gq -h -o id -u "$other,$(id -un)"
	[ "$output" = "$id" ]
}

@test "gq --json prints the reply as JSON" {
	id=$(gb_submit -H -J jj --wrap true)
	run -0 gq --json
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["ok"] is True; assert [j["name"] for j in d["jobs"]] == ["jj"], d' "$output"
}

@test "gq -l shows every field of one job" {
	id=$(gb_submit -H -J longview -t 5 --wrap 'echo hi')
	run -0 gq -l "$id"
	[[ "$output" == *"id:"*"$id"* ]]
	grep -Eq '^name: +longview$' <<<"$output"
	grep -Eq '^state: +HELD$' <<<"$output"
	grep -Eq '^time_limit: +5:00$' <<<"$output"
	grep -Eq "^workdir: +$GB_DIR\$" <<<"$output"
	grep -Eq '^command: +echo hi$' <<<"$output"
	run -1 gq -l 987654
	[[ "$output" == *"987654"*"not found"* ]]
	run -2 gq -l x
}

# long_value FIELD: the value of one field in gq -l's output ($output).
long_value() {
	sed -n "s/^$1: *//p" <<<"$output"
}

@test "gq -l shows the output files the job writes, not the pattern" {
	id=$(gb_submit -J named -o 'o-%x-%j-%u-%r.txt' -e 'e-%%-%j.txt' \
	    --wrap 'echo out; echo err >&2')
	gb_wait_state "$id" COMPLETED 20
	run -0 gq -l "$id"
	out=$(long_value stdout)
	err=$(long_value stderr)
	[ "$out" = "$GB_DIR/o-named-$id-$(id -un)-0.txt" ]
	[ "$err" = "$GB_DIR/e-%-$id.txt" ]
	# The very files the job wrote.
	grep -qx out "$out"
	grep -qx err "$err"
	# The default pattern, for a job that has not run.
	held=$(gb_submit -H --wrap true)
	run -0 gq -l "$held"
	[ "$(long_value stdout)" = "$GB_DIR/gbatch-$held.out" ]
	# An absolute pattern stays as it is.
	held=$(gb_submit -H -o /tmp/abs-%j.out --wrap true)
	run -0 gq -l "$held"
	[ "$(long_value stdout)" = "/tmp/abs-$held.out" ]
}

@test "gq -l lists each part's file of a multi-node job with %N or %t" {
	id=$(gb_submit -G 8 -o 'p-%N-%t.out' \
	    --wrap 'echo "rank $GBATCH_NODE_RANK"; sleep 30')
	gb_wait_state "$id" RUNNING 20
	run -0 gq -l "$id"
	# stdout's line, then its continuation lines (indented).
	mapfile -t files < <(awk '/^stdout:/ { f = 1; sub(/^stdout: */, ""); print; next }
	    f && /^ / { sub(/^ */, ""); print; next } { f = 0 }' <<<"$output")
	[ "${#files[@]}" -eq 2 ] || { echo "$output"; false; }
	nodes=$(long_value nodes)
	for rank in 0 1; do
		node=$(cut -d, -f $((rank + 1)) <<<"$nodes")
		[ "${files[$rank]}" = "$GB_DIR/p-$node-$rank.out (rank $rank, $node)" ]
		gb_wait 10 grep -qx "rank $rank" "$GB_DIR/p-$node-$rank.out"
	done
	# Pending, with no nodes yet: %N and %t stay as written.
	held=$(gb_submit -H -G 8 -o 'q-%N-%t-%j.out' --wrap true)
	run -0 gq -l "$held"
	[ "$(long_value stdout)" = "$GB_DIR/q-%N-%t-$held.out" ]
}

@test "gq -t all lists by submit time, newest last; --sort orders by any field" {
	a=$(gb_submit -J c-first --wrap true)
	gb_wait_state "$a" COMPLETED 20
	b=$(gb_submit -H -J a-second --wrap true)
	c=$(gb_submit -J b-third --wrap 'exit 1')
	gb_wait_state "$c" FAILED 20
	d=$(gb_submit -H -J d-fourth --wrap true)
	# Before, finished jobs came after the live ones, grouped by state.
	run -0 gq -h -o id -t all
	[ "$(echo $output)" = "$a $b $c $d" ]
	run -0 gq -h -o id -t CD,F,H
	[ "$(echo $output)" = "$a $b $c $d" ]
	run -0 gq -h -o id --sort=-id -t all
	[ "$(echo $output)" = "$d $c $b $a" ]
	run -0 gq -h -o name -S name -t all
	[ "$(echo $output)" = "a-second b-third c-first d-fourth" ]
	run -0 gq -h -o id -S state,-id -t all
	[ "$(echo $output)" = "$a $c $d $b" ]
	# Pending and running jobs keep the order they were submitted in.
	run -0 gq -h -o id
	[ "$(echo $output)" = "$b $d" ]
	run -2 gq --sort bogus
	[[ "$output" == *'--sort: unknown field "bogus"; accepted:'*"submit_time"*"leading - for descending"* ]]
}

@test "gq says where it looked when gbatchd is unreachable" {
	GBATCH_SOCKET=$GB_DIR/nosuch.sock run -3 gq
	[[ "$output" == *"cannot reach gbatchd at $GB_DIR/nosuch.sock"* ]]
	[[ "$output" == *"Start it with 'gbatchd'"* ]]
}

# rawsubmit JOB: submits the JSON object JOB through the raw protocol, as
# any local program can without gsub's checks; prints the job id.
rawsubmit() {
	gb_rawask '{"type":200,"job":'"$1"'}' |
	    python3 -c 'import json, sys; print(json.load(sys.stdin)["job_id"])'
}

# gbatchd refuses control characters in a name, C0, DEL and C1 (U+009B is
# CSI to some terminals), as gsub does, but takes any argument; a job of
# such arguments, held.
EVIL_JOB='{"script":"true","workdir":"/tmp","hold":true,"name":"az \u00e9","argv":["\u001b]0;pwn\u0007\u001b[2J\u007f\u009b31m","x\nforged\tq"]}'
EVIL_NAME='az é'
EVIL_ARGV='\e]0;pwn\x07\e[2J\x7f\u009b31m x\nforged\tq'

@test "escape sequences in a job's name and arguments print escaped in gq's table" {
	# A name with a C1 control is refused, straight to the socket too.
	run -0 gb_rawask '{"type":200,"job":{"script":"true","workdir":"/tmp","hold":true,"name":"a\u009b31m"}}'
	[[ "$output" == *'name: holds a control character; expected a line of text'* ]]
	id=$(rawsubmit "$EVIL_JOB")
	gq -j "$id" -o name,argv,state >out
	gb_no_controls out
	[ "$(wc -l <out)" -eq 2 ]
	# Each column is as wide as the escaped text.
	[ "$(sed -n 1p out)" = "$(printf '%-*s  %-*s  STATE' "${#EVIL_NAME}" \
	    NAME "${#EVIL_ARGV}" ARGV)" ]
	[ "$(sed -n 2p out)" = "$EVIL_NAME  $EVIL_ARGV  HELD" ]
	# A fixed width cuts the escaped form.
	[ "$(gq -j "$id" --noheader -o argv:4)" = '\e]0' ]
}

@test "escape sequences in a job's name and arguments print escaped in gq -l" {
	id=$(rawsubmit "$EVIL_JOB")
	gq -l "$id" >out
	gb_no_controls out
	output=$(cat out)
	[ "$(long_value name)" = "$EVIL_NAME" ]
	[ "$(long_value argv)" = "$EVIL_ARGV" ]
	# The newline in an argument made no line of its own.
	! grep -q '^forged' out
}

@test "gq --json keeps a job's name and arguments exact, with no raw control byte" {
	id=$(rawsubmit "$EVIL_JOB")
	gq --json -j "$id" >out
	gb_no_controls out
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["jobs"][0]
want = json.loads(sys.argv[2])
assert d["name"] == want["name"], (d["name"], want["name"])
assert d["argv"] == want["argv"], (d["argv"], want["argv"])' out "$EVIL_JOB"
}

# as_nobody CMD: runs the shell command CMD as the user nobody, another user
# than the test's root, in /tmp.
as_nobody() {
	su -s /bin/sh nobody -c "cd /tmp && PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $1"
}

@test "private_data: other users' jobs list without command, arguments, directory, files; operators see all" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to list as another user"
	chmod 711 "$GB_DIR"
	mine=$(gb_submit -H -J rootjob -o secret-%j.out --wrap 'echo rootsecret')
	theirs=$(as_nobody "gsub --parsable -H -J nobodyjob --wrap 'echo nobodysecret'")
	# Off by default: every user sees every field.
	as_nobody "gq -l $mine" >out
	grep -q rootsecret out
	# On, through a reload.
	gb_write_conf 'private_data = true;'
	kill -HUP "$GB_CTL_PID"
	gb_wait 10 sh -c 'gctl show config | grep -qx "controller.private_data = true"'
	as_nobody "gq -l $mine" >out
	output=$(cat out)
	[ "$(long_value name)" = rootjob ]
	[ "$(long_value user)" = root ]
	[ "$(long_value state)" = HELD ]
	for f in command argv workdir stdout stderr message; do
		[ "$(long_value "$f")" = - ] || { echo "$f shown: $output"; false; }
	done
	! grep -q -e rootsecret -e "$GB_DIR" out
	# gbatchd leaves the members out; gq hides nothing itself.
	as_nobody "gq --json -j $mine" >out
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["name"] == "rootjob" and j["state"] == "HELD", j
for k in ("command", "argv", "workdir", "stdout", "stderr", "message"):
    assert k not in j, (k, j)' out
	# A table's listing, rows of values, blanks them as well.
	as_nobody "gq -h -t all -o id,workdir,stdout" >out
	grep -qE "^ *$mine +- +-$" out
	grep -qE "^ *$theirs +/tmp +" out
	! grep -q -e secret- -e "$GB_DIR" out
	# A user sees all of their own job, an operator all of anyone's.
	as_nobody "gq -l $theirs" >out
	grep -q nobodysecret out
	gq -l "$theirs" >out
	grep -q nobodysecret out
}

@test "gq -o rank numbers the pending jobs in the order the scheduler takes them" {
	big=$(gb_submit -G 8 --wrap 'sleep 60')
	gb_wait_state "$big" RUNNING
	p1=$(gb_submit -G 1 --wrap true)
	p2=$(gb_submit -G 2 --wrap true)
	held=$(gb_submit -H -G 1 --wrap true)
	p3=$(gb_submit -G 1 --wrap true)
	gb_wait_state "$p3" PENDING
	run -0 gq -h -t all -o id,state,rank
	# Submitted in this order, all in Q0: first come, first placed.
	grep -qE "^ *$p1 +PENDING +1$" <<<"$output"
	grep -qE "^ *$p2 +PENDING +2$" <<<"$output"
	grep -qE "^ *$p3 +PENDING +3$" <<<"$output"
	# Running and held jobs have no place.
	grep -qE "^ *$big +RUNNING +-$" <<<"$output"
	grep -qE "^ *$held +HELD +-$" <<<"$output"
	# When the big one ends, the first ranked starts.
	gcancel "$big"
	gb_wait_state "$p1" COMPLETED
}

# A varied queue for the listing tests: names that need escaping or are
# wide, an array's waiting tasks as one row, a job waiting for its begin
# time, then N held jobs pipelined (bench/submit-pipelined), then more.
gq_many_jobs() {
	gb_submit -H -J 'a b' --wrap true >/dev/null
	rawsubmit "$EVIL_JOB" >/dev/null
	gb_submit -H -J 'ünïcödé' -G 2 --wrap true >/dev/null
	gb_submit -H -a 0-99%8 -J sweep --wrap true >/dev/null
	gb_submit --begin now+1hour -J later --wrap true >/dev/null
	"$GBATCH_BUILDDIR/bench/submit-pipelined" -H -n "$1" >/dev/null
	gb_submit -H -J "$(printf '%0200d' 7)" --wrap true >/dev/null
	gb_submit -H -J last -G 4 --wrap true >/dev/null
}

@test "gq streams a listing of a few thousand jobs, row for row as the whole listing prints it" {
	gq_many_jobs 3000
	# -S id lists the same jobs in the same order, but reads the whole
	# listing before it prints (one frame); the default streams it.
	gq >streamed
	gq -S id >whole
	[ "$(wc -l <streamed)" -eq 3008 ]
	cmp streamed whole
	gq -h -o id,name,argv,state,reason >streamed
	gq -h -S id -o id,name,argv,state,reason >whole
	cmp streamed whole
	grep -q '^ *[0-9]*_\[0-99%8\] .*sweep' streamed
	grep -Fq "$EVIL_NAME" streamed
	gb_no_controls streamed
}

@test "gq sizes its columns on the first 5,000 rows of a longer listing and keeps every row" {
	gq_many_jobs 6000
	gq >streamed
	gq -S id >whole
	[ "$(wc -l <streamed)" -eq 6008 ]
	# The rows are the same, cell for cell.
	awk '{ $1 = $1 } 1' streamed >a
	awk '{ $1 = $1 } 1' whole >b
	cmp a b
	# The header and the first 5,000 rows set the widths: up to the
	# 200-character name, which comes after them, every row's STATE
	# starts where the header's does; that name widens its column from
	# its own row on, where the whole listing widened it for every row.
	python3 -c '
import sys
def state_at(path):
    # The column (in characters) where the STATE cell of each line starts.
    cols = []
    for line in open(path, encoding="utf-8"):
        at = [line.find("  " + w) for w in ("STATE", "HELD ", "PENDING ")]
        cols.append(max(at))
    return cols
s, w = state_at("streamed"), state_at("whole")
assert len(set(s[:6006])) == 1, sorted(set(s[:6006]))
assert s[6007] > s[0], (s[6007], s[0])
assert len(set(w)) == 1, sorted(set(w))'
}
