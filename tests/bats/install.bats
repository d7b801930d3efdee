#!/usr/bin/env bats
# install.bats: the packages installed, upgraded, removed and purged by
# real dpkg in a throwaway root, as an admin does on a fresh host. The root
# is made once for the file by mmdebstrap: the host's Debian release, its
# minbase variant and the libraries the packages' Depends name, nothing
# more, so a dependency the packages forget to declare fails here. Each
# test copies it. The daemons are started with the ExecStart lines of the
# installed units; what systemd would do around them (RuntimeDirectory,
# StateDirectory, the restart after an upgrade, the stop before a removal)
# is done by hand, as there is no systemd in a chroot. The root shares the
# host's network (loopback) and has its own /proc; the test's user exists
# in the root's /etc/passwd only.

load helpers
load pkg

U=gbinst

# Why the file is skipped, if it is.
root_skip_reason() {
	local why
	why=$(pkg_skip_reason)
	if [ -n "$why" ]; then
		echo "$why"
	elif [ "$(id -u)" != 0 ]; then
		echo "not root: chroot, mount and dpkg in a root need it"
	elif ! command -v mmdebstrap >/dev/null; then
		echo "mmdebstrap is missing (tools/deps test installs it)"
	fi
}

# bump DEB DIR VERSION: DEB again as VERSION (its gbatch-client dependency
# too), built into DIR: what dpkg sees as an upgrade; the files are the
# same ones.
bump() {
	local d
	d=$(mktemp -d "$PKG_DIR/bump.XXXXXX")
	dpkg-deb -R "$1" "$d"
	sed -i -e "s/^Version: .*/Version: $3/" -e "s/(= [^)]*)/(= $3)/" \
	    "$d/DEBIAN/control"
	dpkg-deb -b "$d" "$2/" >/dev/null
	rm -rf "$d"
}

setup_file() {
	local deps mirror p
	ROOT_SKIP=$(root_skip_reason)
	export ROOT_SKIP
	[ -z "$ROOT_SKIP" ] || return 0
	PKG_DIR=$(mktemp -d /tmp/gbinst.XXXXXX)
	export PKG_DIR
	pkg_build "$PKG_DIR"
	mkdir "$PKG_DIR/v1" "$PKG_DIR/v2"
	V1=$(dpkg-deb -f "$PKG_DIR/gbatch-client_"*.deb Version)
	V2=$V1+up1
	export V1 V2
	for p in $PKGS; do
		mv "$PKG_DIR/${p}_"*.deb "$PKG_DIR/v1/"
		bump "$PKG_DIR/v1/${p}_"*.deb "$PKG_DIR/v2" "$V2"
	done
	# Every package the four depend on but each other: the first of
	# each alternative, without versions.
	deps=$(for p in $PKGS; do dpkg-deb -f "$PKG_DIR/v1/${p}_"*.deb Depends; done |
	    tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' |
	    grep -v -e '^gbatch-' -e '^$' | sort -u | paste -sd, -)
	# The host's own mirrors, else Debian's.
	mirror=http://deb.debian.org/debian
	for p in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
		[ ! -s "$p" ] || { mirror=$p; break; }
	done
	# shellcheck disable=SC1091
	. /etc/os-release
	local t0=$SECONDS
	if ! mmdebstrap --variant=minbase --include="$deps" "$VERSION_CODENAME" \
	    "$PKG_DIR/base" "$mirror" </dev/null >"$PKG_DIR/mmdebstrap.log" 2>&1; then
		ROOT_SKIP="mmdebstrap could not make a $VERSION_CODENAME root from $mirror (no mirror reachable?): $(tail -n 1 "$PKG_DIR/mmdebstrap.log")"
		return 0
	fi
	echo "# $VERSION_CODENAME root (minbase + $deps) made in $((SECONDS - t0)) s" >&3
}

teardown_file() {
	[ -z "${PKG_DIR:-}" ] || [ -n "${GB_KEEP:-}" ] || rm -rf "$PKG_DIR"
}

setup() {
	bats_require_minimum_version 1.5.0
	[ -z "$ROOT_SKIP" ] || skip "$ROOT_SKIP"
	T=$(mktemp -d /tmp/gbroot.XXXXXX)
	R=$T/root
	cp -a "$PKG_DIR/base" "$R"
	cp -a "$PKG_DIR/v1" "$R/tmp/v1"
	cp -a "$PKG_DIR/v2" "$R/tmp/v2"
	mount -t proc proc "$R/proc"
	CTL_PID= NODE_PID=
	NODE=$(hostname)
}

# every process whose root is the test's root: the daemons, the shepherds
# and the jobs.
in_root_pids() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" != "$R" ] || echo "${p#/proc/}"
	done
}

teardown() {
	[ -n "${T:-}" ] || return 0
	stop_units
	# shellcheck disable=SC2046
	kill -KILL $(in_root_pids) 2>/dev/null || true
	umount "$R/proc" 2>/dev/null || umount -l "$R/proc" || true
	if [ -n "${BATS_TEST_COMPLETED:-}" ] || [ -z "${GB_KEEP:-}" ]; then
		rm -rf "$T"
	fi
}

in_root() {
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@" </dev/null
}

# as_user CMD: a shell command line run by the test's user in its home.
as_user() {
	chroot --userspec="$U:$U" "$R" env -i HOME="/home/$U" USER="$U" \
	    LOGNAME="$U" PATH=/usr/bin:/bin sh -c "cd && $1" </dev/null
}

dpkg_in_root() {
	in_root env DEBIAN_FRONTEND=noninteractive dpkg "$@"
}

# What the admin changes in the installed gbatch.conf (a conffile): a free
# port on loopback, and two simulated GPUs on a host without any.
configure() {
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	sed -i -e "s|\"0.0.0.0:6820\"|\"127.0.0.1:$port\"|" \
	    -e "s|\"127.0.0.1:6820\"|\"127.0.0.1:$port\"|" \
	    -e 's|gpu_source = "auto"|gpu_source = "simulated"|' \
	    -e 's|# gpus = 0;|gpus = 2;|' "$R/etc/gbatch/gbatch.conf"
	grep -q "listen = \"127.0.0.1:$port\"" "$R/etc/gbatch/gbatch.conf"
	grep -q 'gpus = 2;' "$R/etc/gbatch/gbatch.conf"
}

# unit_key UNIT KEY: KEY's value in the installed unit.
unit_key() {
	sed -n "s/^$2=//p" "$R/lib/systemd/system/$1.service"
}

# start UNIT: what systemd does to start it: its RuntimeDirectory and
# StateDirectory (with their modes), the variables of its EnvironmentFile
# (none is installed), then its ExecStart line, in the root.
start() {
	local unit=$1 start var mode
	mode=$(unit_key "$unit" RuntimeDirectoryMode)
	mkdir -p -m "${mode:-0755}" "$R/run/$(unit_key "$unit" RuntimeDirectory)"
	mode=$(unit_key "$unit" StateDirectoryMode)
	mkdir -p -m "${mode:-0755}" "$R/var/lib/$(unit_key "$unit" StateDirectory)"
	[ ! -e "$R/etc/default/$unit" ]
	start=$(unit_key "$unit" ExecStart)
	var=${unit^^}_OPTS
	[[ "$start" == *"\$$var"* ]]
	start=${start/\$$var/}
	# shellcheck disable=SC2086
	in_root $start >>"$T/$unit.log" 2>&1 &
}

node_up() {
	in_root gnodes --noheader -o name,state |
	    awk -v n="$NODE" '$1 == n && $2 == "idle" || $1 == n && $2 == "mixed" { f = 1 } END { exit !f }'
}

start_units() {
	start gbatchd
	CTL_PID=$!
	gb_wait 10 in_root gctl ping
	start gnoded
	NODE_PID=$!
	gb_wait 10 node_up
}

# stop_units: what systemd's stop does: SIGTERM to the main process, and
# (KillMode=process for gnoded) to nothing else.
stop_units() {
	local pid
	for pid in $NODE_PID $CTL_PID; do
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	CTL_PID= NODE_PID=
}

state_is() {
	[ "$(in_root gq -j "$1" --noheader -o state)" = "$2" ]
}

# install: the four packages, version 1, by dpkg; the admin's edits; the
# daemons; the test's user.
install() {
	run -0 dpkg_in_root -i /tmp/v1/gbatch-client_"$V1"_amd64.deb \
	    /tmp/v1/gbatch-controller_"$V1"_amd64.deb \
	    /tmp/v1/gbatch-node_"$V1"_amd64.deb \
	    /tmp/v1/gbatch-slurm-compat_"$V1"_amd64.deb
	INSTALL_OUT=$output
	configure
	start_units
	in_root id "$U" >/dev/null 2>&1 || in_root useradd -m "$U"
}

@test "dpkg installs the packages on a minimal system; the postinsts make each role's certificate; the daemons, started as their units say, run a user's job" {
	install
	for p in $PKGS; do
		[ "$(in_root dpkg-query -W -f='${Status}' "$p")" = "install ok installed" ]
	done
	[[ "$INSTALL_OUT" == *"made the cluster CA in /etc/gbatch/tls"* ]]
	# Controller and node on one host: each role has its own files.
	run -0 in_root gctl cert list
	[[ "$output" == *controller* && "$output" == *"$NODE"* ]]
	[ -e "$R/etc/gbatch/tls/controller.crt" ]
	[ -e "$R/etc/gbatch/tls/$NODE.crt" ]
	# The units are enabled, as deb-systemd-helper does without systemd.
	[ -L "$R/etc/systemd/system/multi-user.target.wants/gbatchd.service" ]
	[ -L "$R/etc/systemd/system/multi-user.target.wants/gnoded.service" ]

	id=$(as_user 'sbatch --parsable --gpus=1 --wrap "id -un; echo \$CUDA_VISIBLE_DEVICES"')
	gb_wait 20 state_is "$id" COMPLETED
	[ "$(cat "$R/home/$U/slurm-$id.out")" = "$U
0" ]
	[ "$(in_root stat -c %U "/home/$U/slurm-$id.out")" = "$U" ]
	id2=$(as_user 'gsub --parsable -G 2 --wrap "echo \$GBATCH_NODELIST"')
	gb_wait 20 state_is "$id2" COMPLETED
	[ "$(cat "$R/home/$U/gbatch-$id2.out")" = "$NODE" ]
	run -0 as_user "gacct -j $id,$id2 --noheader -o id,user,state"
	[ "$(awk '{ print $2, $3 }' <<<"$output" | sort -u)" = "$U COMPLETED" ]
	[ "${#lines[@]}" = 2 ]
}

@test "an upgrade by dpkg keeps the job database, the certificates, the admin's gbatch.conf and a running job" {
	install
	done=$(as_user 'gsub --parsable -G 1 --wrap "echo before"')
	gb_wait 20 state_is "$done" COMPLETED
	running=$(as_user 'gsub --parsable -G 1 --wrap "while [ ! -e go ]; do sleep 0.1; done; echo after"')
	gb_wait 20 state_is "$running" RUNNING
	tls=$(cd "$R/etc/gbatch/tls" && sha256sum ./*)
	conf=$(sha256sum <"$R/etc/gbatch/gbatch.conf")

	# prerm does not stop the units for an upgrade, so the daemons run
	# through it; then what the postinst's restart does under systemd.
	run -0 dpkg_in_root -i /tmp/v2/gbatch-client_"$V2"_amd64.deb \
	    /tmp/v2/gbatch-controller_"$V2"_amd64.deb \
	    /tmp/v2/gbatch-node_"$V2"_amd64.deb \
	    /tmp/v2/gbatch-slurm-compat_"$V2"_amd64.deb
	[[ "$output" == *"Unpacking gbatch-node ($V2) over ($V1)"* ]]
	for p in $PKGS; do
		[ "$(in_root dpkg-query -W -f='${Version}' "$p")" = "$V2" ]
	done
	kill -0 "$CTL_PID"
	kill -0 "$NODE_PID"
	stop_units
	start_units

	[ "$(sha256sum <"$R/etc/gbatch/gbatch.conf")" = "$conf" ]
	[ "$(cd "$R/etc/gbatch/tls" && sha256sum ./*)" = "$tls" ]
	state_is "$done" COMPLETED
	state_is "$running" RUNNING
	as_user 'touch go'
	gb_wait 20 state_is "$running" COMPLETED
	[ "$(cat "$R/home/$U/gbatch-$running.out")" = after ]
}

# files: what the root holds where packages put things, but dpkg's own
# records, the logs and /tmp.
files() {
	(cd "$R" && find etc usr var \( -path var/lib/dpkg -o -path var/log \
	    -o -path var/cache -o -path var/tmp \) -prune -o -print | sort)
}

@test "remove keeps the job database, the certificates and gbatch.conf; purge takes what the packages made, and nothing else" {
	in_root useradd -m "$U"
	mkdir -p "$R/etc/gbatch"
	echo "the admin's" >"$R/etc/gbatch/site-notes"
	before=$(files)
	install
	id=$(as_user 'gsub --parsable -G 1 --wrap true')
	gb_wait 20 state_is "$id" COMPLETED
	# What prerm's stop does under systemd.
	stop_units

	run -0 dpkg_in_root -r gbatch-slurm-compat gbatch-node gbatch-controller gbatch-client
	# The three with a conffile or a postrm stay known to dpkg until
	# purged; gbatch-slurm-compat has neither.
	for p in gbatch-client gbatch-controller gbatch-node; do
		[ "$(in_root dpkg-query -W -f='${Status}' "$p")" = "deinstall ok config-files" ]
	done
	[ ! -e "$R/usr/sbin/gbatchd" ]
	[ ! -e "$R/usr/bin/gsub" ]
	[ "$(sqlite3 "$R/var/lib/gbatch/gbatch.db" "SELECT COUNT(*) FROM jobs WHERE id = $id")" = 1 ]
	[ -d "$R/var/lib/gbatch/node" ]
	[ -e "$R/etc/gbatch/tls/ca.key" ]
	[ -e "$R/etc/gbatch/gbatch.conf" ]

	run -0 dpkg_in_root -P gbatch-slurm-compat gbatch-node gbatch-controller gbatch-client
	for p in $PKGS; do
		run ! in_root dpkg-query -W "$p"
	done
	[ ! -e "$R/var/lib/gbatch" ]
	[ ! -e "$R/etc/gbatch/tls" ]
	[ "$(cat "$R/etc/gbatch/site-notes")" = "the admin's" ]
	# Everything else is as it was before the install: the unit links,
	# the configuration, the state, the certificates are gone.
	diff <(echo "$before") <(files)
}
