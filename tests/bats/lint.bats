#!/usr/bin/env bats
# tools/lint: each of its checks fails on a small tree written here, what an
# allow-list accepts passes, and the source tree itself passes. The lines
# lint must print are written out in full below.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	command -v python3 >/dev/null ||
	    { echo "python3 not found: install it (tools/deps test)"; false; }
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T"
}

# put FILE [LINE...]: writes FILE in the tree, one argument a line.
put() {
	local f=$T/$1
	shift
	mkdir -p "${f%/*}"
	printf '%s\n' "$@" >"$f"
}

# header FILE [LINE...]: a header with its own guard around the lines.
header() {
	local f=$1 g
	shift
	g=GB_$(tr 'a-z/.-' 'A-Z___' <<<"${f%.h}")_H
	put "$f" "#ifndef $g" "#define $g" "$@" "#endif"
}

# lines FILE N: a .c file of N lines, no function in it.
lines() {
	mkdir -p "$T/$(dirname "$1")"
	seq "$2" | sed 's|.*|/* & */|' >"$T/$1"
}

lint() {
	run "$S/tools/lint" "$T"
}

@test "tools/lint --help says what it checks and its statuses; bad use is status 2" {
	run -0 "$S/tools/lint" --help
	[[ "$output" == *"include circles   among the modules of each folder"* ]]
	[[ "$output" == *"file size         a production .c file"* ]]
	[[ "$output" == *"include guards    a header without one"* ]]
	[[ "$output" == *"function prefix   a function a production .c file"* ]]
	[[ "$output" == *"floors            in a folder with a file named \"floors\""* ]]
	[[ "$output" == *"globals           in daemon/, a mutable variable defined"* ]]
	[[ "$output" == *"distributed       where ROOT has a Makefile.am, every .c"* ]]
	[[ "$output" == *"Exit status: 0 clean (one closing line says what was checked), 1 findings,
2 usage error."* ]]
	run -2 "$S/tools/lint" --bogus
	[[ "$output" == *"tools/lint: error: unrecognized arguments: --bogus" ]]
	run -2 "$S/tools/lint" "$T/none"
	[[ "$output" == *"tools/lint: error: $T/none: not a directory" ]]
}

@test "a clean tree passes with one line saying what was checked" {
	header common/a.h "int	a_one(void);"
	put common/a.c '#include "common/a.h"' "int" "a_one(void)" "{" \
	    "	return (1);" "}"
	lint
	[ "$status" -eq 0 ]
	[ "$output" = "tools/lint: 2 files, 1 folder: no include circle, no file over 1000 lines, 1 include guard unique, 1 exported function prefixed, 0 globals in daemon, each saying why" ]
}

@test "a circle of two modules is printed as a path, with its members" {
	header policy/a.h '#include "policy/b.h"'
	put policy/a.c '#include "policy/a.h"'
	header policy/b.h
	put policy/b.c '#include "policy/a.h"'
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "policy: include circle: a -> b -> a
policy: include circle of 2 modules (a b): cut one include of each circle above, so that a lower module never includes a higher one (STYLE.md 13)
tools/lint: 2 findings" ]
}

@test "a circle of three modules, and the shorter one inside it printed first" {
	# x -> y -> z -> x, and y -> x back.
	header sim/x.h '#include "sim/y.h"'
	header sim/y.h '#include "sim/z.h"'
	put sim/y.c '#include "sim/x.h"'
	header sim/z.h
	put sim/z.c '#include "sim/x.h"'
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "sim: include circle: x -> y -> x
sim: include circle: x -> y -> z -> x
sim: include circle of 3 modules (x y z): cut one include of each circle above, so that a lower module never includes a higher one (STYLE.md 13)
tools/lint: 3 findings" ]
}

@test "another folder's header of the same name, or a file's own, makes no circle" {
	# common/b.h is not daemon/node's b, which includes a.
	header daemon/node/a.h '#include "daemon/node/a.h"' '#include "common/b.h"'
	put daemon/node/b.c '#include "daemon/node/a.h"'
	header common/b.h '#include "daemon/node/a.h"'
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == "tools/lint: 3 files, 2 folders: no include circle,"* ]]
}

@test "foo-int.h is module foo's private header, not a module of its own" {
	# place.c includes place-int.h, which includes place.h: one module.
	header policy/place.h
	header policy/place-int.h '#include "policy/place.h"'
	put policy/place.c '#include "policy/place-int.h"'
	put policy/place-shape.c '#include "policy/place-int.h"'
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == "tools/lint: 4 files, 1 folder: no include circle, "* ]]
	# And a circle through it is place's: place -> other -> place.
	header policy/other.h '#include "policy/place.h"'
	header policy/place-int.h '#include "policy/other.h"'
	lint
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "policy: include circle: other -> place -> other" ]
}

@test "a production .c file of 1,001 lines fails; 1,000 lines, tests/ and bench/ pass" {
	lines client/big.c 1001
	lines client/fits.c 1000
	lines tests/unit/big-test.c 3000
	lines bench/big.c 3000
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "client/big.c: 1001 lines, over 1000: split it into files of one concept each (STYLE.md 2)
tools/lint: 1 finding" ]
}

@test "two headers with one include guard are named, tests included; so is a header without one" {
	put common/frame.h "#ifndef GB_FRAME_H" "#define GB_FRAME_H" "#endif"
	put tui/frame.h "/* tui's own */" "#ifndef GB_FRAME_H" \
	    "#define GB_FRAME_H" "#endif"
	put tests/unit/tap.h "#ifndef GB_FRAME_H" "#define GB_FRAME_H" "#endif"
	put common/bare.h "int	bare(void);"
	put common/late.h "int	late(void);" "#ifndef GB_LATE_H" \
	    "#define GB_LATE_H" "#endif"
	put common/odd.h "#ifndef GB_ODD_H" "#define GB_EVEN_H" "#endif"
	put common/open.h "#ifndef GB_OPEN_H" "#define GB_OPEN_H" "int	x;"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "common/bare.h: no include guard: begin it with #ifndef GB_COMMON_BARE_H and #define GB_COMMON_BARE_H, and end it with #endif
common/late.h: no include guard: begin it with #ifndef GB_COMMON_LATE_H and #define GB_COMMON_LATE_H, and end it with #endif
common/odd.h: no include guard: begin it with #ifndef GB_COMMON_ODD_H and #define GB_COMMON_ODD_H, and end it with #endif
common/open.h: no include guard: begin it with #ifndef GB_COMMON_OPEN_H and #define GB_COMMON_OPEN_H, and end it with #endif
tests/unit/tap.h: include guard GB_FRAME_H is also common/frame.h's: give it one of its own, such as GB_TESTS_UNIT_TAP_H
tui/frame.h: include guard GB_FRAME_H is also common/frame.h's: give it one of its own, such as GB_TUI_FRAME_H
tools/lint: 6 findings" ]
}

@test "an exported function without its file's prefix is caught; static ones and main are not" {
	put common/job-change.c \
	    '#include "common/job-change.h"' \
	    "" \
	    "static int" \
	    "helper(void)" \
	    "{" \
	    "	return (0);" \
	    "}" \
	    "" \
	    "int" \
	    "job_change_state(int x)" \
	    "{" \
	    "	return (x + helper());" \
	    "}" \
	    "" \
	    "void" \
	    "schedule_now(void)" \
	    "{" \
	    "}" \
	    "const char *job_change_name(void) { return (\"job_change_name\"); }" \
	    "int other_one(void) { return (1); }" \
	    "static void __attribute__((noreturn))" \
	    "die(void)" \
	    "{" \
	    "	for (;;);" \
	    "}" \
	    "void __attribute__((noreturn))" \
	    "job_change_exit(void)" \
	    "{" \
	    "	die();" \
	    "}" \
	    "/* int in_a_comment(void) { } */" \
	    "#define MAKE(name) void name(void) { }" \
	    "MAKE(made_by_macro)" \
	    "MAKE(job_change_made)" \
	    "int" \
	    "main(void)" \
	    "{" \
	    "	return (0);" \
	    "}"
	put tests/unit/job-change-test.c "int" "t_anything(void)" "{" "}"
	put bench/thing.c "int" "anything(void)" "{" "}"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "common/job-change.c:16: schedule_now is exported but does not start with job_change_: rename it (or the file), or make it static
common/job-change.c:20: other_one is exported but does not start with job_change_: rename it (or the file), or make it static
common/job-change.c:33: made_by_macro is exported but does not start with job_change_: rename it (or the file), or make it static
tools/lint: 3 findings" ]
}

@test "an allow-listed prefix is accepted; an entry that matches nothing, or another kind, is refused" {
	put common/xmalloc.c "void *" "xmalloc(int n)" "{" "}" "void *" \
	    "xcalloc(int n)" "{" "}"
	put daemon/controller/conf-reload.c "int" "conf_apply(void)" "{" "}"
	put tools/lint.allow "prefix common/xmalloc.c x  # as tmux's"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "daemon/controller/conf-reload.c:2: conf_apply is exported but does not start with conf_reload_: rename it (or the file), or make it static
tools/lint: 1 finding" ]
	put daemon/controller/conf-reload.c "int" "conf_reload_apply(void)" "{" "}"
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == *", 3 exported functions prefixed (1 by a lasting exception), 0 globals in daemon, each saying why" ]]
	put tools/lint.allow "prefix common/xmalloc.c x" "prefix common/*.c zz_" \
	    "function daemon/controller/conf-reload.c conf_apply" \
	    "size daemon/controller/job.c 1003" "prefix common/x.c"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "tools/lint.allow:3: cannot read 'function daemon/controller/conf-reload.c conf_apply': write prefix FILE PREFIX
tools/lint.allow:4: cannot read 'size daemon/controller/job.c 1003': write prefix FILE PREFIX
tools/lint.allow:5: cannot read 'prefix common/x.c': write prefix FILE PREFIX
tools/lint.allow:2: prefix common/*.c zz_: no exported function takes it: delete the entry
tools/lint: 4 findings" ]
}

@test "the source tree passes, and tools/check runs tools/lint before the builds" {
	run -0 "$S/tools/lint"
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" =~ ^tools/lint:\ [0-9]+\ files,\ [0-9]+\ folders:\ no\ include\ circle ]]
	[[ "$output" == *" include guards unique, "*" exported functions prefixed"* ]]
	# The controller's floors file is read, and nothing goes up a floor;
	# every global in daemon/ says why it is one.
	[[ "$output" == *", no include going up a floor, "*" globals in daemon, each saying why, "* ]]
	# Every source is in the Makefiles, or make dist leaves it out.
	[[ "$output" == *", all named in Makefile.am or the "*" files it includes, "*" bats files read for chained checks and stale waits" ]]
	lint_at=$(grep -n '^tools/lint' "$S/tools/check" | cut -d: -f1)
	build_at=$(grep -n '^run build$' "$S/tools/check" | cut -d: -f1)
	[ -n "$lint_at" ]
	[ -n "$build_at" ]
	[ "$lint_at" -lt "$build_at" ]
}

# floors3: a folder of three modules, io < state < effects, each the
# lowest whose modules it uses.
floors3() {
	header daemon/controller/store.h
	put daemon/controller/store.c '#include "daemon/controller/store.h"'
	header daemon/controller/job.h '#include "daemon/controller/store.h"'
	put daemon/controller/job.c '#include "daemon/controller/job.h"'
	header daemon/controller/launch.h
	put daemon/controller/launch.c '#include "daemon/controller/launch.h"' \
	    '#include "daemon/controller/job.h"' \
	    '#include "daemon/controller/store.h"'
	put daemon/controller/floors "# lowest first" "io: store" \
	    "state: job  # the jobs" "effects:" "    launch"
}

@test "floors: includes down or across pass, with a floor split over lines" {
	floors3
	lint
	[ "$status" -eq 0 ]
	[ "$output" = "tools/lint: 6 files, 1 folder: no include circle, no file over 1000 lines, 3 include guards unique, 0 exported functions prefixed, no include going up a floor, 0 globals in daemon, each saying why" ]
}

@test "floors: an include going up a floor is refused, naming both floors" {
	floors3
	# audit (io) asks launch (effects): the arrow goes up two floors,
	# though it makes no circle.
	header daemon/controller/audit.h
	put daemon/controller/audit.c '#include "daemon/controller/audit.h"' \
	    '#include "daemon/controller/launch.h"'
	put daemon/controller/floors "io: store audit" "state: job" \
	    "effects: launch"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "daemon/controller/audit includes launch.h: audit is on floor io, launch on floor effects, above it: a lower floor never calls a higher one; let the higher one register a hook (STYLE.md 13)
tools/lint: 1 finding" ]
}

@test "floors: a module on no floor, on two, or one that is gone, and a bad line" {
	floors3
	header daemon/controller/peer.h
	put daemon/controller/peer.c '#include "daemon/controller/peer.h"'
	put daemon/controller/floors "io: store job" "state job" "state: job" \
	    "effects: launch gone"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "daemon/controller/floors:2: expected \"NAME: MODULE ...\", got \"state job\"
daemon/controller/floors:3: job is on floor io already (line 1): one floor a module
daemon/controller/floors:4: gone: no such module in daemon/controller: delete it
daemon/controller/peer: on no floor: put it on one in daemon/controller/floors (the lowest whose modules it uses)
tools/lint: 4 findings" ]
}

@test "globals: a mutable file-scope variable in daemon/ says why it is global; const ones, locals and types are not counted" {
	put daemon/node/a.c \
	    "struct a_type {" "	int	x;" "};" \
	    "TAILQ_HEAD(a_list, a_type);" \
	    "extern int	a_elsewhere;" \
	    "int	a_proto(int);" \
	    "static const char *const a_names[] = { \"x\", \"y\" };" \
	    "static const struct a_type a_zero = { 0 };" \
	    "static char *const a_fixed = NULL;" \
	    "static int	a_count;" \
	    "static const char *a_last;" \
	    "static void	(*a_hook)(int);" \
	    "struct a_type a_inst = { 1 };" \
	    "/* What the module keeps. */" \
	    "static struct {" "	int	n;" "} a_state;" \
	    "/* What the module knows. Global: it is the process's. */" \
	    "static struct {" "	int	n;" "} a_known = {" "	.n = 1," "};" \
	    "/* Global: the signal handler sets it. */" \
	    "static volatile sig_atomic_t a_flag;" \
	    "int" "a_proto(int x)" "{" "	static int	calls;" \
	    "	int	y = x;" "" "	return (y + calls++);" "}"
	# Outside daemon/, and in tests, nothing is counted.
	put client/b.c "static int	b_count;"
	put tests/unit/c-test.c "static int	c_count;"
	lint
	[ "$status" -eq 1 ]
	w='is a mutable file-scope variable: put it in a struct its module owns, or say why it is global in the comment above it ("Global: ...")'
	[ "$output" = "daemon/node/a.c:10: a_count $w
daemon/node/a.c:11: a_last $w
daemon/node/a.c:12: a_hook $w
daemon/node/a.c:13: a_inst $w
daemon/node/a.c:15: a_state $w
tools/lint: 5 findings" ]
}

@test "globals: more than MAX_GLOBALS in daemon/ is refused, each saying why or not" {
	max=$(sed -n 's/^MAX_GLOBALS = \([0-9][0-9]*\)$/\1/p' "$S/tools/lint")
	[ -n "$max" ]
	for i in $(seq "$max"); do
		printf '/* Global: number %d. */\nstatic int\tg_%d;\n' "$i" "$i"
	done >"$T/g.c"
	mkdir -p "$T/daemon/common"
	mv "$T/g.c" "$T/daemon/common/g.c"
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == *", $max globals in daemon, each saying why" ]]
	printf '/* Global: one more. */\nstatic int\tg_more;\n' \
	    >>"$T/daemon/common/g.c"
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "daemon: $((max + 1)) mutable file-scope variables, over $max: move state into the structs of the modules that own it (STYLE.md 13)
tools/lint: 1 finding" ]
}

@test "distributed: a source the Makefiles do not name is refused; one named through an include passes" {
	header common/a.h
	put common/a.c '#include "common/a.h"'
	header common/a-int.h
	put Makefile.am 'bin_PROGRAMS = a' 'include common/local.am' \
	    '-include missing.am'
	put common/local.am 'a_SOURCES = common/a.c \' '	common/a.h' \
	    'EXTRA_DIST += $(srcdir)/common/a-int.h'
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == *", all named in Makefile.am or the 2 files it includes" ]]
	put common/local.am 'a_SOURCES = common/a.c'
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "common/a-int.h: not named in Makefile.am or the files it includes: add it to the _SOURCES (or EXTRA_DIST) of what uses it, or make dist leaves it out
common/a.h: not named in Makefile.am or the files it includes: add it to the _SOURCES (or EXTRA_DIST) of what uses it, or make dist leaves it out
tools/lint: 2 findings" ]
	# Without a Makefile.am (a tree that is not an automake one) nothing
	# is asked.
	rm "$T/Makefile.am"
	lint
	[ "$status" -eq 0 ]
	[[ "$output" != *"named in Makefile.am"* ]]
}

@test "bats checks: a @test line chaining checks with && is refused; one check a line, a [[ ]] with && inside, and helpers pass" {
	put tests/bats/a.bats '#!/usr/bin/env bats' 'ok() {' '	[ -e a ] && [ -e b ]' '}' \
	    '@test "x" {' '	[ -e a ]' '	[[ "$x" == a && "$y" == b ]]' \
	    '	[ -e b ] && [ -e c ] || skip "no b"' '}'
	lint
	[ "$status" -eq 0 ]
	[[ "$output" == *", 1 bats file read for chained checks and stale waits" ]]
	put tests/bats/a.bats '@test "x" {' '	[ -e a ] && [ -e b ]' \
	    '	[[ -n "$x" ]] && run true' '	if [ -e a ] && [ -e b ]; then :; fi' '}'
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "tests/bats/a.bats:2: checks chained with &&: bats does not fail a test at a command before the last && of a list, so put each check on a line of its own
tests/bats/a.bats:3: checks chained with &&: bats does not fail a test at a command before the last && of a list, so put each check on a line of its own
tools/lint: 2 findings" ]
}

@test "bats checks: a gb_wait testing a \$(...) expanded once is refused; eval, a helper, or a fixed path in \$(...) pass" {
	put tests/bats/a.bats '@test "x" {' \
	    '	gb_wait 10 eval '"'"'[ "$(gq -h)" = a ]'"'"'' \
	    '	gb_wait 10 gb_field_is "$id" state RUNNING' \
	    '	gb_wait 5 grep -q up "$(gb_job_out "$id")"' '}'
	lint
	[ "$status" -eq 0 ]
	put tests/bats/a.bats '@test "x" {' \
	    '	gb_wait 30 test "$(gq -h -j "$id" -o restarts)" = 1' \
	    '	gb_wait 5 [ "$(cat n)" -eq 2 ]' '}'
	lint
	[ "$status" -eq 1 ]
	[ "$output" = "tests/bats/a.bats:2: gb_wait tests a \$(...) that the shell expands once, before the first poll: poll a helper (gb_field_is ID FIELD VALUE) or eval '...' instead
tests/bats/a.bats:3: gb_wait tests a \$(...) that the shell expands once, before the first poll: poll a helper (gb_field_is ID FIELD VALUE) or eval '...' instead
tools/lint: 2 findings" ]
}
