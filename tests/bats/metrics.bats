#!/usr/bin/env bats
# metrics: gbatchd's Prometheus endpoint (controller.metrics_listen): the
# figures match what the test did, the text passes promtool, only GET and
# HEAD of /metrics are served, nothing listens unless asked, and a slow or
# oversized request stalls nothing.

load helpers

# A loopback port that was free a moment ago: bound by the kernel, let go.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	PORT=$(free_port)
	URL="http://127.0.0.1:$PORT/metrics"
	gb_write_conf "metrics_listen = \"127.0.0.1:$PORT\";"
	# Jobs write their output files where they were submitted from.
	cd "$GB_DIR"
}

teardown() {
	gb_teardown
}

# scrape: GET /metrics into $GB_DIR/m.
scrape() {
	curl -sSf --max-time 10 "$URL" >"$GB_DIR/m"
}

# metric SAMPLE: the value of SAMPLE (its name and labels as written) in
# the last scrape; fails when it is absent.
metric() {
	awk -v s="$1" '$1 == s { print $2; f = 1 } END { exit !f }' "$GB_DIR/m"
}

# metric_is SAMPLE VALUE: scrapes again and compares (for gb_wait).
metric_is() {
	scrape && [ "$(metric "$1")" = "$2" ]
}

# group_is KIND NAME PENDING RUNNING GPUS: in the last scrape, the jobs
# pending and running of the group NAME of KIND (partition, account,
# qos), and the GPUs the running ones hold.
group_is() {
	[ "$(metric "gbatch_$1_jobs{$1=\"$2\",state=\"PENDING\"}")" = "$3" ] &&
	    [ "$(metric "gbatch_$1_jobs{$1=\"$2\",state=\"RUNNING\"}")" = "$4" ] &&
	    [ "$(metric "gbatch_$1_gpus_allocated{$1=\"$2\"}")" = "$5" ]
}

# waits_for_gpus ID: the job is pending for want of GPUs.
waits_for_gpus() {
	[ "$(gq -h -j "$1" -o state,reason | awk '{ print $1, $2 }')" = "PENDING Resources" ]
}

@test "metrics count the jobs, GPUs and passes of a real cluster" {
	gb_start_controller
	gb_start_node n1 2
	# One job completes, one holds both GPUs, one waits for them.
	done_id=$(gb_submit -G 1 --wrap true)
	gb_wait_state "$done_id" COMPLETED 20
	big=$(gb_submit -G 2 --wrap 'sleep 300')
	gb_wait_state "$big" RUNNING 20
	waiting=$(gb_submit -G 1 --wrap true)
	gb_wait 10 waits_for_gpus "$waiting"
	scrape
	[ "$(metric gbatch_up)" = 1 ]
	[ "$(metric gbatch_job_submissions_total)" = 3 ]
	[ "$(metric gbatch_job_starts_total)" = 2 ]
	[ "$(metric 'gbatch_jobs_finished_total{state="COMPLETED"}')" = 1 ]
	[ "$(metric 'gbatch_jobs_finished_total{state="FAILED"}')" = 0 ]
	# Both active jobs are new: queue 0 of the default two.
	[ "$(metric 'gbatch_jobs{state="PENDING",queue="0"}')" = 1 ]
	[ "$(metric 'gbatch_jobs{state="PENDING",queue="1"}')" = 0 ]
	[ "$(metric 'gbatch_jobs{state="RUNNING",queue="0"}')" = 1 ]
	[ "$(metric 'gbatch_jobs{state="HELD"}')" = 0 ]
	! metric 'gbatch_jobs{state="COMPLETED"}'
	[ "$(metric 'gbatch_node_gpus{node="n1",status="total"}')" = 2 ]
	[ "$(metric 'gbatch_node_gpus{node="n1",status="allocated"}')" = 2 ]
	[ "$(metric 'gbatch_node_gpus{node="n1",status="down"}')" = 0 ]
	[ "$(metric 'gbatch_nodes{state="allocated"}')" = 1 ]
	[ "$(metric 'gbatch_clients_connected{kind="node"}')" = 1 ]
	[ "$(metric gbatch_job_preemptions_total)" = 0 ]
	# Histograms: passes and commits happened; +Inf is the count.
	n=$(metric gbatch_schedule_pass_duration_seconds_count)
	[ "$n" -gt 0 ]
	[ "$(metric 'gbatch_schedule_pass_duration_seconds_bucket{le="+Inf"}')" = "$n" ]
	n=$(metric gbatch_store_commit_duration_seconds_count)
	[ "$n" -gt 0 ]
	[ "$(metric 'gbatch_store_commit_duration_seconds_bucket{le="+Inf"}')" = "$n" ]
	# Requests by type: this gq listing is one more JOB_LIST.
	lists=$(metric 'gbatch_requests_total{type="JOB_LIST"}')
	[ "$lists" -gt 0 ]
	gq >/dev/null
	scrape
	[ "$(metric 'gbatch_requests_total{type="JOB_LIST"}')" = $((lists + 1)) ]
	# The node's messages count too: two starts, one end.
	[ "$(metric 'gbatch_requests_total{type="JOB_SUBMIT"}')" = 3 ]
	[ "$(metric 'gbatch_requests_total{type="JOB_STARTED"}')" = 2 ]
	[ "$(metric 'gbatch_requests_total{type="JOB_ENDED"}')" = 1 ]
	[ "$(metric 'gbatch_requests_total{type="PURGE"}')" = 0 ]
	metric 'gbatch_request_seconds_total{type="JOB_LIST"}' | grep -Eq '^[0-9]+\.[0-9]{6}$'
	start=$(metric gbatch_start_time_seconds)
	[ "$start" -le "$(date +%s)" ]
	[ "$start" -gt $(($(date +%s) - 600)) ]
	# A held job leaves the queues; a node that stops is down.
	gctl hold "$waiting" >/dev/null
	gb_wait 10 metric_is 'gbatch_jobs{state="HELD"}' 1
	[ "$(metric 'gbatch_jobs{state="PENDING",queue="0"}')" = 0 ]
	gcancel "$big"
	gb_wait 20 metric_is 'gbatch_jobs_finished_total{state="CANCELLED"}' 1
	kill -TERM "$GB_NODE_PID_n1"
	gb_wait 20 metric_is 'gbatch_node_gpus{node="n1",status="down"}' 2
	[ "$(metric 'gbatch_nodes{state="down"}')" = 1 ]
}

# field ID FIELD: one gq field of a job, finished or not.
field() {
	gq -h -t all -j "$1" -o "$2"
}

@test "preemptions and promotions are counted as the jobs' own counters say" {
	# preempt_plain: l, a plain sleep, may be preempted.
	printf 'scheduler = {\n  thresholds = [ 2.0 ];\n  promote_knob = 1;\n  preempt_plain = true;\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 4
	# l reaches Q1 after half a second; s, new in Q0, preempts it; l,
	# starving, is promoted after waiting as long as it ran.
	l=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$l" RUNNING 20
	gb_wait 10 eval "[ \"\$(field $l queue)\" = Q1 ]"
	s=$(gb_submit -G 4 --wrap 'sleep 60')
	gb_wait_state "$s" RUNNING 20
	gb_wait 15 eval "[ \"\$(field $l promotions)\" -ge 1 ]"
	# End the tug of war, then let it settle with l running alone.
	gcancel "$s"
	gb_wait_state "$s" CANCELLED 20
	gb_wait_state "$l" RUNNING 20
	scrape
	[ "$(metric gbatch_job_preemptions_total)" = $(($(field "$l" preemptions) + $(field "$s" preemptions))) ]
	[ "$(metric gbatch_job_promotions_total)" = $(($(field "$l" promotions) + $(field "$s" promotions))) ]
	[ "$(metric gbatch_job_preemptions_total)" -ge 1 ]
	[ "$(metric gbatch_job_starts_total)" = "$(grep -c -- '-> RUNNING' "$GB_DIR/gbatchd.log")" ]
	[ "$(metric gbatch_job_submissions_total)" = 2 ]
	# l runs, in whichever queue its service has reached by now.
	[ $(($(metric 'gbatch_jobs{state="RUNNING",queue="0"}') + $(metric 'gbatch_jobs{state="RUNNING",queue="1"}'))) = 1 ]
}

# ran_a_second ID: the job has run for a second or more.
ran_a_second() {
	[ "$(gq -h -j "$1" -o time)" != 0:00 ]
}

@test "jobs, GPUs and GPU-seconds by partition: pending in each it lists, running and GPU-seconds where it runs" {
	cat >>"$GBATCH_CONF" <<'CONF'
partitions = {
  gpu = { nodes = "n1"; default = true; };
  long = { nodes = "n1"; };
};
CONF
	gb_start_controller
	gb_start_node n1 2
	big=$(gb_submit -G 2 -p long --wrap 'sleep 300')
	gb_wait_state "$big" RUNNING 20
	both=$(gb_submit -G 1 -p gpu,long --wrap true)
	gb_wait 10 waits_for_gpus "$both"
	scrape
	group_is partition long 1 1 2
	group_is partition gpu 1 0 0
	! metric 'gbatch_partition_gpu_seconds_total{partition="long"}'
	gb_wait 10 ran_a_second "$big"
	gcancel "$big"
	gb_wait_state "$both" COMPLETED 20
	scrape
	s=$(metric 'gbatch_partition_gpu_seconds_total{partition="long"}')
	[ "$s" -ge 2 ]
	# The second job ran in gpu, the first of its list: under a
	# second, nothing to count, or its GPU's seconds.
	[ "$(metric 'gbatch_partition_gpus_allocated{partition="gpu"}')" = 0 ]
}

# runs_gpu_seconds IDS...: GPUs x seconds of the jobs' runs, as gacct
# lists them.
runs_gpu_seconds() {
	gacct -j "$(IFS=,; echo "$*")" --json | python3 -c '
import json, sys
print(sum(r["gpus"] * (r["end_time"] - r["start_time"])
          for j in json.load(sys.stdin)["jobs"] for r in j["runs"]))'
}

@test "jobs, GPUs and GPU-seconds by account: the jobs charged to each, every account of the table, jobs of none under account=\"\"" {
	gb_start_controller
	gb_start_node n1 2
	gctl account add phys
	gctl account add idle
	big=$(gb_submit -G 2 -A phys --wrap 'sleep 300')
	gb_wait_state "$big" RUNNING 20
	wait1=$(gb_submit -G 1 -A phys --wrap 'sleep 1')
	none=$(gb_submit -G 1 --wrap 'sleep 1')
	gb_wait 10 waits_for_gpus "$wait1"
	gb_wait 10 waits_for_gpus "$none"
	scrape
	group_is account phys 1 1 2
	group_is account idle 0 0 0
	group_is account "" 1 0 0
	! metric 'gbatch_account_gpu_seconds_total{account="phys"}'
	gb_wait 10 ran_a_second "$big"
	gcancel "$big"
	gb_wait_state "$wait1" COMPLETED 20
	gb_wait_state "$none" COMPLETED 20
	scrape
	group_is account phys 0 0 0
	# The runs that ended, as gacct lists them.
	[ "$(metric 'gbatch_account_gpu_seconds_total{account="phys"}')" = "$(runs_gpu_seconds "$big" "$wait1")" ]
	[ "$(metric 'gbatch_account_gpu_seconds_total{account=""}')" = "$(runs_gpu_seconds "$none")" ]
	! metric 'gbatch_account_gpu_seconds_total{account="idle"}'
}

@test "jobs, GPUs and GPU-seconds by QOS: the jobs of each, every QOS of the settings, GPU-seconds as run whatever the usage factor" {
	printf 'qos = {\n  normal = { };\n  scavenger = { usage_factor = 0.0; preempt_mode = "requeue"; };\n  idle = { };\n};\n' >>"$GBATCH_CONF"
	gb_start_controller
	gb_start_node n1 2
	big=$(gb_submit -G 2 -q scavenger --wrap 'sleep 300')
	gb_wait_state "$big" RUNNING 20
	wait1=$(gb_submit -G 1 -q scavenger --wrap 'sleep 1')
	plain=$(gb_submit -G 1 --wrap 'sleep 1')
	gb_wait 10 waits_for_gpus "$wait1"
	gb_wait 10 waits_for_gpus "$plain"
	scrape
	group_is qos scavenger 1 1 2
	group_is qos normal 1 0 0
	group_is qos idle 0 0 0
	! metric 'gbatch_qos_gpu_seconds_total{qos="scavenger"}'
	gb_wait 10 ran_a_second "$big"
	gcancel "$big"
	gb_wait_state "$wait1" COMPLETED 20
	gb_wait_state "$plain" COMPLETED 20
	scrape
	group_is qos scavenger 0 0 0
	# The runs that ended, as gacct lists them, the factor not applied.
	s=$(runs_gpu_seconds "$big" "$wait1")
	[ "$s" -ge 2 ]
	[ "$(metric 'gbatch_qos_gpu_seconds_total{qos="scavenger"}')" = "$s" ]
	[ "$(metric 'gbatch_qos_gpu_seconds_total{qos="normal"}')" = "$(runs_gpu_seconds "$plain")" ]
	! metric 'gbatch_qos_gpu_seconds_total{qos="idle"}'
}

@test "the metrics pass promtool check metrics" {
	command -v promtool >/dev/null ||
	    skip "promtool not installed (Debian package prometheus)"
	gb_start_controller
	gb_start_node n1 2
	id=$(gb_submit -G 1 --wrap 'sleep 300')
	gb_wait_state "$id" RUNNING 20
	scrape
	run -0 promtool check metrics <"$GB_DIR/m"
	[ -z "$output" ]
}

@test "only GET and HEAD of /metrics are served" {
	gb_start_controller
	run -0 curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/"
	[ "$output" = 404 ]
	run -0 curl -s -o /dev/null -w '%{http_code}' "$URL/more"
	[ "$output" = 404 ]
	run -0 curl -s -D - -o /dev/null -X POST "$URL"
	[[ "${lines[0]}" == "HTTP/1.1 405 "* ]]
	grep -qix $'allow: GET, HEAD\r' <<<"$output"
	run -0 curl -s -o /dev/null -w '%{http_code}' -X DELETE "$URL"
	[ "$output" = 405 ]
	run -0 curl -s -I "$URL"
	[[ "${lines[0]}" == "HTTP/1.1 200 "* ]]
	grep -qi '^content-type: text/plain; version=0.0.4' <<<"$output"
	# The query string is not part of the path.
	run -0 curl -s -o /dev/null -w '%{http_code}' "$URL?x=1"
	[ "$output" = 200 ]
}

@test "without controller.metrics_listen nothing listens" {
	gb_write_conf
	gb_start_controller
	run -0 gctl show config
	grep -qx 'controller.metrics_listen = null' <<<"$output"
	run -7 curl -s "$URL"
}

@test "a bad or taken metrics address stops gbatchd with the reason" {
	gb_write_conf 'metrics_listen = "localhost";'
	run -1 gbatchd -D -f "$GBATCH_CONF"
	[[ "$output" == *"controller.metrics_listen: expected HOST:PORT"* ]]
	gb_write_conf 'metrics_listen = "127.0.0.1:0";'
	run -1 gbatchd -D -f "$GBATCH_CONF"
	[[ "$output" == *"controller.metrics_listen"*"port"* ]]
	# Someone else has the port.
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print("ready", flush=True); time.sleep(60)' "$PORT" >"$GB_DIR/holder" &
	holder=$!
	gb_wait 10 grep -q ready "$GB_DIR/holder"
	gb_write_conf "metrics_listen = \"127.0.0.1:$PORT\";"
	run -1 gbatchd -D -f "$GBATCH_CONF"
	kill "$holder"
	wait "$holder" || true
	[[ "$output" == *"metrics_listen 127.0.0.1:$PORT: Address already in use"* ]]
}

@test "a new metrics address waits for a restart, and says so" {
	gb_start_controller
	other=$(free_port)
	gb_write_conf "metrics_listen = \"127.0.0.1:$other\";"
	run -0 gctl reconfigure
	[[ "$output" == *"in force after gbatchd restarts: controller.metrics_listen"* ]]
	scrape
	run -0 gctl show config
	grep -qx "controller.metrics_listen = \"127.0.0.1:$PORT\"" <<<"$output"
}

@test "a slow or oversized request stalls neither gbatchd nor other scrapes" {
	gb_start_controller
	# Half a request line, left hanging.
	exec 5<>"/dev/tcp/127.0.0.1/$PORT"
	printf "GET /metr" >&5
	gb_wait 5 gctl ping
	scrape
	# Headers past the bound are refused, not read on and on.
	head -c 20000 /dev/zero | tr '\0' a >"$GB_DIR/big"
	run -0 curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(cat "$GB_DIR/big")" "$URL"
	[ "$output" != 200 ]
	scrape
	exec 5>&-
	gctl ping >/dev/null
}
