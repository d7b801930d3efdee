# bench/lib.bash: what the cluster benchmarks (bench/run, bench/history)
# share: the build they measure, a throwaway cluster started the way the
# bats suites start theirs (tests/bats/helpers.bash), and how figures are
# printed. Sourced, after `set -euo pipefail`, by a script that has set
# `here` to its own folder; $1 of that script is the build folder.

# bench_builddir DIR PROGRAM...: exports GBATCH_BUILDDIR (DIR, else
# $GBATCH_BUILDDIR, else the folder above bench/) and GBATCH_SRCDIR, and
# stops with status 2 unless each PROGRAM (relative to the build) is there.
bench_builddir() {
	local dir=$1 f
	shift
	dir=${dir:-${GBATCH_BUILDDIR:-$here/..}}
	dir=$(cd "$dir" && pwd)
	for f in "$@"; do
		if [ ! -x "$dir/$f" ]; then
			echo "bench/$(basename "$0"): $dir/$f is missing; run make in $dir first" >&2
			exit 2
		fi
	done
	export GBATCH_BUILDDIR=$dir
	export GBATCH_SRCDIR=${GBATCH_SRCDIR:-$(cd "$here/.." && pwd)}
	builddir=$dir
	# helpers.bash needs no bats: it only defines functions and sets PATH.
	# shellcheck source=tests/bats/helpers.bash
	. "$GBATCH_SRCDIR/tests/bats/helpers.bash"
	# Teardown kills what is left with SIGKILL; bash would report each
	# such daemon as "Killed", which is noise here.
	trap '{ gb_teardown; } 2>/dev/null || true' EXIT
}

# bench_setup [plain]: a fresh private directory (under $BENCH_TMP, else
# /tmp) and configuration, no
# daemon started yet; the previous cluster, if any, is torn down. Logging
# at info as a production one would (debug logging would measure the log,
# not the daemon); with "plain", the node link without TLS. Extra
# controller keys come from $BENCH_CTL_KEYS.
bench_setup() {
	{ gb_teardown; } 2>/dev/null || true
	unset GB_CTL_PID
	gb_setup
	# Our own name under /tmp, so a test suite cleaning up its gbt.*
	# directories on a shared machine leaves this run alone.
	rm -rf "$GB_DIR"
	GB_DIR=$(mktemp -d "${BENCH_TMP:-/tmp}/gbbench.XXXXXX")
	export GBATCH_SOCKET="$GB_DIR/gbatchd.sock"
	export GBATCH_CONF="$GB_DIR/gbatch.conf"
	gb_tls_make
	gb_write_conf "${BENCH_CTL_KEYS:-}"
	sed -i 's/log_level = "debug"/log_level = "info"/' "$GBATCH_CONF"
	if [ "${1:-}" = plain ]; then
		sed -i 's/^tls = {/tls = {\n  enabled = false;/' "$GBATCH_CONF"
	fi
}

# bench_cluster NODES [plain]: bench_setup, then gbatchd and, unless NODES
# is 0, two gnoded (n1, n2) of 4 GPUs each; the shell ends up in $GB_DIR.
bench_cluster() {
	bench_setup "${2:-}"
	gb_start_controller
	if [ "$1" -gt 0 ]; then
		gb_start_node n1 4
		gb_start_node n2 4
	fi
	cd "$GB_DIR"
}

# rss: gbatchd's resident memory now, as "X.Y MB".
rss() {
	awk '/^VmRSS:/ { printf "%.1f MB", $2 / 1024 }' "/proc/$GB_CTL_PID/status"
}

# now: seconds since the epoch with microseconds, without a fork.
now() {
	echo "${EPOCHREALTIME/,/.}"
}

# stats FILE: "median X ms, p95 Y ms" of the seconds in FILE.
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.95 + 0.999)]
		printf "median %.1f ms, p95 %.1f ms (n=%d)", m * 1000, p * 1000, NR }'
}

# median FILE: the median of the numbers in FILE.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# line LABEL FIGURE TARGET
line() {
	printf '%-42s %-36s target %s\n' "$1" "$2" "$3"
}

# idle: succeeds when gbatchd has nothing pending or running.
idle() {
	gctl ping | grep -q '^jobs: 0 pending, 0 running$'
}

# bench_header BUILDDIR: the run's date, version, machine and load.
bench_header() {
	echo "gbatch bench: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(gbatchd -V 2>&1 | head -1)"
	echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), Linux $(uname -r)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); build: $1"
	echo
}
