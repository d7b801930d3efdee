#!/usr/bin/env bats
# gsub: options, #GSUB directives, scripts, exit statuses.

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

script() {
	# script FILE LINES...: a job script with a shebang.
	local f=$1; shift
	{ echo '#!/bin/sh'; printf '%s\n' "$@"; } >"$f"
}

@test "gsub --help lists every option" {
	run -0 gsub --help
	for o in --gpus --job-name --output --error --chdir --time --export \
	    --hold --parsable --wrap --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
}

@test "gsub --version names the program and package" {
	run -0 gsub --version
	[[ "$output" =~ ^gsub\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gsub with an unknown option is a usage error" {
	run -2 gsub --frobnicate x.sh
	[[ "$output" == *"--frobnicate"* ]]
}

@test "gsub submits a script, it runs, and its output lands in gbatch-ID.out" {
	script job.sh 'echo "hello from $GBATCH_JOB_ID"'
	run -0 gsub job.sh
	[[ "$output" =~ ^Submitted\ job\ ([0-9]+)$ ]]
	id=${BASH_REMATCH[1]}
	gb_wait_state "$id" COMPLETED 20
	grep -qx "hello from $id" "gbatch-$id.out"
}

@test "gsub --parsable prints only the id" {
	run -0 gsub --parsable --wrap true
	[[ "$output" =~ ^[0-9]+$ ]]
}

@test "gsub --gpus refuses 65537, -1 and two locally" {
	for v in 65537 -1 two; do
		run -2 gsub --gpus "$v" --wrap true
		[[ "$output" == *"--gpus: expected a whole number from 0 to 65536, got \"$v\""* ]]
	done
	run -0 gq --noheader -t all
	[ -z "$output" ]
}

@test "gsub with more GPUs than the whole cluster has is refused by gbatchd" {
	run -1 gsub -G 9 --wrap true
	[[ "$output" == *"--gpus 9: the cluster has 8 GPUs in all"* ]]
}

@test "gsub names a missing script and the errno text" {
	run -2 gsub nosuch.sh
	[[ "$output" == *"nosuch.sh"*"No such file or directory"* ]]
}

@test "gsub refuses an unreadable script and a directory" {
	run -2 gsub "$GB_DIR"
	[[ "$output" == *"$GB_DIR: is a directory"* ]]
	[ "$(id -u)" -eq 0 ] || skip "needs root to run gsub as another user"
	chmod 711 "$GB_DIR"
	printf '#!/bin/sh\ntrue\n' >secret.sh
	chmod 600 secret.sh
	run -2 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gsub' '$GB_DIR/secret.sh'"
	[[ "$output" == *"secret.sh: cannot read the script: Permission denied"* ]]
	run -0 gq --noheader -t all
	[ -z "$output" ]
}

@test "gsub refuses an empty script, a binary and one without #!" {
	: >empty.sh
	run -2 gsub empty.sh
	[[ "$output" == *"empty.sh"*"empty"* ]]
	printf '\177ELF\0\1\2' >bin.sh
	run -2 gsub bin.sh
	[[ "$output" == *"bin.sh"*"binary"* ]]
	echo 'echo hi' >plain.sh
	run -2 gsub plain.sh
	[[ "$output" == *"plain.sh"*"#!"* ]]
}

@test "gsub reports a bad #GSUB value with the script line" {
	script train.sh '# comment' '#GSUB --gpus x' 'echo hi'
	run -2 gsub train.sh
	[[ "$output" == *'train.sh:3: #GSUB --gpus: expected a whole number from 0 to 65536, got "x"'* ]]
}

@test "gsub takes a script saved with CRLF whose last line ends in CR" {
	# As a Windows editor saves it: no newline after the last line.
	printf '#!/bin/sh\r\n#GSUB -J crlf\r\n#GSUB -H\r' >win.sh
	run -0 timeout 10 gsub --parsable win.sh
	id=$output
	run -0 gq -j "$id" --noheader -o name,state
	[ "$output" = "crlf  HELD" ]
}

@test "gsub refuses an unknown #GSUB option" {
	script train.sh '#GSUB --bogus 1' 'echo hi'
	run -2 gsub train.sh
	[[ "$output" == *"train.sh:2:"*"--bogus"* ]]
}

@test "gsub applies #GSUB directives and the command line wins" {
	script d.sh '#GSUB -J dname' '#GSUB -G 2' '#GSUB -t 7' 'sleep 0' \
	    '#GSUB -t 9'
	id=$(gsub --parsable -G 1 -H d.sh)
	run -0 gq -j "$id" --noheader -o name,gpus,time_limit
	read -r name gpus limit <<<"$output"
	[ "$name" = dname ]
	[ "$gpus" = 1 ]
	[ "$limit" = 7:00 ]
}

@test "gsub --wrap runs a command line" {
	id=$(gsub --parsable --wrap 'echo wrapped-$((40 + 2))')
	gb_wait_state "$id" COMPLETED 20
	grep -qx wrapped-42 "gbatch-$id.out"
	[ "$(gb_state "$id")" = COMPLETED ]
	run -0 gq -j "$id" --noheader -o name
	[ "$output" = wrap ]
}

@test "gsub -o and -e patterns expand %j and %x" {
	id=$(gsub --parsable -J pat -o 'o-%x-%j.txt' -e 'e-%j.txt' \
	    --wrap 'echo out; echo err >&2')
	gb_wait_state "$id" COMPLETED 20
	grep -qx out "o-pat-$id.txt"
	grep -qx err "e-$id.txt"
}

@test "gsub refuses an unknown % in an output pattern" {
	run -2 gsub -o 'x-%q' --wrap true
	[[ "$output" == *"--output"*"%q"* ]]
}

@test "gsub --export=NONE,FOO=1 exports only FOO and the essentials" {
	export BAR=leak
	id=$(gsub --parsable --export=NONE,FOO=1 \
	    --wrap 'echo "FOO=$FOO BAR=$BAR"')
	gb_wait_state "$id" COMPLETED 20
	grep -qx "FOO=1 BAR=" "gbatch-$id.out"
}

@test "gsub --export=NONE takes USER, LOGNAME, HOME and SHELL from the account, not the environment" {
	IFS=: read -r me _ _ _ _ home shell < <(getent passwd "$(id -u)")
	[ -n "$shell" ] || shell=/bin/sh
	id=$(env -u USER -u LOGNAME HOME=/nowhere gsub --parsable \
	    --export=NONE --wrap 'echo "$USER $LOGNAME $HOME $SHELL"; echo "$PATH"')
	gb_wait_state "$id" COMPLETED 20
	run -0 cat "gbatch-$id.out"
	[ "${lines[0]}" = "$me $me $home $shell" ]
	[ "${lines[1]}" = "$PATH" ]
}

@test "gsub --export=ALL passes the environment" {
	export BAR=passed
	id=$(gsub --parsable --wrap 'echo "BAR=$BAR"')
	gb_wait_state "$id" COMPLETED 20
	grep -qx "BAR=passed" "gbatch-$id.out"
}

@test "gsub --export refuses a bad variable name" {
	run -2 gsub --export=1X --wrap true
	[[ "$output" == *"--export"*"1X"* ]]
}

@test "gsub -H submits a held job" {
	id=$(gsub --parsable -H --wrap true)
	[ "$(gb_state "$id")" = HELD ]
}

@test "gsub refuses a name or comment with a C1 control, and quotes what was typed made safe" {
	# CSI (U+009B) is a control character as ESC is: refused, and the
	# message shows it escaped.
	run -2 gsub -J $'a\xc2\x9b2Jb' --wrap true
	[[ "$output" == *'--job-name: expected 1 to '*' printable characters, got "a\u009b2Jb"'* ]]
	printf '%s\n' "$output" >err.txt
	gb_no_controls err.txt
	run -2 gsub --comment $'x\e[2Jy' --wrap true
	[[ "$output" == *'got "x\e[2Jy"'* ]]
	printf '%s\n' "$output" >err.txt
	gb_no_controls err.txt
	# Nothing was submitted (gbatchd refuses them as well: job-req.t).
	[ -z "$(gq -h -t all -o id)" ]
}

@test "gsub -t takes Slurm time forms and refuses others" {
	id=$(gsub --parsable -H -t 1-02:03:04 --wrap true)
	run -0 gq -j "$id" --noheader -o time_limit
	[ "$output" = 1-02:03:04 ]
	run -2 gsub -t 1:99 --wrap true
	[[ "$output" == *"--time"*"1:99"* ]]
}

@test "gsub -t names the field out of range and its range" {
	run -2 gsub -t 25:61:00 --wrap true
	[[ "$output" == *'--time: minutes: expected 0-59, got 61 in "25:61:00"'* ]]
	run -2 gsub -t 400-00:00:00 --wrap true
	[[ "$output" == *'--time: days: expected 0-365, got 400 in "400-00:00:00"'* ]]
	run -2 gsub -t 1-24 --wrap true
	[[ "$output" == *'--time: hours: expected 0-23, got 24'* ]]
	run -2 gsub -t 365-1 --wrap true
	[[ "$output" == *"longer than 365 days"* ]]
	run -0 gq --noheader -t all
	[ -z "$output" ]
}

@test "gsub refuses options that exclude each other, naming both" {
	run -2 gsub --consolidate --spread --wrap true
	[[ "$output" == *"--consolidate and --spread exclude each other"* ]]
	run -2 gsub --no-requeue --ckpt-signal USR2 --wrap true
	[[ "$output" == *"--no-requeue and --ckpt-signal exclude each other"* ]]
	script ck.sh '#GSUB --ckpt-grace 30' 'true'
	run -2 gsub --no-requeue ck.sh
	[[ "$output" == *"--no-requeue and --ckpt-grace exclude each other"* ]]
	run -0 gq --noheader -t all
	[ -z "$output" ]
}

@test "gsub reads the script from standard input, with its #GSUB lines, when none is given" {
	script in.sh '#GSUB -J piped' 'echo "from stdin: $*"'
	id=$(gsub --parsable <in.sh)
	run -0 gq -j "$id" --noheader -o name,command
	[ "$output" = "piped  (stdin)" ]
	gb_wait_state "$id" COMPLETED 20
	grep -qx "from stdin: " "gbatch-$id.out"
	id=$(printf '#!/bin/sh\necho "args: $*"\n' | gsub --parsable - a b)
	run -0 gq -j "$id" --noheader -o name
	[ "$output" = stdin ]
	gb_wait_state "$id" COMPLETED 20
	grep -qx "args: a b" "gbatch-$id.out"
	run -2 gsub <<<'#!/bin/sh
#GSUB --gpus x'
	[[ "$output" == *'stdin:2: #GSUB --gpus: expected a whole number from 0 to 65536'* ]]
}

@test "gsub with no script and a terminal on stdin is a usage error" {
	# command: this file's script() makes job scripts; this is script(1).
	run -2 command script -qec "gsub" /dev/null
	[[ "$output" == *"no script given; expected a script path, - for standard input, or --wrap"* ]]
}

@test "gsub -D runs the job in that directory and refuses a missing one" {
	mkdir sub
	id=$(gsub --parsable -D sub --wrap pwd)
	gb_wait_state "$id" COMPLETED 20
	grep -qx "$GB_DIR/sub" "sub/gbatch-$id.out"
	run -2 gsub -D nowhere --wrap true
	[[ "$output" == *"nowhere"*"No such file or directory"* ]]
}

@test "gsub passes script arguments" {
	script args.sh 'echo "args: $*"'
	id=$(gsub --parsable args.sh --lr 0.1)
	gb_wait_state "$id" COMPLETED 20
	grep -qx "args: --lr 0.1" "gbatch-$id.out"
}

@test "gsub says where it looked when gbatchd is unreachable" {
	GBATCH_SOCKET=$GB_DIR/nosuch.sock run -3 gsub --wrap true
	[[ "$output" == *"cannot reach gbatchd at $GB_DIR/nosuch.sock"* ]]
	[[ "$output" == *"GBATCH_SOCKET"* ]]
}
