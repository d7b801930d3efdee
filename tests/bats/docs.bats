#!/usr/bin/env bats
# Every program's --help, man page and README agree: each long option --help
# lists is documented in the man page, and each page has an EXIT STATUS.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
}

programs="bin/gsub bin/gq bin/gcancel bin/gnodes bin/gctl sim/gsim daemon/controller/gbatchd daemon/node/gnoded"

# A page naming default paths is built from PAGE.in into the build tree
# (Makefile.am); the others are read where they are.
page_of() {
	local name=${1##*/}
	ls "$B/man/$name".[18] "$S/man/$name".[18] 2>/dev/null | head -n 1
}

@test "every program has a man page with an EXIT STATUS section" {
	for p in $programs; do
		page=$(page_of "$p")
		[ -n "$page" ] || { echo "no man page for $p"; false; }
		grep -q '^\.SH EXIT STATUS' "$page" || { echo "$page: no EXIT STATUS"; false; }
	done
}

@test "every long option in --help is in the man page" {
	for p in $programs; do
		page=$(page_of "$p")
		run -0 "$B/$p" --help
		opts=$(grep -o -- '--[a-z][a-z-]*' <<<"$output" | sort -u)
		[ -n "$opts" ] || { echo "$p --help lists no long option"; false; }
		for o in $opts; do
			esc=${o//-/\\\\-}
			grep -q -e "$o" -e "$esc" "$page" ||
			    { echo "$page does not mention $o"; false; }
		done
	done
}

@test "every program answers --version with its name and the package version" {
	for p in $programs; do
		run -0 "$B/$p" --version
		[[ "$output" == "${p##*/} (gbatch) "[0-9]* ]] || { echo "$p: $output"; false; }
	done
}

@test "built pages, sample config and units carry the configured paths, no placeholder" {
	run -0 "$B/daemon/controller/gbatchd" --help
	conf=$(grep -o '/[^ )]*/gbatch\.conf' <<<"$output" | head -n 1)
	[ -n "$conf" ]
	grep -qF "$conf" "$B/man/gbatchd.8" "$B/man/gnoded.8" "$B/man/gbatch.conf.5"
	run -0 "$B/daemon/node/gnoded" --help
	nodedir=$(grep -o '(default /[^)]*/node)' <<<"$output")
	nodedir=${nodedir#(default }; nodedir=${nodedir%)}
	grep -qF "$nodedir" "$B/man/gnoded.8"
	grep -qF "state_dir = \"$nodedir\";" "$B/etc/gbatch.conf"
	for f in "$B"/man/*.[158] "$B/etc/gbatch.conf" "$B/etc/gbatchd.service" "$B/etc/gnoded.service"; do
		! grep -n '@[a-z_]*@' "$f" || { echo "$f keeps a placeholder"; false; }
	done
	grep -q '^ExecStart=/.*/sbin/gbatchd -D \$GBATCHD_OPTS$' "$B/etc/gbatchd.service"
	grep -q '^ExecStart=/.*/sbin/gnoded -D \$GNODED_OPTS$' "$B/etc/gnoded.service"
}
