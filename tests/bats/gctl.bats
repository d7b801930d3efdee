#!/usr/bin/env bats
# gctl: ping, shutdown, drain, resume, help; exit statuses.

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

@test "gctl --help and gctl help list every command" {
	for h in --help help -h; do
		run -0 gctl $h
		for v in ping shutdown drain resume show reconfigure update help --reason; do
			[[ "$output" == *"$v"* ]] || { echo "missing $v"; false; }
		done
	done
}

@test "gctl --version names the program and package" {
	run -0 gctl --version
	[[ "$output" =~ ^gctl\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gctl with an unknown command, option or no command is a usage error" {
	run -2 gctl frobnicate
	[[ "$output" == *'"frobnicate"'*ping*shutdown*drain*resume* ]]
	# Like every command's usage error: the option that prints the help.
	[ "${lines[1]}" = "Try 'gctl --help' for more information." ]
	run -2 gctl --frobnicate
	[[ "$output" == *"--frobnicate"* ]]
	run -2 gctl
	run -2 gctl ping extra
	run -2 gctl drain
	[[ "$output" == *"node name"* ]]
	[ "${lines[1]}" = "Try 'gctl --help' for more information." ]
	run -2 gctl resume n1 n2
	[ "${lines[0]}" = 'gctl: resume: unexpected argument "n2"; one node at a time' ]
	run -2 gctl resume n1 --reason x
	[ "${lines[0]}" = "gctl: resume: --reason is for drain only" ]
	run -2 gctl resume --reason=x n1
	[ "${lines[0]}" = "gctl: resume: --reason is for drain only" ]
	run -2 gctl resume --rea n1
	[ "${lines[0]}" = "gctl: resume: --reason is for drain only" ]
	# purge's --before has no -b: its error names the long option only.
	run -2 gctl purge --before
	[ "${lines[0]}" = "gctl: purge: option --before needs a value" ]
}

@test "gctl ping reports version, uptime, cluster, jobs and nodes" {
	gb_submit -H --wrap true >/dev/null
	run -0 gctl ping
	[[ "${lines[0]}" == gbatchd* ]]
	# The default name: this host's, up to its first dot.
	[ "${lines[1]}" = "cluster: $(hostname | cut -d. -f1)" ]
	[[ "$output" == *"jobs: 1 pending, 0 running"* ]]
	[[ "$output" == *"nodes: 2 up, 0 down"* ]]
}

@test "gctl ping exits 3 when gbatchd is unreachable" {
	GBATCH_SOCKET=$GB_DIR/nosuch.sock run -3 gctl ping
	[[ "$output" == *"cannot reach gbatchd at $GB_DIR/nosuch.sock"* ]]
}

@test "gctl drain and resume change a node's state" {
	run -0 gctl drain n1 --reason "disk swap"
	gb_wait 10 sh -c 'gnodes -h -N n1 -o state | grep -qx drained'
	run -0 gnodes -h -N n1 -o reason
	[ "$output" = "disk swap" ]
	# A drained node gets no new jobs: 4 GPUs fit only on n2 now.
	a=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	[ "$(gq -h -j "$a" -o nodes)" = n2 ]
	run -0 gctl resume n1
	gb_wait 10 sh -c 'gnodes -h -N n1 -o state | grep -qx idle'
}

@test "gctl update changes a waiting job as scontrol update does, and drains and resumes a node" {
	id=$(gb_submit -H -J first --wrap true)
	run -0 gctl update job "$id" name=second TIMELIMIT=1:00:00 Comment="a note"
	[ "$(gq -h -j "$id" -o name)" = second ]
	[ "$(gq -h -j "$id" -o time_limit)" = 1:00:00 ]
	[ "$(gq -h -j "$id" -o comment)" = "a note" ]
	gq -l "$id" | grep -q 'name "first" -> "second", by root'
	# All or none: a bad key changes nothing, a usage error naming the
	# keys a job takes.
	run -2 gctl update job "$id" Name=third Colour=blue
	[[ "$output" == *'update: unknown key "Colour"; a job takes TimeLimit, Name (or JobName), Comment, Dependency, NumNodes, Partition, QOS, Nice, Priority, Account, StartTime or GPUs'* ]]
	[ "$(gq -h -j "$id" -o name)" = second ]
	# A running job's name is refused by gbatchd, saying why.
	r=$(gb_submit -G 1 --wrap 'sleep 60')
	gb_wait_state "$r" RUNNING 20
	run -1 gctl update job "$r" Name=x
	[[ "$output" == *"update: job $r is RUNNING: its name can change only while it waits (PENDING or HELD)"* ]]
	run -2 gctl update job
	[[ "$output" == *"update: expected job ID[,ID...] KEY=VALUE... or node NODE State=DRAIN|RESUME [Reason=TEXT]"* ]]
	# A node, in scontrol's words.
	run -0 gctl update node n1 State=DRAIN Reason=maint
	gb_wait 10 sh -c 'gnodes -h -N n1 -o state | grep -qx drained'
	[ "$(gnodes -h -N n1 -o reason)" = maint ]
	run -0 gctl update node n1 state=resume
	gb_wait 10 sh -c 'gnodes -h -N n1 -o state | grep -qx idle'
	run -2 gctl update node n1 State=IDLE
	[[ "$output" == *"update: a node takes State=DRAIN or State=RESUME"* ]]
}

@test "gctl update job TimeLimit= of a running job: its node enforces the new limit from the job's start; a user lowers, an operator raises" {
	# Lowered to 3 s: it ends TIMEOUT at 3 s, not at its minute.
	a=$(gb_submit -G 1 -t 1:00 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING 20
	run -0 gctl update job "$a" TimeLimit=0:03
	gb_wait_state "$a" TIMEOUT 20
	[ "$(gq -h -t all -j "$a" -o time_limit)" = 0:03 ]
	gq -h -t all -j "$a" -o message | grep -q 'time limit of 0:03 reached'
	gq -l "$a" | grep -q 'RUNNING -> RUNNING  time limit 1:00 -> 0:03, by root'
	# Raised from 6 s to a minute: its 9 s of work complete.
	b=$(gb_submit -G 1 -t 0:06 --wrap 'sleep 9')
	gb_wait_state "$b" RUNNING 20
	run -0 gctl update job "$b" TimeLimit=1:00
	gb_wait_state "$b" COMPLETED 30
	# A user may not raise a running job's limit.
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	[ "$(id -u)" = 0 ] || skip "needs root to act as another user"
	chmod 755 "$GB_DIR"
	mkdir -m 777 "$GB_DIR/nobody"
	c=$(su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gsub --parsable -D $GB_DIR/nobody -t 1:00 --wrap 'sleep 60'")
	gb_wait_state "$c" RUNNING 20
	run su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gctl update job $c TimeLimit=2:00"
	[ "$status" -eq 4 ]
	[[ "$output" == *"only an operator may raise a time limit (from 1:00 to 2:00)"* ]]
	run su -s /bin/sh nobody -c "GBATCH_SOCKET=$GBATCH_SOCKET GBATCH_CONF=$GBATCH_CONF gctl update job $c TimeLimit=0:30"
	[ "$status" -eq 0 ]
	[ "$(gq -h -j "$c" -o time_limit)" = 0:30 ]
	gcancel "$c"
}

@test "gctl update job StartTime= moves a waiting job's begin time: later, it waits BeginTime; now, it runs" {
	j=$(gb_submit -G 1 --wrap true)
	gb_wait_state "$j" COMPLETED 20
	w=$(gb_submit -G 1 -H --wrap true)
	run -0 gctl update job "$w" StartTime=now+1hour
	[ "$(gq -h -j "$w" -o begin_time)" != - ]
	gq -l "$w" | grep -q 'begin time none -> 20[0-9-]*T[0-9:]*, by root'
	gctl release "$w"
	gb_wait 10 sh -c "gq -h -j $w -o reason | grep -qx BeginTime"
	run -0 gctl update job "$w" StartTime=now
	gb_wait_state "$w" COMPLETED 20
	run -2 gctl update job "$w" StartTime=someday
	[[ "$output" == *'StartTime: '* ]]
}

@test "gctl update job GPUs= changes a waiting job's GPUs, judged as at submit" {
	w=$(gb_submit -G 1 -H --wrap true)
	run -0 gctl update job "$w" GPUs=4
	[ "$(gq -h -j "$w" -o gpus)" = 4 ]
	gq -l "$w" | grep -q 'GPUs 1 -> 4, by root'
	# 8 GPUs split over 2 nodes of 4; 16 fit no shape of this cluster.
	run -0 gctl update job "$w" GPUs=8
	run -1 gctl update job "$w" GPUs=16
	[[ "$output" == *"job $w: --gpus 16: no even split of them fits the cluster's 2 nodes"* ]]
	[ "$(gq -h -j "$w" -o gpus)" = 8 ]
	run -1 gctl update job "$w" GPUs=0
	[[ "$output" == *'gpus: expected 1 or more; a GPU job stays one'* ]]
	c=$(gb_submit -G 0 -H --wrap true)
	run -1 gctl update job "$c" GPUs=1
	[[ "$output" == *"job $c is a CPU job: it asks for no GPU, and stays so"* ]]
	gctl release "$w"
	gb_wait_state "$w" COMPLETED 20
}

@test "gctl drain of an unknown node exits 1" {
	run -1 gctl drain nosuch
	[[ "$output" == *nosuch* ]]
}

@test "gctl shutdown stops gbatchd" {
	run -0 gctl shutdown
	gb_wait 10 sh -c '! kill -0 '"$GB_CTL_PID"' 2>/dev/null'
	run -3 gctl ping
}

@test "gctl shutdown and drain are for operators only" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	chmod 711 "$GB_DIR"
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' shutdown"
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' drain n1"
	run -0 gctl ping
}

@test "gctl show config prints the settings in force, defaults included" {
	run -0 gctl show config
	[[ "${lines[0]}" == "# in force in gbatchd, read from $GBATCH_CONF" ]]
	grep -qx 'scheduler.policy = "dlas"' <<<"$output"
	grep -qx 'scheduler.thresholds = \[3600\]' <<<"$output"
	grep -qx 'scheduler.queues = 2' <<<"$output"
	grep -qx 'scheduler.promote_knob = 0.0' <<<"$output"
	grep -qx 'scheduler.placement = "consolidate"' <<<"$output"
	grep -qx "controller.state_dir = \"$GB_DIR/ctl\"" <<<"$output"
	run -0 gctl show config --json
	[ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["scheduler"]["ckpt_grace"])' <<<"$output")" = 60 ]
	run -2 gctl show
	run -2 gctl show nodes
	run -2 gctl show config extra
}

@test "gctl reconfigure applies scheduler settings and names what changed" {
	cat >>"$GBATCH_CONF" <<'CONF'
scheduler = {
  policy = "fifo";
  thresholds = [ 100.0, 1000.5 ];
  promote_knob = 4;
};
CONF
	run -0 gctl reconfigure
	[[ "$output" == *"changed "*"scheduler.policy"* ]]
	[[ "$output" == *"scheduler.thresholds"* ]]
	[[ "$output" == *"scheduler.promote_knob"* ]]
	[[ "$output" != *"scheduler.placement"* ]]
	run -0 gctl show config
	grep -qx 'scheduler.policy = "fifo"' <<<"$output"
	grep -qx 'scheduler.thresholds = \[100,1000.5\]' <<<"$output"
	grep -qx 'scheduler.queues = 3' <<<"$output"
	run -0 gctl reconfigure
	[[ "$output" == *"no setting changed"* ]]
}

@test "gctl reconfigure with a bad file keeps the settings in force and exits 1" {
	printf 'scheduler = {\n  placement = "tetris";\n};\n' >>"$GBATCH_CONF"
	run -1 gctl reconfigure
	[[ "$output" == *"scheduler.placement: expected a placement (consolidate, yarn, spread or random), got \"tetris\"; the settings in force are unchanged"* ]]
	run -0 gctl show config
	grep -qx 'scheduler.placement = "consolidate"' <<<"$output"
	gctl ping >/dev/null
}

@test "a setting that needs a restart is reported, not applied" {
	sed -i "s|listen = \"127.0.0.1:0\";|listen = \"127.0.0.1:1\";|" "$GBATCH_CONF"
	run -0 gctl reconfigure
	[[ "$output" == *"in force after gbatchd restarts: controller.listen"* ]]
	run -0 gctl show config
	grep -qx 'controller.listen = "127.0.0.1:0"' <<<"$output"
}

@test "SIGHUP reloads the configuration too" {
	printf 'scheduler = {\n  policy = "fifo";\n};\n' >>"$GBATCH_CONF"
	kill -HUP "$GB_CTL_PID"
	gb_wait 10 eval 'gctl show config | grep -qx "scheduler.policy = \"fifo\""'
	gctl ping >/dev/null
}

@test "gctl reconfigure is for operators only" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	chmod 711 "$GB_DIR"
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' reconfigure"
	[[ "$output" == *"only operators"* ]]
	run -0 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' show config"
}

@test "gctl replica on a controller without replicas: list is refused, naming the key; bad arguments are usage errors" {
	run -1 --separate-stderr gctl replica list
	[ "$stderr" = "gctl: replica list: this gbatchd has no replicas (controller.replicas is not set)" ]
	[ -z "$output" ]
	run -1 gctl replica list --json
	run -2 --separate-stderr gctl replica list extra
	[ "${stderr_lines[0]}" = 'gctl: replica: list: unexpected argument "extra"; expected --json or nothing' ]
	[ "${stderr_lines[1]}" = "Try 'gctl --help' for more information." ]
	for bad in host 127.0.0.1: :6820 127.0.0.1:0 127.0.0.1:65536 127.0.0.1:http ::1:6820 '[::1]6820'; do
		run -2 --separate-stderr gctl replica add "$bad"
		[ "${stderr_lines[0]}" = "gctl: replica: add: expected HOST:PORT with a port of 1-65535, got \"$bad\" (the new replica's controller.listen)" ]
	done
	run -2 --separate-stderr gctl replica add
	[[ "${stderr_lines[0]}" == *"expected the new replica's address alone, HOST:PORT"* ]]
	run -2 gctl replica add 127.0.0.1:6820 127.0.0.2:6820
	for bad in abc 0 -1 65536 1x ""; do
		run -2 --separate-stderr gctl replica remove "$bad"
		[ "${stderr_lines[0]}" = "gctl: replica: remove: expected a replica's number, 1-65535 (gctl replica list's ID), got \"$bad\"" ]
	done
	run -2 --separate-stderr gctl replica frob
	[ "${stderr_lines[0]}" = 'gctl: replica: expected list, add or remove, got "frob"' ]
	run -2 gctl replica
	# Well-formed, the change reaches gbatchd, which has no replicas.
	run -1 --separate-stderr gctl replica add '[::1]:6821'
	[ "$stderr" = "gctl: replica add: this gbatchd has no replicas (controller.replicas is not set)" ]
	run -1 --separate-stderr gctl replica remove 2
	[ "$stderr" = "gctl: replica remove: this gbatchd has no replicas (controller.replicas is not set)" ]
	run -0 gctl replica --help
	[[ "${lines[0]}" == "usage: gctl replica list [--json]" ]]
	run -0 gctl --help
	[[ "$output" == *"replica list [--json]"* ]]
	[[ "$output" == *"replica add HOST:PORT | remove ID"* ]]
}

# fake_replica REPLY: a stand-in for one replica on $GB_DIR/fake.sock that
# answers one client: HELLO, then REPLY to its request, which it appends to
# $GB_DIR/fake.req. Waits until it listens; gives up after 20 s unasked, so
# that a failed test leaves nothing running.
fake_replica() {
	python3 -c '
import socket, struct, sys
path, reply, log = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(1)
s.settimeout(20)
open(path + ".up", "w").close()
c, _ = s.accept()
c.settimeout(20)
def rd(n):
    b = b""
    while len(b) < n:
        more = c.recv(n - len(b))
        if not more:
            sys.exit("gctl closed the connection")
        b += more
    return b
def frame():
    return rd(struct.unpack(">I", rd(4))[0])
def send(text):
    c.sendall(struct.pack(">I", len(text.encode())) + text.encode())
frame()
send("{\"ok\":true,\"type\":100,\"version\":1}")
open(log, "ab").write(frame() + b"\n")
send(reply)' "$GB_DIR/fake.sock" "$1" "$GB_DIR/fake.req" >/dev/null 2>&1 3>&- &
	gb_wait 10 test -e "$GB_DIR/fake.sock.up"
}

@test "gctl replica list prints a replica a line, the leader and this one marked, addresses escaped; --json as gbatchd has them" {
	fake_replica '{"ok":true,"replicas":[{"id":1,"address":"127.0.0.2:6820","role":"voter","leader":false,"self":true,"answers":true},{"id":2,"address":"127.0.0.3:6820","role":"voter","leader":true,"self":false,"answers":false},{"id":14,"address":"h\u001b[2Jx:6820","role":"standby","leader":false,"self":false}]}'
	GBATCH_SOCKET=$GB_DIR/fake.sock run -0 gctl replica list
	[ "${lines[0]}" = "   ID ADDRESS        ROLE    STATE    SELF ANSWERS" ]
	[ "${lines[1]}" = "    1 127.0.0.2:6820 voter   follower yes  yes" ]
	[ "${lines[2]}" = "    2 127.0.0.3:6820 voter   leader   no   no" ]
	[ "${lines[3]}" = '   14 h\e[2Jx:6820   standby follower no   -' ]
	[ "${#lines[@]}" -eq 4 ]
	grep -q '"op": *"list"' "$GB_DIR/fake.req"
	grep -q '"type": *112' "$GB_DIR/fake.req"
	rm -f "$GB_DIR/fake.sock" "$GB_DIR/fake.sock.up"
	fake_replica '{"ok":true,"replicas":[{"id":1,"address":"127.0.0.2:6820","role":"voter","leader":true,"self":true}]}'
	GBATCH_SOCKET=$GB_DIR/fake.sock run -0 gctl replica list --json
	python3 -c 'import json, sys; assert json.loads(sys.argv[1]) == [{"id": 1, "address": "127.0.0.2:6820", "role": "voter", "leader": True, "self": True}]' "$output"
}

@test "gctl replica add prints the new replica's number; a follower's refusal names the leader and exits 3; a leader removed says it stepped down" {
	fake_replica '{"ok":true,"id":4}'
	GBATCH_SOCKET=$GB_DIR/fake.sock run -0 gctl replica add 127.0.0.5:6820
	[ "$output" = "added replica 4 at 127.0.0.5:6820; its controller.replica_id must be 4" ]
	grep -q '"address": *"127.0.0.5:6820"' "$GB_DIR/fake.req"
	grep -q '"op": *"add"' "$GB_DIR/fake.req"
	rm -f "$GB_DIR/fake.sock" "$GB_DIR/fake.sock.up"
	fake_replica '{"ok":false,"code":"not_leader","message":"this gbatchd is a replica that follows: the leader is replica 2 at 127.0.0.3:6820","leader":"127.0.0.3:6820"}'
	GBATCH_SOCKET=$GB_DIR/fake.sock run -3 --separate-stderr gctl replica remove 3
	[ "$stderr" = "gctl: this gbatchd is a replica that follows: the leader is replica 2 at 127.0.0.3:6820" ]
	[ -z "$output" ]
	grep -q '"id": *3' "$GB_DIR/fake.req"
	# The leader removing itself says it stepped down.
	rm -f "$GB_DIR/fake.sock" "$GB_DIR/fake.sock.up"
	fake_replica '{"ok":true,"id":2,"stepped_down":true}'
	GBATCH_SOCKET=$GB_DIR/fake.sock run -0 gctl replica remove 2
	[ "$output" = "removed replica 2, which led and has stepped down: the others elect a leader within a few seconds" ]
}

@test "gbatchd's refusal quoting a user's text prints escaped" {
	run -1 --separate-stderr gctl drain $'\e]0;pwn\a\e[2Jghost'
	[ "$stderr" = 'gctl: drain: no node \e]0;pwn\x07\e[2Jghost' ]
}

@test "an operator's drain leaves one audit line: who, what, on what, from where" {
	gctl drain n1 --reason 'disk swap'
	[ "$(stat -c %a "$GB_DIR/ctl/audit.log")" = 600 ]
	run -0 grep -c "^[0-9T:-]* done root (uid 0) from unix:root: drain node n1: reason \"disk swap\"\$" "$GB_DIR/ctl/audit.log"
	[ "$output" = 1 ]
	grep -q 'audit: done root (uid 0) from unix:root: drain node n1' "$GB_DIR/gbatchd.log"
	# A user's try is refused and recorded too.
	chmod 711 "$GB_DIR"
	run -4 su -s /bin/sh nobody -c "GBATCH_SOCKET='$GBATCH_SOCKET' '$B/bin/gctl' resume n1"
	grep -q " refused nobody (uid $(id -u nobody)) from unix:nobody: NODE_UPDATE resume node n1: operators only\$" "$GB_DIR/ctl/audit.log"
}

@test "the audit log is reopened on SIGHUP, and follows controller.audit_log" {
	gctl drain n1
	mv "$GB_DIR/ctl/audit.log" "$GB_DIR/ctl/audit.log.1"
	kill -HUP "$GB_CTL_PID"
	gb_wait 10 test -e "$GB_DIR/ctl/audit.log"
	gctl resume n1
	grep -q 'resume node n1' "$GB_DIR/ctl/audit.log"
	! grep -q 'resume node n1' "$GB_DIR/ctl/audit.log.1"
	gb_write_conf "audit_log = \"$GB_DIR/elsewhere.log\";"
	run -0 gctl reconfigure
	[[ "$output" == *controller.audit_log* ]]
	gctl drain n2
	grep -q 'drain node n2' "$GB_DIR/elsewhere.log"
	[ "$(stat -c %a "$GB_DIR/elsewhere.log")" = 600 ]
}

@test "gctl loads no OpenSSL; its ca and cert commands run gctl-ca, which has it" {
	needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' '; }
	# gctl: static (nothing) or dynamic, never OpenSSL.
	run -0 needed "$B/bin/gctl"
	[[ "$output" != *libcrypto* && "$output" != *libssl* ]]
	run -0 needed "$B/bin/gctl-ca"
	[[ "$output" == *libcrypto* ]]
	# Through gctl, as ever.
	run -0 gctl ca init --dir "$GB_DIR/ca2"
	[ -s "$GB_DIR/ca2/ca.crt" ]
	run -0 gctl cert issue n7 --dir "$GB_DIR/ca2"
	[ -s "$GB_DIR/ca2/n7.crt" ]
	run -2 gctl cert bogus --dir "$GB_DIR/ca2"
	[[ "$output" == *"cert: expected issue, revoke or list"* ]]
}
