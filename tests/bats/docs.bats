#!/usr/bin/env bats
# Every program's --help, man page and README agree: each long option --help
# lists is documented in the man page, and each page has an EXIT STATUS;
# every page renders without a warning.

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

@test "every man page renders without a warning (groff -ww, and man -l at 80 columns)" {
	command -v groff >/dev/null ||
	    { echo "groff not found: install man-db (tools/deps test)"; false; }
	for page in "$S"/man/*.[1-8]; do
		warn=$(groff -man -ww -z "$page" 2>&1)
		[ -z "$warn" ] || { echo "$page: $warn"; false; }
		command -v man >/dev/null || continue
		warn=$(MANWIDTH=80 man --warnings=w -E UTF-8 -l "$page" 2>&1 >/dev/null)
		[ -z "$warn" ] || { echo "$page (man -l): $warn"; false; }
	done
}

@test "no man page has a roff comment after text on a line, which cuts the line short" {
	# \" starts a comment wherever it is: "$VAR\" lost the rest of an
	# example once. A quote is written \(dq.
	run grep -n '[^.]\\"' "$S"/man/*.[1-8]
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	# gsub(1)'s example shows its whole command line.
	command -v man >/dev/null || skip "man not found"
	run -0 env MANWIDTH=80 man -l "$S/man/gsub.1"
	[[ "$output" == *'torchrun --nproc_per_node "$GBATCH_GPUS" train.py'* ]]
}

@test "examples spell torchrun's option as Debian 12's torch (1.13) accepts it" {
	# torch 1.13's torchrun knows only --nproc_per_node; 2.x accepts both.
	run grep -rn -e '--nproc-per-node' -e 'nproc\\-per\\-node' "$S/README.md" "$S/man" "$S/examples"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	grep -q -- '--nproc_per_node' "$S/README.md"
}

@test "gbatchd(8) describes how it schedules: Tiresias, gangs, not FIFO on one node" {
	desc=$(sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$S/man/gbatchd.8")
	[[ "$desc" == *Tiresias* ]]
	[[ "$desc" == *"one part per"* ]]
	[[ "$desc" != *"first come"* ]]
}

@test "gcancel(1)'s ENVIRONMENT lists variables only" {
	env_section=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$S/man/gcancel.1")
	[[ "$env_section" != *"exit status"* ]]
	exit_section=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$S/man/gcancel.1")
	[[ "$exit_section" == *"the exit status is the highest"* ]]
}
