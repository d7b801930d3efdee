#!/usr/bin/env bats
# The link between gbatchd and gnoded: TLS 1.3 with certificates of the
# cluster's CA. Whoever cannot prove a name of that CA is refused, logged
# with the peer's address and the reason, and acted on in nothing.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	gb_start_controller
	gb_start_node n1 2
	cd "$GB_DIR"
}

teardown() {
	[ -z "${FC_PID:-}" ] || kill "$FC_PID" 2>/dev/null || true
	gb_teardown
}

# conf_with_tls FILE KEYS: a copy of the configuration whose tls group is
# KEYS, for one daemon that should present other files.
conf_with_tls() {
	sed '/^tls = {/,$d' "$GBATCH_CONF" >"$1"
	printf 'tls = {\n%s\n};\n' "$2" >>"$1"
}

# try_node NAME CONF: starts gnoded NAME with CONF, for a test that expects
# it to be refused.
try_node() {
	gnoded -D -f "$2" -n "$1" -g 2 -c "$GB_CTL_ADDR" -d "$GB_DIR/node-$1" \
	    -u "" -L "$GB_DIR/gnoded-$1.log" &
	GB_NODE_PIDS+=($!)
}

refused_in_log() {
	grep -q "refused: $1" "$GB_DIR/gbatchd.log"
}

# node_is STATE NODE: gnodes says NODE is in STATE (idle, down, ...).
node_is() {
	[ "$(gnodes -h -N "$2" -o state)" = "$1" ]
}

not_listed() {
	run -0 gnodes --noheader -o name
	[[ "$output" != *"$1"* ]]
}

# rogue_node CERT KEY: a TLS client that presents CERT to gbatchd's node
# port and then says HELLO as node n9, as a forged gnoded would (gnoded
# itself refuses to start with such a certificate).
rogue_node() {
	python3 -c 'import json, struct, sys
b = json.dumps({"type": 100, "version": 1, "role": "node", "name": "n9", "gpus": []}).encode()
sys.stdout.buffer.write(struct.pack(">I", len(b)) + b)' >"$GB_DIR/hello.frame"
	{ cat "$GB_DIR/hello.frame"; sleep 2; } |
	    timeout 10 openssl s_client -quiet -tls1_3 -connect "$GB_CTL_ADDR" \
	    -cert "$1" -key "$2" -CAfile "$GB_DIR/tls/ca.crt" >/dev/null 2>&1 || true
}

@test "a node whose certificate comes from another CA is refused and registers nothing" {
	gctl ca init --dir "$GB_DIR/other" >/dev/null
	gctl cert issue n9 --dir "$GB_DIR/other" >/dev/null
	conf_with_tls "$GB_DIR/rogue.conf" "  ca = \"$GB_DIR/tls/ca.crt\";
  cert = \"$GB_DIR/other/n9.crt\"; key = \"$GB_DIR/other/n9.key\";
  controller_name = \"controller\";"
	# gnoded will not even start with it...
	run -1 gnoded -D -f "$GB_DIR/rogue.conf" -n n9 -g 2 -u ""
	[[ "$output" == *"n9.crt: unable to get local issuer certificate"* ]]
	# ...and a forged one gets nothing from gbatchd.
	rogue_node "$GB_DIR/other/n9.crt" "$GB_DIR/other/n9.key"
	gb_wait 10 refused_in_log "unable to get local issuer certificate"
	grep -q "peer 127.0.0.1:[0-9]*: refused" "$GB_DIR/gbatchd.log"
	not_listed n9
}

@test "a revoked node certificate is refused after SIGHUP rereads the CRL" {
	gctl cert issue n9 --dir "$GB_DIR/tls" >/dev/null
	gctl cert revoke n9 --dir "$GB_DIR/tls" >/dev/null
	kill -HUP "$GB_CTL_PID"
	gb_wait 10 grep -q "reloaded" "$GB_DIR/gbatchd.log"
	rogue_node "$GB_DIR/tls/n9.crt" "$GB_DIR/tls/n9.key"
	gb_wait 10 refused_in_log "certificate revoked"
	not_listed n9
	# gnoded refuses its own revoked certificate at start.
	run -1 gnoded -D -f "$GBATCH_CONF" -n n9 -g 2 -u ""
	[[ "$output" == *"n9.crt: certificate revoked"* ]]
}

@test "a node revoked while connected is cut off at the reload, and gets nothing more" {
	gb_start_node n2 2
	gb_wait 10 node_is idle n2
	# n2's key is stolen: revoked, and gbatchd reads the CRL again.
	gctl cert revoke n2 --dir "$GB_DIR/tls" >/dev/null
	kill -HUP "$GB_CTL_PID"
	gb_wait 10 grep -q "peer 127.0.0.1:[0-9]*: node n2 refused: certificate revoked; connection closed" \
	    "$GB_DIR/gbatchd.log"
	# Its reconnections are refused at the handshake.
	gb_wait 10 refused_in_log "certificate revoked"
	gb_wait 20 node_is down n2
	# A job only n2 may run is launched nowhere: n2 hears nothing.
	launches=$(grep -c "launch" "$GB_DIR/gnoded-n2.log" || true)
	id=$(gb_submit -w n2 --wrap true)
	gb_wait 10 gb_state_is "$id" PENDING
	[ "$(grep -c "launch" "$GB_DIR/gnoded-n2.log" || true)" = "$launches" ]
	# n1, not revoked, keeps its connection and runs jobs.
	id=$(gb_submit -w n1 --wrap true)
	gb_wait_state "$id" COMPLETED 20
}

@test "half-done TLS handshakes have their own budget, per address and in all, and a short deadline" {
	before=$(ls "/proc/$GB_CTL_PID/fd" | wc -l)
	# 200 TCP connections to the nodes' port that never say a word.
	python3 - "$GB_CTL_ADDR" "$GB_DIR/held" <<'PY' &
import socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
socks = [socket.create_connection((host, int(port))) for _ in range(200)]
open(sys.argv[2], "w").close()
time.sleep(30)
PY
	holder=$!
	gb_wait 20 test -e "$GB_DIR/held"
	gb_wait 10 grep -q "refused: 8 TLS handshakes from 127.0.0.1 under way, the most taken from one address" \
	    "$GB_DIR/gbatchd.log"
	# gbatchd holds 8 of them, not 200; and logs the refusals once.
	[ "$(ls "/proc/$GB_CTL_PID/fd" | wc -l)" -le $((before + 8)) ]
	[ "$(grep -c "TLS handshakes from 127.0.0.1 under way" "$GB_DIR/gbatchd.log")" -le 2 ]
	run -0 gq --timeout 2
	# Those 8 are dropped after 3 s; a node then gets in from the same
	# address, the other 192 still held open at the far end.
	gb_wait 10 grep -q "no TLS handshake within 3 s" "$GB_DIR/gbatchd.log"
	gb_start_node n2 2
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
}

@test "an expired node certificate is refused" {
	# gctl makes no expired certificates; openssl's ca command can.
	cat >"$GB_DIR/ca.cnf" <<CNF
[ ca ]
default_ca = old
[ old ]
database = $GB_DIR/index.txt
new_certs_dir = $GB_DIR
serial = $GB_DIR/serial
default_md = sha256
policy = any
x509_extensions = node
[ any ]
commonName = supplied
[ node ]
extendedKeyUsage = clientAuth
CNF
	: >"$GB_DIR/index.txt"
	echo 1000 >"$GB_DIR/serial"
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$GB_DIR/old.key" -subj /CN=n9 -out "$GB_DIR/old.csr" 2>/dev/null
	openssl ca -batch -config "$GB_DIR/ca.cnf" -cert "$GB_DIR/tls/ca.crt" \
	    -keyfile "$GB_DIR/tls/ca.key" -startdate 20200101000000Z \
	    -enddate 20200102000000Z -in "$GB_DIR/old.csr" -out "$GB_DIR/old.crt" 2>/dev/null
	rogue_node "$GB_DIR/old.crt" "$GB_DIR/old.key"
	gb_wait 10 refused_in_log "certificate has expired"
	not_listed n9
}

@test "a certificate for one node cannot register as another" {
	conf_with_tls "$GB_DIR/rogue.conf" "  dir = \"$GB_DIR/tls\";
  cert = \"$GB_DIR/tls/n1.crt\"; key = \"$GB_DIR/tls/n1.key\";
  controller_name = \"controller\";"
	try_node n4 "$GB_DIR/rogue.conf"
	gb_wait 10 grep -q "a certificate for node n1 used to register as n4" "$GB_DIR/gbatchd.log"
	not_listed n4
	# n1 itself is untouched.
	run -0 gnodes --noheader -o name,state
	[[ "$output" == *"n1"*"idle"* ]]
}

@test "plain TCP on the node port is refused and acts on nothing" {
	local host=${GB_CTL_ADDR%:*} port=${GB_CTL_ADDR##*:}
	# A node HELLO, framed, in the clear.
	python3 - "$host" "$port" <<'PY'
import json, socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
body = json.dumps({"type": 100, "version": 1, "role": "node", "name": "n9",
                   "gpus": [{"index": 0, "name": "x"}]}).encode()
s.sendall(struct.pack(">I", len(body)) + body)
s.settimeout(5)
try:
    while s.recv(4096):
        pass
except OSError:
    pass
PY
	gb_wait 10 grep -q "peer 127.0.0.1:[0-9]*: refused" "$GB_DIR/gbatchd.log"
	not_listed n9
}

@test "gbatchd stops cleanly with a connection still in its TLS handshake" {
	local host=${GB_CTL_ADDR%:*} port=${GB_CTL_ADDR##*:}
	# A connection that sends its ClientHello and then waits, so gbatchd
	# holds the handshake's state when it is told to stop.
	python3 - "$host" "$port" <<'PY' &
import socket, ssl, sys, time
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
t = ctx.wrap_socket(s, do_handshake_on_connect=False)
t.setblocking(False)
try:
    t.do_handshake()
except ssl.SSLWantReadError:
    pass
time.sleep(30)
PY
	holder=$!
	gb_wait 10 grep -q "peer 127.0.0.1:[0-9]*: TLS handshake begins" \
	    "$GB_DIR/gbatchd.log"
	kill -TERM "$GB_CTL_PID"
	# It exits 0, and under the sanitizers with nothing left behind (a
	# handshake's state was once leaked here).
	wait "$GB_CTL_PID"
	kill "$holder" 2>/dev/null || true
	wait "$holder" || true
	grep -q 'gbatchd: stopped' "$GB_DIR/gbatchd.log"
}

# rogue_ctl CERT KEY: a TLS listener with CERT where gbatchd should be
# (openssl's s_server, printing what it receives), and a gnoded that dials
# it; waits until gnoded has tried and logged why it would not talk.
rogue_ctl() {
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	openssl s_server -quiet -tls1_3 -accept "127.0.0.1:$port" -cert "$1" \
	    -key "$2" >"$GB_DIR/rogue.out" 2>/dev/null &
	FC_PID=$!
	gb_wait 10 eval "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $port))'"
	: >"$GB_DIR/gnoded-rogue.log"
	gnoded -D -f "$GBATCH_CONF" -n n1 -g 2 -c "127.0.0.1:$port" \
	    -d "$GB_DIR/node-rogue" -u "" -L "$GB_DIR/gnoded-rogue.log" &
	ROGUE_NODE=$!
	GB_NODE_PIDS+=($!)
	gb_wait 10 grep -q "controller 127.0.0.1:$port: cannot connect: TLS" "$GB_DIR/gnoded-rogue.log"
	kill "$ROGUE_NODE"
	wait "$ROGUE_NODE" || true
	kill "$FC_PID"
	wait "$FC_PID" || true
	FC_PID=
	# Nothing got through: no HELLO, nor any frame, reached the listener.
	[ ! -s "$GB_DIR/rogue.out" ]
}

@test "gnoded talks to no controller whose certificate is from another CA, for another name or a node's" {
	gctl ca init --dir "$GB_DIR/other" >/dev/null
	gctl cert issue controller --controller --dir "$GB_DIR/other" >/dev/null
	rogue_ctl "$GB_DIR/other/controller.crt" "$GB_DIR/other/controller.key"
	grep -q "TLS: unable to get local issuer certificate" "$GB_DIR/gnoded-rogue.log"
	# Of the cluster's own CA, for another name (in a copy of its
	# directory: a controller's files are controller.crt and .key).
	cp -a "$GB_DIR/tls" "$GB_DIR/evil"
	gctl cert issue evil --controller --force --dir "$GB_DIR/evil" >/dev/null
	rogue_ctl "$GB_DIR/evil/controller.crt" "$GB_DIR/evil/controller.key"
	grep -q "TLS: hostname mismatch" "$GB_DIR/gnoded-rogue.log"
	rogue_ctl "$GB_DIR/tls/n1.crt" "$GB_DIR/tls/n1.key"
	grep -q "TLS: unsuitable certificate purpose" "$GB_DIR/gnoded-rogue.log"
}

@test "with tls.enabled = false the link runs in plain TCP, and the logs say so" {
	gb_teardown
	gb_setup
	gb_write_conf
	sed -i 's/^tls = {/tls = {\n  enabled = false;/' "$GBATCH_CONF"
	cd "$GB_DIR"
	gb_start_controller
	gb_start_node n1 2
	grep -q "TLS is off" "$GB_DIR/gbatchd.log"
	grep -q "TLS is off" "$GB_DIR/gnoded-n1.log"
	id=$(gsub --parsable -o /dev/null --wrap true)
	gb_wait 10 gb_state_is "$id" COMPLETED
}

@test "after gctl cert revoke and SIGHUP, gnoded cuts the revoked controller and refuses it at every connection" {
	# The controller's key is stolen: its certificate is revoked, and the
	# node is told to read the CRL again (systemctl reload gnoded).
	gctl cert revoke controller --dir "$GB_DIR/tls" >/dev/null
	kill -HUP "$GB_NODE_PID_n1"
	gb_wait 10 grep -q "node n1: reread the CA certificate $GB_DIR/tls/ca.crt and the CRL $GB_DIR/tls/crl.pem" \
	    "$GB_DIR/gnoded-n1.log"
	# The connection that was up is judged by the new list, and cut.
	gb_wait 10 grep -q "controller $GB_CTL_ADDR: connection closed: TLS: the controller's certificate no longer holds: certificate revoked" \
	    "$GB_DIR/gnoded-n1.log"
	gb_wait 10 grep -q "controller $GB_CTL_ADDR: cannot connect: TLS: .*revoked" \
	    "$GB_DIR/gnoded-n1.log"
	gb_wait 20 node_is down n1
	before=$(grep -c "controller $GB_CTL_ADDR: cannot connect: TLS: .*revoked" "$GB_DIR/gnoded-n1.log")
	# gbatchd goes away, and the key's thief listens in its place.
	kill "$GB_CTL_PID"
	wait "$GB_CTL_PID" || true
	GB_CTL_PID=
	# A try first finds the port closed, and says so.
	gb_wait 30 grep -q "controller $GB_CTL_ADDR: cannot connect: TLS: Connection refused" \
	    "$GB_DIR/gnoded-n1.log"
	openssl s_server -quiet -tls1_3 -accept "$GB_CTL_ADDR" \
	    -cert "$GB_DIR/tls/controller.crt" -key "$GB_DIR/tls/controller.key" \
	    >"$GB_DIR/rogue.out" 2>"$GB_DIR/rogue.err" &
	FC_PID=$!
	# The listener hears gnoded's alert (TLS alert 44) at every try; and
	# gnoded's log says why it refused the impostor, a new cause, once.
	gb_wait 30 grep -q "alert certificate revoked" "$GB_DIR/rogue.err"
	gb_wait 30 grep -q "controller $GB_CTL_ADDR: cannot connect: TLS: .*revoked" \
	    "$GB_DIR/gnoded-n1.log"
	gb_wait 30 eval '[ "$(grep -c "controller $GB_CTL_ADDR: cannot connect: TLS: .*revoked" "$GB_DIR/gnoded-n1.log")" -eq $((before + 1)) ]'
	# Nothing got through: no HELLO, nor any frame, reached the listener.
	[ ! -s "$GB_DIR/rogue.out" ]
}

@test "a proven node's HELLO with an oversized GPU name is refused, naming the limit" {
	gctl cert issue n9 --dir "$GB_DIR/tls" >/dev/null
	run -0 python3 - "$GB_CTL_ADDR" "$GB_DIR/tls" <<'PY'
import json, socket, ssl, struct, sys
host, port = sys.argv[1].rsplit(":", 1)
d = sys.argv[2]
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.load_verify_locations(d + "/ca.crt")
ctx.load_cert_chain(d + "/n9.crt", d + "/n9.key")
s = ctx.wrap_socket(socket.create_connection((host, int(port))), server_hostname="controller")
body = json.dumps({"type": 100, "version": 1, "role": "node", "name": "n9",
                   "gpus": [{"index": 0, "name": "x" * 300, "uuid": "u"}]}).encode()
s.sendall(struct.pack(">I", len(body)) + body)
n = struct.unpack(">I", s.recv(4))[0]
b = b""
while len(b) < n:
    b += s.recv(n - len(b))
print(json.loads(b)["message"])
PY
	[[ "$output" == *"gpus[0].name: expected a string of at most 256 bytes"* ]]
	not_listed n9
}

@test "a controller that is not there reads as a refused connection, not an OpenSSL code" {
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	gnoded -D -f "$GBATCH_CONF" -n n1 -g 2 -c "127.0.0.1:$port" \
	    -d "$GB_DIR/node-away" -u "" -L "$GB_DIR/gnoded-away.log" &
	GB_NODE_PIDS+=($!)
	gb_wait 10 grep -q "controller 127.0.0.1:$port: cannot connect" "$GB_DIR/gnoded-away.log"
	grep -q "controller 127.0.0.1:$port: cannot connect: TLS: Connection refused" "$GB_DIR/gnoded-away.log"
	! grep -q "error:00000005" "$GB_DIR/gnoded-away.log"
}
