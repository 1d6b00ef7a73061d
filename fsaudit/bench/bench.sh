#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# bench/bench.sh - fsaudit speed benchmark (prints ratios; not a test).
#
# BENCH_N (default 1000) small images, copies of ext4 (256/128-byte
# inodes), ext2 revision 0, XFS (V5, V5 without bigtime, V4) and reiserfs
# (3.6, 3.5) made with real mkfs tools, audited three ways over the same
# files in the same run:
#   manual  - per file: blkid -p, then dumpe2fs -h / xfs_db -r -c version /
#             debugreiserfs by type (what admins script today)
#   blkid   - one `blkid -p` process over all files
#   fsaudit - one fsaudit process over all files
# Goals (issue 5): manual/fsaudit >= 25, fsaudit/blkid <= 1.5.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")/.." && pwd)
n=${BENCH_N:-1000}
rounds=${BENCH_ROUNDS:-5}
tmp=$(mktemp -d /tmp/fsaudit-bench.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT

"$here/tests/mkimages.sh" "$tmp/base" >"$tmp/mk.txt" 2>&1
bases="ext4-256 ext4-128 ext2-rev0 xfs-v5 xfs-v5-nobig xfs-v4 reiserfs-3.6 reiserfs-3.5"
mkdir -p "$tmp/img"
i=0
while [ $i -lt "$n" ]; do
	for b in $bases; do
		[ $i -lt "$n" ] || break
		cp --sparse=always "$tmp/base/$b.img" "$tmp/img/$(printf '%04d' $i)-$b.img"
		i=$((i + 1))
	done
done
cd "$tmp/img" || exit 2
files=(*.img)
echo "images: ${#files[@]} ($(du -sh . | cut -f1) on disk), kinds: $bases"

now() { date +%s%N; }

manual() {
	local f t
	for f in "${files[@]}"; do
		t=$(blkid -p -o value -s TYPE "$f")
		case $t in
		ext2|ext3|ext4) dumpe2fs -h "$f" ;;
		xfs) xfs_db -r -c version "$f" ;;
		reiserfs) debugreiserfs "$f" ;;
		esac
	done >/dev/null 2>&1
}
one_blkid() { blkid -p "${files[@]}" >/dev/null 2>&1; }
one_fsaudit() { "$here/fsaudit" --sysroot "$tmp" "${files[@]}" >/dev/null 2>&1; }
one_fsaudit_json() { "$here/fsaudit" --sysroot "$tmp" -J -o +TIME-MAX-EPOCH,S-TIME-MAX "${files[@]}" >/dev/null 2>&1; }

# median wall time in ns of $rounds runs of "$1"
median() {
	local r s e ts=()
	for ((r = 0; r < $2; r++)); do
		s=$(now); "$1"; e=$(now); ts+=($((e - s)))
	done
	printf '%s\n' "${ts[@]}" | sort -n | sed -n "$((($2 + 1) / 2))p"
}

one_blkid; one_fsaudit		# warm the page cache
t_manual=$(median manual 1)
t_blkid=$(median one_blkid "$rounds")
t_fsaudit=$(median one_fsaudit "$rounds")
t_json=$(median one_fsaudit_json "$rounds")

per() { awk -v t="$1" -v n="${#files[@]}" 'BEGIN { printf "%9.1f ms, %.4f ms/image", t / 1e6, t / 1e6 / n }'; }
printf '%-34s %s\n' "manual pipeline (1 run):" "$(per "$t_manual")"
printf '%-34s %s\n' "one blkid -p (median of $rounds):" "$(per "$t_blkid")"
printf '%-34s %s\n' "fsaudit (median of $rounds):" "$(per "$t_fsaudit")"
printf '%-34s %s\n' "fsaudit -J (median of $rounds):" "$(per "$t_json")"
awk -v m="$t_manual" -v b="$t_blkid" -v f="$t_fsaudit" -v j="$t_json" 'BEGIN {
	printf "ratio manual / fsaudit   = %7.1f  (goal >= 25)  %s\n", m / f, ((m / f >= 25) ? "met" : "NOT MET")
	printf "ratio fsaudit / blkid    = %7.2f  (goal <= 1.5) %s\n", f / b, ((f / b <= 1.5) ? "met" : "NOT MET")
	printf "ratio fsaudit -J / blkid = %7.2f\n", j / b
}'
