#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# How much of a series applies to another base: each patch in order on a
# scratch copy of the tree, with no fuzz (as rig/kernel.sh applies it); the
# hunks that apply are kept, so later patches see what earlier ones did, and
# the rejects of each patch are kept in SCRATCH.logs/PATCH/.
#
#   rig/port-dryrun.sh TREE SCRATCH [PATCH_DIR]     (PATCH_DIR: kernel/patches)
#
# TREE is left alone (e.g. build/v73/linux-source-7.3 from rig/base-source.sh);
# SCRATCH is replaced by a copy of it.  Prints one line per patch, tab-separated:
#   patch  hunks  ok  offset  fuzz2  failed  missing  failed-files
# ok: applied exactly (offset: of which at another line); fuzz2: of the failed
# hunks, how many a dry run with patch's default fuzz (2) would apply;
# failed: rejected; missing: hunks of files the tree does not have (or a file
# to create that exists).  SCRATCH.logs/PATCH.log keeps patch's own output.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 TREE SCRATCH [PATCH_DIR]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "$1" && pwd)
scratch=$2
pdir=${3:-$top/kernel/patches}
rm -rf "$scratch"
mkdir -p "$(dirname "$scratch")"
cp -a "$tree" "$scratch"
scratch=$(cd "$scratch" && pwd)
logs=$scratch.logs
rm -rf "$logs" && mkdir -p "$logs"
printf 'patch\thunks\tok\toffset\tfuzz2\tfailed\tmissing\tfailed-files\n'
for p in $(grep -l '^diff ' "$pdir"/*.patch | sort); do
	name=$(basename "$p" .patch)
	hunks=$(grep -c '^@@ ' "$p" || true)
	# Failed hunks that the default fuzz would take (against the same state).
	fz=$(cd "$scratch" && patch --dry-run -p1 -N --batch -F2 < "$p" 2>&1 || true)
	out=$(cd "$scratch" && patch -p1 -N --batch -F0 --no-backup-if-mismatch < "$p" 2>&1 || true)
	printf '%s\n' "$out" > "$logs/$name.log"
	printf '%s\n' "$fz" > "$logs/$name.fuzz2.log"
	# Each patch's rejects apart (patch overwrites FILE.rej).
	(cd "$scratch" && find . -name '*.rej' -printf '%P\n') | while read -r r; do
		mkdir -p "$logs/$name/$(dirname "$r")"
		mv "$scratch/$r" "$logs/$name/$r"
	done
	failed=$(printf '%s\n' "$out" | grep -c '^Hunk #[0-9]* FAILED' || true)
	fz_failed=$(printf '%s\n' "$fz" | grep -c '^Hunk #[0-9]* FAILED' || true)
	offset=$(printf '%s\n' "$out" | grep -c '^Hunk #[0-9]* succeeded at .*offset' || true)
	# Hunks of files skipped whole: "N out of N hunks ignored".
	missing=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) out of [0-9]* hunks\{0,1\} ignored.*/\1/p' | paste -sd+ | bc)
	missing=${missing:-0}
	ok=$((hunks - failed - missing))
	ffiles=$(printf '%s\n' "$out" | awk '
		/^patching file / { f = $3 }
		/^checking file / { f = $3 }
		/^Hunk #[0-9]* FAILED/ { n[f]++ }
		END { for (k in n) { printf "%s%s(%d)", sep, k, n[k]; sep = " " } }' | tr -d "'")
	# Files skipped whole: missing from the tree, or to be created but there.
	mfiles=$(printf '%s\n' "$out" | awk '
		/^\|\+\+\+ b\// { f = substr($2, 3); why = "missing" }
		/^The next patch would create the file / { f = $7; sub(/,$/, "", f); why = "exists" }
		/hunks? ignored/ { printf "%s%s(%s)", sep, f, why; sep = " " }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$hunks" "$ok" "$offset" \
		$((failed - fz_failed)) "$failed" "$missing" "$ffiles${mfiles:+ $mfiles}"
done
