#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Unpack Debian's linux-source-BASE, the version recorded in
# kernel/BASE/base-version, into build/vNN/linux-source-BASE (7.3 -> build/v73).
#
#   rig/base-source.sh BASE [DEST_DIR]
#
# Without installing anything: when the package is installed at the recorded
# version its /usr/src tarball is used; otherwise `apt-get download` fetches
# the .deb (its hash checked by apt against the signed lists) into
# build/vNN/ and the tarball is read out of it with dpkg-deb.  No dependency
# resolution, no change to dpkg's database or /usr/src.  A base that only
# trixie-backports has (7.3) needs rig/apt-backports.sh first.
#
# The archive keeps only the newest version of a package in a suite (and a
# few in bookworm-security); when the recorded version is gone, the candidate
# is used with a warning, as rig/kernel.sh does for 6.12.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "base-source: error: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: $0 BASE [DEST_DIR]"
base=$1
pkg=linux-source-$base
vfile=$top/kernel/$base/base-version
[ -r "$vfile" ] || die "$vfile missing"
want=$(cat "$vfile")
dest=${2:-$top/build/v$(echo "$base" | tr -d .)}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
tree=$dest/$pkg
stamp=$tree.stamp

inst=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$pkg" 2>/dev/null || true)
if [ "$inst" = "installed $want" ] && [ -r "/usr/src/$pkg.tar.xz" ]; then
	ver=$want from="/usr/src/$pkg.tar.xz"
else
	ver=$want
	if ! LC_ALL=C apt-cache show "$pkg=$want" >/dev/null 2>&1; then
		ver=$(LC_ALL=C apt-cache policy "$pkg" | awk '/Candidate:/ { print $2 }')
		[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
			die "$pkg: not known to apt (for 7.3: rig/apt-backports.sh first)"
		echo "base-source: WARNING: $pkg $want is no longer in the archive; using $ver" >&2
	fi
	deb=$dest/${pkg}_${ver}_all.deb
	if [ ! -s "$deb" ]; then
		echo "base-source: downloading $pkg $ver" >&2
		# apt-get download writes into the current directory.
		(cd "$dest" && LC_ALL=C apt-get download -q "$pkg=$ver" 2>&1 |
			grep -v 'unsandboxed as root' >&2) || true
		[ -s "$deb" ] || die "apt-get download $pkg=$ver failed"
	fi
	from=$deb
fi
key="$pkg $ver"
if [ "$(cat "$stamp" 2>/dev/null)" = "$key" ] && [ -d "$tree" ]; then
	echo "$tree"
	exit 0
fi
echo "base-source: unpacking $pkg $ver into $tree" >&2
rm -rf "$tree" "$tree.tmp" "$stamp"
mkdir -p "$tree.tmp"
case $from in
*.deb)	dpkg-deb --fsys-tarfile "$from" | tar -xO "./usr/src/$pkg.tar.xz" | xz -T0 -dc | tar -x -C "$tree.tmp" ;;
*)	xz -T0 -dc "$from" | tar -x -C "$tree.tmp" ;;
esac
[ -d "$tree.tmp/$pkg" ] || die "$from holds no $pkg/ directory"
mv "$tree.tmp/$pkg" "$tree"
rmdir "$tree.tmp"
echo "$key" > "$stamp"
echo "$tree"
