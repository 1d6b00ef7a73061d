#!/bin/sh
# Make the kernel development tree build/kdev: the pristine Debian source as
# the base commit (tag "pristine") and kernel/patches applied as commits.
# Edit and commit there, then regenerate the series with
#   git -C build/kdev format-patch --cover-letter -o kernel/patches pristine..HEAD
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/kdev}
[ -e "$dir" ] && { echo "rig/kdev: $dir exists; not touching it" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
mkdir -p "$dir.tmp"
tar xf /usr/src/linux-source-6.12.tar.xz -C "$dir.tmp"
mv "$dir.tmp/linux-source-6.12" "$dir" && rmdir "$dir.tmp"
cd "$dir"
git init -q
# Debian's .gitignore ignores every top-level path ("/*"): add by force.
git add -Af
git commit -qm "linux-source-6.12 $ver (Debian, pristine)"
git tag pristine
if ls "$top"/kernel/patches/*.patch >/dev/null 2>&1; then
	git am -q $(ls "$top"/kernel/patches/*.patch | grep -v '/0000-cover-letter.patch$')
fi
git log --oneline pristine..HEAD
