# freeze.bash: what the suites that freeze jobs share (suspend.bats,
# time-slice.bats): a cluster whose nodes run jobs in cgroups that freeze
# (v1's freezer or v2's cgroup.freeze), or a skip saying why not; whether
# a job's cgroup is frozen; and the cleanup after gb_teardown.
# Use:  load helpers; load freeze; teardown() { gb_teardown; frozen_cleanup; }

# A controller (gbatch.conf with the text $3 appended, if any) and nodes
# n1..n$1 (1) of $2 GPUs (2) each, that run jobs in cgroups; or a skip
# where they cannot.
frozen_cluster() {
	local n
	# On a cgroup v2 host gnoded makes its parent cgroup beside its own:
	# the host's business, not a test's, unless it runs in the root.
	if [ -f /sys/fs/cgroup/cgroup.controllers ] &&
	    [ "$(sed -n 's/^0:://p' /proc/self/cgroup)" != / ]; then
		skip "a cgroup v2 host whose tests do not run in the root cgroup"
	fi
	GB_CGROUPS=true gb_write_conf
	[ -z "${3:-}" ] || printf '%s\n' "$3" >>"$GBATCH_CONF"
	gb_start_controller
	for n in $(seq 1 "${1:-1}"); do
		gb_start_node "n$n" "${2:-2}" --cpus 2 --memory-mb 4096
		grep -q "jobs in cgroups" "$GB_DIR/gnoded-n$n.log" || {
			grep -h "unconfined" "$GB_DIR/gnoded-n$n.log" >&3 || true
			skip "gnoded runs jobs unconfined here (no root or no cgroups)"
		}
	done
}

# Whether job $1's cgroup on node $2 is frozen ($3: 1) or thawed (0).
frozen_is() {
	local d=${GB_DIR##*/} f
	f=/sys/fs/cgroup/freezer/gbt-$d-$2/job_$1/freezer.state
	if [ -f "$f" ]; then
		if [ "$3" = 1 ]; then
			[ "$(cat "$f")" = FROZEN ]
		else
			[ "$(cat "$f")" = THAWED ]
		fi
		return
	fi
	f=/sys/fs/cgroup/gbt-$d-$2/job_$1/cgroup.events
	[ -f "$f" ] || f=/sys/fs/cgroup/unified/gbt-$d-$2/job_$1/cgroup.events
	grep -qx "frozen $3" "$f"
}

# After gb_teardown: a job frozen at the end was killed with its node;
# thawed first so that it can die, then its cgroup and the nodes' parents
# go.
frozen_cleanup() {
	local d=${GB_DIR##*/} f
	for f in /sys/fs/cgroup/freezer/"gbt-$d-"*/job_*/freezer.state; do
		[ -f "$f" ] && echo THAWED >"$f" 2>/dev/null || true
	done
	rmdir /sys/fs/cgroup/*/"gbt-$d-"*/job_* /sys/fs/cgroup/"gbt-$d-"*/job_* \
	    2>/dev/null || true
	rmdir /sys/fs/cgroup/*/"gbt-$d-"* /sys/fs/cgroup/"gbt-$d-"* 2>/dev/null || true
}
