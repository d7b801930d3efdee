#!/usr/bin/env bats
# Jobs run as their users: the uid, gid and groups a job gets on a node, what
# a launch naming someone else's gid or an unknown uid gets (nothing), the
# submitter's umask, an environment and descriptors free of the daemon's,
# root jobs, and a gnoded that is not root. Most tests need root, to create
# throwaway users (gbt-*, removed in teardown) and to run gnoded as root.

load helpers
load fakectl

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	fc_setup
	GBU_USERS=()
	GBU_GROUPS=()
}

teardown() {
	local u g
	fc_teardown
	gb_teardown
	for u in "${GBU_USERS[@]}"; do
		userdel "$u" 2>/dev/null || true
	done
	for g in "${GBU_GROUPS[@]}"; do
		groupdel "$g" 2>/dev/null || true
	done
}

gbu_need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: creates throwaway users and runs gnoded as root"
}

gbu_name() {
	printf 'gbt-%s' "$(tr -dc a-z0-9 </dev/urandom | head -c 8)"
}

# gbu_add VAR [USERADD ARGS...]: create a throwaway user; its name in VAR.
gbu_add() {
	local name
	name=$(gbu_name)
	useradd --no-create-home --shell /bin/sh "${@:2}" "$name"
	GBU_USERS+=("$name")
	printf -v "$1" '%s' "$name"
}

# gbu_add_group VAR: create a throwaway group; its name in VAR.
gbu_add_group() {
	local name
	name=$(gbu_name)
	groupadd "$name"
	GBU_GROUPS+=("$name")
	printf -v "$1" '%s' "$name"
}

# gbu_as USER CMD...: run CMD as USER with USER's groups, in the caller's
# directory and environment.
gbu_as() {
	local u=$1
	shift
	setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --init-groups "$@"
}

# gbu_workdir USER: $GB_DIR/work, owned by USER, reachable by everyone.
gbu_workdir() {
	chmod 0755 "$GB_DIR"
	chown "$1" "$GB_DIR/work"
}

# gbu_message ID: the job's end message, as gq shows it.
gbu_message() {
	gq -j "$1" --noheader -o message
}

@test "a job runs as its user: uid, primary gid and supplementary groups" {
	gbu_need_root
	gbu_add_group grp
	gbu_add u -G "$grp"
	gbu_workdir "$u"
	gb_start_cluster
	id=$(gbu_as "$u" gsub --parsable -o ids.txt --wrap 'id -u; id -g; id -G')
	gb_wait_state "$id" COMPLETED
	[ "$(sed -n 1p ids.txt)" = "$(id -u "$u")" ]
	[ "$(sed -n 2p ids.txt)" = "$(id -g "$u")" ]
	[ "$(sed -n 3p ids.txt | tr ' ' '\n' | sort -n)" = "$(id -G "$u" | tr ' ' '\n' | sort -n)" ]
	sed -n 3p ids.txt | tr ' ' '\n' | grep -qx "$(getent group "$grp" | cut -d: -f3)"
	[ "$(stat -c %U ids.txt)" = "$u" ]
}

@test "a job's HOME, LOGNAME, SHELL and USER come from its user's account on the node, not from gsub" {
	gbu_need_root
	gbu_add u --home-dir /nonexistent/gbu-home --shell /bin/bash
	gbu_workdir "$u"
	gb_start_cluster
	# gsub runs with root's variables (and none of them under env -i):
	# it reads no account database, and the node fills in what the
	# job's environment lacks from the job's own user.
	id=$(HOME=/root USER=root gbu_as "$u" gsub --parsable -o env.txt \
	    --export=NONE --wrap 'echo "$HOME $LOGNAME $SHELL $USER"')
	id2=$(gbu_as "$u" env -i PATH="$PATH" GBATCH_CONF="$GBATCH_CONF" \
	    GBATCH_SOCKET="$GBATCH_SOCKET" "$(command -v gsub)" --parsable \
	    -o env2.txt --wrap 'echo "$HOME $LOGNAME $SHELL $USER"')
	gb_wait_state "$id" COMPLETED
	gb_wait_state "$id2" COMPLETED
	[ "$(cat env.txt)" = "/nonexistent/gbu-home $u /bin/bash $u" ]
	[ "$(cat env2.txt)" = "/nonexistent/gbu-home $u /bin/bash $u" ]
}

@test "an output path in a root-owned 0755 directory fails the job, saying why" {
	gbu_need_root
	gbu_add u
	gbu_workdir "$u"
	mkdir -m 0755 "$GB_DIR/rootdir"
	gb_start_cluster
	id=$(gbu_as "$u" gsub --parsable -o "$GB_DIR/rootdir/out.txt" --wrap 'touch ran')
	gb_wait_state "$id" FAILED
	run gbu_message "$id"
	[ "$output" = "cannot open stdout $GB_DIR/rootdir/out.txt: Permission denied" ]
	[ ! -e "$GB_DIR/rootdir/out.txt" ]
	[ ! -e ran ]
}

@test "an output name another user planted in a sticky directory is refused, whatever the host's sysctls" {
	gbu_need_root
	gbu_add victim
	gbu_add attacker
	gbu_workdir "$victim"
	mkdir "$GB_DIR/shared"
	chmod 1777 "$GB_DIR/shared"
	gbu_as "$victim" sh -c "echo precious >'$GB_DIR/work/mine'"
	gb_start_cluster
	# A symlink at the job's name, to the victim's own file.
	gbu_as "$attacker" ln -s "$GB_DIR/work/mine" "$GB_DIR/shared/out-link"
	id=$(gbu_as "$victim" gsub --parsable -o "$GB_DIR/shared/out-link" --wrap 'echo secret; touch ran')
	gb_wait_state "$id" FAILED
	run gbu_message "$id"
	[[ "$output" == "cannot open stdout $GB_DIR/shared/out-link: a symlink of another user (uid $(id -u "$attacker")) in the shared directory $GB_DIR/shared (sticky, writable by others): refused"* ]]
	[ "$(cat "$GB_DIR/work/mine")" = precious ]
	[ ! -e ran ]
	# A file made first, writable by all, to receive the job's output.
	gbu_as "$attacker" sh -c "umask 0 && : >'$GB_DIR/shared/out-file'"
	id=$(gbu_as "$victim" gsub --parsable -o "$GB_DIR/shared/out-file" --wrap 'echo secret')
	gb_wait_state "$id" FAILED
	run gbu_message "$id"
	[[ "$output" == "cannot open stdout $GB_DIR/shared/out-file: a file of another user"* ]]
	[ ! -s "$GB_DIR/shared/out-file" ]
	# The victim's own name there works as it always did.
	id=$(gbu_as "$victim" gsub --parsable -o "$GB_DIR/shared/own.out" --wrap 'echo fine')
	gb_wait_state "$id" COMPLETED
	[ "$(cat "$GB_DIR/shared/own.out")" = fine ]
}

@test "what a user's jobs leave in /dev/shm goes when the user's last job on the node ends" {
	gbu_need_root
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no /dev/shm here"
	gbu_add u
	gbu_add other
	gbu_workdir "$u"
	gb_start_cluster
	tag=gbt-shm-$$-$RANDOM
	gbu_as "$other" touch "/dev/shm/$tag-other"
	# Two jobs of u on one node: the first leaves a segment and ends
	# while the second still runs; the segment stays until that one ends.
	long=$(gbu_as "$u" gsub --parsable -w n1 -o /dev/null --wrap "touch /dev/shm/$tag-long; while [ ! -e go ]; do sleep 0.05; done")
	gb_wait_state "$long" RUNNING
	short=$(gbu_as "$u" gsub --parsable -w n1 -o /dev/null --wrap "mkdir /dev/shm/$tag-dir && touch /dev/shm/$tag-dir/seg /dev/shm/$tag-short")
	gb_wait_state "$short" COMPLETED
	[ -e "/dev/shm/$tag-short" ]
	[ -e "/dev/shm/$tag-long" ]
	touch go
	gb_wait_state "$long" COMPLETED
	gb_wait 10 test ! -e "/dev/shm/$tag-long"
	[ ! -e "/dev/shm/$tag-short" ]
	[ ! -e "/dev/shm/$tag-dir" ]
	# Another user's file is not touched.
	[ -e "/dev/shm/$tag-other" ]
	rm -f "/dev/shm/$tag-other"
	grep -q "job $long: removed 4 files uid $(id -u "$u") left in /dev/shm" "$GB_DIR/gnoded-n1.log"
}

@test "output files and the job's own files follow the submitter's umask" {
	gbu_need_root
	gbu_add u
	gbu_workdir "$u"
	gb_start_cluster
	private=$(gbu_as "$u" sh -c 'umask 077 && exec gsub --parsable -o private.txt --wrap "touch made-private"')
	shared=$(gbu_as "$u" sh -c 'umask 022 && exec gsub --parsable -o shared.txt --wrap "touch made-shared"')
	gb_wait_state "$private" COMPLETED
	gb_wait_state "$shared" COMPLETED
	[ "$(stat -c %a private.txt)" = 600 ]
	[ "$(stat -c %a made-private)" = 600 ]
	[ "$(stat -c %a shared.txt)" = 644 ]
	[ "$(stat -c %a made-shared)" = 644 ]
}

@test "jobs kept from before the umask column keep their rows and run with 077" {
	gb_start_cluster
	id=$(cd "$GB_DIR/work" && umask 0 && gb_submit -H -o old.txt --wrap 'touch made-old')
	kill -TERM "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	# Back to the schema before the umask: the job as an older gbatchd
	# left it.
	sqlite3 "$GB_DIR/ctl/gbatch.db" 'DROP INDEX jobs_script;
	    DROP INDEX jobs_env; ALTER TABLE jobs DROP COLUMN umask;
	    DROP TABLE job_runs; DROP TABLE node_events; DROP INDEX jobs_acct;
	    DROP INDEX jobs_user_end; ALTER TABLE jobs DROP COLUMN queue_delay;
	    ALTER TABLE jobs DROP COLUMN pending_since;
	    ALTER TABLE jobs DROP COLUMN last_queue;
	    ALTER TABLE jobs DROP COLUMN account;
	    ALTER TABLE jobs DROP COLUMN comment;
	    ALTER TABLE jobs DROP COLUMN begin_time;
	    ALTER TABLE jobs DROP COLUMN dependency;
	    ALTER TABLE jobs DROP COLUMN warn_signal;
	    ALTER TABLE jobs DROP COLUMN warn_time; DROP INDEX jobs_array;
	    ALTER TABLE jobs DROP COLUMN array_job_id;
	    ALTER TABLE jobs DROP COLUMN array_task_id;
	    ALTER TABLE jobs DROP COLUMN array_tasks;
	    ALTER TABLE jobs DROP COLUMN array_spec;
	    ALTER TABLE jobs DROP COLUMN req_nodes;
	    ALTER TABLE jobs DROP COLUMN exclude_nodes;
	    ALTER TABLE jobs DROP COLUMN gpu_type;
	    ALTER TABLE jobs DROP COLUMN num_nodes;
	    ALTER TABLE jobs DROP COLUMN tasks_per_node;
	    ALTER TABLE jobs DROP COLUMN master_port;
	    ALTER TABLE jobs DROP COLUMN cpus_per_gpu;
	    ALTER TABLE jobs DROP COLUMN cpus_per_task;
	    ALTER TABLE jobs DROP COLUMN mem;
	    ALTER TABLE jobs DROP COLUMN mem_per_gpu;
	    ALTER TABLE jobs DROP COLUMN mem_peak;
	    ALTER TABLE jobs DROP COLUMN cpu_time;
	    ALTER TABLE jobs DROP COLUMN alloc_cpus; DROP TABLE job_steps;
	    ALTER TABLE jobs DROP COLUMN partition; DROP TABLE accounts;
	    DROP TABLE account_users; ALTER TABLE jobs DROP COLUMN qos;
	    ALTER TABLE jobs DROP COLUMN nice;
	    ALTER TABLE jobs DROP COLUMN priority;
	    ALTER TABLE jobs DROP COLUMN reservation; DROP TABLE reservations;
	    ALTER TABLE jobs DROP COLUMN gpus_max;
	    ALTER TABLE jobs DROP COLUMN resizes;
	    ALTER TABLE jobs DROP COLUMN suspended;
	    ALTER TABLE jobs DROP COLUMN run_suspended;
	    ALTER TABLE jobs DROP COLUMN suspend_since;
	    ALTER TABLE jobs DROP COLUMN time_slice;
	    ALTER TABLE jobs DROP COLUMN gpu_mem;
	    ALTER TABLE jobs DROP COLUMN gpu_share;
	    PRAGMA user_version = 3;'
	gb_start_controller
	grep -q 'store: schema migrated to version 4' "$GB_DIR/gbatchd.log"
	gb_wait 10 gb_node_is_up n1
	gctl release "$id"
	gb_wait_state "$id" COMPLETED
	[ "$(stat -c %a old.txt)" = 600 ]
	[ "$(stat -c %a made-old)" = 600 ]
}

@test "a launch naming a gid that is not the user's, or an unknown or mismatched uid, runs nothing" {
	gbu_need_root
	gbu_add u
	gbu_workdir "$u"
	sed -i '/^node = {/,/^};/ s/allow_root_jobs = true;/allow_root_jobs = false;/' "$GBATCH_CONF"
	fc_start
	uid=$(id -u "$u")
	# Were any of these run, it would copy /etc/shadow here.
	steal='cat /etc/shadow > stolen-$GBATCH_JOB_ID; touch ran-$GBATCH_JOB_ID'
	FC_USER=$u FC_UID=$uid FC_GID=0 fc_launch 1 "$steal"
	run fc_ended 1
	[[ "$output" == *'"state":"FAILED"'* ]]
	[[ "$output" == *"\"message\":\"gid 0 (root) is not a group of $u on n1\""* ]]
	shadow=$(getent group shadow | cut -d: -f3)
	FC_USER=$u FC_UID=$uid FC_GID=$shadow fc_launch 2 "$steal"
	run fc_ended 2
	[[ "$output" == *"\"message\":\"gid $shadow (shadow) is not a group of $u on n1\""* ]]
	FC_USER=root FC_UID=0 FC_GID=0 fc_launch 3 "$steal"
	run fc_ended 3
	[[ "$output" == *'"message":"root jobs are not allowed on node n1 (node.allow_root_jobs is false)"'* ]]
	FC_USER=gbt-nobody FC_UID=3999999 FC_GID=3999999 fc_launch 4 "$steal"
	run fc_ended 4
	[[ "$output" == *'"message":"uid 3999999 (gbt-nobody) is unknown on node n1"'* ]]
	FC_USER=daemon FC_UID=$uid FC_GID=$(id -g "$u") fc_launch 5 "$steal"
	run fc_ended 5
	[[ "$output" == *"\"message\":\"uid $uid is $u on node n1, not daemon as on the controller\""* ]]
	# The same launch with the user's own gid runs, as the user.
	FC_USER=$u FC_UID=$uid FC_GID=$(id -g "$u") fc_launch 6 'id -u > ran-$GBATCH_JOB_ID'
	run fc_ended 6
	[[ "$output" == *'"state":"COMPLETED"'* ]]
	[ "$(cat ran-6)" = "$uid" ]
	run ls
	[ "$output" = "$(printf 'gbatch-6.out\nran-6')" ]
}

@test "a root job is refused by gbatchd unless controller.allow_root_jobs is set" {
	gbu_need_root
	sed -i '/^controller = {/,/^};/ s/allow_root_jobs = true;/allow_root_jobs = false;/' "$GBATCH_CONF"
	gb_start_cluster
	run -4 gsub --wrap 'touch ran'
	[ "$output" = "gsub: root may not submit jobs (controller.allow_root_jobs is false); submit as the user the job should run as" ]
	[ ! -e ran ]
}

@test "a root job gbatchd allows fails on a node without node.allow_root_jobs" {
	gbu_need_root
	sed -i '/^node = {/,/^};/ s/allow_root_jobs = true;/allow_root_jobs = false;/' "$GBATCH_CONF"
	gb_start_cluster
	id=$(gb_submit --wrap 'touch ran')
	gb_wait_state "$id" FAILED
	run gbu_message "$id"
	[[ "$output" == "root jobs are not allowed on node n"[12]" (node.allow_root_jobs is false)" ]]
	[ ! -e ran ]
}

@test "a job's environment is what was submitted plus GBATCH_*; its descriptors are stdio alone" {
	gb_start_controller
	GB_SECRET_OF_GNODED=leaked gb_start_node n1 4 7>"$GB_DIR/held-open"
	id=$(env -i PATH="$PATH" GBATCH_SOCKET="$GBATCH_SOCKET" KEPT=yes \
	    gsub --parsable -o env.txt --wrap 'env; exec ls -l /proc/self/fd/ > fds.txt')
	gb_wait_state "$id" COMPLETED
	grep -qx 'KEPT=yes' env.txt
	grep -qx "GBATCH_JOB_ID=$id" env.txt
	run ! grep -E '^(GB_SECRET_OF_GNODED|GBATCH_CONF)=' env.txt
	# Each descriptor and where it leads; ls's own, reading the directory,
	# leads to /proc/PID/fd.
	run awk '$10 == "->" && $11 !~ "^/proc/[0-9]+/fd$" { print $9 }' fds.txt
	[ "$output" = "$(printf '0\n1\n2')" ]
}

@test "gnoded not running as root says so and runs jobs only for its own user" {
	gbu_need_root
	gbu_add u
	gbu_add v
	gbu_workdir "$u"
	mkdir "$GB_DIR/node-n1"
	touch "$GB_DIR/gnoded-n1.log"
	chown "$u" "$GB_DIR/node-n1" "$GB_DIR/gnoded-n1.log"
	# Its key and certificate are its own (fakectl, as root, reads them too).
	gb_tls_issue n1
	chown -R "$u" "$GB_DIR/tls"
	run -0 gbu_as "$u" gnoded --check-config -n n1 -g 1
	[ "$output" = "$GBATCH_CONF: OK
gnoded: not running as root (uid $(id -u "$u"), $u): runs jobs only for $u" ]
	fc_start setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --init-groups
	grep -q "node n1: not running as root (uid $(id -u "$u"), $u): runs jobs only for $u" "$GB_DIR/gnoded-n1.log"
	FC_USER=$v FC_UID=$(id -u "$v") FC_GID=$(id -g "$v") fc_launch 1 'touch ran-1'
	run fc_ended 1
	[[ "$output" == *"\"message\":\"gnoded on node n1 runs as uid $(id -u "$u") and cannot run a job as $v (uid $(id -u "$v")); run gnoded as root\""* ]]
	FC_USER=$u FC_UID=$(id -u "$u") FC_GID=$(id -g "$u") fc_launch 2 'touch ran-2'
	run fc_ended 2
	[[ "$output" == *'"state":"COMPLETED"'* ]]
	[ "$(stat -c %U ran-2)" = "$u" ]
	[ ! -e ran-1 ]
}

@test "a user lowers a waiting job's time limit (scontrol update TimeLimit), may not raise it; an operator may; another user changes nothing of it" {
	gbu_need_root
	gbu_add u
	gbu_add other
	gbu_workdir "$u"
	gb_start_cluster
	cd "$GB_DIR/work"
	PATH="$B/slurm:$PATH"
	id=$(gbu_as "$u" gsub --parsable -H -t 1:00:00 --wrap true)
	run -0 gbu_as "$u" scontrol update JobId="$id" TimeLimit=30
	[ "$(gq -h -j "$id" -o time_limit)" = 30:00 ]
	run -4 gbu_as "$u" scontrol update JobId="$id" TimeLimit=2:00:00
	[[ "$output" == *"only an operator may raise a time limit (from 30:00 to 2:00:00)"* ]]
	run -4 gbu_as "$u" scontrol update JobId="$id" TimeLimit=UNLIMITED
	[ "$(gq -h -j "$id" -o time_limit)" = 30:00 ]
	# All or none: a raise refused keeps the name too.
	run -4 gbu_as "$u" scontrol update JobId="$id" Name=mine TimeLimit=2:00:00
	[ "$(gq -h -j "$id" -o name)" = wrap ]
	run -0 gbu_as "$u" scontrol update JobId="$id" Name=mine Comment=ours
	[ "$(gq -h -j "$id" -o name)" = mine ]
	# Another user's job: refused, nothing changed.
	run -4 gbu_as "$other" scontrol update JobId="$id" Name=theirs
	[ "$output" = "scontrol: job $id belongs to $u; you may change only your own jobs" ]
	[ "$(gq -h -j "$id" -o name)" = mine ]
	# root is an operator.
	run -0 scontrol update JobId="$id" TimeLimit=2:00:00 Name=root-set
	[ "$(gq -h -j "$id" -o time_limit)" = 2:00:00 ]
	gq -l "$id" | grep -q "name \"mine\" -> \"root-set\", by root"
	gcancel "$id"
}
