#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Make trixie-backports known to apt, for a kernel base whose source package
# only exists there (linux-source-7.3), without letting anything else on the
# machine come from it.
#
#   rig/apt-backports.sh          add the source and the pin (idempotent), apt-get update
#   rig/apt-backports.sh --check  only verify: the files are ours and nothing but
#                                 the allowed packages would come from the suite
#                                 (--check --force: even if nothing changed since
#                                 the last check that passed, below)
#   rig/apt-backports.sh --remove take both files away again, apt-get update
#
# What it writes, and nothing else:
#   /etc/apt/sources.list.d/fsdeprecate-trixie-backports.sources
#       deb http://deb.debian.org/debian trixie-backports main, Signed-By the
#       Debian archive keyring (/usr/share/keyrings/debian-archive-keyring.gpg;
#       bookworm's debian-archive-keyring 2023.3+deb12u2 carries the 13/trixie
#       archive keys that sign trixie-backports' Release files);
#   /etc/apt/preferences.d/fsdeprecate-trixie-backports
#       Pin-Priority 1 for every package of the suite (never installed or
#       upgraded from it by apt-get install/upgrade) and 500 for the packages
#       listed in ALLOWED below, which exist nowhere else.
#
# linux-source-7.3 is arch:all, a tarball plus Depends: binutils, xz-utils,
# which bookworm satisfies; no other trixie suite is needed.  The rig does not
# even install it: rig/base-source.sh runs `apt-get download` of the recorded
# version into build/ and extracts the tarball with dpkg-deb, so neither
# dpkg's database nor /usr/src change.  The pin is there so that adding the
# source is harmless for everything else apt does on this machine.
#
# rig/setup.sh calls this only when RIG_APT_BACKPORTS=1 (off by default).
#
# The check (apt-get -s upgrade and dist-upgrade, apt-cache policy: about 5 s)
# is not repeated while nothing it reads changed since the last one that
# passed: build/apt-backports.ok holds a hash of this script, of the content of
# /var/lib/dpkg/status (what is installed; fsaudit's check-install installs
# and purges its package on every make check, which rewrites the file with
# the same content) and of the path, size, inode, mtime and ctime of every
# file under /etc/apt and /var/lib/apt/lists and of the keyring (any apt-get
# update, install, upgrade or edit of apt's configuration changes it).
set -eu
suite=trixie-backports
ALLOWED="linux-source-7.3"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
src=/etc/apt/sources.list.d/fsdeprecate-$suite.sources
pref=/etc/apt/preferences.d/fsdeprecate-$suite
mode=add
force=0
case "${1:-}" in
"") ;;
--check) mode=check; [ "${2:-}" != --force ] || force=1 ;;
--remove) mode=remove ;;
*) echo "usage: $0 [--check [--force]|--remove]" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
okfile=$top/build/apt-backports.ok
die() { echo "apt-backports: error: $*" >&2; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

sources_text() {
	cat <<EOF
# Written by fsdeprecate rig/apt-backports.sh: the kernel source of newer bases.
# Pinned in $pref: nothing but $ALLOWED comes from it.
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: $keyring
EOF
}
pref_text() {
	cat <<EOF
# Written by fsdeprecate rig/apt-backports.sh: nothing from $suite unless named here.
Explanation: fsdeprecate: the kernel source packages of newer bases only
Package: $ALLOWED
Pin: release n=$suite
Pin-Priority: 500

Explanation: fsdeprecate: everything else in $suite is never installed or upgraded
Package: *
Pin: release n=$suite
Pin-Priority: 1
EOF
}
# Write $2 to $1 only when it differs (so that a second run changes nothing).
put() {
	if [ "$(cat "$1" 2>/dev/null)" != "$2" ]; then
		printf '%s\n' "$2" | $SUDO tee "$1.tmp" >/dev/null
		$SUDO mv "$1.tmp" "$1"
		changed=1
	fi
}
update() {
	# The same retry on the lists lock as rig/setup.sh's apt_update.
	t0=$(date +%s)
	while ! out=$($SUDO env LC_ALL=C apt-get -o DPkg::Lock::Timeout=600 update -q 2>&1); do
		if ! printf '%s\n' "$out" | grep -q 'Could not get lock .*/lists/lock' ||
		    [ $(($(date +%s) - t0)) -ge 600 ]; then
			printf '%s\n' "$out" >&2
			die "apt-get update failed"
		fi
		sleep 5
	done
	# A source that is not signed by the keyring is only a warning to apt-get update.
	if printf '%s\n' "$out" | grep -E "^(W|E):.*$suite" >&2; then
		die "apt-get update complained about $suite (above)"
	fi
}
# Verify the pin: no package that is installed would be upgraded from the
# suite, and each allowed package's candidate is from the suite.
# What the check reads: dpkg's status by content, the rest by names, sizes,
# inodes and times (/var/lib/apt/lists is hundreds of MB).
state() {
	{
		sha256sum <"$0"
		sha256sum </var/lib/dpkg/status
		find /etc/apt /var/lib/apt/lists "$keyring" -printf '%p %s %i %T@ %C@ %y %l\n' 2>&1 | LC_ALL=C sort
	} | sha256sum | cut -d' ' -f1
}
check() {
	now=$(state)
	if [ $force = 0 ] && [ "$(cat "$okfile" 2>/dev/null)" = "$now" ]; then
		echo "apt-backports: $suite pinned; nothing apt reads changed since the last check (build/apt-backports.ok)" >&2
		return 0
	fi
	rm -f "$okfile"
	[ -r "$keyring" ] || die "$keyring missing (package debian-archive-keyring)"
	[ "$(cat "$src" 2>/dev/null)" = "$(sources_text)" ] || die "$src missing or not ours"
	[ "$(cat "$pref" 2>/dev/null)" = "$(pref_text)" ] || die "$pref missing or not ours"
	# apt-get -s upgrade / dist-upgrade: every "Inst" line names the release it
	# comes from, e.g. "Inst foo [1] (2 Debian:13.x/trixie-backports [amd64])".
	for what in upgrade dist-upgrade; do
		bad=$(LC_ALL=C apt-get -s -q "$what" 2>/dev/null | grep '^Inst ' | grep -F "/$suite " || true)
		[ -z "$bad" ] || die "apt-get $what would take these from $suite:
$bad"
	done
	for p in $ALLOWED; do
		pol=$(LC_ALL=C apt-cache policy "$p")
		cand=$(printf '%s\n' "$pol" | awk '/Candidate:/ { print $2 }')
		[ -n "$cand" ] && [ "$cand" != "(none)" ] || die "$p: no candidate (apt-get update?)"
		printf '%s\n' "$pol" | grep -A1 -F " $cand " | grep -qF " $suite/" ||
			die "$p: candidate $cand is not from $suite"
	done
	echo "apt-backports: $suite pinned; only $ALLOWED come from it; nothing installed would upgrade from it" >&2
	# Kept only if nothing changed while it ran.
	if [ "$(state)" = "$now" ] && mkdir -p "$top/build" 2>/dev/null; then
		printf '%s\n' "$now" >"$okfile" || true
	fi
}

case $mode in
add)
	[ -r "$keyring" ] || die "$keyring missing (package debian-archive-keyring)"
	changed=0
	put "$src" "$(sources_text)"
	put "$pref" "$(pref_text)"
	# Also update when the lists of the suite are not there yet.
	ls /var/lib/apt/lists/*_dists_"${suite}"_InRelease >/dev/null 2>&1 || changed=1
	[ $changed = 0 ] || update
	check
	;;
check)
	check
	;;
remove)
	$SUDO rm -f "$src" "$pref"
	update
	;;
esac
