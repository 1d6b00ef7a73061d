#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
#
# Installation tests: TAP version 13 on stdout, non-zero exit on failure.
#   make install / uninstall with DESTDIR and PREFIX, the bash completion,
#   fsaudit-textfile's atomic write, the systemd units; the Debian package
#   built with dpkg-buildpackage from a copy of fsaudit/ in a temporary
#   directory, lintian, then (root only) dpkg -i, fsaudit from PATH on a
#   fixture image, the installed files, dpkg --purge and the machine as before.
set -u
export LC_ALL=C TZ=UTC

here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/fsaudit-install.XXXXXX) || exit 2
installed=0
cleanup() {
	# never leave our package behind, whatever happened
	if [ $installed = 1 ]; then dpkg_retry --purge fsaudit >/dev/null 2>&1; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tap.sh
. "$here/tests/tap.sh"
# dpkg, waiting for a lock another process (apt) holds, up to 10 minutes
dpkg_retry() {
	local i rc
	for i in $(seq 120); do
		dpkg "$@" >"$tmp/dpkg.out" 2>&1
		rc=$?
		grep -q 'dpkg frontend lock\|dpkg status database is locked' "$tmp/dpkg.out" || break
		sleep 5
	done
	cat "$tmp/dpkg.out"
	return $rc
}

# deb_key DIR FILE: the md5 of what a package built from the source in DIR
# depends on: that source (names, modes, contents; not times), the version
# of every installed package (dpkg-query -W: dpkg-dev, debhelper, the
# compiler, the libraries, lintian and their data), which build tools PATH
# finds (path, size, mtime: not PATH itself, which a Python wrapper such as
# pyenv's changes between make check and a run by hand), the environment the
# build tools read, the configuration files of dpkg-buildflags, the vendor
# and lintian, the architecture and the user; all that is written to FILE
# (build/deb-cache/key.in: diff it to see why a package was built again).
deb_key() {
	{
		tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . | md5sum
		dpkg-query -W
		# shellcheck disable=SC2046
		stat -L -c '%n %s %Y' $(type -P dpkg-buildpackage dpkg-source dpkg-genbuildinfo dpkg-genchanges \
			dpkg-gencontrol dpkg-shlibdeps dpkg-deb dh dh_auto_build dh_auto_install dh_installsystemd \
			dh_strip make cc gcc ld as strip objcopy pkg-config fakeroot perl install sed gzip tar xz \
			lintian man file)
		env | grep -E '^(DEB_|DH_|DPKG_|LINTIAN_|SOURCE_DATE_EPOCH=|CC=|CXX=|CPP=|CFLAGS=|CPPFLAGS=|CXXFLAGS=|LDFLAGS=|LANG=|LANGUAGE=|LC_|TZ=|XDG_CONFIG_HOME=|HOME=)' | sort
		for f in /etc/dpkg/buildflags.conf "${XDG_CONFIG_HOME:-$HOME/.config}/dpkg/buildflags.conf" \
		         /etc/dpkg/origins/default /etc/lintianrc "$HOME/.lintianrc" \
		         "${XDG_CONFIG_HOME:-$HOME/.config}/lintian/lintianrc" /etc/os-release; do
			echo "== $f $(readlink -f "$f" 2>/dev/null)"; cat "$f" 2>/dev/null
		done
		dpkg --print-architecture; uname -m; id -u
	} >"$2" 2>&1
	md5sum <"$2" | cut -d' ' -f1
}

# The installed paths every test checks, relative to PREFIX
rel_files="bin/fsaudit share/man/man8/fsaudit.8 share/bash-completion/completions/fsaudit
libexec/fsaudit/fsaudit-textfile lib/systemd/system/fsaudit.service lib/systemd/system/fsaudit.timer
lib/udev/rules.d/61-fsaudit.rules"

# ---------------------------------------------------------------- make install
# The Makefile's defaults are what is checked: the installation variables
# from the caller's environment (perf record sets PREFIX=/usr) do not apply.
unset PREFIX BINDIR LIBEXECDIR MANDIR BASHCOMPDIR SYSTEMDUNITDIR UDEVRULESDIR DESTDIR
d=$tmp/destdir
make -s -C "$here" install DESTDIR="$d" >"$tmp/install.log" 2>&1
rc=$?
for f in $rel_files; do
	[ -f "$d/usr/local/$f" ] || echo "missing /usr/local/$f" >>"$tmp/install.log"
done
for f in bin/fsaudit libexec/fsaudit/fsaudit-textfile; do
	[ "$(stat -c %a "$d/usr/local/$f" 2>/dev/null)" = 755 ] || echo "/usr/local/$f: not mode 755" >>"$tmp/install.log"
done
"$d/usr/local/bin/fsaudit" --version >/dev/null 2>>"$tmp/install.log" || echo "installed binary does not run" >>"$tmp/install.log"
[ $rc = 0 ] && ! grep -q 'missing\|not mode\|does not run' "$tmp/install.log"
check "make install DESTDIR=: binary, man page, completion, helper, units under /usr/local" $? "$tmp/install.log"

grep -q '^ExecStart=/usr/local/libexec/fsaudit/fsaudit-textfile ' "$d/usr/local/lib/systemd/system/fsaudit.service" &&
grep -q 'IMPORT{program}="/usr/local/bin/fsaudit --udev $devnode"' "$d/usr/local/lib/udev/rules.d/61-fsaudit.rules" &&
grep -q '^fsaudit=${FSAUDIT:-/usr/local/bin/fsaudit}$' "$d/usr/local/libexec/fsaudit/fsaudit-textfile" &&
! grep -q '@[A-Z]*@' "$d/usr/local/lib/systemd/system/fsaudit.service" "$d/usr/local/libexec/fsaudit/fsaudit-textfile" \
	"$d/usr/local/lib/udev/rules.d/61-fsaudit.rules"
check "make install: the unit, the helper and the udev rules name the installed paths" $? "$d/usr/local/lib/systemd/system/fsaudit.service"

make -s -C "$here" uninstall DESTDIR="$d" >"$tmp/uninstall.log" 2>&1
rc=$?
find "$d" ! -type d >>"$tmp/uninstall.log"
[ $rc = 0 ] && [ -z "$(find "$d" ! -type d)" ] && [ ! -e "$d/usr/local/libexec/fsaudit" ]
check "make uninstall DESTDIR=: every installed file removed" $? "$tmp/uninstall.log"

d=$tmp/destdir2
make -s -C "$here" install DESTDIR="$d" PREFIX=/opt/fsa >"$tmp/install.log" 2>&1
rc=$?
for f in $rel_files; do
	[ -f "$d/opt/fsa/$f" ] || echo "missing /opt/fsa/$f" >>"$tmp/install.log"
done
grep -q '^ExecStart=/opt/fsa/libexec/fsaudit/fsaudit-textfile ' "$d/opt/fsa/lib/systemd/system/fsaudit.service" ||
	echo "ExecStart does not name /opt/fsa" >>"$tmp/install.log"
[ $rc = 0 ] && ! grep -q 'missing\|ExecStart' "$tmp/install.log" && [ ! -e "$d/usr" ]
check "make install PREFIX=/opt/fsa: everything under the prefix" $? "$tmp/install.log"
make -s -C "$here" uninstall DESTDIR="$d" PREFIX=/opt/fsa >/dev/null 2>&1

# ---------------------------------------------------------------- bash completion
# complete WORDS... : what the completion offers for the last word, one per line
complete_words() {
	(cd "$tmp/cwd" && PATH=$here:$PATH bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion || exit 1
		. "$0" || exit 1
		compopt() { :; }  # a builtin that works only inside readline completion
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_LINE=${COMP_LINE// = /=}; COMP_POINT=${#COMP_LINE}
		_fsaudit fsaudit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		[ ${#COMPREPLY[@]} = 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort' "$here/dist/fsaudit.bash-completion" "$@")
}
if [ -f /usr/share/bash-completion/bash_completion ]; then
	mkdir -p "$tmp/cwd" && : >"$tmp/cwd/disk.img" && : >"$tmp/cwd/disk2.img"
	{
		echo "--js: $(complete_words fsaudit --js | tr '\n' ' ')"
		echo "--ext: $(complete_words fsaudit --ext | tr '\n' ' ')"
		echo "-o SOU: $(complete_words fsaudit -o SOU | tr '\n' ' ')"
		echo "-o SOURCE,FST: $(complete_words fsaudit -o SOURCE,FST | tr '\n' ' ')"
		echo "-o +S-T: $(complete_words fsaudit -o +S-T | tr '\n' ' ')"
		echo "--ext2-driver e: $(complete_words fsaudit --ext2-driver e | tr '\n' ' ')"
		echo "-t xf: $(complete_words fsaudit -t xf | tr '\n' ' ')"
		echo "-t rei: $(complete_words fsaudit -t rei | tr '\n' ' ')"
		echo "-t ext4,vf: $(complete_words fsaudit -t ext4,vf | tr '\n' ' ')"
		echo "--force-type jf: $(complete_words fsaudit --force-type jf | tr '\n' ' ')"
		echo "-t cg: $(complete_words fsaudit -t cg | tr '\n' ' ')"
		echo "--sort VER: $(complete_words fsaudit --sort VER | tr '\n' ' ')"
		echo "--policy d: $(complete_words fsaudit --policy d | tr '\n' ' ')"
		echo "--time-format i: $(complete_words fsaudit --time-format i | tr '\n' ' ')"
		echo "-J d: $(complete_words fsaudit -J d | tr '\n' ' ')"
		echo "--summary=a: $(complete_words fsaudit --summary = a | tr '\n' ' ')"
		echo "--summary a: $(complete_words fsaudit --summary a | tr '\n' ' ')"
	} >"$tmp/compl.out" 2>&1
	cat >"$tmp/compl.exp" <<-'EOT'
	--js: --json 
	--ext: --ext2-driver 
	-o SOU: SOURCE, 
	-o SOURCE,FST: SOURCE,FSTYPE, 
	-o +S-T: +S-TIME-MAX, 
	--ext2-driver e: ext2 ext4 
	-t xf: xfs 
	-t rei: reiserfs 
	-t ext4,vf: ext4,vfat 
	--force-type jf: jfs 
	-t cg: 
	--sort VER: VERDICT VERSION 
	--policy d: deny deprecated: 
	--time-format i: iso 
	-J d: disk.img disk2.img 
	--summary=a: always auto 
	--summary a: 
	EOT
	diff -u "$tmp/compl.exp" "$tmp/compl.out" >"$tmp/compl.diff"
	check "bash completion: options from --help, columns for -o, values, then files" $? "$tmp/compl.diff"
	# every option --help lists is offered
	PATH=$here:$PATH complete_words fsaudit - >"$tmp/compl.opts"
	"$here/fsaudit" --help | grep -o -- '--[a-z0-9-]*' | sort -u >"$tmp/help.opts"
	comm -23 "$tmp/help.opts" "$tmp/compl.opts" >"$tmp/compl.missing"
	[ ! -s "$tmp/compl.missing" ]
	check "bash completion: every long option of --help is offered" $? "$tmp/compl.missing"
else
	skip "bash completion" "bash-completion not installed"
	skip "bash completion: every long option of --help is offered" "bash-completion not installed"
fi

# ---------------------------------------------------------------- fsaudit-textfile
# A stand-in fsaudit: records its arguments, checks that its output goes to
# a temporary file in the same directory while the old fsaudit.prom stays
# in place, writes half, then exits with $STUB_RC.
tf=$tmp/textfile
mkdir -p "$tf"
sed 's|@BINDIR@|/nonexistent|g' "$here/dist/fsaudit-textfile.in" >"$tmp/fsaudit-textfile"
chmod 755 "$tmp/fsaudit-textfile"
cat >"$tmp/stub" <<'EOT'
#!/bin/sh
echo "$*" >"$STUB_LOG"
out=$(readlink /proc/$$/fd/1)
echo "stdout $out" >>"$STUB_LOG"
echo "old $(cat "$STUB_DIR/fsaudit.prom" 2>/dev/null)" >>"$STUB_LOG"
echo "# HELP fsaudit_stub stand-in"
echo "fsaudit_stub{rc=\"$STUB_RC\"} 1"
exit "$STUB_RC"
EOT
chmod 755 "$tmp/stub"
echo "previous" >"$tf/fsaudit.prom"
FSAUDIT=$tmp/stub STUB_LOG=$tmp/stub.log STUB_DIR=$tf STUB_RC=1 \
	"$tmp/fsaudit-textfile" --dir "$tf" -- --all -F /proc/1/mountinfo >"$tmp/tf.out" 2>&1
rc=$?
{
	echo "rc=$rc"; cat "$tmp/stub.log"; echo "--- fsaudit.prom:"; cat "$tf/fsaudit.prom"
	stat -c '%a' "$tf/fsaudit.prom"; ls -A "$tf"
} >>"$tmp/tf.out" 2>&1
[ $rc = 0 ] &&
	[ "$(head -1 "$tmp/stub.log")" = "--prometheus --all -F /proc/1/mountinfo" ] &&
	grep -q "^stdout $tf/\.fsaudit\.prom\.[A-Za-z0-9]*\$" "$tmp/stub.log" &&
	grep -q '^old previous$' "$tmp/stub.log" &&
	grep -qx 'fsaudit_stub{rc="1"} 1' "$tf/fsaudit.prom" &&
	[ "$(stat -c %a "$tf/fsaudit.prom")" = 644 ] &&
	[ "$(ls -A "$tf")" = fsaudit.prom ]
check "fsaudit-textfile: --prometheus into a temporary file beside fsaudit.prom, renamed over it (exit 1 published)" $? "$tmp/tf.out"

cp "$tf/fsaudit.prom" "$tmp/before.prom"
FSAUDIT=$tmp/stub STUB_LOG=$tmp/stub.log STUB_DIR=$tf STUB_RC=3 \
	"$tmp/fsaudit-textfile" --dir "$tf" -- --bad >"$tmp/tf.out" 2>&1
rc=$?
{ echo "rc=$rc"; ls -A "$tf"; } >>"$tmp/tf.out"
[ $rc = 3 ] && cmp -s "$tmp/before.prom" "$tf/fsaudit.prom" && [ "$(ls -A "$tf")" = fsaudit.prom ] &&
	grep -q 'exited 3' "$tmp/tf.out"
check "fsaudit-textfile: on bad usage (exit 3) the old fsaudit.prom stays, no temporary file left" $? "$tmp/tf.out"

FSAUDIT=$tmp/stub STUB_LOG=$tmp/stub.log STUB_DIR=$tf STUB_RC=0 \
	"$tmp/fsaudit-textfile" --dir "$tmp/nonexistent" >"$tmp/tf.out" 2>&1
rc=$?
echo "rc=$rc" >>"$tmp/tf.out"
[ $rc != 0 ] && [ ! -e "$tmp/nonexistent" ]
check "fsaudit-textfile: a missing directory is an error" $? "$tmp/tf.out"

# ---------------------------------------------------------------- units
svc=$here/dist/fsaudit.service.in
tmr=$here/dist/fsaudit.timer
{
	grep -qx 'Type=oneshot' "$svc" || echo "not Type=oneshot"
	grep -qx 'ExecStart=@LIBEXECDIR@/fsaudit/fsaudit-textfile --dir /var/lib/prometheus/node-exporter -- --all --mountinfo /proc/1/mountinfo' "$svc" ||
		echo "ExecStart: not fsaudit-textfile into Debian's textfile directory"
	for k in ProtectSystem=strict ReadWritePaths=/var/lib/prometheus/node-exporter ProtectHome=read-only \
	         PrivateTmp=yes NoNewPrivileges=yes DevicePolicy=closed 'DeviceAllow=block-\* r' \
	         ConditionPathIsDirectory=/var/lib/prometheus/node-exporter; do
		grep -qx "$k" "$svc" || echo "service lacks $k"
	done
	grep -q '^User=\|^DynamicUser=\|^PrivateDevices=yes' "$svc" && echo "service must run as root with the block devices"
	for k in OnCalendar=daily Persistent=true 'RandomizedDelaySec=.*' WantedBy=timers.target; do
		grep -qx "$k" "$tmr" || echo "timer lacks $k"
	done
} >"$tmp/units.out" 2>&1
[ ! -s "$tmp/units.out" ]
check "units: oneshot service into the textfile directory, hardened, as root; daily persistent randomized timer" $? "$tmp/units.out"

# the service runs fsaudit --prometheus (via the helper) and --mountinfo: fsaudit must know both
"$here/fsaudit" --help >"$tmp/help" 2>&1
if grep -q -- '--prometheus' "$tmp/help"; then
	grep -q -- '--mountinfo' "$tmp/help"
	check "units: fsaudit knows the options the service passes (--prometheus, --all, --mountinfo)" $? "$tmp/help"
else
	skip "units: fsaudit knows the options the service passes" "fsaudit has no --prometheus yet"
fi

# ---------------------------------------------------------------- Debian package
b=$tmp/deb
mkdir -p "$b/fsaudit"
# a copy of the source: no build artefacts of the working tree, nothing written there
tar -C "$here" --anchored --exclude=./build --exclude=./fsaudit \
	--exclude=./debian/fsaudit --exclude=./debian/.debhelper --exclude='./debian/files' \
	--exclude='./debian/*.substvars' --exclude='./debian/*debhelper*' -cf - . | tar -C "$b/fsaudit" -xf -
if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
	skip "Debian package: dpkg-buildpackage -us -uc -b" "dpkg-dev or debhelper not installed"
	deb=""
else
	# Built once per set of inputs (deb_key): a build from the same inputs is
	# taken from build/deb-cache (the .deb files, .changes, .buildinfo, the
	# build log), and lintian's verdict on those very files too; dpkg -i, the
	# installed package's tests and the purge below run every time.
	dcache=$here/build/deb-cache
	mkdir -p "$here/build"
	exec 8>>"$dcache.lock" && flock 8
	key=$(deb_key "$b/fsaudit" "$tmp/deb.key.in")
	if [ "$(cat "$dcache/key" 2>/dev/null)" = "$key" ] && ls "$dcache"/fsaudit_*_*.deb >/dev/null 2>&1; then
		cp -p "$dcache"/*.deb "$dcache"/*.changes "$dcache"/*.buildinfo "$b/"
		cp "$dcache/deb.log" "$tmp/deb.log"
		rc=0
		echo "# Debian package: from build/deb-cache, built $(cat "$dcache/date") from the same inputs (key $key)" >>"$tmp/deb.note"
	else
		(cd "$b/fsaudit" && DEB_BUILD_OPTIONS="parallel=1" dpkg-buildpackage -us -uc -b) >"$tmp/deb.log" 2>&1
		rc=$?
		rm -rf "$dcache" "$dcache.new"
		if [ $rc = 0 ] && mkdir -p "$dcache.new" &&
		   cp -p "$b"/*.deb "$b"/*.changes "$b"/*.buildinfo "$tmp/deb.log" "$dcache.new/" &&
		   cp "$tmp/deb.key.in" "$dcache.new/key.in" &&
		   date -u '+%Y-%m-%d %H:%M:%S UTC' >"$dcache.new/date" && echo "$key" >"$dcache.new/key"; then
			mv "$dcache.new" "$dcache"
		else
			rm -rf "$dcache.new"
		fi
	fi
	deb=$(ls "$b"/fsaudit_*_*.deb 2>/dev/null | head -1)
	[ $rc = 0 ] && [ -n "$deb" ]
	check "Debian package: dpkg-buildpackage -us -uc -b" $? "$tmp/deb.log"
	[ ! -s "$tmp/deb.note" ] || cat "$tmp/deb.note" >>"$results"
fi

if [ -n "$deb" ]; then
	# the package's version is the program's
	v_deb=$(dpkg-deb -f "$deb" Version)
	v_bin=$("$here/fsaudit" --version | sed -n 's/^fsaudit from fsdeprecate \([^ ]*\) .*/\1/p')
	echo "package $v_deb, fsaudit --version $v_bin" >"$tmp/version"
	[ -n "$v_bin" ] && [ "$v_deb" = "$v_bin" ]
	check "Debian package: version (debian/changelog) is fsaudit --version's" $? "$tmp/version"

	# control fields
	{
		dpkg-deb -f "$deb" Package Architecture Depends Section
	} >"$tmp/fields" 2>&1
	grep -q '^Depends:.*libblkid1.*' "$tmp/fields" && grep -q '^Depends:.*libmount1' "$tmp/fields" &&
		grep -q '^Depends:.*libsmartcols1' "$tmp/fields" && grep -q '^Depends:.*libc6' "$tmp/fields"
	check "Debian package: Depends from the shared libraries (libblkid1, libmount1, libsmartcols1, libc6)" $? "$tmp/fields"

	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$' | sort >"$tmp/contents"
	cat >"$tmp/contents.exp" <<-'EOT'
	/lib/systemd/system/fsaudit.service
	/lib/systemd/system/fsaudit.timer
	/lib/udev/rules.d/61-fsaudit.rules
	/usr/bin/fsaudit
	/usr/libexec/fsaudit/fsaudit-textfile
	/usr/share/bash-completion/completions/fsaudit
	/usr/share/doc/fsaudit/changelog.gz
	/usr/share/doc/fsaudit/copyright
	/usr/share/man/man8/fsaudit.8.gz
	EOT
	diff -u "$tmp/contents.exp" "$tmp/contents" >"$tmp/contents.diff"
	check "Debian package: contents" $? "$tmp/contents.diff"

	if command -v lintian >/dev/null; then
		# errors and warnings fail; info and pedantic tags are printed below.
		# Its verdict is a function of the files it reads (the .changes and
		# what it lists), its version and configuration (in deb_key): kept
		# in build/deb-cache with the md5sums of those files.
		lopts="--pedantic -I --fail-on error,warning"
		lkey=$( { echo "$key $lopts"; cd "$b" && md5sum ./*.changes ./*.buildinfo ./*.deb; } | md5sum | cut -d' ' -f1)
		if [ -d "$dcache" ] && [ "$(cat "$dcache/lintian.key" 2>/dev/null)" = "$lkey" ]; then
			cp "$dcache/lintian.out" "$tmp/lintian.out"
			rc=$(cat "$dcache/lintian.rc")
		else
			# shellcheck disable=SC2086
			lintian $lopts "$b"/fsaudit_*.changes >"$tmp/lintian.out" 2>&1
			rc=$?
			if [ -d "$dcache" ] && [ "$(cat "$dcache/key" 2>/dev/null)" = "$key" ]; then
				cp "$tmp/lintian.out" "$dcache/lintian.out" && echo "$rc" >"$dcache/lintian.rc" &&
					echo "$lkey" >"$dcache/lintian.key"
			fi
		fi
		grep -v 'running with root privileges is not recommended' "$tmp/lintian.out" >"$tmp/lintian.tags"
		check "Debian package: lintian --fail-on error,warning" $rc "$tmp/lintian.tags"
		if [ -s "$tmp/lintian.tags" ]; then sed 's/^/# lintian: /' "$tmp/lintian.tags" >>"$results"; fi
	else
		skip "Debian package: lintian" "lintian not installed"
	fi
fi

exec 8>&-

# ---------------------------------------------------------------- dpkg -i (root)
# files, symlinks and systemd state the package may touch, to compare
# before the installation and after the purge
machine_state() {
	dpkg-query -W -f='${db:Status-Status}\n' fsaudit 2>/dev/null || echo "fsaudit: not known to dpkg"
	find /usr/bin/fsaudit /usr/libexec/fsaudit /lib/systemd/system/fsaudit.service /lib/systemd/system/fsaudit.timer \
		/usr/share/man/man8/fsaudit.8.gz /usr/share/bash-completion/completions/fsaudit /usr/share/doc/fsaudit \
		/etc/systemd/system /var/lib/systemd/deb-systemd-helper-enabled /var/lib/systemd/deb-systemd-helper-masked \
		-printf '%p %y %l\n' 2>/dev/null | sort
}
inst_tests="dpkg -i|fsaudit from PATH on a fixture image|installed files|systemd-analyze verify|textfile output of the installed package|the service's ExecStart on a fixture sysroot|dpkg --purge"
skip_inst() { local IFS='|' t; for t in $inst_tests; do skip "installed package: $t" "$1"; done; }
if [ -z "$deb" ]; then
	skip_inst "no package built"
elif [ "$(id -u)" != 0 ]; then
	skip_inst "not root: dpkg -i needs root (the CI suite runs as root)"
# one installation test at a time on this machine (other checkouts, parallel runs)
elif ! { exec 9>/run/lock/fsaudit-install-test.lock && flock -w 900 9; }; then
	skip_inst "another fsaudit installation test held /run/lock/fsaudit-install-test.lock for 15 min"
elif [ "$(dpkg-query -W -f='${db:Status-Status}' fsaudit 2>/dev/null)" != "" ] &&
     [ "$(dpkg-query -W -f='${db:Status-Status}' fsaudit 2>/dev/null)" != not-installed ]; then
	skip_inst "a fsaudit package is already on this machine; not replacing it"
else
	machine_state >"$tmp/state.before"
	installed=1
	dpkg_retry -i "$deb" >"$tmp/dpkg-i.log" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(dpkg-query -W -f='${db:Status-Status}' fsaudit)" = installed ]
	check "installed package: dpkg -i" $? "$tmp/dpkg-i.log"

	# a fixture image made with mke2fs: ext4, 128-byte inodes
	mkdir -p "$tmp/img"
	mke2fs -q -F -t ext4 -I 128 -L fixture -U 0b5e55ed-0000-4000-8000-000000000001 \
		-E hash_seed=0b5e55ed-0000-4000-8000-000000000002 "$tmp/img/fixture.img" 4M >"$tmp/mke2fs.log" 2>&1
	(cd "$tmp/img" && env -i PATH=/usr/bin:/bin LC_ALL=C sh -c \
		'command -v fsaudit; fsaudit -r -n -o SOURCE,FSTYPE,LABEL,VERDICT,S-TIME-MAX fixture.img; echo "rc=$?"') \
		>"$tmp/run.out" 2>&1
	printf '%s\n' /usr/bin/fsaudit 'fixture.img ext4 fixture 2038-limited 2147483647' rc=1 >"$tmp/run.exp"
	diff -u "$tmp/run.exp" "$tmp/run.out" >"$tmp/run.diff" 2>&1
	check "installed package: fsaudit from PATH on a fixture image (ext4, 128-byte inodes: 2038-limited, exit 1)" $? "$tmp/run.diff"

	{
		dpkg -L fsaudit | sort >"$tmp/dpkg-L"
		for f in /usr/bin/fsaudit /usr/share/man/man8/fsaudit.8.gz /usr/share/bash-completion/completions/fsaudit \
		         /usr/libexec/fsaudit/fsaudit-textfile /lib/systemd/system/fsaudit.service /lib/systemd/system/fsaudit.timer \
		         /lib/udev/rules.d/61-fsaudit.rules; do
			grep -qx "$f" "$tmp/dpkg-L" && [ -f "$f" ] || echo "not installed: $f"
		done
		[ "$(man -w fsaudit 2>&1)" = /usr/share/man/man8/fsaudit.8.gz ] || echo "man -w fsaudit: $(man -w fsaudit 2>&1)"
		MANWIDTH=80 man -P cat fsaudit 2>/dev/null | grep -q '^NAME' || echo "man fsaudit does not render"
		grep -q 'IMPORT{program}="/usr/bin/fsaudit --udev $devnode"' /lib/udev/rules.d/61-fsaudit.rules ||
			echo "61-fsaudit.rules does not run /usr/bin/fsaudit --udev"
		grep -q 'ExecStart=/usr/libexec/fsaudit/fsaudit-textfile ' /lib/systemd/system/fsaudit.service ||
			echo "fsaudit.service does not run /usr/libexec/fsaudit/fsaudit-textfile"
		grep -q '^fsaudit=${FSAUDIT:-/usr/bin/fsaudit}$' /usr/libexec/fsaudit/fsaudit-textfile ||
			echo "fsaudit-textfile does not run /usr/bin/fsaudit"
		# bash-completion loads ours on demand
		bash --norc --noprofile -c '. /usr/share/bash-completion/bash_completion
			__load_completion fsaudit && complete -p fsaudit' 2>&1 | grep -q -- '-F _fsaudit fsaudit$' ||
			echo "bash-completion does not load the fsaudit completion"
		[ -L /etc/systemd/system/timers.target.wants/fsaudit.timer ] ||
			echo "fsaudit.timer not enabled (timers.target.wants)"
		[ -L /etc/systemd/system/multi-user.target.wants/fsaudit.service ] && echo "fsaudit.service must not be enabled"
	} >"$tmp/files.out" 2>&1
	[ ! -s "$tmp/files.out" ]
	check "installed package: installed files (binary, man page, completion, helper, units; timer enabled)" $? "$tmp/files.out"

	systemd-analyze verify /lib/systemd/system/fsaudit.service /lib/systemd/system/fsaudit.timer >"$tmp/verify.out" 2>&1
	check "installed package: systemd-analyze verify fsaudit.service fsaudit.timer" $? "$tmp/verify.out"

	if grep -q -- '--prometheus' "$tmp/help"; then
		mkdir -p "$tmp/tf2"
		(cd "$tmp/img" && env -i PATH=/usr/bin:/bin LC_ALL=C /usr/libexec/fsaudit/fsaudit-textfile --dir "$tmp/tf2" -- fixture.img) \
			>"$tmp/tf2.out" 2>&1
		rc=$?
		cat "$tmp/tf2/fsaudit.prom" >>"$tmp/tf2.out" 2>&1
		[ $rc = 0 ] && grep -q '^fsaudit_.*fixture\.img' "$tmp/tf2/fsaudit.prom" && [ "$(ls -A "$tmp/tf2")" = fsaudit.prom ]
		check "installed package: textfile output of the installed package (fsaudit.prom names the fixture)" $? "$tmp/tf2.out"
		if command -v promtool >/dev/null && [ -f "$tmp/tf2/fsaudit.prom" ]; then
			promtool check metrics <"$tmp/tf2/fsaudit.prom" >"$tmp/promtool.out" 2>&1
			check "installed package: promtool check metrics on fsaudit.prom" $? "$tmp/promtool.out"
		fi
		# the installed service's own command line (its ExecStart) on a fixture
		# sysroot: /dev/vda mounted on /srv (ext4, 128-byte inodes), /dev/vdb
		# unmounted (ext4, 256-byte inodes), found by --all in <sysroot>/sys/block
		r=$tmp/img/sysroot
		mkdir -p "$r/dev" "$r/sys/block/vda" "$r/sys/block/vdb" "$r/proc/1" "$tmp/tf3"
		mke2fs -q -F -t ext4 -I 256 "$tmp/img/ok.img" 4M >>"$tmp/mke2fs.log" 2>&1
		ln -s ../../fixture.img "$r/dev/vda"; ln -s ../../ok.img "$r/dev/vdb"
		echo 254:0 >"$r/sys/block/vda/dev"; echo 254:16 >"$r/sys/block/vdb/dev"
		echo "21 1 254:0 / /srv rw,relatime shared:1 - ext4 /dev/vda rw" >"$r/proc/1/mountinfo"
		read -ra cmd <<<"$(sed -n 's/^ExecStart=//p' /lib/systemd/system/fsaudit.service)"
		for i in "${!cmd[@]}"; do
			case ${cmd[i]} in
			/var/lib/prometheus/node-exporter) cmd[i]=$tmp/tf3 ;;
			/proc/1/mountinfo) cmd[i]=$r/proc/1/mountinfo ;;
			esac
		done
		env -i PATH=/usr/bin:/bin LC_ALL=C "${cmd[@]}" --sysroot "$r" >"$tmp/tf3.out" 2>&1
		rc=$?
		{ echo "rc=$rc: ${cmd[*]} --sysroot $r"; ls -A "$tmp/tf3"; cat "$tmp/tf3/fsaudit.prom"; } >>"$tmp/tf3.out" 2>&1
		[ $rc = 0 ] && [ "$(ls -A "$tmp/tf3")" = fsaudit.prom ] &&
			grep -qx 'fsaudit_filesystem_verdict{device="/dev/vda",mountpoint="/srv",fstype="ext4",verdict="2038-limited"} 1' "$tmp/tf3/fsaudit.prom" &&
			grep -qx 'fsaudit_filesystem_verdict{device="/dev/vdb",mountpoint="",fstype="ext4",verdict="ok"} 1' "$tmp/tf3/fsaudit.prom"
		check "installed package: the service's ExecStart on a fixture sysroot: mounted and unmounted filesystems in fsaudit.prom" $? "$tmp/tf3.out"
	else
		skip "installed package: textfile output of the installed package" "fsaudit has no --prometheus yet"
		skip "installed package: the service's ExecStart on a fixture sysroot" "fsaudit has no --prometheus yet"
	fi

	dpkg_retry --purge fsaudit >"$tmp/purge.log" 2>&1
	rc=$?
	installed=0
	machine_state >"$tmp/state.after"
	diff -u "$tmp/state.before" "$tmp/state.after" >>"$tmp/purge.log" 2>&1
	check "installed package: dpkg --purge leaves the machine as before" $(( rc | $? )) "$tmp/purge.log"
fi

# ---------------------------------------------------------------- report
tap_report
