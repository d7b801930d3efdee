#!/usr/bin/env bats
# Accounts and users (gctl account, gctl user), as an operator manages
# them on a local cluster: each form and its errors, a non-operator
# refused, the audit log, a restart keeping them, and what a submit meets:
# the default account, controller.enforce_accounts, max_time and
# max_pending. The rules themselves are unit-tested (assoc-tab.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	cd "$GB_DIR"
}

teardown() {
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
	gb_teardown
}

# audit_has TEXT: a line of the audit log holds TEXT.
audit_has() {
	grep -F -- "$1" "$(gctl show config --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["controller"]["audit_log"])')"
}

@test "gctl account: add, modify, list, show, delete; each refusal names what is wrong" {
	gb_write_conf
	gb_start_controller
	run -0 gctl account add science shares=10 description='All of science'
	[ "$output" = "account science: added" ]
	run -0 gctl account add phys PARENT=science Max_Time=2:00:00 max_gpus=8 gpu_hours=500
	run -0 gctl account add chem parent=science
	run -0 gctl account modify chem shares=3 max_pending=20
	[ "$output" = "account chem: modified" ]
	run -0 gctl account list
	[ "${lines[0]}" = "ACCOUNT          PARENT           SHARES MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME GPU_HOURS USERS" ]
	[ "${lines[1]}" = "chem             science               3        -        -          20           -         -     0" ]
	[ "${lines[2]}" = "phys             science               1        8        -           -     2:00:00       500     0" ]
	[ "${lines[3]}" = "science          -                    10        -        -           -           -         -     0" ]
	[ "${#lines[@]}" -eq 4 ]
	run -0 gctl user add alice account=phys
	run -0 gctl account show science
	[ "$output" = "account: science
parent: -
shares: 10
description: All of science
max_gpus: -
max_jobs: -
max_pending: -
max_time: -
gpu_hours: -
month: $(date -u +%Y-%m) (UTC)
used_gpu_hours: 0.00
used_gpu_hours_charged: 0.00 (no budget)
running_jobs: 0 (no max_jobs)
running_gpus: 0 (no max_gpus)
users: -
children: chem, phys" ]
	run -0 gctl account show phys
	[ "${lines[8]}" = "gpu_hours: 500" ]
	[ "${lines[11]}" = "used_gpu_hours_charged: 0.00 (0.0% of gpu_hours)" ]
	[ "${lines[13]}" = "running_gpus: 0 (max_gpus 8)" ]
	[ "${lines[14]}" = "users: alice (default)" ]
	[ "${lines[15]}" = "children: -" ]
	# A budget of a fraction of a GPU-hour, kept to the GPU-second:
	# 0.25 is 900 GPU-seconds; 0.001 rounds to 4 (0.001111).
	run -0 gctl account modify chem gpu_hours=0.25
	run -0 gctl account show chem
	[ "${lines[8]}" = "gpu_hours: 0.25" ]
	run -0 gctl account modify chem gpu_hours=0.001
	run -0 gctl account show chem
	[ "${lines[8]}" = "gpu_hours: 0.001111" ]
	run -2 gctl account modify chem gpu_hours=-1
	[ "${lines[0]}" = "gctl: account: modify: gpu_hours: expected GPU-hours a month, a number from 0 (no budget) to 1000000000 such as 500 or 0.25, got \"-1\"" ]
	run -2 gctl account modify chem gpu_hours=1e3
	run -1 gctl account modify chem gpu_hours=0.0001
	[ "$output" = "gctl: account modify: gpu_hours: 0.0001 is less than a GPU-second; expected 0 (no budget), or 0.0003 (about a GPU-second) or more" ]
	run -0 gctl account modify chem gpu_hours=0
	# The client's own checks: usage errors, exit 2.
	run -2 gctl account add bio shares=none
	[ "${lines[0]}" = "gctl: account: add: shares: expected a whole number from 1 to 1000000000, got \"none\"" ]
	run -2 gctl account add bio shares=0
	run -2 gctl account add bio max_time=forever
	[[ "${lines[0]}" == "gctl: account: add: max_time: "* ]]
	run -2 gctl account add bio colour=blue
	[ "${lines[0]}" = "gctl: account: add: colour: unknown key; expected parent, shares, description, max_gpus, max_jobs, max_pending, max_time or gpu_hours" ]
	run -2 gctl account add bio shares=1 SHARES=2
	[ "${lines[0]}" = "gctl: account: add: shares: given twice; expected each key once" ]
	run -2 gctl account modify bio
	run -2 gctl account rename bio
	[ "${lines[0]}" = "gctl: account: expected add, modify, delete, list or show, got \"rename\"" ]
	# gbatchd's refusals, exit 1.
	run -1 gctl account add bio parent=nowhere
	[ "$output" = "gctl: account add: parent: no account nowhere; add it first" ]
	run -1 gctl account add 'bad name'
	[[ "$output" == "gctl: account add: account name: expected 1 to 64 letters, digits, '.', '-' or '_', got \"bad name\"" ]]
	run -1 gctl account add phys
	[ "$output" = "gctl: account add: account phys exists already; change it with gctl account modify" ]
	run -1 gctl account modify bio shares=2
	[ "$output" = "gctl: account modify: no account bio" ]
	run -1 gctl account modify science parent=phys
	[ "$output" = "gctl: account modify: parent: phys is science or below it; expected an account outside science's subtree" ]
	run -1 gctl account delete science
	[ "$output" = "gctl: account delete: account science has 2 accounts below it (chem, phys); delete or move them first" ]
	run -1 gctl account delete phys
	[ "$output" = "gctl: account delete: account phys has 1 user (alice); delete them from it first" ]
	run -1 gctl account show bio
	[ "$output" = "gctl: account show: no account bio" ]
	run -0 gctl account delete chem
	[ "$output" = "account chem: deleted" ]
	run -1 gctl account delete chem
	[ "$output" = "gctl: account delete: no account chem" ]
	run -0 gctl account list
	[ "${#lines[@]}" -eq 3 ]
}

@test "gctl user: the first account is the default, default moves it, delete takes one or all" {
	gb_write_conf
	gb_start_controller
	gctl account add a
	gctl account add b
	run -0 gctl user add alice account=b max_pending=3 max_time=30
	[ "$output" = "user alice: added to account b" ]
	run -0 gctl user add alice ACCOUNT=a
	run -0 gctl user add bob account=a default
	run -0 gctl user list
	[ "$output" = "USER             ACCOUNT          DEFAULT MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME
alice            a                     no        -        -           -           -
alice            b                    yes        -        -           3       30:00
bob              a                    yes        -        -           -           -" ]
	run -0 gctl user modify alice account=a default=yes max_jobs=4
	[ "$output" = "user alice: modified in account a" ]
	run -0 gctl user list alice
	[ "${lines[1]}" = "alice            a                    yes        -        4           -           -" ]
	[ "${lines[2]}" = "alice            b                     no        -        -           3       30:00" ]
	[ "${#lines[@]}" -eq 3 ]
	# The client's checks, exit 2; gbatchd's, exit 1.
	run -2 gctl user add carol
	[ "${lines[0]}" = "gctl: user: add: expected account=NAME" ]
	run -2 gctl user modify alice account=a default=maybe
	[ "${lines[0]}" = "gctl: user: modify: default: expected yes or no, got \"maybe\"" ]
	run -2 gctl user add carol account=a shares=2
	[ "${lines[0]}" = "gctl: user: add: shares: unknown key; expected account, default, max_gpus, max_jobs, max_pending or max_time" ]
	run -1 gctl user add carol account=zz
	[ "$output" = "gctl: user add: account: no account zz; an operator adds it with gctl account add zz" ]
	run -1 gctl user add alice account=a
	[ "$output" = "gctl: user add: user alice is in account a already; change it with gctl user modify" ]
	run -1 gctl user modify carol account=a max_jobs=1
	[ "$output" = "gctl: user modify: user carol is not in account a" ]
	# The default deleted, the other takes it.
	run -0 gctl user delete alice account=a
	[ "$output" = "user alice: deleted from 1 account" ]
	run -0 gctl user list alice
	[ "${lines[1]}" = "alice            b                    yes        -        -           3       30:00" ]
	run -1 gctl user delete alice account=a
	[ "$output" = "gctl: user delete: user alice is not in account a" ]
	gctl user add alice account=a
	run -0 gctl user delete alice
	[ "$output" = "user alice: deleted from 2 accounts" ]
	run -1 gctl user delete alice
	[ "$output" = "gctl: user delete: user alice has no account" ]
	run -0 gctl user list
	[ "${#lines[@]}" -eq 2 ]
}

@test "changes are audited, refused to non-operators (exit 4), listed to anyone, and kept across a restart" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	gb_write_conf
	gb_start_controller
	gctl account add phys max_time=1:00:00
	gctl user add alice account=phys max_pending=2
	gctl user delete alice
	gctl account modify phys shares=4
	audit_has 'account_add account phys: {"max_time":3600}'
	audit_has 'user_add user alice in account phys: {"max_pending":2}'
	audit_has 'user_delete user alice'
	audit_has 'account_modify account phys: {"shares":4}'
	GB_USER=gbacc$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0711 "$GB_DIR"
	chmod 0666 "$GBATCH_SOCKET"
	run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl account add bio"
	[[ "$output" == "gctl: account add: only operators may do this"*"you are $GB_USER" ]]
	run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl user add $GB_USER account=phys"
	audit_has "refused $GB_USER"
	run -0 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' gctl account list"
	[ "${lines[1]}" = "phys             -                     4        -        -           -     1:00:00         -     0" ]
	gctl user add bob account=phys default
	before=$(gctl account list; gctl user list)
	kill "$GB_CTL_PID"
	gb_wait 10 gb_pid_gone "$GB_CTL_PID"
	gb_start_controller
	[ "$(gctl account list; gctl user list)" = "$before" ]
	[ "$(sqlite3 ctl/gbatch.db 'SELECT user, account, is_default FROM account_users')" = "bob|phys|1" ]
}

@test "a submit gets the user's default account; enforce_accounts refuses users and accounts not associated; off, any account goes" {
	gb_write_conf
	gb_start_cluster
	me=$(id -un)
	# No association, not enforced: as before.
	j=$(gb_submit -H --wrap true)
	[ "$(gq -h -j "$j" -o account)" = - ]
	j=$(gb_submit -H -A anything --wrap true)
	[ "$(gq -h -j "$j" -o account)" = anything ]
	gctl account add phys
	gctl account add chem
	gctl user add "$me" account=phys
	gctl user add "$me" account=chem
	j=$(gb_submit -H --wrap true)
	[ "$(gq -h -j "$j" -o account)" = phys ]
	j=$(gb_submit -H -A chem --wrap true)
	[ "$(gq -h -j "$j" -o account)" = chem ]
	# Enforced, after a reload.
	gb_write_conf 'enforce_accounts = true;'
	gctl reconfigure
	gb_wait 10 sh -c 'gctl show config | grep -q "enforce_accounts.*true"'
	run -1 gsub -H -A bio --wrap true
	[ "$output" = "gsub: account bio: $me is not one of its users; $me's accounts: chem, phys" ]
	j=$(gb_submit -H --wrap true)
	[ "$(gq -h -j "$j" -o account)" = phys ]
	# gctl update job Account= as a submit's -A: one of the job's
	# user's accounts, each change in its history.
	run -0 gctl update job "$j" Account=chem
	[ "$(gq -h -j "$j" -o account)" = chem ]
	gq -l "$j" | grep -q 'account phys -> chem, by root'
	run -1 gctl update job "$j" Account=bio
	[[ "$output" == *"job $j: account bio: $me is not one of its users; $me's accounts: chem, phys"* ]]
	[ "$(gq -h -j "$j" -o account)" = chem ]
	gctl user delete "$me"
	run -1 gsub -H --wrap true
	[ "$output" = "gsub: $me has no account; an operator adds one with gctl user add $me account=NAME" ]
	# Off again: any account, none.
	gb_write_conf
	gctl reconfigure
	gb_wait 10 sh -c 'gctl show config | grep -q "enforce_accounts.*false"'
	run -0 gsub -H -A bio --wrap true
}

@test "an association's and its accounts' max_time and max_pending refuse a submit, naming the limit" {
	gb_write_conf
	gb_start_cluster
	me=$(id -un)
	gctl account add science max_time=2:00:00
	gctl account add phys parent=science max_pending=3
	gctl user add "$me" account=phys max_time=1:00:00 max_pending=2
	run -1 gsub -H -t 1:00:01 --wrap true
	[ "$output" = "gsub: time limit 1:00:01: above user $me's in account phys max_time, 1:00:00" ]
	run -1 gsub -H --wrap true
	[ "$output" = "gsub: time limit: none given, but user $me's in account phys max_time is 1:00:00; ask for 1:00:00 or less with -t" ]
	gctl user modify "$me" account=phys max_time=0
	run -1 gsub -H -t 3:00:00 --wrap true
	[ "$output" = "gsub: time limit 3:00:00: above account science's max_time, 2:00:00" ]
	gb_submit -H -t 10 --wrap true
	gb_submit -H -t 10 --wrap true
	run -1 gsub -H -t 10 --wrap true
	[ "$output" = "gsub: 2 jobs waiting to start (pending or held): user $me's in account phys max_pending is 2; submit more once some have started or were cancelled" ]
	gctl user modify "$me" account=phys max_pending=0
	gb_submit -H -t 10 --wrap true
	run -1 gsub -H -t 10 --wrap true
	[ "$output" = "gsub: 3 jobs waiting to start (pending or held): account phys's max_pending is 3; submit more once some have started or were cancelled" ]
	# A cancelled job no longer waits.
	gcancel "$(gq -h -o id | head -n 1)"
	run -0 gsub -H -t 10 --wrap true
}

# reason_is ID REASON: the job waits for that reason now.
reason_is() {
	[ "$(gq -h -j "$1" -o reason)" = "$2" ]
}

@test "an account's max_gpus and an association's max_jobs hold jobs back with their reason; raised, the jobs start; past them, a submit is refused" {
	gb_start_cluster
	run -0 gctl account add lab max_gpus=4
	run -0 gctl user add root account=lab
	a=$(gb_submit -G 2 --wrap 'sleep 300')
	b=$(gb_submit -G 2 --wrap 'sleep 300')
	c=$(gb_submit -G 2 --wrap 'sleep 300')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	# 8 GPUs in the cluster, 4 free: the account's cap holds c.
	gb_wait 10 reason_is "$c" AssocGrpGPUs
	# A job of no account is not the lab's: it runs beside them.
	d=$(gb_submit -G 1 -A other --wrap 'sleep 300')
	gb_wait_state "$d" RUNNING
	run -1 gsub -G 6 --wrap true
	[ "$output" = "gsub: 6 GPUs: above account lab's max_gpus, 4 (the GPUs its running jobs hold at once)" ]
	# So is a waiting job's GPUs= past it, and nothing changes.
	run -1 gctl update job "$c" GPUs=6
	[[ "$output" == *"job $c: 6 GPUs: above account lab's max_gpus, 4"* ]]
	[ "$(gq -h -j "$c" -o gpus)" != 6 ]
	# Raised: c starts at once.
	run -0 gctl account modify lab max_gpus=6
	gb_wait_state "$c" RUNNING
	# root's association: three of its jobs running at a time.
	run -0 gctl user modify root account=lab max_jobs=3
	e=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait 10 reason_is "$e" AssocMaxJobs
	gcancel "$a"
	gb_wait_state "$e" RUNNING
	[ "$(gq -h -j "$e" -o account)" = lab ]
	gcancel "$b" "$c" "$d" "$e"
}

# gacct_run ID: "GPUS START END" of the job's runs, one a line, as gacct
# lists them.
gacct_runs() {
	gacct -j "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
for r in j["runs"]:
    print(r["gpus"], r["start_time"], r["end_time"])'
}

@test "an account that spent its month's GPU-hours holds its jobs and those below it (AssocGPUHoursSpent) while running ones go on; raised, they start" {
	gb_start_cluster
	me=$(id -un)
	# science's budget, 0.001 GPU-hours, is 4 GPU-seconds (kept to the
	# GPU-second); phys, below it, has none of its own.
	gctl account add science gpu_hours=0.001
	gctl account add phys parent=science
	gctl user add "$me" account=phys
	# a: 2 GPUs for 6 s; science's budget is spent 2 s in, and a goes
	# on. wide, waiting for all 8 GPUs, is held from then on.
	a=$(gb_submit -G 2 --wrap 'sleep 6')
	gb_wait_state "$a" RUNNING 20
	wide=$(gb_submit -G 8 --wrap 'sleep 300')
	gb_wait 10 reason_is "$wide" AssocGPUHoursSpent
	[ "$(gb_state "$a")" = RUNNING ]
	gb_wait_state "$a" COMPLETED 20
	# The GPUs free, wide and a new job of phys stay pending; a job of
	# another account starts.
	b=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait 10 reason_is "$b" AssocGPUHoursSpent
	o=$(gb_submit -G 1 -A other --wrap 'sleep 300')
	gb_wait_state "$o" RUNNING 20
	[ "$(gb_state "$wide")" = PENDING ]
	[ "$(gq -h -j "$wide" -o reason)" = AssocGPUHoursSpent ]
	# gctl account show: the month's use, from a's own run as gacct
	# lists it, against the budget.
	read -r gpus start end <<<"$(gacct_runs "$a")"
	used=$((gpus * (end - start)))
	[ "$used" -ge 10 ]
	run -0 gctl account show science
	[ "${lines[10]}" = "used_gpu_hours: $(python3 -c "print('%.2f' % ($used / 3600))")" ]
	[ "${lines[11]}" = "used_gpu_hours_charged: $(python3 -c "print('%.2f (%.1f%% of gpu_hours; spent: its jobs wait, AssocGPUHoursSpent)' % ($used / 3600, 100 * $used / 4))")" ]
	[ "${lines[12]}" = "running_jobs: 0 (no max_jobs)" ]
	run -0 gctl account show phys
	[ "${lines[11]}" = "used_gpu_hours_charged: $(python3 -c "print('%.2f (no budget)' % ($used / 3600))")" ]
	# A restart reads the month's use back from the store: still held.
	kill "$GB_CTL_PID"
	gb_wait 10 gb_pid_gone "$GB_CTL_PID"
	gb_start_controller
	gb_wait 20 gb_node_is_up n1
	gb_wait 10 reason_is "$b" AssocGPUHoursSpent
	run -0 gctl account show science
	[[ "${lines[11]}" == "used_gpu_hours_charged: "*"; spent: its jobs wait, AssocGPUHoursSpent)" ]]
	# Raised: the jobs start without a restart.
	gctl account modify science gpu_hours=10
	gb_wait_state "$b" RUNNING 20
	gcancel "$b" "$o" "$wide"
}

@test "a budget counts each run at its QOS's usage_factor: a factor-0 job spends none of it, a factor-1 job does, and only then the account's jobs wait (AssocGPUHoursSpent)" {
	gb_write_conf
	printf 'qos = {\n  normal = { };\n  scavenger = { usage_factor = 0.0; preempt_mode = "requeue"; };\n};\n' >>"$GBATCH_CONF"
	gb_start_cluster
	me=$(id -un)
	# lab's budget: 4 GPU-seconds a month.
	gctl account add lab gpu_hours=0.001
	gctl user add "$me" account=lab
	# s, a scavenger's: 2 GPUs for 3 s, past the budget as run.
	s=$(gb_submit -G 2 -q scavenger --wrap 'sleep 3')
	gb_wait_state "$s" COMPLETED 20
	read -r gpus start end <<<"$(gacct_runs "$s")"
	used=$((gpus * (end - start)))
	[ "$used" -ge 4 ]
	run -0 gctl account show lab
	[ "${lines[10]}" = "used_gpu_hours: $(python3 -c "print('%.2f' % ($used / 3600))")" ]
	[ "${lines[11]}" = "used_gpu_hours_charged: 0.00 (0.0% of gpu_hours)" ]
	# Nothing charged: a job of lab starts, normal's, factor 1.
	n=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$n" RUNNING 20
	[ "$(gq -h -j "$n" -o qos)" = normal ]
	# It spends the budget 4 s on: a job waiting for the GPUs it holds
	# then waits for the budget.
	wide=$(gb_submit -G 8 --wrap 'sleep 300')
	gb_wait 20 reason_is "$wide" AssocGPUHoursSpent
	[ "$(gb_state "$n")" = RUNNING ]
	run -0 gctl account show lab
	[[ "${lines[11]}" == "used_gpu_hours_charged: "*"; spent: its jobs wait, AssocGPUHoursSpent)" ]]
	gcancel "$n" "$wide"
}
