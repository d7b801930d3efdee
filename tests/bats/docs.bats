#!/usr/bin/env bats
# Every program's --help, man page and README agree: each long option --help
# lists is documented in the man page, and each page has an EXIT STATUS;
# every page renders without a warning.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
}

programs="bin/gsub bin/grun bin/gq bin/gcancel bin/gacct bin/gnodes tui/gtop bin/gctl sim/gsim daemon/controller/gbatchd daemon/node/gnoded"

# A page naming default paths is built from PAGE.in into the build tree
# (Makefile.am); the others are read where they are.
page_of() {
	local name=${1##*/}
	ls "$B/man/$name".[158] "$S/man/$name".[158] 2>/dev/null | head -n 1
}

# Every page as a reader gets it: built ones from the build tree.
all_pages() {
	local f
	for f in "$S"/man/*.[158] "$S"/man/*.[158].in; do
		f=${f%.in}
		page_of "${f%.*}"
	done | sort -u
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

@test "every program's --help starts with its usage line, as every other's" {
	for p in $programs; do
		run -0 "$B/$p" --help
		[[ "${lines[0]}" == "usage: ${p##*/} "* ]] || { echo "$p: ${lines[0]}"; false; }
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
		run ! grep -n '@[a-z_]*@' "$f" || { echo "$f keeps a placeholder"; false; }
	done
	grep -q '^ExecStart=/.*/sbin/gbatchd -D \$GBATCHD_OPTS$' "$B/etc/gbatchd.service"
	grep -q '^ExecStart=/.*/sbin/gnoded -D \$GNODED_OPTS$' "$B/etc/gnoded.service"
}

@test "every man page renders without a warning (groff -ww, and man -l at 80 columns)" {
	command -v groff >/dev/null ||
	    { echo "groff not found: install man-db (tools/deps test)"; false; }
	pages=$(all_pages)
	[ "$(wc -l <<<"$pages")" -ge 9 ]
	# Line breaking depends on the paths configure wrote in (distcheck's
	# are long): a page is judged as installed in the usual layout.
	mkdir -p "$BATS_TEST_TMPDIR/man"
	for page in $pages; do
		if [ -f "$S/man/${page##*/}.in" ]; then
			sed -e 's|@sysconfdir@|/etc|g' \
			    -e 's|@localstatedir@|/var|g' \
			    -e 's|@runstatedir@|/run|g' \
			    -e 's|@sbindir@|/usr/sbin|g' \
			    -e 's|@pkglibexecdir@|/usr/libexec/gbatch|g' \
			    -e 's|@docdir@|/usr/share/doc/gbatch|g' \
			    "$S/man/${page##*/}.in" >"$BATS_TEST_TMPDIR/man/${page##*/}"
			page=$BATS_TEST_TMPDIR/man/${page##*/}
		fi
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
	run grep -n '[^.]\\"' $(all_pages)
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	# gsub(1)'s example shows its whole command line.
	command -v man >/dev/null || skip "man not found"
	run -0 env MANWIDTH=80 man -l "$(page_of gsub)"
	[[ "$output" == *'torchrun --nproc_per_node "$GBATCH_GPUS" train.py'* ]]
}

@test "examples spell torchrun's option as Debian 12's torch (1.13) accepts it" {
	# torch 1.13's torchrun knows only --nproc_per_node; 2.x accepts both.
	run grep -rn -e '--nproc-per-node' -e 'nproc\\-per\\-node' "$S/README.md" "$S/man" "$S/examples"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	grep -q -- '--nproc_per_node' "$S/README.md"
}

@test "gbatchd(8) describes how it schedules: Tiresias, gangs, not FIFO on one node" {
	desc=$(sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$(page_of gbatchd)")
	[[ "$desc" == *Tiresias* ]]
	[[ "$desc" == *"one part per"* ]]
	[[ "$desc" != *"first come"* ]]
}

@test "gcancel(1)'s ENVIRONMENT lists variables only" {
	env_section=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$(page_of gcancel)")
	[[ "$env_section" != *"exit status"* ]]
	exit_section=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$(page_of gcancel)")
	[[ "$exit_section" == *"the exit status is the highest"* ]]
}

@test "gq(1) documents every reason a job can wait for: the scheduler's and the controller's" {
	local page reasons r
	page=$(man -l "$(page_of gq)" 2>/dev/null)
	# The scheduler's names (policy/sched.c) and those the controller
	# keeps with a job (daemon/controller/job.c's job_reasons).
	reasons=$(sed -n 's/^	\[SCHED_REASON_[A-Z_]*\] = "\([A-Za-z]*\)",$/\1/p' "$S/policy/sched.c"
	    sed -n '/^static const char \*const job_reasons\[\] = {$/,/^};$/p' \
	        "$S/daemon/controller/job.c" | grep -o '"[A-Za-z]*"' | tr -d '"')
	[ "$(wc -w <<<"$reasons")" -ge 20 ]
	for r in $reasons; do
		grep -qw -- "$r" <<<"$page" || { echo "gq(1) does not say what reason $r means"; false; }
	done
}
