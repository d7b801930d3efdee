#!/usr/bin/env bats
# debian/: dpkg-buildpackage builds gbatch-client, gbatch-controller,
# gbatch-node and gbatch-slurm-compat from a copy of the source tree (a checkout or a release
# tarball); each package holds its files and no other's; and the unpacked
# daemons, started with the ExecStart lines of their unpacked units (paths
# moved to a private directory by flags and config, never the real /etc,
# /run or /var), run a job and take a reload the way ExecReload sends it.
# The packages are built once for the file (about a minute on 2 cores).

load helpers
load pkg

setup_file() {
	PKG_SKIP=$(pkg_skip_reason)
	export PKG_SKIP
	[ -z "$PKG_SKIP" ] || return 0
	PKG_DIR=$(mktemp -d /tmp/gbpkg.XXXXXX)
	export PKG_DIR
	mkdir "$PKG_DIR/root"
	pkg_build "$PKG_DIR"
	for p in $PKGS; do
		dpkg -x "$PKG_DIR/${p}_"*.deb "$PKG_DIR/root"
	done
}

teardown_file() {
	[ -z "${PKG_DIR:-}" ] || [ -n "${GB_KEEP:-}" ] || rm -rf "$PKG_DIR"
}

setup() {
	bats_require_minimum_version 1.5.0
	[ -z "$PKG_SKIP" ] || skip "$PKG_SKIP"
	gb_setup
	R=$PKG_DIR/root
}

teardown() {
	gb_teardown
	# The packaged node's parent cgroups (cgroups = true, node pkg1),
	# empty once its jobs are gone.
	rmdir /sys/fs/cgroup/*/gbatch-pkg1 /sys/fs/cgroup/gbatch-pkg1 \
	    2>/dev/null || true
}

deb() {
	echo "$PKG_DIR/${1}_"*.deb
}

# files PKG: what the package installs (not its directories nor its
# changelog), one path per line, sorted.
files() {
	dpkg -c "$(deb "$1")" | awk '{ print $6 }' | sed 's|^\.||' |
	    grep -v -e '/$' -e '^/usr/share/doc/[^/]*/changelog\.gz$' | sort
}

@test "each package holds its own files and nothing of another's" {
	want=$(for c in gsub grun gq gcancel gacct gnodes gtop gctl gsim; do
		echo "/usr/bin/$c"
		echo "/usr/share/man/man1/$c.1.gz"
	done
	for c in gsub grun gq gcancel gacct gnodes gtop gctl gsim gbatchd gnoded; do
		echo "/usr/share/bash-completion/completions/$c"
	done
	echo /etc/gbatch/gbatch.conf
	echo /usr/libexec/gbatch/gctl-ca
	echo /usr/share/gbatch/gbatch-tls-setup
	echo /usr/share/man/man5/gbatch.conf.5.gz
	echo /usr/share/doc/gbatch-client/gbatch.conf
	echo /usr/share/doc/gbatch-client/copyright
	echo /usr/share/lintian/overrides/gbatch-client)
	[ "$(files gbatch-client)" = "$(sort <<<"$want")" ] ||
	    { diff <(files gbatch-client) <(sort <<<"$want"); false; }
	want="/lib/systemd/system/gbatchd.service
/usr/lib/tmpfiles.d/gbatch.conf
/usr/sbin/gbatchd
/usr/share/doc/gbatch-controller/copyright
/usr/share/man/man8/gbatchd.8.gz"
	[ "$(files gbatch-controller)" = "$want" ] ||
	    { diff <(files gbatch-controller) - <<<"$want"; false; }
	want="/lib/systemd/system/gnoded.service
/usr/sbin/gnoded
/usr/share/doc/gbatch-node/copyright
/usr/share/man/man8/gnoded.8.gz"
	[ "$(files gbatch-node)" = "$want" ] ||
	    { diff <(files gbatch-node) - <<<"$want"; false; }
	want="/usr/bin/sacct
/usr/bin/sacctmgr
/usr/bin/sbatch
/usr/bin/scancel
/usr/bin/scontrol
/usr/bin/sinfo
/usr/bin/squeue
/usr/bin/srun
/usr/bin/sshare
/usr/bin/sstat
/usr/share/bash-completion/completions/sacct
/usr/share/bash-completion/completions/sacctmgr
/usr/share/bash-completion/completions/sbatch
/usr/share/bash-completion/completions/scancel
/usr/share/bash-completion/completions/scontrol
/usr/share/bash-completion/completions/sinfo
/usr/share/bash-completion/completions/squeue
/usr/share/bash-completion/completions/srun
/usr/share/bash-completion/completions/sshare
/usr/share/bash-completion/completions/sstat
/usr/share/doc/gbatch-slurm-compat/copyright
/usr/share/lintian/overrides/gbatch-slurm-compat
/usr/share/man/man1/sacct.1.gz
/usr/share/man/man1/sacctmgr.1.gz
/usr/share/man/man1/sbatch.1.gz
/usr/share/man/man1/scancel.1.gz
/usr/share/man/man1/scontrol.1.gz
/usr/share/man/man1/sinfo.1.gz
/usr/share/man/man1/squeue.1.gz
/usr/share/man/man1/srun.1.gz
/usr/share/man/man1/sshare.1.gz
/usr/share/man/man1/sstat.1.gz
/usr/share/man/man7/gbatch-slurm.7.gz"
	[ "$(files gbatch-slurm-compat)" = "$want" ] ||
	    { diff <(files gbatch-slurm-compat) - <<<"$want"; false; }
}

@test "gbatch-slurm-compat: sbatch and scancel are gsub and gcancel; it needs gbatch-client, and is not for a host with Slurm" {
	dpkg-deb -f "$(deb gbatch-slurm-compat)" Depends | grep -q 'gbatch-client (= '
	dpkg-deb -f "$(deb gbatch-slurm-compat)" Conflicts | grep -qx 'slurm-client'
	[ "$(readlink "$R/usr/bin/sbatch")" = gsub ]
	[ "$(readlink "$R/usr/bin/scancel")" = gcancel ]
	[ "$(readlink "$R/usr/share/bash-completion/completions/squeue")" = gsub ]
	run -0 "$R/usr/bin/squeue" --help
	[[ "$output" == *squeue* ]]
}

@test "gbatch.conf is gbatch-client's conffile; the daemons need gbatch-client" {
	[ "$(dpkg-deb -f "$(deb gbatch-client)" Package)" = gbatch-client ]
	dpkg-deb -e "$(deb gbatch-client)" "$GB_DIR/client"
	[ "$(cat "$GB_DIR/client/conffiles")" = /etc/gbatch/gbatch.conf ]
	for p in gbatch-controller gbatch-node; do
		dpkg-deb -f "$(deb $p)" Depends | grep -q 'gbatch-client (= '
		dpkg-deb -e "$(deb $p)" "$GB_DIR/$p"
		[ ! -e "$GB_DIR/$p/conffiles" ]
	done
}

@test "the units are enabled and started on install, restarted after an upgrade, stopped only on removal" {
	for p in controller:gbatchd node:gnoded; do
		dpkg-deb -e "$(deb gbatch-${p%%:*})" "$GB_DIR/${p%%:*}"
		unit=${p#*:}.service
		postinst=$GB_DIR/${p%%:*}/postinst prerm=$GB_DIR/${p%%:*}/prerm
		grep -q "deb-systemd-helper enable '$unit'" "$postinst"
		grep -q '_dh_action=restart' "$postinst"
		grep -q "deb-systemd-invoke \$_dh_action '$unit'" "$postinst"
		# Nothing stops the unit before an upgrade: the restart after
		# it is the only interruption, and gnoded's jobs survive it.
		[ "$(grep -c 'deb-systemd-invoke stop' "$prerm")" = 1 ]
		grep -q '"$1" = remove' "$prerm"
	done
	grep -q 'systemd-tmpfiles .*--create gbatch.conf' "$GB_DIR/controller/postinst"
}

@test "units, man pages and --help name the Debian layout" {
	for u in gbatchd gnoded; do
		f=$R/lib/systemd/system/$u.service
		grep -qx 'Type=notify' "$f"
		grep -qx "ExecStart=/usr/sbin/$u -D \$${u^^}_OPTS" "$f"
		grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' "$f"
		grep -qx 'Restart=on-failure' "$f"
		grep -qx 'RuntimeDirectory=gbatch' "$f"
		grep -qx 'RuntimeDirectoryPreserve=yes' "$f"
		grep -qx 'StateDirectory=gbatch' "$f"
		grep -qx 'LimitNOFILE=65536' "$f"
		grep -qx "EnvironmentFile=-/etc/default/$u" "$f"
	done
	grep -qx 'KillMode=process' "$R/lib/systemd/system/gnoded.service"
	# systemd itself finds no key it does not know and no bad value (the
	# programs are looked for in the unpacked root).
	if command -v systemd-analyze >/dev/null; then
		for u in gbatchd gnoded; do
			sed "s|=/usr/sbin/|=$R/usr/sbin/|" "$R/lib/systemd/system/$u.service" >"$GB_DIR/$u.service"
			run -0 systemd-analyze verify --man=no "$GB_DIR/$u.service"
			[ -z "$output" ] || { echo "$output"; false; }
		done
	fi
	grep -qx 'd /run/gbatch 0755 root root -' "$R/usr/lib/tmpfiles.d/gbatch.conf"
	grep -qx 'd /etc/gbatch/tls 0700 root root -' "$R/usr/lib/tmpfiles.d/gbatch.conf"
	zcat "$R/usr/share/man/man8/gbatchd.8.gz" | grep -qF /etc/gbatch/gbatch.conf
	zcat "$R/usr/share/man/man8/gbatchd.8.gz" | grep -qF /run/gbatch/gbatchd.sock
	zcat "$R/usr/share/man/man8/gnoded.8.gz" | grep -qF /var/lib/gbatch/node
	zcat "$R/usr/share/man/man5/gbatch.conf.5.gz" | grep -qF /usr/share/doc/gbatch-client/gbatch.conf
	grep -qx '  socket = "/run/gbatch/gbatchd.sock";' "$R/etc/gbatch/gbatch.conf"
	grep -qx '  state_dir = "/var/lib/gbatch";' "$R/etc/gbatch/gbatch.conf"
	"$R/usr/sbin/gbatchd" --help | grep -qF /etc/gbatch/gbatch.conf
	"$R/usr/sbin/gnoded" --help | grep -qF /var/lib/gbatch/node
}

# unit_line UNIT KEY: the value of KEY= in the unpacked unit.
unit_line() {
	sed -n "s/^$2=//p" "$R/lib/systemd/system/$1.service"
}

pkg_state_is() {
	[ "$("$R/usr/bin/gq" -j "$1" --noheader -o state)" = "$2" ]
}

pkg_node_up() {
	"$R/usr/bin/gnodes" --noheader -o name,state |
	    awk -v n="$1" '$1 == n && $2 != "down" { f = 1 } END { exit !f }'
}

pkg_policy_is() {
	"$R/usr/bin/gctl" show config | grep -qx "scheduler.policy = \"$1\""
}

@test "the unpacked daemons, started as their units say, run a job and take a reload" {
	# The packaged gbatch.conf, its paths moved into the test's directory.
	sed -e "s|\"/run/gbatch/gbatchd.sock\"|\"$GB_DIR/gbatchd.sock\"|" \
	    -e "s|\"/var/lib/gbatch\"|\"$GB_DIR/ctl\"|" \
	    -e "s|\"/var/lib/gbatch/node\"|\"$GB_DIR/node\"|" \
	    -e "s|\"/run/gbatch/gnoded.sock\"|\"$GB_DIR/gnoded.sock\"|" \
	    -e 's|"0.0.0.0:6820"|"127.0.0.1:0"|' \
	    -e 's|allow_root_jobs = false|allow_root_jobs = true|' \
	    -e 's|gpu_source = "auto"|gpu_source = "simulated"|' \
	    -e 's|# gpus = 0;|gpus = 2;|' "$R/etc/gbatch/gbatch.conf" >"$GBATCH_CONF"
	# The test's CA (helpers.bash), as the packages' postinst would make
	# one in /etc/gbatch/tls.
	sed -i -e "s|^  dir = \"/etc/gbatch/tls\";|  dir = \"$GB_DIR/tls\";|" \
	    -e 's|^  # controller_name = .*|  controller_name = "controller";|' "$GBATCH_CONF"
	gb_tls_issue pkg1
	run ! grep -n -e '/run/' -e '/var/' "$GBATCH_CONF"
	grep -qx '  policy = "dlas";' "$GBATCH_CONF"

	# systemd would expand $GBATCHD_OPTS from /etc/default/gbatchd.
	start=$(unit_line gbatchd ExecStart)
	GBATCHD_OPTS="-f $GBATCH_CONF -L $GB_DIR/gbatchd.log"
	start=$R${start/\$GBATCHD_OPTS/$GBATCHD_OPTS}
	[[ "$start" == "$R/usr/sbin/gbatchd -D -f "* ]]
	env -u GBATCH_CONF $start &
	GB_CTL_PID=$!
	gb_wait 10 "$R/usr/bin/gctl" ping
	gb_wait 10 test -s "$GB_DIR/ctl/gbatchd.addr"

	start=$(unit_line gnoded ExecStart)
	GNODED_OPTS="-f $GBATCH_CONF -n pkg1 -c $(cat "$GB_DIR/ctl/gbatchd.addr") -L $GB_DIR/gnoded.log"
	start=$R${start/\$GNODED_OPTS/$GNODED_OPTS}
	env -u GBATCH_CONF $start &
	GB_NODE_PIDS+=($!)
	gb_wait 10 pkg_node_up pkg1

	mkdir "$GB_DIR/w"
	id=$(cd "$GB_DIR/w" && "$R/usr/bin/gsub" --parsable -G 2 --wrap 'echo "on $GBATCH_NODELIST"')
	gb_wait 20 pkg_state_is "$id" COMPLETED
	[ "$(cat "$GB_DIR/w/gbatch-$id.out")" = "on pkg1" ]

	# What `systemctl reload gbatchd` runs, with the daemon's pid.
	sed -i 's|  policy = "dlas";|  policy = "fifo";|' "$GBATCH_CONF"
	reload=$(unit_line gbatchd ExecReload)
	MAINPID=$GB_CTL_PID
	${reload/\$MAINPID/$MAINPID}
	gb_wait 10 pkg_policy_is fifo
	"$R/usr/bin/gctl" ping
}

# tls_setup ROLE: the postinst's TLS step, as the unpacked gbatch-client has
# it, on the test's gbatch.conf (its tls.dir in the test's directory).
tls_setup() {
	env PATH="$R/usr/bin:$PATH" GBATCH_GNODED="${GNODED:-/nonexistent}" \
	    sh "$R/usr/share/gbatch/gbatch-tls-setup" "$1"
}

@test "postinst makes the CA and the controller's certificate; a node without the CA key is told what to run" {
	for p in controller node; do
		dpkg-deb -e "$(deb gbatch-$p)" "$GB_DIR/$p"
		grep -qx "	/usr/share/gbatch/gbatch-tls-setup $p" "$GB_DIR/$p/postinst"
		# The certificates are there before debhelper starts the unit.
		[ "$(grep -n gbatch-tls-setup "$GB_DIR/$p/postinst" | head -n 1 | cut -d: -f1)" -lt \
		    "$(grep -n deb-systemd-invoke "$GB_DIR/$p/postinst" | head -n 1 | cut -d: -f1)" ]
		grep -q 'rm -rf /etc/gbatch/tls' "$GB_DIR/$p/postrm"
		sh -n "$GB_DIR/$p/postrm"
	done
	# A purge takes the state the package made; a remove keeps it.
	grep -q 'find /var/lib/gbatch -mindepth 1 -maxdepth 1 ! -name node' "$GB_DIR/controller/postrm"
	grep -q 'rm -rf /var/lib/gbatch/node' "$GB_DIR/node/postrm"
	sed -n '/^tls = {/,/^}/p' "$R/etc/gbatch/gbatch.conf" | grep -q '^  dir = "/etc/gbatch/tls";'
	# The sample's tls group, pointed at a directory of the test, and a
	# node named in it.
	sed -e "s|^  dir = \"/etc/gbatch/tls\";|  dir = \"$GB_DIR/t\";|" \
	    -e 's|^  # name = "gpu01";|  name = "gpu07";|' "$R/etc/gbatch/gbatch.conf" >"$GBATCH_CONF"
	# A node host first: no CA key here, so nothing is made and the
	# admin reads the commands to run on the controller's host.
	run -0 tls_setup node
	[[ "$output" == *"gctl cert issue gpu07 --node"* ]]
	[[ "$output" == *"copy ca.crt, crl.pem, gpu07.crt and gpu07.key"*"$GB_DIR/t"* ]]
	[ "$(stat -c %a "$GB_DIR/t")" = 700 ]
	[ ! -e "$GB_DIR/t/gpu07.crt" ]
	# The controller's host: the CA, and the controller's certificate
	# (controller.crt) for the host's name, with loopback for a node on
	# the same host.
	run -0 tls_setup controller
	[ -e "$GB_DIR/t/ca.key" ]
	[ -e "$GB_DIR/t/crl.pem" ]
	run -0 "$R/usr/bin/gctl" cert list --dir "$GB_DIR/t"
	[[ "$output" == *"$(hostname)"*controller* ]]
	openssl x509 -in "$GB_DIR/t/controller.crt" -noout -ext subjectAltName |
	    grep -q 'IP Address:127.0.0.1'
	# Once the CA key is here, the node's postinst issues its own.
	run -0 tls_setup node
	[ -e "$GB_DIR/t/gpu07.crt" ]
	[ "$(stat -c %a "$GB_DIR/t/gpu07.key")" = 600 ]
	# Run again, nothing is made twice.
	before=$(ls -l --time-style=+%s.%N "$GB_DIR/t")
	run -0 tls_setup controller
	run -0 tls_setup node
	[ "$(ls -l --time-style=+%s.%N "$GB_DIR/t")" = "$before" ]
	run -2 tls_setup both
	[[ "$output" == *'expected "controller" or "node", got "both"'* ]]
}

@test "controller and node on one host, in either order: each gets its own files, and both daemons take them" {
	local order dir
	# Both packages are on this host.
	GNODED=$R/usr/sbin/gnoded
	for order in "controller node" "node controller"; do
		dir=$GB_DIR/one-${order%% *}
		# The sample file, as installed: the node named after the
		# host, as the controller's certificate is.
		sed -e "s|^  dir = \"/etc/gbatch/tls\";|  dir = \"$dir\";|" \
		    "$R/etc/gbatch/gbatch.conf" >"$GBATCH_CONF"
		for role in $order; do
			run -0 tls_setup "$role"
		done
		# After "node" first, no CA yet: the controller's step
		# issues the node's certificate as well.
		[ -e "$dir/controller.crt" ]
		[ -e "$dir/$(hostname).crt" ]
		run -0 openssl x509 -in "$dir/controller.crt" -noout -ext extendedKeyUsage
		[[ "$output" == *"TLS Web Server Authentication"* ]]
		run -0 openssl x509 -in "$dir/$(hostname).crt" -noout -ext extendedKeyUsage
		[[ "$output" == *"TLS Web Client Authentication"* ]]
		run -0 "$R/usr/sbin/gbatchd" --check-config -f "$GBATCH_CONF"
		run -0 "$R/usr/sbin/gnoded" --check-config -f "$GBATCH_CONF"
	done
}

@test "the packages are lintian-clean: no error, no warning" {
	command -v lintian >/dev/null ||
	    skip "lintian is not installed (tools/deps test installs it)"
	# An override says why, in its file (debian/*.lintian-overrides).
	run lintian --fail-on error,warning "$PKG_DIR"/*.changes
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" != *"E: "* && "$output" != *"W: "* ]] || { echo "$output"; false; }
}
