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
	for o in --nodes --format --noheader --json --help --version; do
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
