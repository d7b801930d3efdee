# pkg.bash: the Debian packages, built for a test file from a copy of the
# source tree (a checkout or a release tarball), for packaging.bats (what
# they hold) and install.bats (dpkg installing them in a throwaway root).
# Load after helpers.

PKGS="gbatch-client gbatch-controller gbatch-node gbatch-slurm-compat"

# pkg_skip_reason: why the packages are not built here, if they are not;
# nothing when they are. bats 1.8 cannot skip from setup_file, so each
# test skips with this.
pkg_skip_reason() {
	if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
		echo "dpkg-buildpackage or dh is missing (tools/deps test installs dpkg-dev, debhelper and fakeroot)"
	elif [ -n "${GBATCH_SKIP_PACKAGING:-}" ]; then
		echo "$GBATCH_SKIP_PACKAGING"
	elif grep -q '^GB_CFLAGS = .*-fsanitize=address' "$B/Makefile"; then
		echo "a sanitizer build: the packages are built with Debian's flags, not this build's; the plain run tests them"
	fi
}

# pkg_build DIR: the four packages, built in DIR (with the .changes file
# lintian reads). About half a minute on 2 cores; the log's tail goes to
# bats' output if it fails.
pkg_build() {
	local dir=$1 t0=$SECONDS
	mkdir "$dir/src"
	# Everything of the source tree but builds (build*/ beside a checkout,
	# _build/ and _inst/ inside distcheck's tarball) and git's own files.
	(cd "$S" && tar -cf - --exclude=./.git --exclude='./build*' \
	    --exclude=./_build --exclude=./_inst --exclude=./autom4te.cache .) |
	    tar -xf - -C "$dir/src"
	(cd "$dir/src" &&
	    DEB_BUILD_OPTIONS="nocheck noddebs parallel=2" dpkg-buildpackage -us -uc -b) \
	    >"$dir/build.log" 2>&1 || {
		tail -n 40 "$dir/build.log" >&3
		return 1
	}
	echo "# packages built in $((SECONDS - t0)) s" >&3
}
