#!/usr/bin/env bats
# gtop: the dashboard, as a user runs it: --once against a real local
# cluster, and the interactive screen in a real terminal (a tmux session
# on a socket of the test's own: send-keys, capture-pane). Expected values
# come from gq and gnodes, never from gtop's own output.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	cd "$GB_DIR"
	TMUX_SOCK="$GB_DIR/tmux.sock"
}

teardown() {
	tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
	gb_teardown
}

# screen: what the tmux session shows now, the mark of the job that starts
# next (">" in the first column) left out unless asked for with -m.
screen() {
	if [ "${1:-}" = -m ]; then
		tmux -S "$TMUX_SOCK" capture-pane -p -t gtop
	else
		tmux -S "$TMUX_SOCK" capture-pane -p -t gtop | sed 's/^>/ /'
	fi
}

# screen_has TEXT: the screen shows TEXT somewhere.
screen_has() {
	screen | grep -qF -- "$1"
}

# start_gtop W H ARGS...: gtop in a W x H terminal.
start_gtop() {
	local w=$1 h=$2
	shift 2
	tmux -S "$TMUX_SOCK" new-session -d -s gtop -x "$w" -y "$h" \
	    env GBATCH_SOCKET="$GBATCH_SOCKET" PATH="$PATH" TERM=xterm-256color \
	    gtop "$@"
	gb_wait 10 screen_has " Queues"
}

gtop_gone() {
	! tmux -S "$TMUX_SOCK" has-session -t gtop 2>/dev/null
}

# gpu_cells NODE: the GPU pane's cells of NODE on the screen, as
# "GPU:JOB" words (- for free), in GPU order. A cell is its job's id, "."
# free, "x" down or "d" drained, "!" after it when the job leaves the GPU
# idle; once the node has reported its GPUs' use, each cell is followed by
# the use ("37%", or "-" for a GPU the node could not read), which is not
# a cell: whether a heartbeat has come decides which form a frame has.
# After the cells, where there is room, "CPUs 2/16  mem 24/64G".
gpu_cells() {
	awk -v n="$1" '$1 == n && ($2 == "idle" || $2 == "mixed" ||
	    $2 == "allocated") {
		line = ""; k = 0
		for (i = 3; i <= NF; i++) {
			w = $i
			# Its CPUs and memory come after the cells.
			if (w == "CPUs")
				break
			sub(/!$/, "", w)
			if (w ~ /^[0-9]+%$/ || w == "-")
				continue
			line = line (k > 0 ? " " : "") k ":" (w == "." ? "-" : w)
			k++
		}
		print line
	}'
}

# use_known NODE...: each node has reported every GPU's use (gnodes -o
# util shows no "-").
use_known() {
	local n u
	for n in "$@"; do
		u=$(gnodes -h -N "$n" -o util)
		[[ "$u" =~ ^[0-9]+:[0-9]+( [0-9]+:[0-9]+)*$ ]] || return 1
	done
}

@test "gtop --help, --version and bad options" {
	run -0 gtop --help
	for o in --delay --once --no-color --timeout --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
	run -0 gtop --version
	[[ "$output" =~ ^gtop\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
	run -2 gtop --frobnicate
	[[ "$output" == *"--frobnicate"* ]]
	run -2 gtop -d 0
	[[ "$output" == *"--delay: expected whole seconds from 1 to 3600, got \"0\""* ]]
	run -2 gtop extra
	[[ "$output" == *'unexpected argument "extra"'* ]]
	# Not a terminal: a clear message, not a broken screen.
	run -2 gtop </dev/null
	[[ "$output" == *"gtop needs a terminal; use --once"* ]]
}

@test "gtop --once shows the jobs by queue and each job on exactly its GPUs" {
	a=$(gb_submit -G 2 --wrap 'sleep 60')
	b=$(gb_submit -G 3 --wrap 'sleep 60')
	w=$(gb_submit -G 8 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	gb_wait 10 gb_field_is "$w" reason Resources
	# The nodes' heartbeats have said each GPU's use, so the cells carry
	# it ("   2   0% "): what a frame shows once the cluster has run a
	# few seconds.
	gb_wait 10 use_known n1 n2
	run -0 env COLUMNS=100 gtop --once
	frame=$(sed 's/^>/ /' <<<"$output")
	grep -qE '^ +n1 +[a-z]+ +[0-9]+ +[0-9]+% ' <<<"$frame" ||
	    { echo "$frame"; echo "n1's cells do not show the GPUs' use"; false; }
	# Every job gq lists, with its state.
	while read -r id state; do
		grep -qE "^ +$id +root +wrap +$state " <<<"$frame" ||
		    { echo "job $id $state not shown"; false; }
	done < <(gq -h -o id,state)
	[[ "$frame" == *"jobs: 2 running, 1 waiting, 0 preempting"* ]]
	[[ "$frame" == *"GPUs: 5 of 8 allocated on 2 nodes, by user: root 5"* ]]
	# Beside each node's GPUs, what jobs hold of its CPUs and memory, as
	# gnodes says.
	for n in n1 n2; do
		want=$(gnodes -h -N "$n" -o cpus | awk '{ print $1 }')
		grep -qE "^ +$n .* CPUs $want  mem [0-9]+/[0-9]+G\$" <<<"$frame" ||
		    { echo "$frame"; echo "$n: no CPUs $want"; false; }
	done
	# Each node's cells hold the jobs gnodes says hold those GPUs.
	for n in n1 n2; do
		want=$(gnodes -h -N "$n" -o jobs)
		got=$(gpu_cells "$n" <<<"$frame")
		[ "$got" = "$want" ] || { echo "$n: gtop '$got', gnodes '$want'"; false; }
	done
	# No terminal control in the frame, and it fits its width.
	printf '%s\n' "$frame" >frame.txt
	gb_no_controls frame.txt
	# Characters, not bytes: sparklines are UTF-8 in a UTF-8 locale.
	[ "$(python3 -c 'import sys; print(max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()))' frame.txt)" -le 100 ]
}

@test "gtop --once at 80 columns: reasons abbreviated, not cut; no run of blank lines" {
	big=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$big" RUNNING
	wide=$(gb_submit -G 8 -J a-rather-long-job-name --wrap 'sleep 60')
	later=$(gb_submit --begin now+1hour -J another-long-name --wrap true)
	gb_wait 10 gb_field_is "$wide" reason Resources
	run -0 env COLUMNS=80 gtop --once
	printf '%s\n' "$output" >frame.txt
	# Each waiting job's reason is whole, or its short form.
	for id in "$wide" "$later"; do
		reason=$(awk -v id="$id" '$1 == id || ($1 == ">" && $2 == id) { print $NF }' frame.txt)
		[[ "$reason" =~ ^(Resources|Res|BeginTime|Begin)$ ]] ||
		    { cat frame.txt; echo "job $id: reason \"$reason\""; false; }
	done
	[ "$(awk -v id="$wide" '$1 == id || ($1 == ">" && $2 == id) { print $NF }' frame.txt)" != Resour ]
	# The frame is as long as what it shows: never two empty lines running.
	! awk 'prev == "" && $0 == "" && NR > 1 { found = 1 } { prev = $0 } END { exit !found }' frame.txt
	[ "$(python3 -c 'import sys; print(max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()))' frame.txt)" -le 80 ]
}

@test "gtop --once shows each user's and account's GPUs beside their share, with fair share on" {
	printf 'scheduler = {\n  fairshare = true;\n};\n' >>"$GBATCH_CONF"
	gctl reconfigure >/dev/null
	gctl account add phys shares=3 >/dev/null
	gctl account add chem shares=1 >/dev/null
	gctl user add root account=phys >/dev/null
	a=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	# phys has 3 of the 4 shares among the accounts: 75%; root is its
	# one user, with all of phys's: 75% too.
	gb_wait 10 gacct --report fairshare
	run -0 env COLUMNS=300 gtop --once
	[[ "$output" == *"by user: root 2 of 75%; by account: phys 2 of 75%"* ]] ||
	    { echo "$output" | grep GPUs; false; }
}

@test "gtop --once with gbatchd stopped prints the frame, says why and exits 3" {
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	run -3 gtop --once
	[[ "$output" == *"controller unreachable"* ]]
	[[ "$output" == *"gtop: cannot reach gbatchd at $GBATCH_SOCKET"* ]]
}

@test "gtop on a terminal: the queues, the GPU cells, j/k and Tab, q quits" {
	a=$(gb_submit -G 4 --wrap 'sleep 60')
	b=$(gb_submit -G 1 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	start_gtop 100 30 -d 1
	gb_wait 10 screen_has "jobs: 2 running, 0 waiting"
	screen >s1
	grep -qE "^ +$a +root +wrap +RUNNING +4 " s1
	grep -qE "^ +$b +root +wrap +RUNNING +1 " s1
	for n in n1 n2; do
		[ "$(gpu_cells "$n" <s1)" = "$(gnodes -h -N "$n" -o jobs)" ]
	done
	grep -qF "q quit  ? help  Tab pane  j/k move" s1
	# Keys move the selection and change the pane; the screen stays.
	tmux -S "$TMUX_SOCK" send-keys -t gtop j Tab Down k
	gb_wait 5 screen_has "): 2 jobs"
	tmux -S "$TMUX_SOCK" send-keys -t gtop q
	gb_wait 5 gtop_gone
}

@test "gtop on a terminal: an operator drains and resumes the node selected in the GPU pane" {
	node_state() { [ "$(gnodes -h -N n1 -o state)" = "$1" ]; }
	start_gtop 120 40 -d 1
	gb_wait 10 screen_has "GPUs: 0 of 8 allocated"
	# D with the queues pane focused says where to select a node.
	tmux -S "$TMUX_SOCK" send-keys -t gtop D
	gb_wait 5 screen_has "select a node in the GPU pane first"
	# Tab to the GPU pane: its first row, n1, is selected.
	tmux -S "$TMUX_SOCK" send-keys -t gtop Tab D
	gb_wait 5 screen_has "drain node n1? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop n
	gb_wait 5 screen_has "node n1: not drained"
	node_state idle
	tmux -S "$TMUX_SOCK" send-keys -t gtop D y
	gb_wait 5 screen_has "node n1 drained"
	gb_wait 5 node_state drained
	[ "$(gnodes -h -N n1 -o reason)" = "drained from gtop" ]
	tmux -S "$TMUX_SOCK" send-keys -t gtop U y
	gb_wait 5 screen_has "node n1 resumed"
	gb_wait 5 node_state idle
	tmux -S "$TMUX_SOCK" send-keys -t gtop q
	gb_wait 5 gtop_gone
}

@test "gtop resizes to 80x24 and back, and says when the terminal is too small" {
	a=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	start_gtop 120 40
	tmux -S "$TMUX_SOCK" resize-window -t gtop -x 80 -y 24
	gb_wait 5 screen_has "q quit"
	[ "$(screen | wc -l)" -eq 24 ]
	screen | grep -qE "^ +$a +root +wrap +RUNNING "
	tmux -S "$TMUX_SOCK" resize-window -t gtop -x 50 -y 10
	gb_wait 5 screen_has "terminal too small: 50x10, gtop needs 60x12"
	tmux -S "$TMUX_SOCK" resize-window -t gtop -x 120 -y 40
	gb_wait 5 screen_has "GPUs: 2 of 8 allocated on 2 nodes"
	screen | grep -qE "^ +$a +root +wrap +RUNNING "
}

@test "gtop says when gbatchd stops and recovers by itself when it is back" {
	a=$(gb_submit -G 1 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	start_gtop 100 30 -d 1 --timeout 2
	gb_wait 10 screen_has "jobs: 1 running"
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	gb_wait 10 screen_has "controller unreachable"
	# What it last knew stays on the screen.
	screen | grep -qE "^ +$a +root +wrap +RUNNING "
	gb_start_controller
	# No key pressed: the next refresh finds it.
	gb_wait 15 screen_has "jobs: 1 running"
	[ "$(screen | grep -c "controller unreachable")" = 0 ]
}

@test "gtop: c asks, n leaves the job, y cancels it; H and R hold and release, asked first" {
	a=$(gb_submit -G 4 -J first --wrap 'sleep 60')
	b=$(gb_submit -G 4 -J second --wrap 'sleep 60')
	p=$(gb_submit -G 8 -J waiter --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	start_gtop 120 30 -d 1
	gb_wait 10 screen_has "jobs: 2 running, 1 waiting"
	# The first row is selected: the first job of Q0.
	tmux -S "$TMUX_SOCK" send-keys -t gtop c
	gb_wait 5 screen_has "cancel job $a? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop n
	gb_wait 5 screen_has "job $a: not cancelled"
	gb_state_is "$a" RUNNING
	tmux -S "$TMUX_SOCK" send-keys -t gtop c
	gb_wait 5 screen_has "cancel job $a? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop y
	gb_wait 10 gb_state_is "$a" CANCELLED
	gb_wait 5 screen_has "job $a cancelled"
	# The waiting job: down to its row, hold it, release it.
	gb_wait 10 screen_has "jobs: 1 running, 1 waiting"
	row=$(screen | awk '/^ +JOBID /{ h = NR } h && $1 ~ /^[0-9]+$/ { n++; if ($1 == id) { print n; exit } }' id="$p")
	[ -n "$row" ]
	for ((i = 1; i < row; i++)); do
		tmux -S "$TMUX_SOCK" send-keys -t gtop j
	done
	tmux -S "$TMUX_SOCK" send-keys -t gtop H
	gb_wait 5 screen_has "hold job $p? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop y
	gb_wait 10 gb_state_is "$p" HELD
	tmux -S "$TMUX_SOCK" send-keys -t gtop R
	gb_wait 5 screen_has "release job $p? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop y
	gb_wait 10 gb_state_is "$p" PENDING
	gb_wait 5 screen_has "job $p released"
}

@test "gtop: / filters by name, state and partition, an empty filter shows all again; ? shows the keys" {
	a=$(gb_submit -G 1 -J resnet50 --wrap 'sleep 60')
	b=$(gb_submit -G 1 -J bert-large --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	start_gtop 120 30 -d 1
	gb_wait 10 screen_has "): 2 jobs"
	tmux -S "$TMUX_SOCK" send-keys -t gtop / b e r t Enter
	gb_wait 5 screen_has '): 1 jobs, 1 running, 0 waiting, filter "bert"'
	screen | grep -qE "^ +$b +root +bert-large "
	[ "$(screen | grep -cE "^ +$a +root +resnet50 ")" = 0 ]
	# A state nothing is in: no job.
	tmux -S "$TMUX_SOCK" send-keys -t gtop / BSpace BSpace BSpace BSpace s t a t e = P D Enter
	gb_wait 5 screen_has '): 0 jobs, 0 running, 0 waiting, filter "state=PD"'
	# A bad one says why and changes nothing.
	tmux -S "$TMUX_SOCK" send-keys -t gtop / BSpace BSpace x x Enter
	gb_wait 5 screen_has 'filter: unknown state "xx"'
	screen_has 'filter "state=PD"'
	# Cleared: both again.
	tmux -S "$TMUX_SOCK" send-keys -t gtop /
	for ((i = 0; i < 8; i++)); do
		tmux -S "$TMUX_SOCK" send-keys -t gtop BSpace
	done
	tmux -S "$TMUX_SOCK" send-keys -t gtop Enter
	gb_wait 5 screen_has "): 2 jobs, 2 running, 0 waiting"
	# By partition: both are in the one there is, none in another.
	tmux -S "$TMUX_SOCK" send-keys -t gtop / p = g p u Enter
	gb_wait 5 screen_has '): 0 jobs, 0 running, 0 waiting, filter "p=gpu"'
	tmux -S "$TMUX_SOCK" send-keys -t gtop / BSpace BSpace BSpace g b a t c h Enter
	gb_wait 5 screen_has '): 2 jobs, 2 running, 0 waiting, filter "p=gbatch"'
	tmux -S "$TMUX_SOCK" send-keys -t gtop /
	for ((i = 0; i < 8; i++)); do
		tmux -S "$TMUX_SOCK" send-keys -t gtop BSpace
	done
	tmux -S "$TMUX_SOCK" send-keys -t gtop Enter
	gb_wait 5 screen_has "): 2 jobs, 2 running, 0 waiting"
	tmux -S "$TMUX_SOCK" send-keys -t gtop '?'
	gb_wait 5 screen_has "gtop keys (any key closes this)"
	screen_has "c                cancel the selected job (asks first)"
	tmux -S "$TMUX_SOCK" send-keys -t gtop x
	gb_wait 5 eval '! screen_has "gtop keys"'
}

@test "gtop: Enter shows the selected job (fields, history, the end of its output), Esc closes" {
	a=$(gb_submit -G 1 -J talker --wrap 'echo "line one"; echo "hello from the job"; sleep 60')
	gb_wait_state "$a" RUNNING
	out=$(gq -l "$a" | awk '$1 == "stdout:" { print $2 }')
	gb_wait 10 grep -q "hello from the job" "$out"
	# Tall enough for every field of gq -l and the history below them.
	start_gtop 120 70 -d 1
	gb_wait 10 screen_has "jobs: 1 running"
	tmux -S "$TMUX_SOCK" send-keys -t gtop Enter
	gb_wait 10 screen_has "Job $a (j/k scroll, Esc closes)"
	screen >d1
	# The fields as gq -l gives them, and the history.
	grep -qE "^ name: +talker( |$)" d1
	grep -qE "^ state: +RUNNING( |$)" d1
	grep -qF "history:" d1
	grep -qE "PENDING -> RUNNING +on n[12]" d1
	# The end of its output, read from the file gq -l names.
	grep -qF "output $out, its last lines:" d1
	grep -qF "hello from the job" d1
	tmux -S "$TMUX_SOCK" send-keys -t gtop Escape
	gb_wait 5 screen_has "): 1 jobs"
	[ "$(screen | grep -c "Job $a (j/k")" = 0 ]
}

@test "gtop: the JCT pane shows what gacct --report cluster says for its window; the header the hour's average" {
	for s in 1 2 3; do
		gb_submit -G 1 --wrap "sleep $s" >/dev/null
	done
	# The report's range ends at now, exclusive: a job that ended this
	# very second is not in it yet. Once all three are, the figures
	# stay what they are (a want taken a second too early never
	# matched a later refresh).
	ended3() {
		[ "$(gacct -S now-24hours --report cluster -P -n -o group,jobs |
		    awk -F'|' '$1 == "all" { print $2 }')" = 3 ]
	}
	gb_wait 30 ended3
	start_gtop 120 40 -d 1
	tmux -S "$TMUX_SOCK" send-keys -t gtop 2
	gb_wait 10 screen_has "jobs that ended in the last 24 h"
	want=$(gacct -S now-24hours --report cluster -P -n \
	    -o group,jobs,jct_avg,jct_median,jct_p95,wait_avg,wait_median,wait_p95 |
	    awk -F'|' '$1 == "all" { print $2, $3, $4, $5, $6, $7, $8 }')
	[ -n "$want" ]
	shows_want() {
		[ "$(screen | awk '$1 == "all" && $2 == "-" { print $3, $4, $5, $6, $7, $8, $9 }')" = "$want" ]
	}
	# The window's report is asked at the next refresh; under the
	# sanitizers a refresh can take seconds.
	gb_wait 30 shows_want || { echo "want: $want"; screen; false; }
	# The header: the last hour's average, as gacct -S now-1hour has it.
	avg=$(gacct -S now-1hour --report cluster -P -n -o group,jct_avg |
	    awk -F'|' '$1 == "all" { printf "%d", $2 + 0.5 }')
	((avg >= 1 && avg < 60))
	d=$(printf '0:%02d' "$avg")
	screen_has "JCT avg: last hour $d, today $d"
}

@test "gtop --once: the JCT histogram counts what gacct's JCT rows count; the sparklines span the window's bins, in blocks or in ASCII" {
	for s in 1 2 3; do
		gb_submit -G "$s" --wrap "sleep $s" >/dev/null
	done
	# The report's range ends at now, exclusive: all three are in it
	# once a second has passed since the last ended.
	ended3() {
		[ "$(gacct -S now-1hour --report cluster -P -n -o group,jobs |
		    awk -F'|' '$1 == "all" { print $2 }')" = 3 ]
	}
	gb_wait 30 ended3
	want=$(gacct -S now-1hour --report cluster -P -n -o group,key,jobs |
	    awk -F'|' '$1 == "jct" { print $2, $3 }')
	[ "$(wc -l <<<"$want")" = 8 ]
	for loc in C.UTF-8 C; do
		LC_ALL=$loc COLUMNS=120 gtop --once >"once-$loc.txt"
		python3 - "once-$loc.txt" "$loc" "$want" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read().splitlines()
utf8 = sys.argv[2] == "C.UTF-8"
want = [l.split() for l in sys.argv[3].splitlines()]
# The histogram: a row per range under its heading, the count after the
# bar, a bar only where there are jobs.
at = [i for i, l in enumerate(text) if l.startswith(" JCT      jobs that ended")]
assert len(at) == 1, text
rows = text[at[0] + 1:at[0] + 9]
bar = "\u2588" if utf8 else "#"
got = [[r.split()[0], r.split()[-2]] for r in rows]
assert got == want, (got, want)
for r, (key, n) in zip(rows, want):
    assert (bar in r) == (int(n) > 0), r
# The sparklines: 60 cells (a bin each, fits at 120 columns) after the
# label; GPUs were used only lately, and there were none an hour ago.
levels = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588" if utf8 else "_.-=+*#@"
for label in ("GPU time", "waiting"):
    line = [l for l in text if l.startswith(" " + label)]
    assert len(line) == 1, (label, text)
    cells = line[0][10:70]
    assert len(cells) == 60 and all(c in levels + " " for c in cells), line
    # Labelled for what it counts: the share of GPU-time held in the
    # last bin (a minute of the hour), not the GPUs held now.
    assert line[0][70:].startswith(" now " if label == "waiting" else
                                   " "), line
    if label == "GPU time":
        assert "% in the last 1 min, " in line[0][70:], line
use = [l for l in text if l.startswith(" GPU time")][0][10:70]
assert use[0] == " ", use
assert any(c in levels[1:] for c in use[-2:]), use
assert all(c in " " + levels[0] for c in use[:-3]), use
PY
	done
}

@test "gtop marks the job that starts next, and lists the waiting ones in the scheduler's order" {
	big=$(gb_submit -G 8 --wrap 'sleep 60')
	gb_wait_state "$big" RUNNING
	p1=$(gb_submit -G 2 --wrap true)
	p2=$(gb_submit -G 1 --wrap true)
	gb_wait_state "$p2" PENDING
	run -0 env COLUMNS=100 gtop --once
	# The running job, then the first ranked (marked), then the next.
	order=$(awk '$1 ~ /^[0-9]+$/ && $2 == "root" { print $1 } $1 == ">" { print ">" $2 }' <<<"$output" | paste -sd' ')
	[ "$order" = "$big >$p1 $p2" ] || { echo "order: $order"; false; }
}

@test "gtop's header names the policy in force and the queues their thresholds, as gctl show config has them" {
	run -0 gctl show config --json
	policy=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["scheduler"]["policy"])' <<<"$output")
	thr=$(python3 -c '
import json, sys
t = json.load(sys.stdin)["scheduler"]["thresholds"]
def d(s):
    h, m, x = s // 3600, s // 60 % 60, s % 60
    return "%d:%02d:%02d" % (h, m, x) if h else "%d:%02d" % (m, x)
print(", ".join("Q%d < %s" % (i, d(v)) for i, v in enumerate(t)) + ", Q%d" % len(t))' <<<"$output")
	run -0 env COLUMNS=120 gtop --once
	[[ "${lines[0]}" == *"policy $policy  nodes:"* ]]
	[[ "$output" == *"Queues ($thr): 0 jobs"* ]]
	[[ "${lines[0]}" == "gtop  cluster $(hostname | cut -d. -f1)  gbatchd "* ]]
	# A name of the admin's, read again on gctl reconfigure.
	sed -i 's/^controller = {$/&\n  cluster_name = "lab-7";/' "$GBATCH_CONF"
	gctl reconfigure >/dev/null
	run -0 gctl show config --json
	[ "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["controller"]["cluster_name"])' <<<"$output")" = lab-7 ]
	run -0 env COLUMNS=120 gtop --once
	[[ "${lines[0]}" == "gtop  cluster lab-7  gbatchd "* ]]
	sed -i 's/"lab-7"/"lab 7"/' "$GBATCH_CONF"
	run -1 --separate-stderr gbatchd --check-config
	[[ "$stderr" == *"controller.cluster_name: expected 1 to 64 letters, digits, '.', '-' or '_'"* ]]
}

@test "gtop: s sorts the queues by a column and back to the scheduler's order" {
	a=$(gb_submit -G 1 -J zeta --wrap 'sleep 60')
	b=$(gb_submit -G 2 -J alpha --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	start_gtop 120 30 -d 1
	gb_wait 10 screen_has "Queues"
	ids() { screen | awk '$1 ~ /^[0-9]+$/ && $2 == "root" { print $1 }' | paste -sd' '; }
	[ "$(ids)" = "$a $b" ]
	# id, user, then name: alpha before zeta.
	tmux -S "$TMUX_SOCK" send-keys -t gtop s s s
	gb_wait 5 screen_has "queues by name"
	screen_has ", by name"
	[ "$(ids)" = "$b $a" ]
	for i in 1 2 3 4; do
		tmux -S "$TMUX_SOCK" send-keys -t gtop s
	done
	gb_wait 5 screen_has "queues by scheduler"
	[ "$(ids)" = "$a $b" ]
}

@test "gtop shows each GPU's use as its node reports it, and flags a GPU its job holds idle" {
	printf '0 73 2048\n' >use-n3
	gb_start_node n3 2 --gpu-use "$GB_DIR/use-n3"
	gctl drain n1 --reason test
	gctl drain n2 --reason test
	id=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING
	[ "$(gq -h -j "$id" -o nodes)" = n3 ]
	# gnodes: what the heartbeats said.
	util_is() { [ "$(gnodes -h -N n3 -o util)" = "$1" ]; }
	gb_wait 10 util_is "0:73 1:0"
	# GPU 1 is held and 0% busy: idle once --idle-after has passed.
	flagged() {
		run -0 env COLUMNS=120 gtop --once --idle-after 1
		[[ "$output" == *"1 allocated GPU idle for 1 s"* ]]
	}
	gb_wait 10 flagged
	row=$(grep -E '^ n3 ' <<<"$output")
	[[ "$row" == *" $id 73%  "*" $id  0%!"* ]] || { echo "row: $row"; false; }
	# Busy again: no longer flagged.
	printf '0 73 2048\n1 50 1024\n' >use-n3
	unflagged() {
		run -0 env COLUMNS=120 gtop --once --idle-after 1
		[[ "$output" != *"idle for"* && "$output" == *" $id 50%"* ]]
	}
	gb_wait 10 unflagged
	# A bad flag value is refused.
	run -2 gtop --once --idle-after 0
	[[ "$output" == *"--idle-after: expected whole seconds from 1 to 86400, got \"0\""* ]]
}

@test "gtop: a click selects the job under it, the wheel moves, a second click opens the job" {
	a=$(gb_submit -G 1 --wrap 'sleep 60')
	b=$(gb_submit -G 1 --wrap 'sleep 60')
	gb_wait_state "$a" RUNNING
	gb_wait_state "$b" RUNNING
	start_gtop 100 30 -d 1
	gb_wait 10 screen_has "jobs: 2 running"
	# The screen row of job b, 1-based as the terminal counts.
	y=$(screen | awk -v id="$b" '$1 == id && $2 == "root" { print NR; exit }')
	[ -n "$y" ]
	# A press and a release of the left button there (xterm's SGR
	# reports, as a terminal sends them).
	click() {
		tmux -S "$TMUX_SOCK" send-keys -t gtop -l $'\e[<0;10;'"$1"'M'
		tmux -S "$TMUX_SOCK" send-keys -t gtop -l $'\e[<0;10;'"$1"'m'
	}
	click "$y"
	tmux -S "$TMUX_SOCK" send-keys -t gtop c
	gb_wait 5 screen_has "cancel job $b? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop n
	# The wheel up: job a.
	tmux -S "$TMUX_SOCK" send-keys -t gtop -l $'\e[<64;10;'"$y"'M'
	tmux -S "$TMUX_SOCK" send-keys -t gtop c
	gb_wait 5 screen_has "cancel job $a? y/n"
	tmux -S "$TMUX_SOCK" send-keys -t gtop n
	# Two clicks on b: its detail.
	click "$y"
	click "$y"
	gb_wait 5 screen_has "Job $b (j/k scroll, Esc closes)"
}
