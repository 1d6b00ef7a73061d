#!/bin/sh
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
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# Each step says when it starts and how long it took; apt's output is kept
# and shown only if the step fails.
log=$(mktemp /tmp/fsdeprecate-setup.XXXXXX)
trap 'rm -f "$log"' EXIT
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
n=$(echo $missing | wc -w)
step "apt-get update" $SUDO apt-get update -q
# shellcheck disable=SC2086
step "installing $n packages:$missing" $SUDO apt-get install -y -q --no-install-recommends $missing
