#!/usr/bin/env bats
# gctl ca and gctl cert: the cluster CA's files (modes, refusals, the list,
# revocation), and the daemons refusing TLS files that are not safe or not
# valid at start.

load helpers

setup() {
	bats_require_minimum_version 1.5.0
	gb_setup
	T="$GB_DIR/ca"
}

teardown() {
	gb_teardown
}

mode() {
	stat -c %a "$1"
}

@test "gctl ca init makes the CA: dir 0700, key 0600, certificate and CRL 0644" {
	run -0 gctl ca init --dir "$T/tls"
	[[ "$output" == *"$T/tls"* ]]
	[ "$(mode "$T/tls")" = 700 ]
	[ "$(mode "$T/tls/ca.key")" = 600 ]
	[ "$(mode "$T/tls/ca.crt")" = 644 ]
	[ "$(mode "$T/tls/crl.pem")" = 644 ]
	openssl x509 -in "$T/tls/ca.crt" -noout -text | grep -q 'CA:TRUE'
}

@test "gctl ca init refuses to replace a CA without --force" {
	gctl ca init --dir "$T"
	cp "$T/ca.crt" "$GB_DIR/old.crt"
	run -1 gctl ca init --dir "$T"
	[[ "$output" == *"already holds a CA"*"--force"* ]]
	cmp "$T/ca.crt" "$GB_DIR/old.crt"
	run -0 gctl ca init --dir "$T" --force
	! cmp -s "$T/ca.crt" "$GB_DIR/old.crt"
}

@test "gctl ca init refuses a directory others may enter" {
	mkdir -m 755 "$T"
	run -1 gctl ca init --dir "$T"
	[[ "$output" == *"group or others may enter it"*"chmod 700 $T"* ]]
	[ ! -e "$T/ca.key" ]
}

@test "gctl cert issue makes a key 0600 and a certificate for the role, signed by the CA" {
	gctl ca init --dir "$T"
	run -0 gctl cert issue n1 --dir "$T"
	[[ "$output" == *"n1.crt"*"node"* ]]
	run -0 gctl cert issue ctl --controller --alt-name 127.0.0.1 --alt-name ctl.example --dir "$T" --days 10
	# A controller's files are named for the role, whatever its name.
	[ "$output" = "issued $T/controller.crt and controller.key (controller ctl, serial 3, 10 days)" ]
	[ ! -e "$T/ctl.crt" ]
	[ "$(mode "$T/n1.key")" = 600 ]
	[ "$(mode "$T/n1.crt")" = 644 ]
	openssl verify -CAfile "$T/ca.crt" "$T/n1.crt" "$T/controller.crt"
	run -0 openssl x509 -in "$T/n1.crt" -noout -text
	[[ "$output" == *"TLS Web Client Authentication"* ]]
	[[ "$output" != *"TLS Web Server Authentication"* ]]
	[[ "$output" == *"CN = n1"* || "$output" == *"CN=n1"* ]]
	run -0 openssl x509 -in "$T/controller.crt" -noout -text
	[[ "$output" == *"TLS Web Server Authentication"* ]]
	[[ "$output" == *"DNS:ctl, IP Address:127.0.0.1, DNS:ctl.example"* ]]
	want=$(date -u -d '+10 days' +%Y-%m-%d)
	gctl cert list --dir "$T" | awk -v w="$want" '$1 == "ctl" && $4 == w { f = 1 } END { exit !f }'
}

@test "gctl cert issue refuses to replace a certificate without --force, bad names and bad options" {
	gctl ca init --dir "$T"
	gctl cert issue n1 --dir "$T"
	cp "$T/n1.crt" "$GB_DIR/old.crt"
	run -1 gctl cert issue n1 --dir "$T"
	[[ "$output" == *"n1.crt already exists"*"--force"* ]]
	cmp "$T/n1.crt" "$GB_DIR/old.crt"
	run -0 gctl cert issue n1 --dir "$T" --force
	! cmp -s "$T/n1.crt" "$GB_DIR/old.crt"
	run -2 gctl cert issue 'a b' --dir "$T"
	[[ "${lines[0]}" == "gctl: cert issue: expected a name of 1-64 letters"*'got "a b"' ]]
	[ "${lines[1]}" = "Try 'gctl --help' for more information." ]
	run -2 gctl cert issue ca --dir "$T"
	[[ "$output" == *'"ca" names the CA'* ]]
	# "controller" names the controller's files: no node may take it,
	# and a host that is a controller and a node (both named after it)
	# keeps two pairs.
	run -1 gctl cert issue controller --node --dir "$T"
	[[ "$output" == *'"controller" names the controller'"'"'s files (controller.crt): give the node another name'* ]]
	run -0 gctl cert issue vm --controller --dir "$T"
	run -0 gctl cert issue vm --node --dir "$T"
	[ -e "$T/controller.crt" ]
	[ -e "$T/vm.crt" ]
	run -2 gctl cert issue n2 --days two --dir "$T"
	[ "${lines[0]}" = 'gctl: cert issue: --days: expected 1-36500, got "two"' ]
	run -2 gctl cert issue n2 n3 --dir "$T"
	[ "${lines[0]}" = 'gctl: cert issue: unexpected argument "n3"; one name at a time' ]
	run -2 gctl cert issue n2 --node --controller --dir "$T"
	[[ "$output" == *"expected one of them, got both"* ]]
	run -2 gctl cert issue n2 --alt-name 'x,IP:1.2.3.4' --dir "$T"
	[[ "$output" == *"--alt-name: expected a host name or an IP address"* ]]
	run -2 gctl cert issue --dir "$T"
	[[ "$output" == *"expected a name"* ]]
	run -2 gctl cert frob
	[[ "$output" == *'expected issue, revoke or list, got "frob"'* ]]
	run -1 gctl cert issue n2 --dir "$GB_DIR/none"
	[[ "$output" == *"gctl ca init"* ]]
	[ ! -e "$GB_DIR/none/n2.key" ]
}

@test "gctl cert list shows name, role, serial, expiry and status; revoke marks and writes the CRL" {
	gctl ca init --dir "$T"
	gctl cert issue ctl --controller --dir "$T"
	gctl cert issue n1 --dir "$T"
	gctl cert issue n2 --dir "$T"
	run -0 gctl cert list --dir "$T"
	[ "${lines[0]}" = "NAME                 ROLE       SERIAL  EXPIRES    STATUS" ]
	read -r name role serial exp status <<<"${lines[1]}"
	[ "$name $role $serial $status" = "ctl controller 2 valid" ]
	[ "$exp" = "$(date -u -d '+730 days' +%Y-%m-%d)" ]
	read -r name role serial exp status <<<"${lines[3]}"
	[ "$name $role $serial $status" = "n2 node 4 valid" ]
	run -0 gctl cert revoke n1 --dir "$T"
	[[ "$output" == *"revoked 1 certificate of n1"* ]]
	run -0 gctl cert list --dir "$T"
	read -r name role serial exp status <<<"${lines[2]}"
	[ "$name $status" = "n1 revoked" ]
	# The CRL names serial 3 and nothing else, and OpenSSL now refuses n1.
	run -0 openssl crl -in "$T/crl.pem" -noout -text
	[[ "$output" == *"Serial Number: 03"* ]]
	[[ "$output" != *"Serial Number: 04"* ]]
	run ! openssl verify -crl_check -CAfile "$T/ca.crt" -CRLfile "$T/crl.pem" "$T/n1.crt"
	openssl verify -crl_check -CAfile "$T/ca.crt" -CRLfile "$T/crl.pem" "$T/n2.crt"
	run -1 gctl cert revoke n7 --dir "$T"
	[[ "$output" == *'no certificate was issued to "n7"'* ]]
	run -1 gctl cert list --dir "$GB_DIR/none"
	[[ "$output" == *"no CA in"* ]]
}

@test "gnoded refuses a 0644 key and a controller certificate, naming the file and the fix" {
	chmod 644 "$GB_DIR/tls/n1.key"
	run -1 gnoded --check-config -n n1
	[[ "$output" == *"key $GB_DIR/tls/n1.key: group or others may read or write it (mode 0644); a key must be 0600: chmod 600"* ]]
	chmod 600 "$GB_DIR/tls/n1.key"
	run -0 gnoded --check-config -n n1
	run -1 gnoded --check-config -n controller
	[[ "$output" == *"certificate $GB_DIR/tls/controller.crt: not valid for a node"*'gctl cert issue controller --node'* ]]
}
