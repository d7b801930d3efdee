#!/usr/bin/env bats
# Bash completion (etc/gbatch-completion.bash) for every command, run the
# way bash runs it: the script sourced with bash-completion's helpers, the
# completion function called with COMP_WORDS and COMP_CWORD set, job ids
# and node names asked of a real local cluster.

load helpers

BASH_COMPLETION=/usr/share/bash-completion/bash_completion

setup() {
	[ -r "$BASH_COMPLETION" ] ||
	    skip "bash-completion is not installed (tools/deps test installs it)"
	gb_setup
	# bash-completion's helpers read these; bats leaves them unset.
	set +u
	. "$BASH_COMPLETION"
	. "$S/etc/gbatch-completion.bash"
}

teardown() {
	gb_teardown
}

# complete WORDS...: what completing the last word offers, one per line,
# sorted.
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_gbatch "$1"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

@test "every program is completed, with the options its --help lists" {
	for p in gsub grun gq gcancel gacct gnodes gtop gctl gsim gbatchd gnoded; do
		[ "$(complete -p "$p")" = "complete -F _gbatch $p" ]
	done
	for p in gsub gq gcancel gacct gnodes gtop gsim gbatchd gnoded; do
		want=$("$p" --help | grep '^ \+-' | grep -o -- '--[a-z][a-z-]*' | sort -u)
		got=$(complete_words "$p" -- | sed 's/=$//' | sort -u)
		[ "$got" = "$want" ] || { echo "$p: got [$got] want [$want]"; false; }
	done
	run complete_words gsub --exp
	[ "$output" = "--export=" ]
	run complete_words gq -
	[[ "$output" == *$'\n-l\n'* && "$output" == *$'\n-o\n'* ]]
	run complete_words gbatchd -
	[[ "$output" == *$'\n-L\n'* && "$output" == *$'\n-s\n'* ]]
}

@test "grun completes its options and gsub's it takes, job ids after --jobid, then a command line" {
	gb_start_cluster
	id=$(gb_submit -G 1 -o /dev/null --wrap 'sleep 60')
	run complete_words grun --pt
	[ "$output" = "--pty" ]
	run complete_words grun --gpus-per-n
	[ "$output" = "--gpus-per-node" ]
	run complete_words grun --wra
	[ "$output" = "" ]
	run complete_words grun --out
	[ "$output" = "" ]
	run complete_words grun --jobid ""
	[ "$output" = "$id" ]
	run complete_words grun --ntasks-per-node g
	[ "$output" = "gpu" ]
	# After the options: a command, then that command's own completion.
	run complete_words grun -G 2 --pty bas
	[[ "$output" == *$'\nbash'* || "$output" == bash* ]]
	run complete_words grun -G 2 --pty ls --colo
	[[ "$output" == *--color* ]]
}

@test "gq -o completes field names after a comma; gnodes -o too" {
	run complete_words gq -o id,us
	[ "$output" = "id,user" ]
	run complete_words gq -o ""
	[[ "$output" == *$'\nstate\n'* && "$output" == *$'\npreemptions\n'* ]]
	run complete_words gnodes -o gpus_
	[ "$output" = $'gpus_alloc\ngpus_total' ]
}

@test "states for gq -t and gcancel -t, signals, policies, placements, users, gacct's reports" {
	run complete_words gq -t RUN
	[ "$output" = RUNNING ]
	run complete_words gq -t PD,CA
	[ "$output" = $'PD,CA\nPD,CANCELLED' ]
	run complete_words gq -t a
	[ "$output" = all ]
	# gcancel cancels only jobs that have not ended.
	run complete_words gcancel -t ""
	[[ "$output" == *PENDING* && "$output" != *COMPLETED* ]]
	run complete_words gcancel -s USR
	[ "$output" = $'USR1\nUSR2' ]
	run complete_words gsub --ckpt-signal TER
	[ "$output" = TERM ]
	run complete_words gsim -p dl
	[ "$output" = dlas ]
	run complete_words gsim --placement sp
	[ "$output" = spread ]
	run complete_words gsim --shape e
	[ "$output" = even ]
	run complete_words gsub --ntasks-per-node g
	[ "$output" = gpu ]
	run complete_words gsub --gpu-bind n
	[ "$output" = none ]
	run complete_words gq -u "$(id -un)"
	[[ "$output" == *"$(id -un)"* ]]
	run complete_words gsub --export=NO
	grep -qx NONE <<<"$output"
	run complete_words gsub --export=ALL,GB_DIR
	[ "$output" = ALL,GB_DIR ]
	run complete_words gacct --report ""
	[ "$output" = $'accounts\ncluster\nfairshare\nnodes\npartitions\nqos\ntimeline\nusers' ]
	run complete_words gacct --report q
	[ "$output" = qos ]
}

@test "gsub completes the script as a file, gbatchd -L a file, gnoded -d a directory, -G nothing" {
	mkdir -p "$GB_DIR/w/sub"
	: >"$GB_DIR/w/train.sh"
	run complete_words gsub -G 2 "$GB_DIR/w/tr"
	[ "$output" = "$GB_DIR/w/train.sh" ]
	run complete_words gbatchd -L "$GB_DIR/w/tr"
	[ "$output" = "$GB_DIR/w/train.sh" ]
	run complete_words gnoded -d "$GB_DIR/w/"
	[ "$output" = "$GB_DIR/w/sub" ]
	run complete_words gsub -G ""
	[ -z "$output" ]
}

@test "gctl completes its commands and what each takes" {
	run complete_words gctl ""
	for sub in ping shutdown drain resume hold release requeue show reconfigure purge; do
		grep -qx "$sub" <<<"$output" || { echo "no $sub in [$output]"; false; }
	done
	run complete_words gctl sh
	[ "$output" = $'show\nshutdown' ]
	run complete_words gctl show ""
	[ "$output" = config ]
	run complete_words gctl show config ""
	[ "$output" = --json ]
	run complete_words gctl c
	[ "$output" = $'ca\ncert' ]
	run complete_words gctl cert ""
	[ "$output" = $'issue\nlist\nrevoke' ]
	run complete_words gctl cert issue n1 --c
	[ "$output" = --controller ]
	run complete_words gctl purge --
	[ "$output" = $'--before\n--dry-run' ]
	run complete_words gctl purge --before now-9
	[ "$output" = now-90days ]
	run complete_words gctl rep
	[ "$output" = replica ]
	run complete_words gctl replica ""
	[ "$output" = $'--help\nadd\nlist\nremove' ]
	run complete_words gctl replica list ""
	[ "$output" = --json ]
	# A controller without replicas has no numbers to offer.
	run complete_words gctl replica remove ""
	[ -z "$output" ]
}

@test "reservations complete from the cluster: gctl reservation, gsub --reservation, scontrol's reservation words" {
	gb_start_cluster
	PATH="$B/slurm:$PATH"
	gctl reservation create --name maint1 --start now+1hour --duration 10 --nodes n1 --users root --flags maint
	run complete_words gctl reservation ""
	[ "$output" = "$(printf '%s\n' create update delete list --help | sort)" ]
	for words in "gctl reservation delete" "gctl reservation update" "gsub --reservation" "scontrol show reservation" "scontrol delete reservation"; do
		run complete_words $words ""
		[ "$output" = maint1 ] || { echo "$words: [$output]"; false; }
	done
	run complete_words gctl reservation create --fl
	[ "$output" = --flags ]
	run complete_words gctl reservation create --flags ""
	[ "$output" = $'ignore_jobs\nmaint' ]
	run complete_words gctl reservation create --nodes ""
	[ "$output" = $'n1\nn2' ]
	run complete_words scontrol create ""
	[ "$output" = reservation ]
	run complete_words scontrol create reservation Fl
	[ "$output" = Flags= ]
	run complete_words scontrol update ReservationName=m
	[ "$output" = ReservationName=maint1 ]
	run complete_words scontrol update ReservationName=maint1 Dur
	[ "$output" = Duration= ]
}

@test "job ids of the caller and node names come from the cluster" {
	gb_start_cluster
	a=$(gb_submit -H --wrap true)
	b=$(gb_submit -H --wrap true)
	want=$(printf '%s\n' "$a" "$b" | sort)
	for words in "gcancel" "gq -j" "gq -l" "gctl hold" "gctl release" "gctl requeue" "gctl suspend" "gctl resume job" "gctl resume $a"; do
		run complete_words $words ""
		[ "$output" = "$want" ] || { echo "$words: [$output]"; false; }
	done
	run complete_words gq -j "$a,"
	[ "$output" = "$(printf '%s\n' "$a,$a" "$a,$b" | sort)" ]
	for words in "gnodes -N" "gctl drain"; do
		run complete_words $words ""
		[ "$output" = $'n1\nn2' ] || { echo "$words: [$output]"; false; }
	done
	# resume: a drained node, or suspended jobs.
	run complete_words gctl resume ""
	[ "$output" = "$(printf '%s\n' job n1 n2 "$a" "$b" | sort)" ]
	run complete_words gctl drain n1 ""
	[ "$output" = --reason ]
	gcancel "$a" "$b"
}

@test "partition names come from the settings in force: gsub -p, gq -p, a list; gbatch without partitions" {
	gb_start_controller
	for words in "gsub -p" "gq -p"; do
		run complete_words $words ""
		[ "$output" = gbatch ] || { echo "$words: [$output]"; false; }
	done
	printf 'partitions = {\n  gpu = { };\n  debug = { nodes = "n1"; };\n};\n' \
	    >>"$GBATCH_CONF"
	gctl reconfigure >/dev/null
	# Completion remembers what programs say of themselves, not the
	# cluster's settings: a new shell is not needed.
	run complete_words gsub -p ""
	[ "$output" = $'debug\ngpu' ]
	run complete_words gq --partition "gpu,"
	[ "$output" = $'gpu,debug\ngpu,gpu' ]
}

@test "QOS names come from the settings in force: gsub -q, sbatch --qos; normal without any" {
	gb_start_controller
	run complete_words gsub -q ""
	[ "$output" = normal ]
	printf 'qos = {\n  normal = { };\n  high = { priority = 5; };\n};\n' \
	    >>"$GBATCH_CONF"
	gctl reconfigure >/dev/null
	run complete_words gsub --qos ""
	[ "$output" = $'high\nnormal' ]
	run complete_words sbatch --qos h
	[ "$output" = high ]
}

@test "a controller that does not answer does not hang completion" {
	gb_start_controller
	kill -STOP "$GB_CTL_PID"
	t0=$SECONDS
	run complete_words gcancel ""
	kill -CONT "$GB_CTL_PID"
	[ -z "$output" ]
	((SECONDS - t0 <= 4))
}

@test "gsub completes sbatch's spellings it takes, not those it refuses" {
	run complete_words gsub --gre
	[ "$output" = "--gres=" ]
	run complete_words gsub --ntasks
	[ "$output" = "$(printf "%s\n" --ntasks --ntasks-per-node)" ]
	run complete_words gsub --mail
	[ -z "$output" ]
}

@test "slurm-compat's commands complete where its links sit beside the script, and only there" {
	! complete -p squeue 2>/dev/null
	mkdir "$GB_DIR/comp"
	cp "$S/etc/gbatch-completion.bash" "$GB_DIR/comp/gsub"
	for c in sbatch scancel squeue; do
		ln -s gsub "$GB_DIR/comp/$c"
	done
	. "$GB_DIR/comp/gsub"
	[[ "$(complete -p sbatch)" == *"-F _gbatch sbatch" ]]
	[[ "$(complete -p squeue)" == *"-F _gbatch squeue" ]]
	! complete -p sinfo 2>/dev/null
	PATH="$B/slurm:$PATH"
	# sbatch is gsub: its options and values.
	run complete_words sbatch --nodeli
	[ "$output" = --nodelist ]
	run complete_words scancel -s USR
	[ "$output" = $'USR1\nUSR2' ]
	run complete_words squeue --for
	[ "$output" = --format ]
}

@test "partition names come from gbatchd: gbatch.conf's, or gbatch's one without any" {
	gb_start_controller
	PATH="$B/slurm:$PATH"
	run complete_words gsub -p ""
	[ "$output" = gbatch ]
	run complete_words scontrol show partition ""
	[ "$output" = gbatch ]
	cat >>"$GBATCH_CONF" <<'CONF'
partitions = {
  gpu = { default = true; };
  long = { max_time = "2-00:00:00"; };
};
CONF
	gctl reconfigure >/dev/null
	for words in "gsub -p" "gsub --partition" "squeue -p" "sinfo -p" \
	    "scancel -p" "scontrol show partition"; do
		run complete_words $words ""
		[ "$output" = $'gpu\nlong' ] || { echo "$words: [$output]"; false; }
	done
	run complete_words squeue -p gpu,l
	[ "$output" = gpu,long ]
	# A controller that is gone: nothing offered.
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	run complete_words sinfo -p ""
	[ -z "$output" ]
}

@test "scontrol completes its commands, what show shows, job ids, node names and update's keys, a job's or a node's" {
	gb_start_cluster
	PATH="$B/slurm:$PATH"
	a=$(gb_submit -H --wrap true)
	run complete_words scontrol ""
	[ "$output" = "$(printf '%s\n' show hold release requeue suspend resume update create delete ping reconfigure version | sort)" ]
	run complete_words scontrol show ""
	[ "$output" = "$(printf '%s\n' job node partition config reservation hostnames hostlist | sort)" ]
	run complete_words scontrol show job ""
	[ "$output" = "$a" ]
	run complete_words scontrol release ""
	[ "$output" = "$a" ]
	run complete_words scontrol show node ""
	[ "$output" = $'n1\nn2' ]
	run complete_words scontrol update NodeName=n
	[ "$output" = $'NodeName=n1\nNodeName=n2' ]
	run complete_words scontrol update NodeName=n1 State=
	[ "$output" = $'State=DRAIN\nState=RESUME' ]
	run complete_words scontrol update NodeName=n1 ""
	[ "$output" = $'Reason=\nState=' ]
	run complete_words scontrol update JobId="$a" ""
	[ "$output" = "$(printf '%s\n' TimeLimit= Name= JobName= Comment= Dependency= NumNodes= | sort)" ]
	run complete_words scontrol update JobId="$a" Dependency=aftero
	[ "$output" = Dependency=afterok: ]
	run complete_words scontrol --one
	[ "$output" = --oneliner ]
	gcancel "$a"
}

@test "sacctmgr completes its commands, entities, the keywords it takes before and after set, accounts, users and fields; sshare -A accounts" {
	gb_start_controller
	PATH="$B/slurm:$PATH"
	gctl account add phys
	gctl account add chem
	run complete_words sacctmgr ""
	[ "$output" = "$(printf '%s\n' add modify delete show | sort)" ]
	run complete_words sacctmgr show ""
	[ "$output" = $'account\nassociation\nuser' ]
	run complete_words sacctmgr add ""
	[ "$output" = $'account\nuser' ]
	# The keywords are sacctmgr's own list, where the cursor stands.
	run complete_words sacctmgr add account x Grp
	[ "$output" = "$(printf '%s\n' GrpJobs= GrpSubmitJobs= GrpTRES= GrpTRESMins=)" ]
	run complete_words sacctmgr add user x Max
	[ "$output" = "$(printf '%s\n' MaxJobs= MaxSubmitJobs= MaxWall=)" ]
	run complete_words sacctmgr modify account phys ""
	[ "$output" = $'Names=\nset' ]
	run complete_words sacctmgr modify account phys set Par
	[ "$output" = Parent= ]
	run complete_words sacctmgr show assoc ""
	[ "$output" = "$(printf '%s\n' Accounts= Format= Tree Users=)" ]
	run complete_words sacctmgr show account With
	[ "$output" = WithAssoc ]
	# Values: accounts from gbatchd, users, Format='s fields.
	run complete_words sacctmgr add account x Parent=
	[ "$output" = $'Parent=chem\nParent=phys' ]
	run complete_words sacctmgr add user x Account=p
	[ "$output" = Account=phys ]
	run complete_words sacctmgr show assoc format=Account,Us
	[ "$output" = format=Account,User ]
	run complete_words sacctmgr --imm
	[ "$output" = --immediate ]
	run complete_words sshare -A ""
	[ "$output" = $'chem\nphys' ]
	run complete_words sshare --acc
	[ "$output" = --accounts ]
}
