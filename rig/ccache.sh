#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Run a kernel build command with its compilers through ccache (Debian's
# package: the compiler links in /usr/lib/ccache first in PATH):
#
#   rig/ccache.sh make -C TREE O=TREE/kobj-NAME ...
#
# or the command as it is when RIG_CCACHE=0, ccache is not installed, or its
# cache directory is not writable.  The cache is ccache's own (~/.cache/ccache
# unless CCACHE_DIR or ccache.conf say otherwise), outside the checkout: an
# object is compiled once for every tree, flavour and checkout that builds it
# with the same command and the same sources (rig/kernel.sh builds in a
# subdirectory of the tree for that: kbuild then names every file relative to
# it).  Depend mode: a miss costs no preprocessor run of its own (ccache reads
# the compiler's dependency file, which kbuild asks for anyway).  `ccache -s`
# shows what the cache holds, `ccache -C` empties it.
if [ "${RIG_CCACHE:-1}" != 0 ] && [ -x /usr/lib/ccache/gcc ] && command -v ccache >/dev/null 2>&1 &&
    dir=$(ccache --get-config cache_dir 2>/dev/null) && [ -n "$dir" ] &&
    mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ]; then
	PATH=/usr/lib/ccache:$PATH CCACHE_DEPEND=1
	export PATH CCACHE_DEPEND
fi
exec "$@"
