#!/usr/bin/env bats
# Advance reservations (gctl reservation; scontrol create reservation), as
# an operator makes them and users meet them on a local cluster of two
# 4-GPU nodes: each form and its errors, a non-operator refused, a job of
# a reservation waiting for its start then running on its nodes alone and
# stopped at its end, a maintenance draining a node (a job without a
# limit keeps off it, one with a short limit does not), the nodes' states,
# Slurm's spelling, and a restart keeping them. Windows are seconds long;
# every wait polls to a deadline. The rules themselves are unit-tested
# (sched-window.t, resv-tab.t, resv-words.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
	# The Slurm-named commands, beside gbatch's own.
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
}

teardown() {
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
	gb_teardown
}

# field ID FIELD: one gq field of a job, whatever its state.
field() {
	gq -h -t all -j "$1" -o "$2"
}

field_is() {
	[ "$(field "$1" "$2")" = "$3" ]
}

# node_state NODE: gnodes' state of NODE.
node_state() {
	gnodes --noheader -o name,state | awk -v n="$1" '$1 == n { print $2 }'
}

node_state_is() {
	[ "$(node_state "$1")" = "$2" ]
}

audit_has() {
	grep -F -- "$1" "$GB_DIR/ctl/audit.log"
}

@test "gctl reservation: create, list, update, delete; each refusal names what is wrong" {
	gb_start_cluster
	run -0 gctl reservation create --name maint1 --start now+1hour \
	    --duration 2:00:00 --nodes 'n[1-2]' --users root --flags maint
	[[ "$output" == "reservation maint1: created, "*" to "*" (2:00:00) on n[1-2] (8 GPUs), maintenance" ]]
	run -0 gctl reservation create --start now+3hours --end now+4hours \
	    --nodes n1 --users root,nobody --accounts phys
	[[ "$output" == "reservation root_2: created, "* ]]
	run -0 gctl reservation list
	[ "${lines[0]}" = "NAME   STATE    START               END                    DURATION NODES   GPUS FLAGS             USERS ACCOUNTS" ]
	[[ "${lines[1]}" == "maint1 INACTIVE "*"     2:00:00 n[1-2]     8 MAINT             root -" ]]
	[[ "${lines[2]}" == "root_2 INACTIVE "*"     1:00:00 n1         4 -                 root,nobody phys" ]]
	[ "${#lines[@]}" -eq 3 ]
	run -0 gctl reservation list --json
	[ "$(python3 -c 'import json, sys; r = json.load(sys.stdin)[0]; print(r["name"], r["nodes"], r["node_count"], r["gpus"], r["flags"], r["users"], r["state"], r["end_time"] - r["start_time"])' <<<"$output")" = \
	    "maint1 n[1-2] 2 8 ['MAINT'] ['root'] INACTIVE 7200" ]
	run -0 gctl reservation list root_2
	[ "${#lines[@]}" -eq 2 ]
	run -0 gctl reservation update root_2 --duration 30
	[[ "$output" == "reservation root_2: updated, "*"(30:00) on n1 (4 GPUs)" ]]
	run -0 gctl reservation delete root_2
	[ "$output" = "reservation root_2: deleted" ]
	# gbatchd's refusals: exit 1, naming what and why.
	run -1 gctl reservation create --duration 10 --nodes n9 --users root
	[ "$output" = "gctl: reservation create: nodes: no node n9 (gnodes lists them)" ]
	run -1 gctl reservation create --duration 10 --nodes n1
	[[ "$output" == "gctl: reservation create: a reservation is for some users or accounts: give users or accounts"* ]]
	run -1 gctl reservation create --duration 10 --nodes n1 --users nosuchuser
	[ "$output" = 'gctl: reservation create: users: no such user "nosuchuser"' ]
	run -1 gctl reservation create --start now+1hour --end now --nodes n1 --users root
	[ "$output" = "gctl: reservation create: the end must come after the start" ]
	run -1 gctl reservation create --duration 10 --nodes n1 --users root --flags overlap
	[ "$output" = "gctl: reservation create: flags: OVERLAP is not taken by gbatch (only a maintenance (MAINT) may overlap another); expected MAINT or IGNORE_JOBS" ]
	run -1 gctl reservation create --name maint1 --duration 10 --nodes n1 --users root
	[[ "$output" == *"reservation maint1 exists already"* ]]
	run -0 gctl reservation create --name u1 --start now+2hours --duration 10 --nodes n2 --users root
	run -1 gctl reservation create --name u2 --start now+2hours --duration 10 --nodes n2 --users root
	[ "$output" = "gctl: reservation create: node n2 is in reservation u1 over the same time; reservations overlap only for a maintenance (flags MAINT)" ]
	run -1 gctl reservation update nope --duration 10
	[ "$output" = "gctl: reservation update: no reservation nope (gctl reservation list shows them)" ]
	# The client's own checks: usage errors, exit 2, nothing sent.
	run -2 gctl reservation create --duration forever --nodes n1 --users root
	[[ "${lines[0]}" == "gctl: reservation: duration: expected minutes"* ]]
	run -2 gctl reservation create --duration UNLIMITED --nodes n1 --users root
	[[ "${lines[0]}" == "gctl: reservation: duration: a reservation ends"* ]]
	run -2 gctl reservation create --duration 10 --nodes n1 --gpus 4 --users root
	[ "${lines[0]}" = "gctl: reservation: gpus: nodes is given already; expected one of them" ]
	run -2 gctl reservation create --duration 10 --nodes n1 --users=-root
	[[ "${lines[0]}" == "gctl: reservation: users: Slurm's -NAME (all but NAME) is not taken"* ]]
	run -2 gctl reservation create --color red
	run -2 gctl reservation frobnicate
	run -0 gctl reservation --help
	[[ "${lines[0]}" == "usage: gctl reservation create"* ]]
	run -0 gctl --help
	[[ "$output" == *"reservation create --start TIME --duration D"* ]]
}

@test "--gpus N reserves whole nodes holding N GPUs, the fewest, chosen at creation" {
	gb_start_cluster
	run -0 gctl reservation create --name one --duration 10 --gpus 3 --users root
	[[ "$output" == *" on n1 (4 GPUs)" ]]
	# n1 is one's now: a second user reservation over the same time
	# takes n2, then there is no more.
	run -0 gctl reservation create --name two --duration 10 --gpus 2 --users root
	[[ "$output" == *" on n2 (4 GPUs)" ]]
	run -1 gctl reservation create --name three --duration 10 --gpus 1 --users root
	[[ "$output" == *"gpus 1: the nodes that may be reserved then (up, not drained, in no other reservation) hold 0 GPUs" ]]
	# A maintenance may overlap them: both nodes for 6 GPUs.
	run -0 gctl reservation create --name m --duration 10 --gpus 6 --users root --flags maint
	[[ "$output" == *" on n[1-2] (8 GPUs), maintenance" ]]
}

@test "only operators create, update or delete reservations (exit 4, audited); anyone lists them" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	gb_start_cluster
	gctl reservation create --name r1 --start now+1hour --duration 10 --nodes n1 --users root
	audit_has 'reservation_create reservation r1: {"duration":600,"nodes":"n1","start_time":'
	GB_USER=gbresv$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0711 "$GB_DIR"
	chmod 0666 "$GBATCH_SOCKET"
	as_user() {
		su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' $*"
	}
	run -4 as_user gctl reservation create --duration 10 --nodes n2 --users "$GB_USER"
	[[ "$output" == "gctl: reservation create: only operators may do this"* ]]
	run -4 as_user gctl reservation delete r1
	run -4 as_user scontrol delete reservation r1
	audit_has "refused $GB_USER"
	run -0 as_user gctl reservation list
	[[ "${lines[1]}" == "r1 "* ]]
	run -0 as_user scontrol show reservation r1
	[[ "${lines[0]}" == "ReservationName=r1 "* ]]
	# A user the reservation is not for is refused its jobs (exit 4).
	run -4 as_user gsub --reservation r1 -G 1 --wrap true
	[[ "$output" == "gsub: reservation r1 is for users root; not for $GB_USER" ]]
	gctl reservation delete r1
	audit_has 'reservation_delete reservation r1'
}

@test "a job of a reservation waits for its start (Reservation), runs on its nodes alone, and is stopped at its end" {
	gb_start_cluster
	gctl reservation create --name r --start now+3 --duration 0:12 --nodes n2 --users root
	# A job larger than the reservation's node holds is refused; one of
	# an unknown reservation too (checked now: the reservation ends 15 s
	# from here, and a loaded machine may take that long below).
	run -1 gsub --reservation r -G 8 --wrap true
	[ "$output" = "gsub: reservation r: the nodes of it the job may use (its partitions, -w, -x, GPU type) hold 4 GPUs; it asks for 8" ]
	run -1 gsub --reservation nope -G 1 --wrap true
	[ "$output" = "gsub: reservation: no reservation nope (gctl reservation list shows them)" ]
	a=$(gb_submit --reservation r -G 2 -t 1 --wrap 'sleep 2')
	printf '#!/bin/sh\n#SBATCH --reservation=r\n#SBATCH -G 2\nsleep 60\n' >b.sh
	b=$(sbatch --parsable b.sh)
	field_is "$a" reason Reservation
	[ "$(field "$b" reservation)" = r ]
	[ "$(squeue -h -j "$b" -o '%v %r')" = "r Reservation" ]
	run -0 scontrol show job "$a"
	[[ "$output" == *"Partition=gbatch Reservation=r"* ]]
	# n1 is free all along, and neither takes it.
	c=$(gb_submit -G 4 -t 1 --wrap 'sleep 1')
	gb_wait_state "$c" COMPLETED
	field_is "$a" state PENDING
	gb_wait_state "$a" RUNNING 10
	[ "$(field "$a" nodes)" = n2 ]
	gb_wait_state "$b" RUNNING 5
	[ "$(field "$b" nodes)" = n2 ]
	gb_wait_state "$a" COMPLETED
	# The one without an end of its own is stopped at the end.
	gb_wait_state "$b" TIMEOUT 15
	# The reservation is gone then; a job still asking for it waits for
	# good, and a job may not be submitted to it.
	gb_wait 5 sh -c '! gctl reservation list r'
	run -1 gsub --reservation r -G 1 --wrap true
}

@test "a maintenance reservation drains a node by its start: a job without a limit keeps off it, one that ends in time does not" {
	gb_start_cluster
	gctl reservation create --name m --start now+40 --duration 0:20 --nodes n2 --users root --flags maint
	a=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	b=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait 5 field_is "$b" reason "ReqNodeNotAvail, Reserved for maintenance"
	[ "$(squeue -h -j "$b" -o %r)" = "ReqNodeNotAvail, Reserved for maintenance" ]
	# A limit past the start keeps off it too; one ending by then runs.
	c=$(gb_submit -G 4 -t 2 --wrap 'sleep 60')
	d=$(gb_submit -G 4 -t 0:20 --wrap 'sleep 1')
	gb_wait_state "$d" COMPLETED
	[ "$(field "$d" nodes)" = n2 ]
	field_is "$b" state PENDING
	field_is "$c" state PENDING
	[ "$(node_state n2)" = idle ]
}

@test "nodes in an open reservation read maint or reserved in gnodes, sinfo and scontrol" {
	gb_start_cluster
	gctl reservation create --name m --duration 10 --nodes n1 --users root --flags maint,ignore_jobs
	gctl reservation create --name u --duration 10 --nodes n2 --users root
	gb_wait 5 node_state_is n1 maint
	node_state_is n2 reserved
	[ "$(gnodes -h -o name,reservation)" = "$(printf 'n1  m\nn2  u')" ]
	[ "$(sinfo -N -h -o '%N %t')" = "$(printf 'n1 maint\nn2 resv')" ]
	[ "$(sinfo -h -t resv -o '%N %T')" = "n2 reserved" ]
	run -0 scontrol show node n1
	[[ "$output" == *"State=MAINT"* ]]
	run -0 gctl reservation list m
	[[ "${lines[1]}" == "m "*" ACTIVE "*" MAINT,IGNORE_JOBS "* ]]
	# A reservation's job on its node: reserved reads as the jobs hold it.
	j=$(gb_submit --reservation u -G 4 --wrap 'sleep 30')
	gb_wait_state "$j" RUNNING
	node_state_is n2 allocated
	# One in use is not deleted, as Slurm's.
	run -1 gctl reservation delete u
	[ "$output" = "gctl: reservation delete: reservation u is in use: job $j runs in it (cancel it, or wait for its end)" ]
}

@test "scontrol create, show, update and delete reservation, in Slurm's spelling" {
	gb_start_cluster
	run -0 scontrol create reservation ReservationName=maint1 StartTime=now+1hour \
	    Duration=120 Nodes=n1 Users=root Flags=MAINT
	[ "$output" = "Reservation created: maint1" ]
	run -0 scontrol create res starttime=now+3hours duration=1:00:00 tres=gres/gpu=4 accounts=phys,chem users=root
	[ "$output" = "Reservation created: root_2" ]
	run -0 scontrol show reservation maint1
	[[ "${lines[0]}" == "ReservationName=maint1 StartTime="*" EndTime="*" Duration=02:00:00" ]]
	[ "${lines[1]}" = "   Nodes=n1 NodeCnt=1 CoreCnt=0 Features=(null) PartitionName=(null) Flags=MAINT" ]
	[ "${lines[2]}" = "   TRES=gres/gpu=4" ]
	[ "${lines[3]}" = "   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a" ]
	[ "${lines[4]}" = "   MaxStartDelay=(null)" ]
	run -0 scontrol -o show reservation root_2
	[[ "$output" == "ReservationName=root_2 "*" Users=root "*" Accounts=phys,chem "* ]]
	run -0 scontrol update ReservationName=maint1 Duration=30
	[ "$output" = "Reservation updated." ]
	run -0 scontrol show reservation maint1
	[[ "${lines[0]}" == *" Duration=00:30:00" ]]
	# Slurm's keys gbatch does not take, and unknown ones: usage errors.
	run -2 scontrol create reservation Duration=10 NodeCnt=2 Users=root
	[[ "${lines[0]}" == "scontrol: create reservation: NodeCnt: not taken by gbatch (gbatch reserves nodes by name (Nodes=) or by GPUs (TRES=gres/gpu=N))" ]]
	run -2 scontrol create reservation Duration=10 Nodes=n1 Users=root Color=red
	run -1 scontrol show reservation nope
	[ "$output" = "Reservation nope not found" ]
	run -0 scontrol delete reservation maint1
	[ -z "$output" ]
	run -0 scontrol delete ReservationName=root_2
	run -0 scontrol show reservation
	[ "$output" = "No reservations in the system" ]
}

@test "reservations and the jobs waiting for them survive a controller restart; one that ended is deleted, its jobs wait (ReservationDeleted)" {
	gb_start_cluster
	gctl reservation create --name later --start now+1hour --duration 10 --nodes n1 --users root
	gctl reservation create --name short --start now+1hour --duration 10 --nodes n2 --users root --flags maint
	j=$(gb_submit --reservation later -G 1 --wrap true)
	field_is "$j" reason Reservation
	before=$(gctl reservation list)
	kill "$GB_CTL_PID"
	gb_wait 10 gb_pid_gone "$GB_CTL_PID"
	gb_start_controller
	[ "$(gctl reservation list)" = "$before" ]
	field_is "$j" reason Reservation
	[ "$(field "$j" reservation)" = later ]
	# Moved to end in a moment: at its end it is deleted, and its
	# waiting job waits for good.
	gctl reservation update later --start now --duration 0:02
	gb_wait 10 field_is "$j" state COMPLETED
	# A job ending in 10 minutes may start on short's node an hour
	# before it; then short moves over it, so that short's own job
	# finds no room there before its end.
	x=$(gb_submit -G 4 -w n2 -t 10 --wrap 'sleep 60')
	gb_wait_state "$x" RUNNING
	k=$(gb_submit --reservation short -G 1 --wrap true)
	gctl reservation update short --start now+1 --end now+2
	gb_wait 10 sh -c '! gctl reservation list short'
	gb_wait 5 field_is "$k" reason ReservationDeleted
	field_is "$k" state PENDING
}
