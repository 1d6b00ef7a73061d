# tests/admin.sh - sourced by tests/run.sh from the image directory (issue
# 15): terminal width, shell-safe remedies, partitioned images, directory
# arguments, JSON encoding, summary and quiet mode, kernel configuration,
# Prometheus output with promtool and a real node_exporter.
# Uses run.sh's helpers and variables ($bin, $tmp, $exp, $fix, $empty, $rA, $rB).

# ---------------------------------------------------------------- width
run_fsaudit "$tmp/out" --sysroot "$empty" -w 100 ext4-128.img xfs-v4.img ext2-rev0.img reiserfs-3.6.img
compare "-w 100: the table fits 100 columns, REMEDY wraps at spaces" "$exp/width-100.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" -w 80 -o SOURCE,VERDICT,REMEDY ext4-128.img xfs-v4.img ext2-rev0.img reiserfs-3.6.img
compare "-w 80 -o SOURCE,VERDICT,REMEDY: REMEDY wrapped at spaces" "$exp/width-80.txt" "$tmp/out"
awk 'length($0) > 80' "$tmp/out" >"$tmp/long"
[ ! -s "$tmp/long" ] && [ "$(grep -c . "$tmp/out")" -gt 6 ]
check "-w 80: no line longer than 80 characters, REMEDY on several lines" $? "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" -w 60 -u -o SOURCE,VERDICT,REMEDY xfs-v4.img
compare "-u with -w 60: nothing truncated or wrapped" "$exp/width-notruncate.txt" "$tmp/out"
"$bin" --sysroot "$empty" ext4-128.img xfs-v4.img >"$tmp/a" 2>&1
"$bin" --sysroot "$empty" -w 400 ext4-128.img xfs-v4.img >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" && [ "$(wc -l <"$tmp/a")" = 3 ]
check "not a terminal: one line per filesystem, as wide as the data" $? "$tmp/a"
if command -v script >/dev/null; then
	script -qec "stty cols 110 2>/dev/null; '$bin' --sysroot '$empty' xfs-v4.img" /dev/null >"$tmp/tty" 2>&1
	tr -d '\r' <"$tmp/tty" >"$tmp/tty2"
	awk 'length($0) > 110' "$tmp/tty2" >"$tmp/long"
	[ ! -s "$tmp/long" ] && [ "$(grep -c '[a-z]' "$tmp/tty2")" -ge 4 ] && grep -q '^1 source: 1 at risk (1 deprecated), 0 ok, 0 unknown, 0 unreadable$' "$tmp/tty2"
	check "at a terminal (110 columns): the table fits, REMEDY wraps, summary line by default" $? "$tmp/tty2"
	script -qec "'$bin' --sysroot '$empty' -q xfs-v4.img" /dev/null >"$tmp/tty" 2>&1
	[ ! -s "$tmp/tty" ]
	check "at a terminal, -q prints nothing (no automatic summary)" $? "$tmp/tty"
else
	skip "at a terminal" "script(1) not installed"
	skip "at a terminal, -q prints nothing" "script(1) not installed"
fi
st "--width 0" 3 -w 0 ext4-256.img
st "--width abc" 3 --width abc ext4-256.img

# ---------------------------------------------------------------- remedies
# copies under hostile names; every remedy must give the name back through sh
mkdir -p names
hostile=("a b.img" "it's.img" '$HOME.img' 'back`id`tick.img' "$(printf 'new\nline.img')" "-x.img" 'semi;colon&amp|pipe.img' '~tilde.img' "back\\slash\"dq.img" "plain.img")
: >"$tmp/names.args"
for nm in "${hostile[@]}"; do
	for src in ext3-128 ext2-rev0 xfs-v5-nobig; do
		cp --sparse=always "$src.img" "names/${nm%.img}.$src.img"
	done
done
(cd names && "$bin" --sysroot "$empty" -J -o SOURCE,REMEDY -- * >"$tmp/names.json" 2>"$tmp/names.err")
py - "$tmp/names.json" "$tmp/names.txt" <<'EOF' >"$tmp/names.log" 2>&1
import json, re, subprocess, sys
d = json.load(open(sys.argv[1]))["filesystems"]
out = open(sys.argv[2], "w")
bad = 0
n = 0
for fs in d:
    src, rem = fs["source"], fs["remedy"]
    # the words after the tool's fixed arguments
    words = re.findall(r"(?:tune2fs -O large_file|tune2fs -I 256|xfs_admin -O bigtime=1) (\S+|'(?:[^']|'\\'')*'(?:\S*))(?= \()", rem)
    if not words:
        print("no name in remedy:", src, rem); bad = 1; continue
    for w in words:
        n += 1
        got = subprocess.run(["sh", "-c", "printf '%s\\n' " + w], capture_output=True).stdout.decode()[:-1]
        want = ("./" + src) if src.startswith("-") else src
        out.write(repr(src) + " -> " + w.replace("\n", "\\n") + "\n")
        if got != want:
            print("round trip failed:", repr(src), repr(w), repr(got)); bad = 1
print(n, "names checked")
sys.exit(bad)
EOF
check "remedies: every name (spaces, quotes, \$, backticks, newline, leading -, ;&|, ~, backslash) round-trips through sh -c printf" $? "$tmp/names.log"
sed -i 's/^/# /' "$tmp/names.txt"
sort "$tmp/names.txt" >"$tmp/names.sorted"
compare "remedies: quoted names" "$exp/remedy-quoting.txt" "$tmp/names.sorted"
rm -rf names

# ---------------------------------------------------------------- partitioned images
mkdir -p parts
cp --sparse=always ext4-128.img ext4-256.img xfs-v4.img vfat16.img ext2-rev0.img reiserfs-3.6.img parts/
if command -v sfdisk >/dev/null && (cd parts && py "$here/tests/mkparts.py" . >"$tmp/parts.list" 2>"$tmp/parts.err"); then
	ok "mkparts.py makes partitioned images with sfdisk (GPT, MBR, hostile tables)"
	cd parts || exit 2
	PCOLS=SOURCE,FSTYPE,FORMAT,TIME-MAX,VERDICT,REMOVAL,REMEDY,NOTES
	run_fsaudit "$tmp/out" --sysroot "$empty" -o "$PCOLS" gpt.img mbr.img gpt-ok.img
	compare "partitions: GPT and MBR (extended, logical) images, every partition as IMAGE:pN" "$exp/partitions.txt" "$tmp/out"
	"$bin" --sysroot "$empty" -J -o "$ALLCOLS" gpt.img mbr.img >"$tmp/out.json" 2>&1
	valid_json "$tmp/out.json" 2>"$tmp/json.err"
	json_ok "$tmp/out.json"
	check "partitions: valid JSON" $? "$tmp/out.json.valid"
	st "partitions: an all-ok disk image" 0 --sysroot "$empty" gpt-ok.img
	st "partitions: a 2038-limited partition makes the image at risk" 1 --sysroot "$empty" gpt-ok.img gpt.img
	st "partitions: -R lists the risky partitions" 1 --sysroot "$empty" -R mbr.img
	"$bin" --sysroot "$empty" -R -n -o SOURCE mbr.img >"$tmp/out" 2>&1
	[ "$(tr '\n' ' ' <"$tmp/out")" = "mbr.img:p5 mbr.img:p6 " ]
	check "partitions: -R lists only mbr.img:p5 and p6" $? "$tmp/out"
	run_fsaudit "$tmp/out" --sysroot "$empty" -o SOURCE,FSTYPE,VERDICT,NOTES \
		mbr-pastend.img mbr-startpast.img mbr-overlap.img mbr-zero.img mbr-huge.img mbr-loop.img gpt-badprimary.img gpt-badboth.img
	compare "partitions: past the end, starting past the end, overlapping, size 0, huge, looping EBR, damaged GPT headers" "$exp/partitions-hostile.txt" "$tmp/out"
	"$bin" --sysroot "$empty" -n -o SOURCE,VERDICT gpt-many.img >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 128 ] && grep -q '^gpt-many.img:p128 ' "$tmp/out"
	check "partitions: 128 GPT partitions, each reported (exit $rc)" $? "$tmp/out"
	# random damage in the partition tables (first 34 and last 33 sectors),
	# and the ASan build's inputs: one corrupt.py run
	printf '%s\tf-%s\tflips\t11\t40\t16\t17408\n' gpt.img gpt mbr.img mbr >"$tmp/parts.jobs"
	[ -z "$asan" ] || printf '%s\ta-%s\tflips\t5\t20\t32\t17408\n' gpt.img gpt mbr.img mbr >>"$tmp/parts.jobs"
	py "$here/tests/corrupt.py" --batch "$tmp/parts.jobs" 2>"$tmp/parts.corrupt.err"
	for base in gpt mbr; do
		"$bin" --sysroot "$empty" -o SOURCE,VERDICT f-$base.* >"$tmp/flip.out" 2>&1
		rc=$?
		rm -f f-$base.*
		[ $rc -le 1 ]
		check "partitions: random damage to the $base table, 40 copies (exit $rc)" $? "$tmp/flip.out"
	done
	if [ -n "$asan" ]; then
		asan_check "partitions: ASan/UBSan build on every partitioned and damaged image" \
			--sysroot "$empty" -J -o "$ALLCOLS" ./*.img a-*
		rm -f a-*
	fi
	cd .. || exit 2
else
	notok "mkparts.py makes partitioned images with sfdisk" "$tmp/parts.err"
fi
rm -rf parts

# ---------------------------------------------------------------- directories
mkdir -p "$tmp/tree/sub/dir" "$tmp/tree/tmp" "$tmp/tree/old/x" "$tmp/tree/net" "$tmp/elsewhere"
sed "s|@TMP@|$tmp|g" "$fix/dirs.mountinfo" >"$tmp/dirs.mountinfo"
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$tmp/dirs.mountinfo" -o SOURCE,TARGET,FSTYPE,VERDICT,NOTES \
	"$tmp/tree" "$tmp/tree/sub/dir" "$tmp/tree/sub/../sub" "$tmp/tree/tmp" "$tmp/tree/old/x" "$tmp/tree/net" "$tmp/elsewhere"
# The column widths follow the length of $tmp: compare with runs of blanks squeezed
sed -i -e "s|$tmp|TMP|g" -e 's/  */ /g' "$tmp/out"
compare "directories: the filesystem a directory is on (longest mount point, last mounted wins; tmpfs, nfs)" "$exp/directories.txt" "$tmp/out"
grep -v ' / / ' "$tmp/dirs.mountinfo" >"$tmp/noroot.mountinfo"
st "directories: a directory in no mounted filesystem is unreadable" 2 --sysroot "$rA" -F "$tmp/noroot.mountinfo" "$tmp/elsewhere"
st "directories: with --unreadable-unknown it is unknown" 0 --sysroot "$rA" -F "$tmp/noroot.mountinfo" --unreadable-unknown "$tmp/elsewhere"

# ---------------------------------------------------------------- JSON
# c-utf8: an ext4 label that is not UTF-8, made with run.sh's corrupt images
cp --sparse=always ext4-256.img "$(printf 'bad\377na\303me.img')"
"$bin" --sysroot "$empty" -J -o SOURCE,LABEL,S-TIME-MAX c-utf8 btrfs.img ntfs.img ext4-256.img bad*me.img >"$tmp/out.json" 2>&1
py - "$tmp/out.json" <<'EOF' >"$tmp/json.err" 2>&1
import json, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw.decode("utf-8"))            # strict: fails on invalid UTF-8
fs = d["filesystems"]
assert fs[0]["label"] == "a\ufffd\ufffd\ufffd(\ufffdA", repr(fs[0]["label"])
big = [f for f in fs if isinstance(f["s-time-max"], str)]
assert [f["source"] for f in big] == ["btrfs.img", "ntfs.img"], big
assert all(int(f["s-time-max"]) == 2**63 - 1 for f in big)
small = [f for f in fs if isinstance(f["s-time-max"], int)]
assert all(abs(f["s-time-max"]) <= 2**53 - 1 for f in small) and small
assert fs[4]["source"] == "bad\ufffdna\ufffdme.img", repr(fs[4]["source"])
print("ok")
EOF
check "JSON: invalid UTF-8 in a label and a file name as U+FFFD, integers beyond 2^53 as decimal strings" $? "$tmp/json.err"
"$bin" --sysroot "$empty" -r -n -o S-TIME-MAX btrfs.img >"$tmp/out" 2>&1
grep -qx '9223372036854775807' "$tmp/out"
check "raw output keeps big integers as plain numbers" $? "$tmp/out"
rm -f c-utf8 bad*me.img
"$bin" -H -J >"$tmp/out.json" 2>&1
py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(c["name"]=="REMEDY" and c["type"]=="string" for c in d["columns"])' "$tmp/out.json" >"$tmp/json.err" 2>&1
check "-H -J lists the columns in JSON" $? "$tmp/json.err"
"$bin" -J -H >"$tmp/out2.json" 2>&1
cmp -s "$tmp/out.json" "$tmp/out2.json"
check "-J -H: same as -H -J" $?
"$bin" --no-such-option >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q "^fsaudit: unrecognized option '--no-such-option'"
check "unknown option: message starts with 'fsaudit:' (program run by full path)" $? "$tmp/out"
"$bin" -Z >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q "^fsaudit: invalid option -- 'Z'"
check "unknown short option: message starts with 'fsaudit:'" $? "$tmp/out"

# ---------------------------------------------------------------- summary, quiet, unreadable
run_fsaudit "$tmp/out" --sysroot "$empty" -S -o SOURCE,VERDICT ext4-128.img xfs-v4.img ext4-256.img swap.img no-such.img
compare "--summary: one line after the table" "$exp/summary.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" -q -S ext4-128.img ext4-256.img
compare "-q -S: only the summary line" "$exp/summary-quiet.txt" "$tmp/out"
"$bin" --sysroot "$empty" -q ext4-128.img >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/out" ]
check "-q: no output, exit 1 for a filesystem at risk" $? "$tmp/out"
st "-q: exit 0 when nothing is at risk" 0 --sysroot "$empty" -q ext4-256.img
st "--unreadable-unknown: at risk (1) is not hidden by an unreadable source" 1 --sysroot "$empty" --unreadable-unknown ext4-128.img no-such.img
st "--unreadable-unknown: unreadable alone gives 0" 0 --sysroot "$empty" --unreadable-unknown ext4-256.img no-such.img
st "without it unreadable (2) wins" 2 --sysroot "$empty" ext4-128.img no-such.img
st "--summary=never" 0 --sysroot "$empty" --summary=never ext4-256.img
st "--summary=bad" 3 --summary=bad ext4-256.img
st "--prometheus with --json" 3 --prometheus -J ext4-256.img

# ---------------------------------------------------------------- kernel configuration
KCOLS=SOURCE,FSTYPE,FORMAT,VERDICT,REMOVAL,REMEDY,NOTES
kimgs="xfs-v4.img xfs-v4-ci.img xfs-v5.img reiserfs-3.6.img ext2-256.img ext4-128.img vfat16.img btrfs.img"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-nov4" -o "$KCOLS" $kimgs
compare "kernel config without XFS V4, reiserfs, ext2, vfat: 'this kernel cannot mount it'" "$exp/kconfig-nov4.txt" "$tmp/out"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-full" -o "$KCOLS" $kimgs
compare "kernel config with everything: removal dates as without a config" "$exp/kconfig-full.txt" "$tmp/out"
# shellcheck disable=SC2086
"$bin" --sysroot "$empty" -o "$KCOLS" $kimgs >"$tmp/a" 2>&1
# shellcheck disable=SC2086
"$bin" --sysroot "$empty" --kernel-config "$fix/config-full" -o "$KCOLS" $kimgs >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b"
check "no kernel config: same verdicts as a config that has everything" $? "$tmp/a"
rK=$tmp/rootK
mkdir -p "$rK/proc"
gzip -c "$fix/config-nov4" >"$rK/proc/config.gz"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$rK" -o "$KCOLS" $kimgs
compare "kernel config from <sysroot>/proc/config.gz (gzip)" "$exp/kconfig-nov4.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-ext2" -o SOURCE,TIME-MAX,VERDICT,DEPRECATED ext2-256.img ext2-128.img ext4-256.img
compare "kernel config with CONFIG_EXT2_FS: unmounted ext2 is mounted by the ext2 driver (auto)" "$exp/kconfig-ext2.txt" "$tmp/out"
st "kernel cannot mount it: exit 1" 1 --sysroot "$empty" --kernel-config "$fix/config-nov4" vfat16.img
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$fix/basic.mountinfo" --kernel-config "$fix/config-nov4" -o SOURCE,VERDICT,REMOVAL
compare "kernel config: mounted filesystems are mountable (it is mounted)" "$exp/mount-kconfig.txt" "$tmp/out"

# ---------------------------------------------------------------- Prometheus
# the kernel inventory of root B, with counters, a y2038 directory, the
# sysctls and the new "loaded" file on one item
for i in reiserfs xfs-v4; do printf '1\n' >"$rB/sys/fs/deprecated/$i/loaded"; done
printf '7\n' >"$rB/sys/fs/deprecated/xfs-v4/mounts"; printf '2\n' >"$rB/sys/fs/deprecated/xfs-v4/refused"
mkdir -p "$rB/sys/fs/y2038" "$rB/proc/sys/fs"
printf '5\n' >"$rB/sys/fs/y2038/mounts"; printf '1\n' >"$rB/sys/fs/y2038/refused"; printf '3\n' >"$rB/sys/fs/y2038/active"
printf 'warn\n' >"$rB/proc/sys/fs/deprecated_policy"; printf 'ro\n' >"$rB/proc/sys/fs/y2038_policy"
run_fsaudit "$tmp/out" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus
compare "--prometheus: mounted fixture with the kernel inventory (/sys/fs/deprecated, /sys/fs/y2038)" "$exp/prometheus-series.txt" "$tmp/out"
mkdir -p "$tmp/prom"
cp ext4-128.img "$tmp/prom/$(printf 'we"ird\\na\nme\377.img')"
"$bin" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus >"$tmp/prom/mounted.prom" 2>/dev/null
"$bin" --sysroot "$empty" --prometheus --kernel-config "$fix/config-nov4" ./*.img "$tmp/prom/"*.img no-such.img ext4-128.img >"$tmp/prom/images.prom" 2>/dev/null
rc=$?
[ $rc = 2 ]
check "--prometheus: exit status as for the table (2: one source unreadable)" $?
if command -v promtool >/dev/null; then
	for f in mounted images; do
		promtool check metrics <"$tmp/prom/$f.prom" >"$tmp/promtool.out" 2>&1
		check "promtool check metrics accepts the $f output" $? "$tmp/promtool.out"
	done
else
	skip "promtool check metrics" "prometheus (promtool) not installed"
fi
grep -c '^fsaudit_filesystem_verdict{source="ext4-128.img"' "$tmp/prom/images.prom" >"$tmp/out"
[ "$(cat "$tmp/out")" = 6 ]
check "--prometheus: a repeated source gives one series set" $? "$tmp/out"
exporter=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -n "$exporter" ] && command -v curl >/dev/null; then
	mkdir -p "$tmp/textfile"
	cp "$tmp/prom/images.prom" "$tmp/textfile/fsaudit.prom"
	"$bin" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus >"$tmp/textfile/fsaudit-mounted.prom" 2>/dev/null
	sed -i 's/^fsaudit_/fsaudit_mounted_/;s/^# \(HELP\|TYPE\) fsaudit_/# \1 fsaudit_mounted_/' "$tmp/textfile/fsaudit-mounted.prom"
	port=$(py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
	timeout 60 "$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/textfile" >"$tmp/exporter.log" 2>&1 &
	epid=$!
	got=0
	for _ in $(seq 1 50); do
		if curl -s --max-time 2 "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>/dev/null && [ -s "$tmp/metrics" ]; then
			got=1; break
		fi
		sleep 0.2
	done
	kill "$epid" 2>/dev/null
	wait "$epid" 2>/dev/null
	{ echo "--- exporter log"; cat "$tmp/exporter.log"; echo "--- metrics"; grep -E 'fsaudit|textfile' "$tmp/metrics" | head -30; } >"$tmp/exporter.diag"
	[ $got = 1 ] \
		&& grep -q '^fsaudit_filesystem_verdict{fstype="ext4",source="ext4-128.img",target="",verdict="2038-limited"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_at_risk{fstype="xfs",source="./xfs-v4.img",target=""} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_kernel_can_mount{fstype="xfs",source="./xfs-v4.img",target=""} 0$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_verdict{fstype="xfs",source="./xfs-v4.img",target="",verdict="kernel-cannot-mount"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_deprecated_refused_total{item="xfs-v4"} 2$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_deprecated_policy{item="reiserfs",policy="deny"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_y2038_active 3$' "$tmp/metrics" \
		&& grep -q '^node_textfile_scrape_error 0$' "$tmp/metrics"
	check "node_exporter (127.0.0.1, free port, textfile collector) serves fsaudit's series, no scrape error" $? "$tmp/exporter.diag"
	! kill -0 "$epid" 2>/dev/null
	check "node_exporter stopped by the test" $?
else
	skip "node_exporter serves fsaudit's series" "prometheus-node-exporter or curl not installed"
fi
