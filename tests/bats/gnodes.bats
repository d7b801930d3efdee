#!/usr/bin/env bats
# gnodes: node states, GPU use, filters, exit statuses.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_cluster
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

@test "gnodes --help lists every option" {
	run -0 gnodes --help
	for o in --nodes --format --noheader --json --gsim --help --version; do
		[[ "$output" == *"$o"* ]] || { echo "missing $o"; false; }
	done
}

@test "gnodes --version names the program and package" {
	run -0 gnodes --version
	[[ "$output" =~ ^gnodes\ \(gbatch\)\ [0-9]+\.[0-9]+ ]]
}

@test "gnodes with an unknown option or field is a usage error" {
	run -2 gnodes --frobnicate
	[[ "$output" == *"--frobnicate"* ]]
	run -2 gnodes -o name,bogus
	[[ "$output" == *'"bogus"'*"accepted:"* ]]
	run -2 gnodes stray
}

@test "gnodes lists idle nodes with free GPUs" {
	run -0 gnodes
	read -r -a head <<<"${lines[0]}"
	[ "${head[0]}" = NODE ]
	[ "${head[1]}" = STATE ]
	[ "${head[2]}" = GPUS ]
	run -0 gnodes --noheader -N n1 -o name,state,gpus,jobs
	read -r name state gpus jobs <<<"$output"
	[ "$name" = n1 ]
	[ "$state" = idle ]
	[ "$gpus" = 0/4 ]
	[ "$jobs" = "0:- 1:- 2:- 3:-" ]
}

@test "gnodes shows which job holds each GPU" {
	id=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	node=$(gq -h -j "$id" -o nodes)
	run -0 gnodes -h -N "$node" -o state,gpus,jobs
	read -r state gpus jobs <<<"$output"
	[ "$state" = mixed ]
	[ "$gpus" = 2/4 ]
	[ "$(grep -o ":$id" <<<"$output" | wc -l)" -eq 2 ]
	[ "$(grep -o ':-' <<<"$output" | wc -l)" -eq 2 ]
}

@test "gnodes -N filters and reports an unknown node" {
	run -0 gnodes -h -N n2 -o name
	[ "$output" = n2 ]
	run -1 gnodes -N n1,nosuch
	[[ "$output" == *"node nosuch: not found"* ]]
	[[ "$output" == *n1* ]]
}

@test "gnodes --json prints the node list" {
	run -0 gnodes --json
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert sorted(n["name"] for n in d["nodes"]) == ["n1","n2"], d' "$output"
}

@test "NODE_LIST brief gives each GPU as an array of what changes, the descriptions left out (gtop's refresh)" {
	id=$(gb_submit -G 2 --wrap 'sleep 60')
	gb_wait_state "$id" RUNNING 20
	# The two answers are compared value for value: first let the
	# heartbeats say every GPU's use, and that the job's GPUs are idle,
	# so that a heartbeat between the two requests changes nothing.
	settled() {
		gnodes --json | python3 -c '
import json, sys
gpus = [g for n in json.load(sys.stdin)["nodes"] for g in n["gpus"]]
sys.exit(0 if all(g["util"] is not None for g in gpus) and
         all(g["low_since"] > 0 for g in gpus if g["job"] == int(sys.argv[1]))
         else 1)' "$id"
	}
	gb_wait 20 settled
	run -0 gb_rawask '{"type":300,"brief":true,"seq":7}' '{"type":300}'
	python3 -c '
import json, sys
brief, full = (json.loads(l) for l in sys.argv[1].splitlines())
assert brief["ok"] is True and brief["seq"] == 7, brief
assert len(brief["nodes"]) == len(full["nodes"]) == 2, brief
for b, f in zip(brief["nodes"], full["nodes"]):
    assert sorted(b) == sorted(f), (b, f)
    assert {k: v for k, v in b.items() if k not in ("gpus", "last_seen")} == \
        {k: v for k, v in f.items() if k not in ("gpus", "last_seen")}, (b, f)
    assert len(b["gpus"]) == len(f["gpus"]) == 4, b
    for bg, fg in zip(b["gpus"], f["gpus"]):
        # [index, job, util, mem_used_mb, low_since], as the full entry has them.
        assert bg == [fg[k] for k in ("index", "job", "util", "mem_used_mb", "low_since")], (bg, fg)
        assert sorted(fg) == ["index", "job", "low_since", "mem_used_mb", "memory_mb", "name", "util", "uuid"], fg
jobs = [g[1] for n in brief["nodes"] for g in n["gpus"]]
assert jobs.count(int(sys.argv[2])) == 2, jobs' "$output" "$id"
}

@test "gnodes shows a node down once its daemon stops" {
	kill -TERM "$GB_NODE_PID_n2"
	gb_wait 20 sh -c 'gnodes -h -N n2 -o state | grep -qx down'
}

@test "gnodes says where it looked when gbatchd is unreachable" {
	GBATCH_SOCKET=$GB_DIR/nosuch.sock run -3 gnodes
	[[ "$output" == *"cannot reach gbatchd at $GB_DIR/nosuch.sock"* ]]
}

@test "escape sequences in a node's reason print escaped in gnodes, exactly in --json" {
	gctl drain n1 --reason $'\e[31mred\a\xc2\x9b2J\nforged'
	gnodes -N n1 -o name,reason >out
	gb_no_controls out
	[ "$(sed -n 1p out)" = "NODE  REASON" ]
	[ "$(sed -n 2p out)" = 'n1    \e[31mred\x07\u009b2J\nforged' ]
	[ "$(wc -l <out)" -eq 2 ]
	gnodes --json -N n1 >out
	gb_no_controls out
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["nodes"][0]
assert d["reason"] == "\x1b[31mred\x07\x9b2J\nforged", d["reason"]' out
}

# gsim_cluster SHAPE: gsim's own account of the cluster -c SHAPE gives it,
# "NODES nodes x GPUS GPUs on SWITCHES switch(es)", replaying a trace of
# one job that needs every GPU the cluster has (gsim refuses a job that
# does not fit, so a shape too small fails here).
gsim_cluster() {
	local total
	total=$(python3 -c 'import json, sys
print(sum(n["gpus_total"] for n in json.load(sys.stdin)["nodes"]))' <"$GB_DIR/nodes.json")
	printf 'submit_time,num_gpus,duration\n0,%s,60\n' "$total" >"$GB_DIR/all.csv"
	gsim -q -p fifo -c "$1" "$GB_DIR/all.csv" |
	    sed -n 's/^1 jobs; \([0-9]*\) nodes\{0,1\} x \([0-9]*\) GPUs = [0-9]* GPUs on \([0-9]*\) switch.*/\1 \2 \3/p'
}

@test "gnodes --gsim prints the cluster's shape, which gsim -c takes" {
	gnodes --json >"$GB_DIR/nodes.json"
	# Worked out from the listing: how many nodes, each one's GPUs.
	want=$(python3 -c 'import json, sys
n = json.load(sys.stdin)["nodes"]
print("%dx%d" % (len(n), n[0]["gpus_total"]))' <"$GB_DIR/nodes.json")
	[ "$want" = 2x4 ]
	run -0 --separate-stderr gnodes --gsim
	[ "$output" = "$want" ]
	[ -z "$stderr" ]
	run -0 gsim_cluster "$output"
	[ "$output" = "2 4 1" ]
	run -0 gnodes --gsim -N n2
	[ "$output" = 1x4 ]
}

@test "gnodes --gsim gives switches when each has as many nodes, else the flat shape and why" {
	gb_start_node n3 4 --switch rackA
	gb_start_node n4 4 --switch rackB
	gnodes -N n3,n4 --json >"$GB_DIR/nodes.json"
	run -0 gnodes --gsim -N n3,n4
	[ "$output" = 2x1x4 ]
	run -0 gsim_cluster 2x1x4
	[ "$output" = "2 4 2" ]
	# n1 and n2 name no switch: the GPUs are all there, the racks not.
	run -0 --separate-stderr gnodes --gsim
	[ "$output" = 4x4 ]
	[[ "$stderr" == *"2 of 4 nodes name no switch"* ]]
	gb_start_node n5 4 --switch rackA
	run -0 --separate-stderr gnodes --gsim -N n3,n4,n5
	[ "$output" = 3x4 ]
	[[ "$stderr" == *"different numbers of nodes"* ]]
}

@test "gnodes --gsim refuses nodes of different sizes and a listing it cannot print" {
	gb_start_node n3 8
	run -1 --separate-stderr gnodes --gsim
	[ -z "$output" ]
	[[ "$stderr" == *"node n3 has 8 GPUs and node n1 4"*"one size"* ]]
	run -0 gnodes --gsim -N n1,n2
	[ "$output" = 2x4 ]
	for o in --json -h "-o name"; do
		# shellcheck disable=SC2086
		run -2 gnodes --gsim $o
		[[ "$output" == *"--gsim prints one line"* ]]
	done
}
