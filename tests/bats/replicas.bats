#!/usr/bin/env bats
# A replicated controller (gbatchd(8), REPLICAS): three gbatchd on
# 127.0.0.2-4, each with its own state directory, socket and controller
# certificate, started the way an admin starts them, and one gnoded that
# names all three. One leads; the others refuse with its address; the
# leader's loss costs nothing acknowledged, a replica that was away
# catches up, from the log or from a snapshot, and an operator adds and
# removes replicas (gctl replica).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	R_PIDS=()
	R_PORT=$(free_port)
	R_LIST="\"127.0.0.2:$R_PORT\", \"127.0.0.3:$R_PORT\", \"127.0.0.4:$R_PORT\""
	for i in 2 3 4; do
		make_replica "$i"
	done
	cd "$GB_DIR"
}

# stop_set: SIGTERM to every replica started, as an admin stops them,
# and waits for each.
stop_set() {
	local pid
	for pid in "${R_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${R_PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	R_PIDS=()
}

teardown() {
	[ -z "${R_CUT:-}" ] || heal
	stop_set
	gb_teardown
}

# free_port: a TCP port that no one uses on 127.0.0.2-5 (5 is for a
# replica added later).
free_port() {
	python3 -c '
import random, socket
while True:
    p = random.randint(20000, 45000)
    try:
        for h in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"):
            s = socket.socket(); s.bind((h, p)); s.close()
        print(p); break
    except OSError:
        pass'
}

# make_replica I [ID]: replica 127.0.0.I's directory, certificate (its
# own address in it) and configuration; ID is its controller.replica_id,
# for one added later and so not in controller.replicas.
make_replica() {
	local d="$GB_DIR/r$1"
	mkdir -p "$d"
	cp -a "$GB_DIR/tls" "$d/tls"
	rm -f "$d/tls/controller.crt" "$d/tls/controller.key"
	gctl cert issue controller --controller --alt-name "127.0.0.$1" \
	    --dir "$d/tls" >/dev/null
	cat >"$d/gbatch.conf" <<CONF
controller = {
  socket = "$d/gbatchd.sock";
  listen = "127.0.0.$1:$R_PORT";
  state_dir = "$d/ctl";
  node_timeout = 5;
  allow_root_jobs = true;
  log_level = "debug";
  replicas = [ $R_LIST ];${2:+
  replica_id = $2;}${R_SNAPSHOT_EVERY:+
  snapshot_every = $R_SNAPSHOT_EVERY;}
};
tls = {
  dir = "$d/tls";
  controller_name = "127.0.0.$1";
};
CONF
}

# node.conf: gnoded's, naming every replica; it expects each to prove
# the address it dials.
make_node_conf() {
	cat >"$GB_DIR/node.conf" <<CONF
node = {
  state_dir = "$GB_DIR/node";
  heartbeat_interval = 1;
  allow_root_jobs = true;
  log_level = "debug";
  cgroups = false;
  controller = [ $R_LIST ];
};
tls = {
  dir = "$GB_DIR/tls";
};
CONF
}

# start_replica I: gbatchd on 127.0.0.I, as an admin starts it.
start_replica() {
	gbatchd -D -f "$GB_DIR/r$1/gbatch.conf" -L "$GB_DIR/r$1/gbatchd.log" &
	R_PIDS+=($!)
	eval "R_PID_$1=$!"
}

# on I CMD...: CMD against replica I's socket.
on() {
	local i=$1
	shift
	GBATCH_SOCKET="$GB_DIR/r$i/gbatchd.sock" "$@"
}

# leader: prints which replica (2-4) leads and serves, or fails.
leader() {
	local i
	for i in 2 3 4; do
		if on "$i" gctl ping >/dev/null 2>&1; then
			echo "$i"
			return 0
		fi
	done
	return 1
}

# wait_leader: waits for a leader and sets L to it.
wait_leader() {
	gb_wait 30 leader
	L=$(leader)
	export GBATCH_SOCKET="$GB_DIR/r$L/gbatchd.sock"
}

start_set() {
	for i in 2 3 4; do
		start_replica "$i"
	done
	wait_leader
}

start_node() {
	gb_tls_issue n1
	make_node_conf
	gnoded -D -f "$GB_DIR/node.conf" -n n1 -g 4 -d "$GB_DIR/node-n1" \
	    -u "$GB_DIR/gnoded-n1.sock" -L "$GB_DIR/gnoded-n1.log" &
	GB_NODE_PIDS+=($!)
	gb_wait 30 gb_node_is_up n1
}

# jobs_in I: the ids of the jobs in replica I's store, sorted (read while
# it runs: SQLite's WAL lets a reader in).
jobs_in() {
	python3 -c '
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=5)
for (i,) in db.execute("select id from jobs order by id"):
    print(i)' "$GB_DIR/r$1/ctl/gbatch.db"
}

# has_jobs I FILE: replica I's store holds exactly the ids in FILE.
has_jobs() {
	[ "$(jobs_in "$1" 2>/dev/null)" = "$(sort -n "$2")" ]
}

# acked FILE: the ids gsub acknowledged in its output FILE.
acked() {
	sed -n 's/^Submitted job \([0-9]*\)$/\1/p' "$1"
}

# cut_off ADDR: a partition of one loopback address: nothing reaches it
# and nothing leaves it (connecting fails), while it stays this host's.
# The rule that finds local addresses moves behind the two that prohibit,
# and heal puts it back (teardown heals whatever a test left cut).
cut_off() {
	R_CUT=$1
	ip rule add pref 100 lookup local
	ip rule del pref 0 lookup local
	ip rule add pref 10 to "$1" prohibit
	ip rule add pref 10 from "$1" prohibit
}

heal() {
	ip rule add pref 0 lookup local 2>/dev/null || true
	ip rule del pref 100 lookup local 2>/dev/null || true
	ip rule del pref 10 to "$R_CUT" prohibit 2>/dev/null || true
	ip rule del pref 10 from "$R_CUT" prohibit 2>/dev/null || true
	R_CUT=
}

# leader_but I: a replica other than I leads; sets L.
leader_but() {
	local i
	for i in 2 3 4; do
		[ "$i" != "$1" ] || continue
		if on "$i" gctl ping >/dev/null 2>&1; then
			L=$i
			return 0
		fi
	done
	return 1
}

# submit_held N: N held jobs, one gsub after another, each of which must
# be acknowledged; $GB_DIR/ids then holds every id acknowledged so far.
submit_held() {
	local i
	for i in $(seq 1 "$1"); do
		timeout 30 gsub --hold --wrap true >>"$GB_DIR/out" || return 1
	done
	acked "$GB_DIR/out" >"$GB_DIR/ids"
}

# all_hold FILE: every replica of the set comes to hold exactly the ids
# in FILE.
all_hold() {
	local i
	for i in 2 3 4; do
		gb_wait 30 has_jobs "$i" "$1"
	done
}

# acked_at_least N FILE: gsub acknowledged N jobs or more in FILE.
acked_at_least() {
	[ "$(acked "$2" | wc -l)" -ge "$1" ]
}

@test "three replicas elect one leader; the others refuse, naming it, and hold every job" {
	start_set
	run -3 on $(( L == 2 ? 3 : 2 )) gq
	[[ "$output" == *"this gbatchd is a replica that follows: the leader is replica $((L - 1)) at 127.0.0.$L:$R_PORT"* ]]
	start_node
	# The node was refused by followers and went on to the leader.
	for i in 1 2 3; do
		gsub -G 1 --wrap "sleep 300" >>"$GB_DIR/acked"
	done
	acked "$GB_DIR/acked" >"$GB_DIR/ids"
	# Ids start at 1, as with one gbatchd.
	[ "$(cat "$GB_DIR/ids")" = "$(printf '1\n2\n3')" ]
	gb_wait 30 gb_state_is "$(head -1 "$GB_DIR/ids")" RUNNING
	all_hold "$GB_DIR/ids"
}

@test "kill -9 of the leader during submissions: a new leader, no acknowledged job lost or doubled, running jobs keep running" {
	start_set
	start_node
	gsub -G 1 --wrap "sleep 300" >>"$GB_DIR/out"
	run_id=$(acked "$GB_DIR/out")
	gb_wait 30 gb_state_is "$run_id" RUNNING
	# A storm that follows the leader: every acknowledged id is kept.
	(
		for n in $(seq 1 150); do
			for try in $(seq 1 500); do
				l=$(leader) && GBATCH_SOCKET="$GB_DIR/r$l/gbatchd.sock" \
				    gsub --wrap true >>"$GB_DIR/out" 2>>"$GB_DIR/err" &&
				    break
				sleep 0.02
			done
		done
	) &
	storm=$!
	gb_wait 60 acked_at_least 40 "$GB_DIR/out"
	old=$L
	eval "kill -KILL \$R_PID_$old"
	wait_leader
	[ "$L" != "$old" ]
	# The new leader stood at once: the old one's links had closed; and
	# its elections wait election_timeout again.
	grep -q "replica $((L - 1)): the link from the leader, replica $((old - 1)), closed; standing for election in" "$GB_DIR/r$L/gbatchd.log"
	gb_wait 10 grep -q "replica $((L - 1)): elected; elections wait 700 ms again" "$GB_DIR/r$L/gbatchd.log"
	wait "$storm"
	acked "$GB_DIR/out" | sort >"$GB_DIR/ids"
	[ "$(wc -l <"$GB_DIR/ids")" -eq 151 ]
	# Every id once, on the new leader: none lost, none twice.
	[ -z "$(uniq -d "$GB_DIR/ids")" ]
	run -0 gq -t all --noheader -o id
	echo "$output" | tr -d ' ' | sort >"$GB_DIR/listed"
	[ -z "$(uniq -d "$GB_DIR/listed")" ]
	# None acknowledged is missing.
	[ -z "$(comm -23 "$GB_DIR/ids" "$GB_DIR/listed")" ]
	# A job listed but never acknowledged can only be one whose gsub
	# lost its connection at the kill, its outcome unknown to it (its
	# commit reached a majority before the reply could leave): at most
	# one an attempt that failed so, not one refused by a follower or
	# that found no gbatchd.
	extra=$(comm -13 "$GB_DIR/ids" "$GB_DIR/listed" | grep -c . || true)
	failed=$(grep -v -e "replica that follows" -e "cannot reach gbatchd" \
	    "$GB_DIR/err" | grep -c "^gsub:" || true)
	[ "$extra" -le "$failed" ]
	# The job that ran under the old leader still does, never restarted.
	[ "$(gq -j "$run_id" --noheader -o state,restarts | tr -s ' ' | sed 's/^ //')" = "RUNNING 0" ]
	# The old leader comes back, rebuilds its store from the others and
	# follows.
	start_replica "$old"
	gb_wait 60 has_jobs "$old" "$GB_DIR/listed"
	run -3 on "$old" gq
	[[ "$output" == *"the leader is replica $((L - 1))"* ]]
}

@test "a follower that was away catches up, and a whole set stopped and started again keeps every job" {
	start_set
	f=$(( L == 4 ? 3 : 4 ))
	eval "kill -KILL \$R_PID_$f"
	# Two of three still commit.
	submit_held 20
	[ "$(wc -l <"$GB_DIR/ids")" -eq 20 ]
	start_replica "$f"
	gb_wait 60 has_jobs "$f" "$GB_DIR/ids"
	# Stop all three as an admin would, and start them again.
	stop_set
	start_set
	run -0 gq -t all --noheader -o id,state
	[ "$(echo "$output" | awk '{ print $1 }' | sort -n)" = "$(sort -n "$GB_DIR/ids")" ]
	[ "$(echo "$output" | awk '$2 != "HELD"' )" = "" ]
	all_hold "$GB_DIR/ids"
}

@test "a follower away longer than the log kept is sent a snapshot and holds every job" {
	# A snapshot every 16 commits, 2 kept behind it: 40 submits leave a
	# follower that missed them behind the log.
	R_SNAPSHOT_EVERY=16
	for i in 2 3 4; do
		make_replica "$i"
	done
	start_set
	submit_held 1
	f=$(( L == 4 ? 3 : 4 ))
	gb_wait 30 has_jobs "$f" "$GB_DIR/ids"
	eval "kill -KILL \$R_PID_$f"
	submit_held 40
	[ "$(wc -l <"$GB_DIR/ids")" -eq 41 ]
	start_replica "$f"
	gb_wait 60 has_jobs "$f" "$GB_DIR/ids"
	grep -q "store installed from a snapshot" "$GB_DIR/r$f/gbatchd.log"
	# And it follows on from there: a later submit reaches it by the log.
	submit_held 1
	gb_wait 30 has_jobs "$f" "$GB_DIR/ids"
	# The whole set started again rebuilds each store from its snapshot
	# and the log after it.
	stop_set
	start_set
	run -0 gq -t all --noheader -o id
	[ "$(echo "$output" | tr -d ' ' | sort -n)" = "$(sort -n "$GB_DIR/ids")" ]
	all_hold "$GB_DIR/ids"
}

@test "a leader cut off stops acknowledging, the others elect one, and healed it follows with its unacknowledged submit refused, not applied" {
	[ "$(id -u)" -eq 0 ] || skip "cutting an address off takes root (ip rule)"
	ip rule list >/dev/null 2>&1 || skip "no ip rule on this host"
	start_set
	gsub --hold --wrap true >>"$GB_DIR/out"
	old=$L
	cut_off "127.0.0.$old"
	# Its submit waits for a majority that never answers: within an
	# election timeout (1 s) or two it steps down, and the client is
	# refused rather than told "Submitted".
	SECONDS=0
	run on "$old" timeout 30 gsub --hold --wrap true
	[ "$status" -eq 3 ]
	[[ "$output" != *"Submitted job"* ]]
	[ "$SECONDS" -le 10 ]
	# The two others elect a leader and take submits.
	gb_wait 30 leader_but "$old"
	export GBATCH_SOCKET="$GB_DIR/r$L/gbatchd.sock"
	gsub --hold --wrap true >>"$GB_DIR/out"
	heal
	acked "$GB_DIR/out" >"$GB_DIR/ids"
	[ "$(wc -l <"$GB_DIR/ids")" -eq 2 ]
	# Healed, the old leader follows, holding exactly the acknowledged
	# jobs: its unacknowledged one was never applied anywhere.
	gb_wait 60 has_jobs "$old" "$GB_DIR/ids"
	run -3 on "$old" gq
	[[ "$output" == *"the leader is replica $((L - 1))"* ]]
	run -0 gq -t all --noheader -o id
	[ "$(echo "$output" | tr -d ' ' | sort -n)" = "$(sort -n "$GB_DIR/ids")" ]
}

# single_with_jobs N: a controller of its own in replica 2's state
# directory (its configuration without replicas), N held jobs submitted
# to it, stopped again.
single_with_jobs() {
	local pid
	grep -v "replicas = " "$GB_DIR/r2/gbatch.conf" >"$GB_DIR/single.conf"
	gbatchd -D -f "$GB_DIR/single.conf" -L "$GB_DIR/single.log" &
	pid=$!
	R_PIDS+=($pid)
	gb_wait 10 on 2 gctl ping
	for i in $(seq 1 "$1"); do
		on 2 gsub --hold -J "single$i" --wrap true >>"$GB_DIR/out"
	done
	acked "$GB_DIR/out" >"$GB_DIR/ids"
	kill -TERM "$pid"
	wait "$pid" || true
}

# names_on I: the ids and names of every job replica I's leader lists.
names_on() {
	on "$1" gq -t all --noheader -o id,name | tr -s ' ' | sed 's/^ //'
}

@test "replicas turned on over a controller's own store refuse to start; gbatchd --seed carries its jobs into the set" {
	single_with_jobs 3
	run -1 gbatchd -D -f "$GB_DIR/r2/gbatch.conf"
	[[ "$output" == *"gbatch.db holds a controller's jobs, but there is no raft log"*"gbatchd --seed"* ]]
	[ "$(jobs_in 2)" = "$(printf '1\n2\n3')" ]
	# Refused while a gbatchd answers, or without replicas.
	run -1 gbatchd -f "$GB_DIR/single.conf" --seed
	[[ "$output" == *"--seed makes the first state of a replica set: list its replicas in controller.replicas"* ]]
	# Seeded once, copied to the others before any starts.
	run -0 gbatchd -f "$GB_DIR/r2/gbatch.conf" --seed
	[[ "$output" == *"seeded $GB_DIR/r2/ctl/raft.db from $GB_DIR/r2/ctl/gbatch.db"*"next job id 4"* ]]
	[[ "$output" == *"Copy $GB_DIR/r2/ctl/raft.db into the state_dir of every other replica"* ]]
	[ -f "$GB_DIR/r2/ctl/gbatch.db.before-replicas" ]
	[ ! -e "$GB_DIR/r2/ctl/gbatch.db" ]
	run -1 gbatchd -f "$GB_DIR/r2/gbatch.conf" --seed
	[[ "$output" == *"raft.db exists: this state_dir belongs to a replica already"* ]]
	for i in 3 4; do
		mkdir -p "$GB_DIR/r$i/ctl"
		cp "$GB_DIR/r2/ctl/raft.db" "$GB_DIR/r$i/ctl/"
	done
	start_set
	[ "$(names_on "$L")" = "$(printf '1 single1\n2 single2\n3 single3')" ]
	all_hold "$GB_DIR/ids"
	# Ids go on from the controller's.
	submit_held 1
	[ "$(tail -1 "$GB_DIR/ids")" = 4 ]
	all_hold "$GB_DIR/ids"
}

@test "a replica started without the seed is refused by the seeded ones, which serve; one added later takes their history" {
	single_with_jobs 2
	run -0 gbatchd -f "$GB_DIR/r2/gbatch.conf" --seed
	mkdir -p "$GB_DIR/r3/ctl"
	cp "$GB_DIR/r2/ctl/raft.db" "$GB_DIR/r3/ctl/"
	# Replica 4 (id 3) is given no copy: it starts a set of its own.
	start_set
	[ "$L" != 4 ]
	[ "$(names_on "$L")" = "$(printf '1 single1\n2 single2')" ]
	gb_wait 30 grep -q "replica 3's log is that of a set started empty, replica $((L - 1))'s is seeded history [0-9a-f]*: they cannot form one set" "$GB_DIR/r$L/gbatchd.log"
	gb_wait 30 grep -q "replica 3's is that of a set started empty: they cannot form one set" "$GB_DIR/r4/gbatchd.log"
	run -3 on 4 gq
	[ -z "$(jobs_in 4)" ]
	# The seeded two commit alone.
	submit_held 1
	[ "$(tail -1 "$GB_DIR/ids")" = 3 ]
	# A replica added later starts empty and takes the set's history.
	make_replica 5 4
	start_replica 5
	run -0 gctl replica add "127.0.0.5:$R_PORT"
	gb_wait 30 has_jobs 5 "$GB_DIR/ids"
	grep -q "holds no log yet and takes replica $((L - 1))'s history, seeded history" "$GB_DIR/r5/gbatchd.log"
}

# role_of I ID: replica ID's role and state in replica I's list.
role_of() {
	on "$1" gctl replica list | awk -v id="$2" '$1 == id { print $3, $4 }'
}

# listed I N: replica I lists N replicas.
listed() {
	[ "$(on "$1" gctl replica list | tail -n +2 | grep -c .)" -eq "$2" ]
}

@test "membership: a replica started and added catches up and votes; a follower removed is dropped and the rest still commit" {
	start_set
	submit_held 10
	# A new replica, started as the usage says: listen on its address,
	# the same replicas list, replica_id one more than the highest.
	make_replica 5 4
	start_replica 5
	# Not a member yet: it neither leads nor hears a leader.
	run -3 on 5 gsub --hold --wrap true
	run -0 gctl replica add "127.0.0.5:$R_PORT"
	[ "$output" = "added replica 4 at 127.0.0.5:$R_PORT; its controller.replica_id must be 4" ]
	[ "$(role_of "$L" 4)" = "voter follower" ]
	# It holds every job, from the log, and names the leader to clients.
	[ "$(wc -l <"$GB_DIR/ids")" -eq 10 ]
	gb_wait 30 has_jobs 5 "$GB_DIR/ids"
	run -3 on 5 gq
	[[ "$output" == *"the leader is replica $((L - 1)) at 127.0.0.$L:$R_PORT"* ]]
	gb_wait 30 listed 5 4
	# Adding the same address again, or removing a replica that is not
	# there, is refused, naming why.
	run -1 gctl replica add "127.0.0.5:$R_PORT"
	[[ "$output" == *"replica 4 is at 127.0.0.5:$R_PORT already"* ]]
	run -1 gctl replica remove 9
	[[ "$output" == *"no replica 9"* ]]
	# A follower removed: the leader lists three, and with one of the
	# three others stopped, two still make a majority of three (of four
	# they would not).
	f=$(( L == 2 ? 3 : 2 ))
	run -0 gctl replica remove "$((f - 1))"
	[ "$output" = "removed replica $((f - 1))" ]
	gb_wait 30 listed "$L" 3
	[ -z "$(role_of "$L" "$((f - 1))")" ]
	g=$(( 9 - L - f ))
	eval "kill -TERM \$R_PID_$f \$R_PID_$g"
	submit_held 5
	[ "$(wc -l <"$GB_DIR/ids")" -eq 15 ]
	gb_wait 30 has_jobs 5 "$GB_DIR/ids"
}

# registered N: gnoded n1 has registered with a leader N times or more.
registered() {
	[ "$(grep -c "node n1: registered with" "$GB_DIR/gnoded-n1.log")" -ge "$1" ]
}

# answers I ID: replica I, leading, lists replica ID as answering A
# (yes or no).
answers() {
	[ "$(on "$1" gctl replica list | awk -v id="$2" '$1 == id { print $6 }')" = "$3" ]
}

@test "membership: a removal that would leave no answering majority is refused; the leader removes itself, steps down, and the others lead with every job" {
	start_set
	start_node
	gsub -G 1 --wrap "sleep 300" >>"$GB_DIR/out"
	submit_held 4
	run=$(head -1 "$GB_DIR/ids")
	gb_wait 30 gb_state_is "$run" RUNNING
	f=$(( L == 2 ? 3 : 2 ))
	g=$(( 9 - L - f ))
	# Every replica answers the leader; a follower's list cannot say.
	[ "$(on "$L" gctl replica list | awk 'NR > 1 { print $6 }' | sort -u)" = yes ]
	[ "$(on "$f" gctl replica list | awk 'NR > 1 { print $6 }' | sort -u)" = - ]
	# With g stopped, removing f or the leader would leave two of which
	# one answers: refused, and nothing changes.
	eval "kill -TERM \$R_PID_$g"
	gb_wait 30 answers "$L" "$((g - 1))" no
	run -1 gctl replica remove "$((f - 1))"
	[ "$output" = "gctl: replica remove: removing replica $((f - 1)) would leave replicas $(printf '%s\n' $((L - 1)) $((g - 1)) | sort -n | paste -sd,  | sed 's/,/, /'), which commit only while 2 of them answer, and replica $((g - 1)) does not answer: the set could commit nothing more. Start it again first, or remove it" ]
	run -1 gctl replica remove "$((L - 1))"
	[[ "$output" == *"removing replica $((L - 1)) would leave"*"replica $((g - 1)) does not answer"* ]]
	listed "$L" 3
	# g started again: the leader removes itself. It answers once the
	# others committed its removal, and has stepped down.
	start_replica "$g"
	gb_wait 30 answers "$L" "$((g - 1))" yes
	regs=$(grep -c "node n1: registered with" "$GB_DIR/gnoded-n1.log")
	run -0 gctl replica remove "$((L - 1))"
	[ "$output" = "removed replica $((L - 1)), which led and has stepped down: the others elect a leader within a few seconds" ]
	old=$L
	gb_wait 30 leader_but "$old"
	export GBATCH_SOCKET="$GB_DIR/r$L/gbatchd.sock"
	listed "$L" 2
	[ -z "$(role_of "$L" "$((old - 1))")" ]
	# The old leader says what it is now, to clients and to the node.
	run -3 on "$old" gq
	[[ "$output" == *"this replica ($((old - 1))) is not a member of the set: it was removed"* ]]
	# Every job is there; the node registers with the new leader, and
	# the running job kept running; the two left commit.
	[ "$(gq -t all --noheader -o id | tr -d ' ' | sort -n)" = "$(sort -n "$GB_DIR/ids")" ]
	gb_wait 30 registered "$((regs + 1))"
	gb_wait 30 gb_state_is "$run" RUNNING
	[ "$(gq -j "$run" --noheader -o state,restarts | tr -s ' ' | sed 's/^ //')" = "RUNNING 0" ]
	submit_held 1
	[ "$(wc -l <"$GB_DIR/ids")" -eq 6 ]
	for i in 2 3 4; do
		[ "$i" = "$old" ] || gb_wait 30 has_jobs "$i" "$GB_DIR/ids"
	done
	grep -q "replica $((old - 1)): removing itself from the set" "$GB_DIR/r$old/gbatchd.log"
	grep -q "this replica left the set; starting again" "$GB_DIR/r$old/gbatchd.log"
}
