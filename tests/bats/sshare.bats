#!/usr/bin/env bats
# sshare.bats: sshare (slurm-compat) on a local controller: gbatch's
# account tree as Slurm's sshare prints it (the root, each account, its
# users, the accounts below it, indented), RawShares and NormShares from
# the accounts' shares, an account's RawUsage what a job charged to it
# ran this month, a user's usage and FairShare empty (no fair share yet);
# whose associations -a, -u and -A select; -l, -n, -p, -P. The tree and
# NormShares are unit-tested (assoc-list.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
	cd "$GB_DIR"
	gb_start_controller
	me=$(id -un)
	# science (10 shares) holds chem (3) and phys (1); bio (30) is the
	# other top account.
	gctl account add science shares=10
	gctl account add bio shares=30
	gctl account add phys parent=science gpu_hours=10
	gctl account add chem parent=science shares=3
	gctl user add alice account=phys
	gctl user add alice account=chem
	gctl user add "$me" account=bio
}

teardown() {
	gb_teardown
}

@test "sshare -a: the tree from root in Slurm's columns and order, NormShares among siblings, users' shares their account's" {
	run -0 sshare -a
	[ "$output" = "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare 
-------------------- ---------- ---------- ----------- ----------- ------------- ---------- 
root                                          0.000000           0      1.000000            
 bio                                    30    0.750000           0      0.000000            
$(printf '%-20s %10s %10s %11s %11s %13s %10s ' '  bio' "$me" parent 0.750000 '' '' '')
 science                                10    0.250000           0      0.000000            
  chem                                   3    0.750000           0      0.000000            
   chem                   alice     parent    0.750000                                      
  phys                                   1    0.250000           0      0.000000            
   phys                   alice     parent    0.250000                                      " ]
	# A share changed shows at once.
	gctl account modify chem shares=1
	run -0 sshare -a -P
	[ "${lines[5]}" = "  chem||1|0.500000|0|0.000000|" ]
	[ "${lines[6]}" = "   chem|alice|parent|0.500000|||" ]
}

@test "sshare selects the caller's associations by default, -u's users, -A's accounts (indented from the first shown)" {
	# Without -a or -u: every account, the caller's associations alone.
	run -0 sshare -n -P
	[ "$output" = "root|||0.000000|0|1.000000|
 bio||30|0.750000|0|0.000000|
  bio|$me|parent|0.750000|||
 science||10|0.250000|0|0.000000|
  chem||3|0.750000|0|0.000000|
  phys||1|0.250000|0|0.000000|" ]
	run -0 sshare -n -P -u alice,nobody
	[ "$(grep -c '|alice|' <<<"$output")" -eq 2 ]
	[ "$(grep -c "|$me|" <<<"$output")" -eq 0 ]
	# -A: those accounts' lines; a line whose parent is not shown
	# starts at the margin; root only when asked for.
	run -0 sshare -n -P -a -A science,phys
	[ "$output" = "science||10|0.250000|0|0.000000|
 phys||1|0.250000|0|0.000000|
  phys|alice|parent|0.250000|||" ]
	run -0 sshare -n -p -A root
	[ "$output" = "root|||0.000000|0|1.000000||" ]
	run -0 sshare -n -A nope
	[ -z "$output" ]
}

@test "sshare -l adds NormUsage, LevelFS, GrpTRESMins (the account's GPU-hour budget in GPU-minutes) and TRESRunMins" {
	run -0 sshare -l -a -P -A phys
	[ "$output" = "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins
phys||1|0.250000|0|0.000000|0.000000||inf|gres/gpu=600|
 phys|alice|parent|0.250000|||||||" ]
}

@test "an account's RawUsage is the GPU-seconds it and those below it ran this month, as gbatchd counts them; EffectvUsage its share of its parent's" {
	gb_start_node n1 4
	# Accounts are not enforced: the caller's job goes to phys.
	j=$(gb_submit -A phys -G 2 -o /dev/null --wrap 'sleep 1')
	gb_wait_state "$j" COMPLETED 30
	used=$(gb_rawask '{"type":109}' | python3 -c 'import json, sys; print(next(a["used_gpu_seconds"] for a in json.load(sys.stdin)["accounts"] if a["name"] == "phys"))')
	[ "$used" -ge 2 ]
	run -0 sshare -n -P -l
	[ "${lines[0]}" = "root|||0.000000|$used|1.000000|1.000000||||" ]
	[ "${lines[1]}" = " bio||30|0.750000|0|0.000000|0.000000||inf||" ]
	[ "${lines[3]}" = " science||10|0.250000|$used|1.000000|1.000000||0.250000||" ]
	[ "${lines[4]}" = "  chem||3|0.750000|0|0.000000|0.000000||inf||" ]
	[ "${lines[5]}" = "  phys||1|0.250000|$used|1.000000|1.000000||0.250000|gres/gpu=600|" ]
}

@test "sshare: --help, --version, a bad option or argument, gbatchd away" {
	run -0 sshare --help
	[ "${lines[0]}" = "usage: sshare [options]" ]
	run -0 sshare --version
	[[ "$output" == "sshare (gbatch) "[0-9]* ]]
	run -2 sshare --colour
	[ "${lines[1]}" = "Try 'sshare --help' for more information." ]
	run -2 sshare extra
	[ "${lines[0]}" = 'sshare: unexpected argument "extra"' ]
	run -2 sshare -A ,
	run -3 env GBATCH_SOCKET="$GB_DIR/nope.sock" sshare
	[[ "$output" == "sshare: "* ]]
}
