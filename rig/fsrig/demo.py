# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""`make demo` (`rig.py demo`): the whole story for an administrator.

Boots the groups of kind demo in parallel (tests/guest/demo.sh: warn, the
inventory, ro evacuation, deny, fsaudit; tests/guest/demo-2038.sh: the clock at
2038-01-20; tests/system/demo-admin.sh: Debian 13's own mount(8), journalctl
and fsaudit --fstab on the same kernel), prints what each guest says, then one summary table built from
the guests' "# @row IMAGE COLUMN VALUE" lines.

It fails loudly (exit 1, "DEMO FAILED" and the failing checks) when a guest
check fails, a boot does not finish cleanly, or the table is not exactly what
the project claims (EXPECT below): every claim is checked twice, by the guest
against the kernel and here against the documented behaviour.
"""

import os
import re
import sys
import time

from . import groups, ktap
from .common import BUILD, die, read
from .report import Step, fit_table, wrap_text

# image: (what it is, deprecated item or None, 2038-limited)
EXPECT = {
    "reiserfs36": ("reiserfs 3.6", "reiserfs", False),
    "reiserfs35": ("reiserfs 3.5", "reiserfs", False),
    "ext2": ("ext2 (ext2 driver)", "ext2", True),
    "ext3-128": ("ext3, 128-byte inodes", "ext4-small-inodes", True),
    "ext4-128": ("ext4, 128-byte inodes", "ext4-small-inodes", True),
    "ext4-rev0": ("ext2 rev 0 (ext4 driver)", "ext4-small-inodes", True),
    "xfs-v4": ("XFS V4", "xfs-v4", True),
    "xfs-ascii-ci": ("XFS V5 ascii-ci", "xfs-ascii-ci", False),
    "xfs-v5-nobigtime": ("XFS V5, no bigtime", None, True),
    "ext4-256": ("ext4, 256-byte inodes", None, False),
    "xfs-v5-bigtime": ("XFS V5, bigtime", None, False),
}
EVACUATED = {"reiserfs36": "ext4-256", "xfs-v4": "xfs-v5-bigtime"}
COLUMNS = [("warn", "warn: kernel says"), ("ro", "ro: rw mount"), ("evacuated", "evacuated"),
           ("deny", "deny"), ("2038", "clock 2038-01-20"), ("fsaudit", "fsaudit")]


def expected(img, col):
    """The value the table must show (a regular expression)."""
    _, item, y2038 = EXPECT[img]
    risk = bool(item) or y2038
    if col == "warn":
        said = " ".join(([item] if item else []) + (["2038"] if y2038 else []))
        return re.escape(said or "nothing")
    if col == "ro":
        return "read-only" if risk else "rw"
    if col == "evacuated":
        return rf"to {EVACUATED[img]}, checksums verified" if img in EVACUATED else "-"
    if col == "deny":
        return "refused" if risk else "mounts"
    if col == "2038":
        return re.escape("clamped to 2038-01-19 03:14:07") if y2038 else "keeps 2038-01-20"
    if col == "fsaudit":
        return "(deprecated|2038-limited|removed-from-mainline)" if risk else "ok"
    raise KeyError(col)


def render(text, out):
    """A guest's results channel as a story: diagnostics as text, results as
    [ok] / [FAILED] lines; returns the @row lines as {image: {column: value}}."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"# @row (\S+) (\S+) (.*)$", line)
        if m:
            rows.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
            continue
        if line.startswith("# failed: "):
            print(f"        ^ {line[2:]}", file=out)
        elif line.startswith("#"):
            print(line[2:], file=out)
        elif re.match(r"ok \d+ ", line):
            print("    [ok] " + re.sub(r"^ok \d+ ", "", line), file=out)
        elif re.match(r"not ok \d+ ", line):
            print("    [FAILED] " + re.sub(r"^not ok \d+ ", "", line), file=out)
    return rows


def table(rows, width=0):
    """The summary table's lines for a terminal of WIDTH columns (0: not a
    terminal, one line per image): the image and fsaudit's verdict are
    never cut or wrapped; the text columns are wrapped in their cells, or,
    where that is still too wide, put under the image's line
    (report.fit_table())."""
    head = ["image", "what it is"] + [c[1] for c in COLUMNS]
    body = [[img, EXPECT[img][0]] + [rows.get(img, {}).get(c, "(missing)") for c, _ in COLUMNS]
            for img in EXPECT]
    return fit_table(head, body, width, keep=(0, len(head) - 1))


def check_table(rows):
    res = []
    for img in EXPECT:
        bad = []
        for col, _ in COLUMNS:
            got = rows.get(img, {}).get(col)
            if got is None or not re.fullmatch(expected(img, col), got):
                bad.append(f"{col}: got {got!r}, the project says /{expected(img, col)}/")
        res.append(ktap.Result(f"demo table: {img} behaves as documented", ktap.FAIL if bad else ktap.PASS, bad))
    extra = sorted(set(rows) - set(EXPECT))
    if extra:
        res.append(ktap.Result("demo table: only known images", ktap.FAIL, [f"unexpected rows: {extra}"]))
    return res


def run(session, kernel):
    """Boot the demo groups on KERNEL, tell the story, print and check the table
    (for the terminal's width, session.settings.columns); the exit status."""
    t0 = time.monotonic()
    width = session.settings.columns
    allg = session.groups
    names = groups.of_kind(allg, "demo")
    if not names:
        die("no group with kind = demo in tests/groups.conf")
    with Step("kernel and initramfs"):
        built = session.prepare(kernel)
        # The kernels of demo groups on another base or flavour, if any
        kernels = {(b, fl): session.prepare((kernel.with_base(b) if b else kernel).with_flavour(fl))
                   for b, fl in groups.kernels(allg, names)}
    with Step(f"booting {', '.join(names)} in parallel"):
        res, accel = session.run_groups(names, built, kernels)
    out = sys.stdout
    print(f"fsdeprecate demo: the patched Linux 6.12 kernel booted in QEMU ({accel.upper()}), "
          f"{len(EXPECT)} filesystem images made with the real mkfs tools.", file=out)
    print("Lines starting with '#' are commands run in the guest; 'kernel:' lines are the kernel log.\n",
          file=out)
    rows = {}
    for n in names:
        for img, cols in render(read(os.path.join(BUILD, "runs", n, "results.ktap"), ""), out).items():
            rows.setdefault(img, {}).update(cols)
        print(file=out)
    rule = "=" * min(80, width or 80)
    print(rule, file=out)
    print(wrap_text("Summary: what the patched kernel and fsaudit do with each image", width), file=out)
    print(rule, file=out)
    for line in table(rows, width):
        print(line, file=out)
    print("\n" + wrap_text("warn: the default policy, the line the kernel prints on the first mount (2038: the "
                           "timestamp expiry line);\nro/deny: fs.deprecated_policy and fs.y2038_policy; clock "
                           "2038-01-20: the time a new file gets.", width), file=out)
    res += check_table(rows)
    failed = [r for r in res if r.status == ktap.FAIL]
    print(file=out)
    if failed:
        ktap.report(failed, out=out)
        print(f"DEMO FAILED: {len(failed)} of {len(res)} checks failed (logs: build/runs/{{{','.join(names)}}}/)",
              file=out)
    else:
        print(f"demo: all {len(res)} checks passed (guest and host) in {time.monotonic() - t0:.0f} s", file=out)
    print(ktap.summary(res), file=out)
    return 1 if failed else 0
