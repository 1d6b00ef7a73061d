#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# fuzz/run.sh RUNS PROBER... - run each prober's libFuzzer target for RUNS
# executions, seeded with the test images (cut to the part the prober
# reads).  Exits non-zero if any target crashes.  Run from fsaudit/.
set -u
runs=$1; shift
here=$(pwd)
work=$here/build/fuzz-work
mkdir -p "$work"
# seed images: the test matrix (tests/imgcache.sh: made once per recipe),
# copied for this run (concurrent runs must not share it)
images=$work/images.$$
rm -rf "$work/images"	# the cache of earlier versions of this script
trap 'rm -rf "$images"' EXIT
./tests/imgcache.sh "$images" >/dev/null || exit 2

# prober -> images (by name prefix) and the longest input worth trying
seeds_for() {
	case $1 in
	ext) echo "ext2-* ext3-* ext4-*" ;;
	vfat) echo "vfat*" ;;
	minix) echo "minix*" ;;
	udf) echo "udf*" ;;
	ufs) echo "ufs*" ;;
	xfs) echo "xfs-*" ;;
	reiserfs) echo "reiserfs-*" ;;
	*) echo "$1.img" ;;
	esac
}
max_len_for() {
	case $1 in
	reiserfs|btrfs|gfs2) echo 70000 ;;
	ocfs2) echo 12288 ;;
	jfs) echo 40960 ;;
	udf|iso9660) echo 100000 ;;
	ufs) echo 264000 ;;
	*) echo 8192 ;;
	esac
}

fail=0
total=0
printf '%-10s %6s %12s %8s %s\n' PROBER SEEDS EXECS CRASHES SECONDS
for p in "$@"; do
	corpus=$work/corpus-$p.$$	# per run: concurrent runs must not share it
	rm -rf "$corpus"; mkdir -p "$corpus"
	ml=$(max_len_for "$p")
	for pat in $(seeds_for "$p"); do
		for img in "$images"/$pat; do
			[ -f "$img" ] || continue
			head -c "$ml" "$img" >"$corpus/${img##*/}"
		done
	done
	log=$work/$p.log
	nseeds=$(ls "$corpus" | wc -l)
	start=$(date +%s)
	# -print_funcs=0: no NEW_FUNC lines, each an llvm-symbolizer run (a
	# crash is still symbolized)
	(cd "$work" && "$here/build/fuzz-$p" -runs="$runs" -max_len="$ml" -rss_limit_mb=2048 \
		-print_final_stats=1 -print_funcs=0 -artifact_prefix="$work/crash-$p-" "$corpus") >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=0
	if [ $rc -ne 0 ]; then crashes=1; fail=1; fi
	printf '%-10s %6s %12s %8s %s\n' "$p" "$nseeds" "${execs:-?}" "$crashes" $((end - start))
	[ $rc -ne 0 ] && tail -20 "$log"
	total=$((total + ${execs:-0}))
	rm -rf "$corpus"
done
echo "total executions: $total"
exit $fail
