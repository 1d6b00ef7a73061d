#!/bin/sh
# Install every Debian package the project needs that is not installed yet.
# Package lists: rig/packages.txt and any */packages.txt of a component.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lists=$(ls "$top"/rig/packages.txt "$top"/*/packages.txt 2>/dev/null | sort -u)
pkgs=$(cat $lists | sed 's/#.*//' | tr -s ' \t' '\n\n' | sort -u | grep -v '^$' || true)
missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
