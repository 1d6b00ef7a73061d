#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Install every Debian package the project needs that is not installed yet.
# Package lists: rig/packages.txt and any */packages.txt of a component.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lists=$(ls "$top"/rig/packages.txt "$top"/*/packages.txt 2>/dev/null | sort -u)
pkgs=$(cat $lists | sed 's/#.*//' | tr -s ' \t' '\n\n' | sort -u | grep -v '^$' || true)
# One dpkg-query for all (a call per package cost ~0.5 s per make run).
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $pkgs 2>/dev/null | awk '$2 == "installed" { print $1 }' || true)
missing=""
for p in $pkgs; do
	echo "$installed" | grep -qxF "$p" || missing="$missing $p"
done
# A base whose source only trixie-backports has (7.3, issue 25): the pinned
# apt source, when asked for (`make check` does: it boots the 7.3 groups).
# rig/apt-backports.sh verifies the pin every time and fails setup if
# anything installed could be upgraded from that suite.
if [ "${RIG_APT_BACKPORTS:-0}" = 1 ]; then
	"$top"/rig/apt-backports.sh
fi
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# Each step says when it starts and how long it took; apt's output is kept
# and shown only if the step fails.
log=$(mktemp /tmp/fsdeprecate-setup.XXXXXX)
trap 'rm -f "$log" "$log.update"' EXIT
step() {
	what=$1; shift
	echo "setup: $(date +%H:%M:%S) $what ..." >&2
	t0=$(date +%s)
	if ! "$@" >"$log" 2>&1; then
		cat "$log" >&2
		echo "setup: $what FAILED after $(($(date +%s) - t0)) s: $*" >&2
		exit 1
	fi
	echo "setup: $what: done in $(($(date +%s) - t0)) s" >&2
}
# Another apt may hold the locks (unattended-upgrades or apt-daily on a fresh
# machine, a second make run): wait for them up to 10 minutes.  apt-get install
# waits for the dpkg lock itself (DPkg::Lock::Timeout); apt 2.6's apt-get
# update does not apply it to /var/lib/apt/lists/lock and fails at once, so
# update is run again every 5 s while that lock is what it failed on (in the C
# locale, so that the message can be matched).
lock_wait=600
exec 3>&2
apt_update() {
	u0=$(date +%s)
	while ! $SUDO env LC_ALL=C apt-get -o DPkg::Lock::Timeout=$lock_wait update -q >"$log.update" 2>&1; do
		if ! grep -q 'Could not get lock .*/lists/lock' "$log.update" ||
		    [ $(($(date +%s) - u0)) -ge $lock_wait ]; then
			cat "$log.update"
			return 1
		fi
		[ -n "${waited:-}" ] || echo "setup: apt-get update: another apt holds the lists lock, waiting up to $lock_wait s" >&3
		waited=1
		sleep 5
	done
	cat "$log.update"
}
n=$(echo $missing | wc -w)
step "apt-get update" apt_update
# shellcheck disable=SC2086
step "installing $n packages:$missing" $SUDO apt-get -o DPkg::Lock::Timeout=$lock_wait install -y -q --no-install-recommends $missing
