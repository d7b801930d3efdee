#!/usr/bin/env bats
# Every program's --help, man page and README agree: each long option --help
# lists is documented in the man page, and each page has an EXIT STATUS.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
}

programs="bin/gsub bin/gq bin/gcancel bin/gnodes bin/gctl sim/gsim daemon/controller/gbatchd daemon/node/gnoded"

page_of() {
	local name=${1##*/}
	ls "$S/man/$name".[18] 2>/dev/null | head -n 1
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
