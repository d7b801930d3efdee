#!/usr/bin/env bats
# sacctmgr.bats: sacctmgr (slurm-compat) on a local controller, run as an
# operator runs Slurm's: each form changes what gctl account and gctl user
# then show; show prints Slurm's columns; an error names what was wrong
# and changes nothing, a list's earlier changes undone; without -i it asks
# at a terminal and goes ahead elsewhere; a non-operator is refused. Its
# words and keywords are unit-tested (sacctmgr-words.t).

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	PATH="$GBATCH_BUILDDIR/slurm:$PATH"
	cd "$GB_DIR"
	gb_write_conf 'cluster_name = "gbt";'
	gb_start_controller
}

teardown() {
	[ -z "${GB_USER:-}" ] || userdel "$GB_USER" 2>/dev/null || true
	gb_teardown
}

# state: every account and association as gctl lists them.
state() {
	gctl account list
	gctl user list
}

# audit_has TEXT: a line of the audit log holds TEXT.
audit_has() {
	grep -F -- "$1" "$(gctl show config --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["controller"]["audit_log"])')"
}

@test "add account: Slurm's keywords become the account's members, for each name; Parent=root is the top" {
	run -0 sacctmgr -i add account science Description='All of science' Fairshare=10
	[ "$output" = " Adding Account(s)
  science
 Settings
  Description   = All of science
  Fairshare     = 10" ]
	run -0 sacctmgr -i add account phys,chem parent=science GrpJobs=4 \
	    GrpTRES=gres/gpu=8 GrpSubmitJobs=20 MaxWall=2:00:00 \
	    GrpTRESMins=gres/gpu=30000
	[ "$output" = " Adding Account(s)
  phys
  chem
 Settings
  Parent        = science
  GrpJobs       = 4
  GrpTRES       = gres/gpu=8
  GrpSubmitJobs = 20
  MaxWall       = 02:00:00
  GrpTRESMins   = gres/gpu=30000" ]
	run -0 sacctmgr -iQ create acct bio Parent=ROOT
	[ -z "$output" ]
	run -0 gctl account list
	[ "$output" = "ACCOUNT          PARENT           SHARES MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME GPU_HOURS USERS
bio              -                     1        -        -           -           -         -     0
chem             science               1        8        4          20     2:00:00       500     0
phys             science               1        8        4          20     2:00:00       500     0
science          -                    10        -        -           -           -         -     0" ]
	run -0 gctl account show science
	[ "${lines[3]}" = "description: All of science" ]
	# GrpTRESMins is GPU-minutes: 30000 of them are 500 GPU-hours, 90
	# are 1.5, kept to the GPU-second; shown back in GPU-minutes.
	run -0 sacctmgr -iQ modify account bio set GrpTRESMins=gres/gpu=90
	run -0 gctl account show bio
	[ "${lines[8]}" = "gpu_hours: 1.5" ]
	gctl account modify science gpu_hours=0.001111
	run -0 sacctmgr -nP show account format=account,grptresmins withassoc
	[ "$output" = "bio|gres/gpu=90
chem|gres/gpu=30000
phys|gres/gpu=30000
science|gres/gpu=0.07" ]
}

@test "modify account: by name or where Name=, set's keywords, -1 clearing a limit, Parent=root" {
	sacctmgr -iQ add account science
	sacctmgr -iQ add account phys,chem Parent=science GrpJobs=4 GrpTRES=gres/gpu=8 MaxWall=2:00:00
	run -0 sacctmgr -i modify account phys set GrpJobs=-1 MaxWall=30 Fairshare=3
	[ "$output" = " Modified account associations...
  A = phys
 Settings
  GrpJobs       = NONE
  MaxWall       = 00:30:00
  Fairshare     = 3" ]
	run -0 sacctmgr -iQ update account where name=chem set parent=root GrpTRES=gres/gpu=-1 Description=Chemistry GrpTRESMins=gres/gpu=600
	run -0 gctl account list
	[ "$output" = "ACCOUNT          PARENT           SHARES MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME GPU_HOURS USERS
chem             -                     1        -        4           -     2:00:00        10     0
phys             science               3        8        -           -       30:00         -     0
science          -                     1        -        -           -           -         -     0" ]
	run -0 gctl account show chem
	[ "${lines[3]}" = "description: Chemistry" ]
	# Both at once: all or none.
	run -0 sacctmgr -iQ modify account phys,chem set GrpSubmitJobs=7
	[ "$(gctl account list | awk '$1 == "phys" || $1 == "chem" { print $6 }')" = $'7\n7' ]
}

@test "add, modify and delete user: accounts, the default account, a user's limits; where Account= picks associations" {
	sacctmgr -iQ add account phys,chem
	run -0 sacctmgr -i add user alice Account=phys,chem DefaultAccount=chem MaxJobs=2 GrpTRES=gres/gpu=4
	[ "$output" = " Adding User(s)
  alice
 Settings =
  Default Account = chem
 Associations =
  U = alice     A = phys
  U = alice     A = chem
 Non Default Settings
  MaxJobs       = 2
  GrpTRES       = gres/gpu=4" ]
	run -0 gctl user list
	[ "$output" = "USER             ACCOUNT          DEFAULT MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME
alice            chem                 yes        4        2           -           -
alice            phys                  no        4        2           -           -" ]
	# Without where: every association of the user.
	run -0 sacctmgr -iQ modify user alice set MaxSubmitJobs=5
	run -0 sacctmgr -i modify user alice where account=phys set MaxJobs=-1 MaxWall=1:00:00 DefaultAccount=phys
	[ "$output" = " Modified user associations...
  U = alice     A = phys
 Settings
  MaxJobs       = NONE
  MaxWall       = 01:00:00
  Default Account = phys" ]
	run -0 gctl user list
	[ "$output" = "USER             ACCOUNT          DEFAULT MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME
alice            chem                  no        4        2           5           -
alice            phys                 yes        4        -           5     1:00:00" ]
	run -0 sacctmgr -iQ add user bob,carol DefaultAccount=chem
	run -0 sacctmgr -i delete user alice where account=phys
	[ "$output" = " Deleting user associations...
  U = alice     A = phys" ]
	run -0 gctl user list alice
	[ "${lines[1]}" = "alice            chem                 yes        4        2           5           -" ]
	[ "${#lines[@]}" -eq 2 ]
	run -0 sacctmgr -i remove user alice,bob
	[ "$output" = " Deleting users...
  alice
  bob" ]
	run -0 gctl user list
	[ "$output" = "USER             ACCOUNT          DEFAULT MAX_GPUS MAX_JOBS MAX_PENDING    MAX_TIME
carol            chem                 yes        -        -           -           -" ]
}

@test "delete account: the accounts below first; a refusal undoes the deletes before it and names what holds it" {
	sacctmgr -iQ add account science
	sacctmgr -iQ add account phys,chem Parent=science GrpTRES=gres/gpu=8 GrpTRESMins=gres/gpu=600
	sacctmgr -iQ add user alice Account=chem
	before=$(state)
	run -1 --separate-stderr sacctmgr -i delete account science,phys
	[ "$output" = " Deleting accounts...
  phys
  science" ]
	[ "$stderr" = "sacctmgr: delete account: account science has 1 account below it (chem); delete or move them first (the changes before it were undone)" ]
	# phys came back as it was.
	[ "$(state)" = "$before" ]
	sacctmgr -iQ delete user alice
	run -0 sacctmgr -iQ delete account where name=science,phys,chem
	[ "$(gctl account list | wc -l)" -eq 1 ]
}

@test "errors name what was wrong and what is taken, and change nothing" {
	sacctmgr -iQ add account phys
	sacctmgr -iQ add user alice Account=phys
	before=$(state)
	# sacctmgr's own checks: usage errors, exit 2.
	run -2 sacctmgr -i add account x Colour=blue
	[ "${lines[0]}" = "sacctmgr: Colour: unknown keyword; expected Names, Description, Fairshare, GrpJobs, GrpSubmitJobs, GrpTRES, GrpTRESMins, MaxWall, Parent" ]
	[ "${lines[1]}" = "Try 'sacctmgr --help' for more information." ]
	run -2 sacctmgr -i add account x GrpTRESMins=gres/gpu=1.5
	[ "${lines[0]}" = "sacctmgr: GrpTRESMins: expected a whole number from 1 to 60000000000, or -1 for no limit, got \"1.5\"" ]
	run -2 sacctmgr -i add account x GrpJobs=0
	[ "${lines[0]}" = "sacctmgr: GrpJobs: 0 lets no job run in Slurm, a limit gbatch cannot hold; expected 1 to 1000000000, or -1 for no limit" ]
	run -2 sacctmgr -i add account x GrpTRES=cpu=4
	[ "${lines[0]}" = "sacctmgr: GrpTRES: cpu: gbatch limits GPUs alone; expected gres/gpu=N" ]
	run -2 sacctmgr -i add account x MaxJobs=4
	[[ "${lines[0]}" == "sacctmgr: MaxJobs: on an account Slurm's MaxJobs limits each of its users"*"an account's own limit is GrpJobs" ]]
	run -2 sacctmgr -i modify user alice set Fairshare=3
	[[ "${lines[0]}" == "sacctmgr: Fairshare: a user's association has no share of its own in gbatch"* ]]
	run -2 sacctmgr -i modify account phys set
	[ "${lines[0]}" = "sacctmgr: modify account: nothing to set; expected set KEY=VALUE" ]
	run -2 sacctmgr -i add user bob
	[ "${lines[0]}" = "sacctmgr: add user: expected Account=NAME (or DefaultAccount=NAME)" ]
	run -2 sacctmgr frobnicate account x
	[[ "${lines[0]}" == 'sacctmgr: "frobnicate": expected a command: add (or create), modify (or update), delete (or remove), show (or list)' ]]
	run -2 sacctmgr show assoc format=Colour
	[[ "${lines[0]}" == 'sacctmgr: Format: "Colour" is not a field gbatch'"'"'s sacctmgr prints; expected one of Account,'* ]]
	# Slurm's forms gbatch does not have: exit 1, naming what it does.
	run -1 sacctmgr -i add qos high
	[ "$output" = "sacctmgr: add qos: not supported; gbatch's sacctmgr adds, modifies and deletes accounts and users, and shows accounts, users and associations (gbatch's QOS are gbatch.conf's qos group: gctl show config)" ]
	run -1 sacctmgr show cluster
	[[ "$output" == "sacctmgr: show cluster: not supported; "* ]]
	run -1 sacctmgr -i add coordinator names=alice account=phys
	# What the listing says cannot be: exit 1.
	run -1 sacctmgr -i delete account nope
	[ "$output" = "sacctmgr: delete account: no account nope" ]
	run -1 sacctmgr -i modify user nobody set MaxJobs=1
	[ "$output" = "sacctmgr: modify user: no user nobody: not in any account" ]
	run -1 sacctmgr -i modify user alice where account=chem set MaxJobs=1
	[ "$output" = "sacctmgr: modify user: no association of alice in chem: nothing to modify" ]
	run -1 sacctmgr -i add user bob Account=phys DefaultAccount=chem
	[ "$output" = "sacctmgr: add user: DefaultAccount=chem: user bob is not in account chem; give it in Account= too" ]
	# gbatchd's refusals, exit 1, the changes before them undone.
	run -1 --separate-stderr sacctmgr -i add account good,'bad name'
	[ "$stderr" = "sacctmgr: add account: account name: expected 1 to 64 letters, digits, '.', '-' or '_', got \"bad name\" (the changes before it were undone)" ]
	run -1 --separate-stderr sacctmgr -iQ add user bob Account=phys,nope
	[ "$stderr" = "sacctmgr: add user: account: no account nope; an operator adds it with gctl account add nope (the changes before it were undone)" ]
	run -1 --separate-stderr sacctmgr -iQ add account phys
	[ "$stderr" = "sacctmgr: add account: account phys exists already; change it with gctl account modify" ]
	run -1 --separate-stderr sacctmgr -iQ modify account phys set Parent=nope
	[ "$stderr" = "sacctmgr: modify account: parent: no account nope; add it first" ]
	[ "$(state)" = "$before" ]
}

@test "show account, user and association: Slurm's columns and order, WithAssoc, Tree, where, Format=, -n, -p, -P" {
	sacctmgr -iQ add account science Description='All of science' Fairshare=10
	sacctmgr -iQ add account phys Parent=science GrpJobs=4 GrpTRES=gres/gpu=8 MaxWall=2:00:00 GrpTRESMins=gres/gpu=30000
	sacctmgr -iQ add account chem Parent=science Fairshare=3 GrpSubmitJobs=20
	sacctmgr -iQ add user alice Account=phys,chem DefaultAccount=chem MaxJobs=2 GrpTRES=gres/gpu=4
	sacctmgr -iQ add user bob Account=science MaxSubmitJobs=5 MaxWall=1-00:00:00
	run -0 sacctmgr show account
	[ "$output" = "   Account                Descr                  Org 
---------- -------------------- -------------------- 
      chem                 chem              science 
      phys                 phys              science 
   science       All of science              science " ]
	run -0 sacctmgr -P list accounts withassoc format=account,parentname,user,share
	[ "$output" = "Account|ParentName|User|Share
chem|science||3
chem||alice|parent
phys|science||1
phys||alice|parent
science|root||10
science||bob|parent" ]
	run -0 sacctmgr -n show account phys withassoc
	[ "${lines[0]}" = "      phys                 phys              science        gbt    science                    1       4    gres/gpu=8           gres/gpu=300+                      02:00:00 " ]
	run -0 sacctmgr show user
	[ "$output" = "      User   Def Acct     Admin 
---------- ---------- --------- 
     alice       chem      None 
       bob    science      None " ]
	run -0 sacctmgr -p show user withassoc
	[ "$output" = "User|Def Acct|Admin|Cluster|Account|Share|GrpTRES|MaxJobs|MaxSubmit|MaxWall|
alice|chem|None|gbt|chem|parent|gres/gpu=4|2|||
alice|chem|None|gbt|phys|parent|gres/gpu=4|2|||
bob|science|None|gbt|science|parent|||5|1-00:00:00|" ]
	run -0 sacctmgr -nP show user root,bob format=user,admin
	[ "$output" = "bob|None" ]
	run -0 sacctmgr show assoc
	[ "$output" = "   Cluster    Account       User     Share GrpJobs       GrpTRES GrpSubmit   GrpTRESMins MaxJobs MaxSubmit     MaxWall 
---------- ---------- ---------- --------- ------- ------------- --------- ------------- ------- --------- ----------- 
       gbt    science                   10                                                                             
       gbt    science        bob    parent                               5                               5  1-00:00:00 
       gbt       chem                    3                              20                                             
       gbt       chem      alice    parent       2    gres/gpu=4                               2                       
       gbt       phys                    1       4    gres/gpu=8           gres/gpu=300+                      02:00:00 
       gbt       phys      alice    parent       2    gres/gpu=4                               2                       " ]
	run -0 sacctmgr show assoc tree format=account,user,share
	[ "$output" = "Account                    User     Share 
-------------------- ---------- --------- 
science                                10 
 science                    bob    parent 
 chem                                   3 
  chem                    alice    parent 
 phys                                   1 
  phys                    alice    parent " ]
	run -0 sacctmgr -nP show associations where account=phys,science
	[ "$output" = "gbt|science||10|||||||
gbt|science|bob|parent|||5|||5|1-00:00:00
gbt|phys||1|4|gres/gpu=8||gres/gpu=30000|||02:00:00
gbt|phys|alice|parent|2|gres/gpu=4|||2||" ]
	run -0 sacctmgr -nP show assoc where user=alice format=acc,user,maxj,defaultaccount
	[ "$output" = $'chem|alice|2|chem\nphys|alice|2|chem' ]
	run -0 sacctmgr -n show assoc user=bob format=acc%-8,user%5,maxwall%3
	[ "$output" = "science    bob 1-+ " ]
	# Nothing of that name: the header alone, as Slurm's.
	run -0 sacctmgr show account nope
	[ "${#lines[@]}" -eq 2 ]
}

@test "without -i: at a terminal it reports and asks, n or silence changing nothing; elsewhere it goes ahead" {
	drive=$S/tests/bats/pty-drive.py
	run -0 python3 "$drive" 'expect:\(N/y\): ' 'send:n\r' -- sacctmgr add account phys GrpJobs=2
	[[ "$output" == *" Adding Account(s)"*"  phys"*"  GrpJobs       = 2"* ]]
	[[ "$output" == *"Would you like to commit changes? (You have 30 seconds to decide)"* ]]
	[[ "$output" == *" Changes Discarded"* ]]
	[ "$(gctl account list | wc -l)" -eq 1 ]
	run -0 python3 "$drive" 'expect:\(N/y\): ' 'send:maybe\r' 'expect:Y or N please' 'send:y\r' -- sacctmgr add account phys GrpJobs=2
	[[ "$output" != *"Changes Discarded"* ]]
	[ "$(gctl account list | awk '$1 == "phys" { print $5 }')" = 2 ]
	# -i: no question, at a terminal too.
	run -0 python3 "$drive" -- sacctmgr -i add account chem
	[[ "$output" != *"Would you like"* ]]
	gctl account show chem
	# Not at a terminal: no question, the change made.
	run -0 sacctmgr delete account phys,chem </dev/null
	[[ "$output" != *"Would you like"* ]]
	[ "$(gctl account list | wc -l)" -eq 1 ]
}

@test "a non-operator is refused (exit 4, audited) and changes nothing; anyone may show" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
	sacctmgr -iQ add account phys
	GB_USER=gbsam$$
	useradd --no-create-home --shell /bin/sh "$GB_USER"
	chmod 0711 "$GB_DIR"
	chmod 0666 "$GBATCH_SOCKET"
	before=$(state)
	run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' sacctmgr add account bio"
	[ "$output" = "sacctmgr: add account: only operators may do this (root and controller.operators); you are $GB_USER" ]
	run -4 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' sacctmgr -i delete account phys"
	audit_has "refused $GB_USER"
	[ "$(state)" = "$before" ]
	run -0 su -s /bin/sh "$GB_USER" -c "PATH='$PATH' GBATCH_SOCKET='$GBATCH_SOCKET' sacctmgr -nP show account format=account"
	[ "$output" = phys ]
	# root is an operator; so is a name in controller.operators.
	run -0 sacctmgr -nP show user "$GB_USER" format=user,admin withassoc
	[ -z "$output" ]
	sacctmgr -iQ add user "$GB_USER" Account=phys
	run -0 sacctmgr -nP show user format=user,admin
	[ "$output" = "$GB_USER|None" ]
	gb_write_conf "cluster_name = \"gbt\"; operators = [\"$GB_USER\"];"
	gctl reconfigure
	run -0 sacctmgr -nP show user format=user,admin
	[ "$output" = "$GB_USER|Operator" ]
}

@test "--help, --version, sacctmgr help and version, a bad option" {
	run -0 sacctmgr --help
	[[ "${lines[0]}" == "usage: sacctmgr [options] COMMAND ENTITY [SPECS]" ]]
	[[ "$output" == *"Fields: Account,AdminLevel,Cluster,"* ]]
	run -0 sacctmgr help
	[[ "${lines[0]}" == "usage: sacctmgr "* ]]
	run -0 sacctmgr --version
	[[ "$output" == "sacctmgr (gbatch) "[0-9]* ]]
	run -0 sacctmgr version
	[[ "$output" == "sacctmgr (gbatch) "[0-9]* ]]
	run -2 sacctmgr --nosuch
	[ "${lines[1]}" = "Try 'sacctmgr --help' for more information." ]
	run -2 sacctmgr
	[ "${lines[0]}" = "sacctmgr: expected a command: add, modify, delete or show" ]
}
