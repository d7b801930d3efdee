#!/usr/bin/env bats
# The tools bench/ rests its figures on: they run, and they print what
# bench/README.md says they print. No timing is checked here.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	T=$(mktemp -d /tmp/gbt.XXXXXX)
}

teardown() {
	rm -rf "$T"
}

@test "sync-page writes one page and waits for it, and says what went wrong otherwise" {
	local sp="$GBATCH_BUILDDIR/bench/sync-page"

	run -0 "$sp" "$T/page"
	[ -z "$output" ]
	[ "$(stat -c %s "$T/page")" -eq 4096 ]
	[ "$(tr -d g <"$T/page" | wc -c)" -eq 0 ]
	# Again over the same file: still one page.
	run -0 "$sp" "$T/page"
	[ "$(stat -c %s "$T/page")" -eq 4096 ]

	run -1 "$sp" "$T/no/such/dir/page"
	[ "$output" = "sync-page: $T/no/such/dir/page: No such file or directory" ]
	run -2 "$sp"
	[ "$output" = "usage: sync-page FILE" ]
	run -2 "$sp" "$T/a" "$T/b"
	[ ! -e "$T/a" ]
}

@test "bench/cmd-speed prints every command beside /bin/true, and gsub and gcancel beside sync-page" {
	local c n=2

	BENCH_CMD_LOOPS=3 run -0 "$GBATCH_SRCDIR/bench/cmd-speed" "$GBATCH_BUILDDIR"
	for c in "gsub --version (no request)" "gsub -H --wrap true" "gq -j ID" \
	    "gctl ping" "gnodes" "gcancel ID, a call per job"; do
		grep -Eq "^$(printf '%s' "$c" | sed 's/[().-]/\\&/g') +[0-9]+/s, [0-9]+% of /bin/true \([0-9]+/s\) +target >= 85%$" <<<"$output" ||
		    { echo "no line for $c in: $output"; false; }
	done
	# What gbatchd adds to each command, from a running program.
	grep -Eq "^a connection's round trip \(HELLO, PING\) +median [0-9]+ us, p90 [0-9]+ us \(n=3\) +target -$" <<<"$output"
	# With the store in tmpfs too where /dev/shm is one.
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ] || n=4
	[ "$(grep -Ec '^  sync-page \(one durable page a call\) +[0-9]+/s, [0-9]+% of /bin/true$' <<<"$output")" -eq "$n" ]
	[ "$(grep -Ec '^  the command against sync-page +[0-9]+%, gbatchd CPU [0-9]+\.[0-9]{2} ms a call$' <<<"$output")" -eq "$n" ]
	# Each pair right under its command's line.
	[ "$(grep -A1 -E '^(gsub -H|gcancel ID)' <<<"$output" | grep -c '^  sync-page')" -eq "$n" ]
}
