#!/usr/bin/env bats
# What every command does the same way through client/: --timeout and
# GBATCH_TIMEOUT, and what it says when the socket shuts the user out.

load helpers

commands="gsub gq gcancel gnodes gctl"

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_controller
	cd "$GB_DIR"
}

teardown() {
	# A stopped controller would not see the TERM of gb_teardown.
	[ -z "${GB_STOPPED:-}" ] || kill -CONT "$GB_STOPPED" 2>/dev/null || true
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
	gb_teardown
}

# args CMD: a harmless request for each command.
args() {
	case $1 in
	gsub) echo "-H --wrap true" ;;
	gcancel) echo "987654" ;;
	gctl) echo "ping" ;;
	*) echo "" ;;
	esac
}

@test "every command refuses a bad --timeout or GBATCH_TIMEOUT, saying what it accepts" {
	for c in $commands; do
		for v in x -1 1.5 "" 86401; do
			# gctl takes it before its verb.
			run -2 $c --timeout "$v" $(args $c)
			[[ "$output" == "$c: --timeout: expected whole seconds from 0 to 86400 (0: wait for ever), got \"$v\""* ]] ||
			    { echo "$c --timeout '$v': $output"; false; }
		done
		GBATCH_TIMEOUT=soon run -2 $c $(args $c)
		[[ "$output" == "$c: GBATCH_TIMEOUT: expected whole seconds from 0 to 86400"*'"soon"'* ]] ||
		    { echo "$c GBATCH_TIMEOUT=soon: $output"; false; }
	done
}

@test "every command takes --timeout and GBATCH_TIMEOUT with a live gbatchd" {
	run -0 gq --timeout 5
	run -0 gnodes --timeout 0
	run -0 gctl --timeout 3 ping
	GBATCH_TIMEOUT=2 run -0 gsub --parsable -H --wrap true
	GBATCH_TIMEOUT=x run -0 gcancel --timeout 2 "$output"
}

@test "a stopped gbatchd makes every command give up after --timeout, exit 3, saying what it waited for" {
	kill -STOP "$GB_CTL_PID"
	GB_STOPPED=$GB_CTL_PID
	for c in $commands; do
		start=${EPOCHREALTIME/./}
		run -3 $c --timeout 1 $(args $c)
		elapsed=$(( ${EPOCHREALTIME/./} - start ))
		((elapsed >= 900000 && elapsed < 4000000)) ||
		    { echo "$c took $elapsed us"; false; }
		[ "$output" = "$c: gbatchd at $GBATCH_SOCKET did not answer within 1 s (--timeout, GBATCH_TIMEOUT)" ] ||
		    { echo "$c: $output"; false; }
	done
	start=$SECONDS
	GBATCH_TIMEOUT=1 run -3 gq
	((SECONDS - start < 4))
	[[ "$output" == *"did not answer within 1 s"* ]]
	kill -CONT "$GB_CTL_PID"
	GB_STOPPED=
	run -0 gq --timeout 10
}

@test "a socket whose directory shuts the user out says permission denied and what to do, exit 4" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	GB_USER=gbt$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	# GB_DIR, the socket's directory, is mode 0700 and root's.
	chmod 0700 "$GB_DIR"
	for c in gq gnodes "gctl ping"; do
		run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $c"
		[[ "$output" == *"permission denied"* ]] || { echo "$c: $output"; false; }
		[[ "$output" == *"directory $GB_DIR (mode 0700, owner root) does not let $GB_USER in"* ]] ||
		    { echo "$c: $output"; false; }
		[[ "$output" == *"GBATCH_SOCKET"* ]]
		[[ "$output" != *"is it running"* ]]
	done
	# The directory lets the user in, the socket's own mode does not.
	chmod 0711 "$GB_DIR"
	chmod 0600 "$GBATCH_SOCKET"
	run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gq"
	[[ "$output" == *"permission denied"*"the socket (mode 0600, owner root) is not writable by $GB_USER"*"GBATCH_SOCKET"* ]]
	chmod 0666 "$GBATCH_SOCKET"
	run -0 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gq"
}

# The names of protocol requests (docs/protocol.md) that users must never
# read in a message.
protocol_names='\b(HELLO|PING|SHUTDOWN|RECONFIGURE|CONFIG_SHOW|JOB_(SUBMIT|LIST|CANCEL|UPDATE|LAUNCH|SIGNAL|STARTED|ENDED|ENDED_ACK|PREEMPT)|NODE_(LIST|HEARTBEAT|UPDATE))\b'

# says_once TEXT: TEXT names no protocol request and no job id twice.
says_once() {
	if grep -Eq "$protocol_names" <<<"$1"; then
		echo "a protocol name in: $1"
		return 1
	fi
	if grep -Eq '\bjob ([0-9]+)\b.*\b(job )?\1\b' <<<"$1"; then
		echo "the job id twice in: $1"
		return 1
	fi
}

@test "error messages name no protocol request and say the job id once" {
	held=$(gsub --parsable -H --wrap true)
	run -1 gcancel -s USR1 "$held"
	[ "$output" = "gcancel: job $held: it is HELD; only running jobs can be signalled" ]
	says_once "$output"
	run -1 gcancel 987654
	[ "$output" = "gcancel: job 987654: no such job" ]
	says_once "$output"
	run -0 gcancel "$held"
	gb_wait 10 eval "[ \"\$(gq -j $held -h -o state)\" = CANCELLED ]"
	run -1 gcancel "$held"
	[ "$output" = "gcancel: job $held: it already finished (CANCELLED)" ]
	says_once "$output"
	run -1 gctl release "$held"
	says_once "$output"
	[[ "$output" == "gctl: job $held"* ]]
	run -1 gctl drain nosuchnode
	says_once "$output"

	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	GB_USER=gbt$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0711 "$GB_DIR"
	mine=$(gsub --parsable -H --wrap true)
	as_user() {
		su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $*"
	}
	run -4 as_user gcancel "$mine"
	[ "$output" = "gcancel: job $mine: it belongs to $(id -un); you may cancel only your own jobs" ]
	says_once "$output"
	for verb in "drain n1" "resume n1" shutdown reconfigure; do
		run -4 as_user gctl $verb
		[ "$output" = "gctl: ${verb%% *}: only operators may do this (root and controller.operators); you are $GB_USER" ] ||
		    { echo "gctl $verb: $output"; false; }
		says_once "$output"
	done
	run -4 as_user gctl hold "$mine"
	says_once "$output"
}

# needed FILE: the shared libraries FILE asks the loader for, by name
# ("jansson" for libjansson.so.4), one a line; nothing for a static one.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[lib\([^.]*\)\..*\]/\1/p' | sort
}

# declared: the shared libraries the build's link lines name for the
# commands (-l of JANSSON_LIBS and LIBS, and libc), and the sanitizers'
# runtimes when it has them.
declared() {
	sed -n -e 's/^JANSSON_LIBS = //p' -e 's/^LIBS = //p' "$B/Makefile" |
	    tr ' ' '\n' | sed -n 's/^-l//p'
	echo c
	if grep -q '^GB_LDFLAGS = .*-fsanitize' "$B/Makefile"; then
		printf '%s\n' asan ubsan stdc++ gcc_s
	fi
}

@test "each installed command loads no shared library beyond what its build declares" {
	d=$GB_DIR/inst
	make -s -C "$B" install-binPROGRAMS install-pkglibexecPROGRAMS \
	    DESTDIR="$d" bindir=/usr/bin pkglibexecdir=/usr/libexec/gbatch \
	    >/dev/null
	static=$(sed -n 's/^GB_STATIC_LDFLAGS = //p' "$B/Makefile")
	allowed=$(declared | sort -u)
	for c in gsub grun gq gcancel gnodes gctl gacct; do
		f=$d/usr/bin/$c
		[ -x "$f" ] || { echo "$c not installed"; false; }
		if [ -n "$static" ]; then
			# Static: no loader, no library at all.
			[ -z "$(needed "$f")" ] || { echo "$c: $(needed "$f")"; false; }
			run ldd "$f"
			[[ "$output" == *"statically linked"* || "$output" == *"not a dynamic executable"* ]]
		else
			extra=$(comm -23 <(needed "$f") <(echo "$allowed"))
			[ -z "$extra" ] || { echo "$c loads $extra"; false; }
		fi
		run -0 "$f" --version
		[[ "$output" == "$c (gbatch) "* ]]
	done
	# gctl-ca adds OpenSSL (OPENSSL_LIBS), and only it.
	openssl=$(sed -n 's/^OPENSSL_LIBS = //p' "$B/Makefile" | tr ' ' '\n' | sed -n 's/^-l//p')
	extra=$(comm -23 <(needed "$d/usr/libexec/gbatch/gctl-ca") <(printf '%s\n' $allowed $openssl | sort -u))
	[ -z "$extra" ] || { echo "gctl-ca loads $extra"; false; }
}
