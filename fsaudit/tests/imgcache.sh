#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# imgcache.sh DIR - tests/mkimages.sh DIR through a cache: the same images,
# output (name<TAB>status per image) and stderr, but the matrix is made once
# per recipe, in build/test-images/ (FSAUDIT_IMAGE_CACHE), and copied into
# DIR (sparse: 12 MB of data in 390 MB of images).
#
# The recipe, whose md5 is the key: mkimages.sh itself, the version of every
# installed package (dpkg-query -W: the mkfs tools, their libraries), each
# tool's binary as found in PATH (path, size, mtime: one from no package),
# /etc/mke2fs.conf and the running kernel's release.  Only a matrix where
# every image was made is kept; with a tool missing or failing, mkimages.sh
# runs in DIR every time, as without the cache.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
cache=${FSAUDIT_IMAGE_CACHE:-$here/build/test-images}

tools=$(awk '$1 == "mk" { print $4 }' "$here/tests/mkimages.sh")
key=$({
	cat "$here/tests/mkimages.sh"
	cat /etc/mke2fs.conf 2>/dev/null
	uname -r
	dpkg-query -W 2>/dev/null
	# shellcheck disable=SC2086
	for t in $tools; do command -v "$t" || echo "$t: none"; done | xargs stat -L -c '%n %s %Y' 2>&1
} | md5sum | cut -d' ' -f1)

# no cache where it cannot be written (another user's tree): as mkimages.sh
if ! { mkdir -p "$(dirname "$cache")" && exec 9>>"$cache.lock" && flock 9; } 2>/dev/null; then
	exec "$here/tests/mkimages.sh" "$dir"
fi
if [ "$(cat "$cache/key" 2>/dev/null)" != "$key" ]; then
	rm -rf "$cache" "$cache.new"
	mkdir -p "$cache.new"
	"$here/tests/mkimages.sh" "$cache.new/images" >"$cache.new/images.txt" 2>"$cache.new/images.err"
	rc=$?
	if [ $rc != 0 ] || grep -qv '	ok$' "$cache.new/images.txt"; then
		rm -rf "$cache.new"
		exec 9>&-
		exec "$here/tests/mkimages.sh" "$dir"
	fi
	# holes where mkfs wrote zeros: the copies are cheap (same content)
	for f in "$cache.new/images/"*.img; do fallocate --dig-holes "$f" 2>/dev/null; done
	echo "$key" >"$cache.new/key"
	mv "$cache.new" "$cache" || exit 2
fi
mkdir -p "$dir" && cp -a "$cache/images/." "$dir/" || exit 2
cat "$cache/images.err" >&2
cat "$cache/images.txt"
exit 0
