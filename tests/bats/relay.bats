#!/usr/bin/env bats
# Commands on a host without gbatchd: gnoded's socket relays them over its
# link to the controller, with the uid the kernel gave gnoded for them.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	RELAY=$GB_DIR/gnoded-n1.sock
	cd "$GB_DIR"
}

teardown() {
	[ -z "${GB_STOPPED:-}" ] || kill -CONT "$GB_STOPPED" 2>/dev/null || true
	gb_teardown
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
	[ -z "${GB_USER2:-}" ] || userdel "$GB_USER2" 2>/dev/null || true
}

# two_users: throwaway users GB_USER and GB_USER2 (removed by teardown),
# who may reach n1's relay socket.
two_users() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create throwaway users"
	GB_USER=gbr$$a GB_USER2=gbr$$b
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	useradd --no-create-home --shell /bin/sh "$GB_USER2"
	chmod 0755 "$GB_DIR"
}

# as USER CMD: runs CMD as USER through n1's relay.
as() {
	local user=$1
	shift
	su -s /bin/sh "$user" -c "PATH='$PATH' GBATCH_SOCKET='$RELAY' $*"
}

@test "gnoded's socket answers gq, gsub and gctl ping through the controller" {
	[ -S "$RELAY" ]
	[ "$(stat -c %a "$RELAY")" = 666 ]
	id=$(gsub --parsable -H -J direct --wrap true)
	run -0 env GBATCH_SOCKET="$RELAY" gq --noheader -o id,name
	[[ "$output" == *"$id"*direct* ]]
	run -0 env GBATCH_SOCKET="$RELAY" gsub --parsable -H -J relayed --wrap true
	rid=$output
	run -0 gq -j "$rid" --noheader -o name
	[ "$output" = relayed ]
	run -0 env GBATCH_SOCKET="$RELAY" gctl ping
	[[ "$output" == *"nodes: 2 up"* ]]
}

@test "a relayed request keeps the real uid, and one user cannot touch another's job" {
	two_users
	run -0 as "$GB_USER" gsub --parsable -H -o /dev/null --wrap true
	id=$output
	run -0 gq -j "$id" --noheader -o user
	[ "$output" = "$GB_USER" ]
	run -4 as "$GB_USER2" gcancel "$id"
	[[ "$output" == *"$GB_USER"* ]]
	# The audit log names the real user and the node that relayed.
	grep -q "refused $GB_USER2 (uid $(id -u "$GB_USER2")) from relayed by node n1: " "$GB_DIR/ctl/audit.log"
	run -4 as "$GB_USER2" gctl release "$id"
	run -0 gb_state "$id"
	[ "$output" = HELD ]
	run -0 as "$GB_USER" gcancel "$id"
	gb_wait 10 gb_state_is "$id" CANCELLED
}

@test "root on a node is not an operator through the relay" {
	run -4 env GBATCH_SOCKET="$RELAY" gctl drain n2
	[[ "$output" == *"only operators"*"controller's host"* ]]
	run -0 gnodes --noheader -o name,state
	[[ "$output" != *drain* ]]
	# On the controller's own socket root is.
	run -0 gctl drain n2
}

@test "with the controller away, a relayed command says gbatchd is unreachable (exit 3)" {
	kill -STOP "$GB_CTL_PID"
	GB_STOPPED=$GB_CTL_PID
	run -3 env GBATCH_SOCKET="$RELAY" gq --timeout 2
	kill -CONT "$GB_CTL_PID"
	GB_STOPPED=
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	unset GB_CTL_PID
	run -3 env GBATCH_SOCKET="$RELAY" gq --timeout 5
}

@test "one user's idle connections to gnoded's socket do not shut another user out" {
	two_users
	mkdir -m 0777 "$GB_DIR/hold"
	# GB_USER holds 300 connections open, more than gnoded relays at once.
	su -s /bin/sh "$GB_USER" -c "python3 -c '
import os, socket, time
held = []
for i in range(300):
    s = socket.socket(socket.AF_UNIX)
    s.connect(\"$RELAY\")
    held.append(s)
open(\"$GB_DIR/hold/holding\", \"w\").close()
time.sleep(30)
'" &
	holder=$!
	gb_wait 20 test -e "$GB_DIR/hold/holding"
	gb_wait 10 grep -q "relay uid $(id -u "$GB_USER"): refused: already 32 commands open" "$GB_DIR/gnoded-n1.log"
	run -0 timeout 10 su -s /bin/sh "$GB_USER2" -c "PATH='$PATH' GBATCH_SOCKET='$RELAY' gq --timeout 5"
	# 268 refused: logged once for that user, at most once more with a
	# count 10 s on, not once each.
	[ "$(grep -c "relay uid $(id -u "$GB_USER"): refused" "$GB_DIR/gnoded-n1.log")" -le 2 ]
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
}
