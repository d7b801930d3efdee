# bash completion for gbatch: gsub grun gq gcancel gacct gnodes gtop gctl gsim gbatchd gnoded
# (and slurm-compat's sbatch scancel squeue sacct sinfo scontrol sacctmgr
# sshare where it is installed)
#
# Installed once per command name (bash-completion loads a command's
# completion from a file of its name). Nothing here lists an option or a
# value by hand, so it cannot fall behind the programs: options come from
# each command's own --help, field names from its "Fields:" line, the
# values an option accepts from the command's usage error for a bad value
# (which names what is accepted), job ids from gq, node names from gnodes
# and partition and QOS names from gctl show config. What the programs print about themselves is asked once per
# command and shell; jobs and nodes are asked at each completion.

declare -gA _gbatch_cache

# _gbatch_ask CMD ARGS...: CMD's output (stdout and stderr) for ARGS,
# remembered for this shell. Never reads the terminal.
_gbatch_ask()
{
	local key="$*"
	if [[ -z ${_gbatch_cache[$key]+set} ]]; then
		_gbatch_cache[$key]=$(LC_ALL=C "$@" 2>&1 </dev/null)
	fi
	REPLY=${_gbatch_cache[$key]}
}

# _gbatch_optlines CMD: the option column of each line of CMD --help that
# documents options ("-G, --gpus N", "--export=WHAT"), commas removed.
_gbatch_optlines()
{
	local line
	_gbatch_ask "$1" --help
	while IFS= read -r line; do
		# Continuation lines are indented further (the text column).
		[[ $line =~ ^\ {1,8}-[-A-Za-z] ]] || continue
		line=${line#"${line%%-*}"}
		printf '%s\n' "${line%%  *}"
	done <<<"$REPLY" | tr ',' ' '
}

# _gbatch_options CMD: every option --help lists; one that is written
# with "=" ("--export=WHAT") is offered as "--export=".
_gbatch_options()
{
	local t
	for t in $(_gbatch_optlines "$1"); do
		case $t in
		--*=*) printf '%s\n' "${t%%=*}=" ;;
		-?*) printf '%s\n' "$t" ;;
		esac
	done
}

# _gbatch_takes_value CMD OPT: whether OPT's line in --help names a value
# ("-G, --gpus N": both -G and --gpus take one); the name in REPLY.
_gbatch_takes_value()
{
	local line t match value
	while IFS= read -r line; do
		match=0 value=
		for t in $line; do
			case $t in
			--*=*) [[ ${t%%=*} == "$2" ]] && match=1; value=${t#*=} ;;
			-?*) [[ $t == "$2" ]] && match=1 ;;
			*) value=$t ;;
			esac
		done
		if ((match)); then
			REPLY=$value
			[[ -n $value ]]
			return
		fi
	done < <(_gbatch_optlines "$1")
	return 1
}

# _gbatch_fields CMD: the names on CMD --help's "Fields:" line.
_gbatch_fields()
{
	local line
	_gbatch_ask "$1" --help
	line=$(grep -m 1 '^Fields:' <<<"$REPLY")
	line=${line#Fields:}
	printf '%s\n' ${line//,/ }
}

# _gbatch_accepted CMD OPT [ARGS...]: the values OPT accepts, from the
# usage error CMD gives for a bad one ('accepted: PENDING (PD), ...' or
# 'expected a policy (fifo, srtf, dlas or gittins)'); ARGS are what else
# CMD needs before it looks at OPT. Arguments are checked before anything
# is sent, so this never reaches gbatchd.
_gbatch_accepted()
{
	local msg words w
	_gbatch_ask "$1" "$2" _gbatch_ "${@:3}"
	msg=${REPLY%%$'\n'*}
	if [[ $msg == *"accepted: "* ]]; then
		words=${msg#*accepted: }
	elif [[ $msg =~ expected[^\(]*\(([^\)]*)\) ]]; then
		words=${BASH_REMATCH[1]}
	else
		return
	fi
	for w in ${words//[(),;]/ }; do
		[[ $w == or || ! $w =~ ^[A-Za-z_]+$ ]] || printf '%s\n' "$w"
	done
}

# The caller's job ids and the cluster's node names, asked each time; a
# controller that does not answer within 2 s must not hang the shell.
_gbatch_jobs()
{
	timeout 2 gq --me --noheader -o id 2>/dev/null </dev/null
}

_gbatch_nodes()
{
	timeout 2 gnodes --noheader -o name 2>/dev/null </dev/null
}

# The partitions gbatchd has (gctl show config's partitions.NAME lines),
# or gbatch's one, gbatch, where gbatch.conf names none; nothing when
# gbatchd does not answer.
_gbatch_partitions()
{
	local conf
	conf=$(timeout 2 gctl show config 2>/dev/null </dev/null) || return 0
	if [[ $conf == *$'\npartitions.'* ]]; then
		sed -n 's/^partitions\.\([^ ]*\) = .*/\1/p' <<<"$conf"
	else
		echo gbatch
	fi
}

# The QOS gbatchd has (gctl show config's qos.NAME lines: normal alone
# where gbatch.conf names none); nothing when gbatchd does not answer.
_gbatch_qos()
{
	timeout 2 gctl show config 2>/dev/null </dev/null |
	    sed -n 's/^qos\.\([^ ]*\) = .*/\1/p'
}

# The accounts gbatchd has (gctl account list's first column); nothing
# when it does not answer.
_gbatch_accounts()
{
	timeout 2 gctl account list 2>/dev/null </dev/null | awk 'NR > 1 { print $1 }'
}

# The reservations gbatchd has (gctl reservation list's first column);
# nothing when it does not answer.
_gbatch_reservations()
{
	timeout 2 gctl reservation list 2>/dev/null </dev/null | awk 'NR > 1 { print $1 }'
}

# The replicas' numbers (gctl replica list's first column); nothing when
# gbatchd does not answer or has no replicas.
_gbatch_replicas()
{
	timeout 2 gctl replica list 2>/dev/null </dev/null | awk 'NR > 1 { print $1 }'
}

# _gbatch_list WORDS...: completes the last item of a comma list in cur.
_gbatch_list()
{
	local head=
	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$*" -- "${cur##*,}"))
}

_gbatch_signals()
{
	local s
	for s in $(compgen -A signal); do
		printf '%s\n' "${s#SIG}"
	done
}

# _gbatch_value CMD OPT: completes the value of OPT; returns 1 when OPT
# takes none.
_gbatch_value()
{
	local cmd=$1 opt=$2
	case $cmd:$opt in
	gq:-o | gq:--format | gnodes:-o | gnodes:--format | gacct:-o | gacct:--format)
		_gbatch_list $(_gbatch_fields "$cmd") ;;
	gq:-t | gq:--states | gcancel:-t | gcancel:--state)
		_gbatch_list $(_gbatch_accepted "$cmd" "$opt") ;;
	gsim:-p | gsim:--policy | gsim:-P | gsim:--placement | gsim:--shape)
		_gbatch_list $(_gbatch_accepted "$cmd" "$opt" -c 1x1 /dev/null) ;;
	gacct:--report)
		COMPREPLY=($(compgen -W "users cluster nodes timeline accounts partitions qos fairshare" -- "$cur")) ;;
	gq:-j | gq:--jobs | gacct:-j | gacct:--jobs | squeue:-j | squeue:--jobs | \
	sacct:-j | sacct:--jobs)
		_gbatch_list $(_gbatch_jobs) ;;
	gq:-l | gq:--long)
		COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur")) ;;
	gnodes:-N | gnodes:--nodes)
		_gbatch_list $(_gbatch_nodes) ;;
	gq:-u | gq:--user | gcancel:-u | gcancel:--user | gacct:-u | gacct:--user | \
	sshare:-u | sshare:--users)
		_gbatch_list $(compgen -u) ;;
	sshare:-A | sshare:--accounts)
		_gbatch_list $(_gbatch_accounts) ;;
	gcancel:-s | gcancel:--signal | gsub:--ckpt-signal)
		COMPREPLY=($(compgen -W "$(_gbatch_signals)" -- "$cur")) ;;
	gsub:--ntasks-per-node)
		COMPREPLY=($(compgen -W "gpu 1 2 4 8" -- "$cur")) ;;
	gsub:--gpu-bind)
		COMPREPLY=($(compgen -W "none single:1" -- "$cur")) ;;
	gsub:-p | gsub:--partition | gq:-p | gq:--partition | \
	gacct:-r | gacct:--partition | gnodes:-p | gnodes:--partition | \
	squeue:-p | squeue:--partition | sinfo:-p | sinfo:--partition | \
	gcancel:-p | gcancel:--partition)
		_gbatch_list $(_gbatch_partitions) ;;
	gsub:-q | gsub:--qos)
		COMPREPLY=($(compgen -W "$(_gbatch_qos)" -- "$cur")) ;;
	gsub:--reservation)
		COMPREPLY=($(compgen -W "$(_gbatch_reservations)" -- "$cur")) ;;
	gsub:--export)
		_gbatch_list ALL NONE $(compgen -e) ;;
	*)
		# Otherwise the value's name in --help says: a file, a
		# directory, or something to type.
		_gbatch_takes_value "$cmd" "$opt" || return 1
		case $REPLY in
		*DIR*) _filedir -d ;;
		*FILE* | *PATTERN* | *SOCKET* | *.csv | *.png) _filedir ;;
		*) COMPREPLY=() ;;
		esac ;;
	esac
	return 0
}

_gbatch_gctl()
{
	local sub= i
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -* ]] && continue
		sub=${words[i]}
		break
	done
	if [[ -z $sub ]]; then
		_gbatch_ask gctl --help
		COMPREPLY=($(compgen -W "$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$REPLY" | sort -u) --help --version" -- "$cur"))
		return
	fi
	case $sub in
	hold | release | requeue | suspend)
		COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur")) ;;
	drain)
		if [[ $prev == --reason ]]; then
			COMPREPLY=()
		elif ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "$(_gbatch_nodes)" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "--reason" -- "$cur"))
		fi ;;
	resume)
		# A drained node, or suspended jobs (after "job" or an id).
		if [[ ${words[i+1]} == job || ${words[i+1]} == [0-9]* ]] &&
		    ((cword > i + 1)); then
			COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur"))
		elif ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "job $(_gbatch_nodes) $(_gbatch_jobs)" -- "$cur"))
		fi ;;
	update)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "job node" -- "$cur"))
		elif ((cword == i + 2)); then
			if [[ $prev == job ]]; then
				COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur"))
			else
				COMPREPLY=($(compgen -W "$(_gbatch_nodes)" -- "$cur"))
			fi
		elif [[ ${words[i + 1]} == job ]]; then
			COMPREPLY=($(compgen -W "TimeLimit= Name= Comment= Dependency= NumNodes=" -- "$cur"))
			compopt -o nospace 2>/dev/null
		else
			COMPREPLY=($(compgen -W "State=DRAIN State=RESUME Reason=" -- "$cur"))
			compopt -o nospace 2>/dev/null
		fi ;;
	account)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "add modify delete list show" -- "$cur"))
		elif ((cword > i + 2)); then
			COMPREPLY=($(compgen -W "parent= shares= description= max_gpus= max_jobs= max_pending= max_time= gpu_hours=" -- "$cur"))
			compopt -o nospace 2>/dev/null
		fi ;;
	user)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "add modify delete list" -- "$cur"))
		elif ((cword > i + 2)); then
			COMPREPLY=($(compgen -W "account= default max_gpus= max_jobs= max_pending= max_time=" -- "$cur"))
			[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		fi ;;
	reservation)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "create update delete list --help" -- "$cur"))
		elif ((cword == i + 2)) && [[ ${words[i + 1]} =~ ^(update|delete|list)$ ]]; then
			COMPREPLY=($(compgen -W "$(_gbatch_reservations)" -- "$cur"))
		elif [[ $prev == --nodes ]]; then
			_gbatch_list $(_gbatch_nodes)
		elif [[ $prev == --users ]]; then
			_gbatch_list $(compgen -u)
		elif [[ $prev == --accounts ]]; then
			_gbatch_list $(_gbatch_accounts)
		elif [[ $prev == --flags ]]; then
			_gbatch_list maint ignore_jobs
		elif [[ $prev == --start || $prev == --end ]]; then
			COMPREPLY=($(compgen -W "now now+10minutes now+1hour tomorrow" -- "$cur"))
		elif [[ $prev =~ ^--(name|duration|gpus)$ ]]; then
			COMPREPLY=()
		elif [[ ${words[i + 1]} == list ]]; then
			COMPREPLY=($(compgen -W "--json" -- "$cur"))
		elif [[ ${words[i + 1]} =~ ^(create|update)$ ]]; then
			COMPREPLY=($(compgen -W "--name --start --end --duration --nodes --gpus --users --accounts --flags" -- "$cur"))
		fi ;;
	replica)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "list add remove --help" -- "$cur"))
		elif ((cword == i + 2)) && [[ ${words[i + 1]} == list ]]; then
			COMPREPLY=($(compgen -W "--json" -- "$cur"))
		elif ((cword == i + 2)) && [[ ${words[i + 1]} == remove ]]; then
			COMPREPLY=($(compgen -W "$(_gbatch_replicas)" -- "$cur"))
		fi ;;
	ca)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "init" -- "$cur"))
		elif [[ $prev == --dir ]]; then
			_filedir -d
		else
			COMPREPLY=($(compgen -W "--dir --days --force" -- "$cur"))
		fi ;;
	cert)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "issue revoke list" -- "$cur"))
		elif [[ $prev == --dir ]]; then
			_filedir -d
		elif [[ ${words[i + 1]} == issue ]]; then
			COMPREPLY=($(compgen -W "--node --controller --alt-name --days --force --dir" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "--dir" -- "$cur"))
		fi ;;
	purge)
		if [[ $prev == --before ]]; then
			COMPREPLY=($(compgen -W "now-30days now-90days now-365days yesterday midnight" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "--before --dry-run" -- "$cur"))
		fi ;;
	show)
		if ((cword == i + 1)); then
			COMPREPLY=($(compgen -W "config" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "--json" -- "$cur"))
		fi ;;
	esac
}

# grun: its own options and gsub's that describe a job (not those it
# refuses), their values as gsub's; then a command line of its own.
_gbatch_grun_refused=" -o --output -e --error --wrap -a --array --parsable -W --wait --test-only -H --hold "

_gbatch_grun_takes()
{
	_gbatch_takes_value grun "$1" || _gbatch_takes_value gsub "$1"
}

_gbatch_grun()
{
	local i w o
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if [[ $w == -- ]]; then
			((i++))
			break
		fi
		[[ $w == -* ]] || break
		[[ $w == *=* ]] && continue
		_gbatch_grun_takes "$w" && ((i++))
	done
	if ((i < cword)); then
		_command_offset "$i"
		return
	fi
	if [[ $prev == --jobid ]]; then
		COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur"))
		return
	fi
	if [[ $prev == -* ]] && _gbatch_grun_takes "$prev"; then
		_gbatch_value gsub "$prev" || COMPREPLY=()
		return
	fi
	$split && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gbatch_options grun; for o in $(_gbatch_options gsub); do [[ $_gbatch_grun_refused == *" ${o%=} "* ]] || printf '%s\n' "$o"; done)" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	COMPREPLY=($(compgen -c -- "$cur"))
}

# scontrol create reservation's and update ReservationName='s keys, and
# their values.
_gbatch_scontrol_resv()
{
	case $cur in
	Nodes=*) COMPREPLY=($(compgen -P Nodes= -W "$(_gbatch_nodes)" -- "${cur#Nodes=}")) ;;
	Flags=*) COMPREPLY=($(compgen -P Flags= -W "MAINT MAINT,IGNORE_JOBS" -- "${cur#Flags=}")) ;;
	StartTime=*) COMPREPLY=($(compgen -P StartTime= -W "now now+10minutes now+1hour" -- "${cur#StartTime=}")) ;;
	*) COMPREPLY=($(compgen -W "ReservationName= StartTime= EndTime= Duration= Nodes= TRES=gres/gpu= Users= Accounts= Flags=" -- "$cur"))
		compopt -o nospace 2>/dev/null ;;
	esac
}

# scontrol COMMAND [SUBJECT] [NAME]: the words at each place.
_gbatch_scontrol()
{
	local verb= subject= i
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gbatch_options scontrol)" -- "$cur"))
		return
	fi
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -* ]] && continue
		if [[ -z $verb ]]; then
			verb=${words[i]}
		elif [[ -z $subject ]]; then
			subject=${words[i]}
		fi
	done
	case $verb in
	"")
		COMPREPLY=($(compgen -W "show hold release requeue suspend resume update create delete ping reconfigure version" -- "$cur")) ;;
	show)
		case $subject in
		"") COMPREPLY=($(compgen -W "job node partition config reservation hostnames hostlist" -- "$cur")) ;;
		job | jobid) COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur")) ;;
		node) COMPREPLY=($(compgen -W "$(_gbatch_nodes)" -- "$cur")) ;;
		partition) COMPREPLY=($(compgen -W "$(_gbatch_partitions)" -- "$cur")) ;;
		reservation) COMPREPLY=($(compgen -W "$(_gbatch_reservations)" -- "$cur")) ;;
		esac ;;
	create)
		if [[ -z $subject ]]; then
			COMPREPLY=($(compgen -W "reservation" -- "$cur"))
		else
			_gbatch_scontrol_resv
		fi ;;
	delete)
		if [[ -z $subject ]]; then
			COMPREPLY=($(compgen -W "reservation" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_gbatch_reservations)" -- "$cur"))
		fi ;;
	hold | release | requeue | suspend | resume)
		COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur")) ;;
	update)
		# A job's keys after JobId=, a node's after NodeName=, a
		# reservation's after ReservationName=.
		local keys="NodeName= JobId= ReservationName="
		for ((i = 1; i < cword; i++)); do
			case ${words[i]} in
			[Rr]eservation[Nn]ame=*) _gbatch_scontrol_resv; return ;;
			[Jj]ob[Ii]d=*) keys="TimeLimit= Name= JobName= Comment= Dependency= NumNodes=" ;;
			[Nn]ode[Nn]ame=*) keys="State= Reason=" ;;
			esac
		done
		case $cur in
		ReservationName=*) COMPREPLY=($(compgen -P ReservationName= -W "$(_gbatch_reservations)" -- "${cur#ReservationName=}")) ;;
		NodeName=*) COMPREPLY=($(compgen -P NodeName= -W "$(_gbatch_nodes)" -- "${cur#NodeName=}")) ;;
		State=*) COMPREPLY=($(compgen -P State= -W "DRAIN RESUME" -- "${cur#State=}")) ;;
		JobId=*) COMPREPLY=($(compgen -P JobId= -W "$(_gbatch_jobs)" -- "${cur#JobId=}")) ;;
		Dependency=*) COMPREPLY=($(compgen -P Dependency= -W "after: afterany: afterok: afternotok: singleton" -- "${cur#Dependency=}"))
			compopt -o nospace 2>/dev/null ;;
		*) COMPREPLY=($(compgen -W "$keys" -- "$cur"))
			compopt -o nospace 2>/dev/null ;;
		esac ;;
	esac
}

# sacctmgr COMMAND ENTITY [SPECS]: the commands, the entities, then the
# keywords that sacctmgr's own usage error lists where the cursor stands
# (before or after set), and their values: accounts, users, fields.
_gbatch_sacctmgr()
{
	local verb= entity= set= i key w
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gbatch_options sacctmgr)" -- "$cur"))
		return
	fi
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -* ]] && continue
		if [[ -z $verb ]]; then
			verb=${words[i]}
		elif [[ -z $entity ]]; then
			entity=${words[i]}
		elif [[ ${words[i],,} == set ]]; then
			set=set
		fi
	done
	if [[ -z $verb ]]; then
		COMPREPLY=($(compgen -W "add modify delete show" -- "$cur"))
		return
	fi
	if [[ -z $entity ]]; then
		w="account user"
		[[ $verb == show || $verb == list ]] && w="$w association"
		COMPREPLY=($(compgen -W "$w" -- "$cur"))
		return
	fi
	if [[ $cur == *=* ]]; then
		key=${cur%%=*}
		case ${key,,} in
		format)
			_gbatch_ask sacctmgr --help
			w=$(sed -n 's/^Fields: //p' <<<"$REPLY")
			cur=${cur#*=}
			_gbatch_list ${w//,/ }
			COMPREPLY=("${COMPREPLY[@]/#/$key=}") ;;
		parent | account | accounts | acct | defaultaccount)
			cur=${cur#*=}
			_gbatch_list $(_gbatch_accounts)
			COMPREPLY=("${COMPREPLY[@]/#/$key=}") ;;
		name | names)
			cur=${cur#*=}
			if [[ ${entity,,} == u* ]]; then
				_gbatch_list $(compgen -u)
			else
				_gbatch_list $(_gbatch_accounts)
			fi
			COMPREPLY=("${COMPREPLY[@]/#/$key=}") ;;
		user | users)
			cur=${cur#*=}
			_gbatch_list $(compgen -u)
			COMPREPLY=("${COMPREPLY[@]/#/$key=}") ;;
		esac
		return
	fi
	# What the words take where the cursor stands, as sacctmgr says
	# it refuses a keyword that is none.
	_gbatch_ask sacctmgr "$verb" "$entity" $set _gbatch_=
	w=${REPLY%%$'\n'*}
	[[ $w == *"unknown keyword"*"expected "* ]] || return
	w=${w##*expected }
	w=${w//,/ }
	COMPREPLY=($(for key in $w; do
		case $key in
		WithAssoc | Tree) printf '%s\n' "$key" ;;
		*) printf '%s=\n' "$key" ;;
		esac
	done; [[ -z $set && ( $verb == modify || $verb == update ) ]] &&
	    echo set))
	COMPREPLY=($(compgen -W "${COMPREPLY[*]}" -- "$cur"))
	[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
}

_gbatch()
{
	local cur prev words cword split cmd=${1##*/} i
	_init_completion -s || return
	# slurm-compat: sbatch and scancel are gsub and gcancel.
	case $cmd in
	sbatch) cmd=gsub ;;
	scancel) cmd=gcancel ;;
	sstat) cmd=sacct ;;
	srun) cmd=grun ;;
	esac

	if [[ $cmd == gctl ]]; then
		_gbatch_gctl
		return
	fi
	if [[ $cmd == grun ]]; then
		_gbatch_grun
		return
	fi
	if [[ $cmd == scontrol ]]; then
		_gbatch_scontrol
		return
	fi
	if [[ $cmd == sacctmgr ]]; then
		_gbatch_sacctmgr
		return
	fi
	# The value of the option before the cursor (or of --opt=).
	if [[ $prev == -* ]] && _gbatch_value "$cmd" "$prev"; then
		return
	fi
	$split && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gbatch_options "$cmd")" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	case $cmd in
	gcancel)
		COMPREPLY=($(compgen -W "$(_gbatch_jobs)" -- "$cur")) ;;
	gsub)
		# The script, then its own arguments: files either way.
		_filedir ;;
	gsim)
		_filedir ;;
	esac
}

complete -F _gbatch gsub grun gq gcancel gacct gnodes gtop gctl gsim gbatchd gnoded
# Slurm's names only where slurm-compat put links to this file beside it
# (make install-slurm-compat): a host with Slurm's own commands keeps
# their completion.
for _gbatch_c in sbatch scancel squeue sacct sinfo scontrol sstat srun sacctmgr sshare; do
	[[ -L ${BASH_SOURCE[0]%/*}/$_gbatch_c ]] && complete -F _gbatch "$_gbatch_c"
done
unset _gbatch_c
