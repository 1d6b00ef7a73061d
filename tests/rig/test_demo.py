# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""make demo's summary table at a terminal of 80, 120 and 200 columns and in
a log (report.fit_table(), demo.table()): no line wider than the terminal,
the image and fsaudit's verdict never cut or wrapped, every cell's text
complete in its column or under its row; the width from COLUMNS or the
terminal (Settings)."""
import re
import unittest

from fsrig import demo, ktap
from fsrig.report import fit_table, wrap_text
from fsrig.session import Settings

CLAMPED, KEEPS = "clamped to 2038-01-19 03:14:07", "keeps 2038-01-20"
# what the demo guests reported in a real run (build/runs/demo*/results.ktap):
# image: warn, ro, evacuated, deny, 2038, fsaudit
REPORTED = {
    "reiserfs36": ("reiserfs", "read-only", "to ext4-256, checksums verified", "refused", KEEPS,
                   "removed-from-mainline"),
    "reiserfs35": ("reiserfs", "read-only", "-", "refused", KEEPS, "removed-from-mainline"),
    "ext2": ("ext2 2038", "read-only", "-", "refused", CLAMPED, "deprecated"),
    "ext3-128": ("ext4-small-inodes 2038", "read-only", "-", "refused", CLAMPED, "2038-limited"),
    "ext4-128": ("ext4-small-inodes 2038", "read-only", "-", "refused", CLAMPED, "2038-limited"),
    "ext4-rev0": ("ext4-small-inodes 2038", "read-only", "-", "refused", CLAMPED, "deprecated"),
    "xfs-v4": ("xfs-v4 2038", "read-only", "to xfs-v5-bigtime, checksums verified", "refused", CLAMPED,
               "deprecated"),
    "xfs-ascii-ci": ("xfs-ascii-ci", "read-only", "-", "refused", KEEPS, "deprecated"),
    "xfs-v5-nobigtime": ("2038", "read-only", "-", "refused", CLAMPED, "2038-limited"),
    "ext4-256": ("nothing", "rw", "-", "mounts", KEEPS, "ok"),
    "xfs-v5-bigtime": ("nothing", "rw", "-", "mounts", KEEPS, "ok"),
}
ROWS = {img: dict(zip([c for c, _ in demo.COLUMNS], v)) for img, v in REPORTED.items()}
HEAD = ["image", "what it is"] + [h for _, h in demo.COLUMNS]
CELLS = {img: [img, demo.EXPECT[img][0]] + list(v) for img, v in REPORTED.items()}


def spans(rule):
    """(start, end) of each column from the rule of dashes under the header."""
    return [m.span() for m in re.finditer(r"-+", rule)]


def blocks(lines):
    """{image: the lines of its row}: from the line starting with the image
    to the next image's line."""
    starts = [(i, l.split()[0]) for i, l in enumerate(lines) if l.split() and l.split()[0] in CELLS]
    return {img: lines[i:(starts[k + 1][0] if k + 1 < len(starts) else len(lines))]
            for k, (i, img) in enumerate(starts)}


def joined(lines, span):
    """The text of one column over several lines, the pieces joined by spaces."""
    return " ".join(p for p in (l[span[0]:span[1]].strip() for l in lines) if p)


class DemoTable(unittest.TestCase):
    def check(self, width):
        lines = demo.table(ROWS, width)
        # the header may take more than one line: the rule is the first line of dashes
        rule = next(i for i, l in enumerate(lines) if set(l) <= set("- ") and "-" in l)
        cols = spans(lines[rule])
        head = [joined(lines[:rule], s) for s in cols]
        self.assertEqual(head[0], "image")
        self.assertEqual(head[-1], "fsaudit")
        rows = blocks(lines[rule + 1:])
        self.assertEqual(list(rows), list(CELLS), "one row per image, in order")
        for img, block in rows.items():
            want = dict(zip(HEAD, CELLS[img]))
            # key columns: whole on the row's first line
            first = block[0]
            self.assertEqual(first[cols[0][0]:cols[0][1]].strip(), img)
            self.assertEqual(first[cols[-1][0]:].strip(), want["fsaudit"], f"{img}: verdict on the first line")
            under = [l for l in block if re.match(r"    \S", l)]    # "    header: value" lines
            table_lines = [l for l in block if l not in under]
            for h, s in zip(head, cols):
                self.assertEqual(joined(table_lines, s), want[h], f"{width} columns, {img}, {h}")
            below = " ".join(l.strip() for l in under)
            self.assertEqual(below, " ".join(f"{h}: {v}" for h, v in want.items() if h not in head and v != "-"),
                             f"{width} columns, {img}: the cells under the row")
        return lines, head

    def test_80_columns_fit_with_long_text_under_each_row(self):
        lines, head = self.check(80)
        self.assertLessEqual(max(map(len, lines)), 80)
        self.assertNotIn("evacuated", head, "at 80 columns the long text is under the row")
        self.assertIn("    evacuated: to xfs-v5-bigtime, checksums verified", lines)
        self.assertIn("    clock 2038-01-20: clamped to 2038-01-19 03:14:07", lines)

    def test_120_columns_wrap_text_within_cells(self):
        lines, head = self.check(120)
        self.assertLessEqual(max(map(len, lines)), 120)
        self.assertEqual(head, HEAD, "every column in the table, text wrapped in its cell")
        self.assertFalse([l for l in lines if re.match(r"    \S", l)])
        self.assertGreater(len(lines), 2 + len(CELLS), "some rows take more than one line")

    def test_200_columns_one_line_per_image(self):
        lines, head = self.check(200)
        self.assertLessEqual(max(map(len, lines)), 200)
        self.assertEqual(head, HEAD)
        self.assertEqual(len(lines), 2 + len(CELLS))

    def test_not_a_terminal_one_line_per_image_as_wide_as_the_data(self):
        lines, head = self.check(0)
        self.assertEqual(lines, demo.table(ROWS, 10000))
        self.assertEqual(len(lines), 2 + len(CELLS))
        self.assertGreater(max(map(len, lines)), 120)

    def test_the_fixture_is_what_the_project_claims(self):
        """The rows above pass demo.check_table(), as a real run's do."""
        self.assertEqual([r.status for r in demo.check_table(ROWS)], [ktap.PASS] * len(ROWS))


class FitTable(unittest.TestCase):
    def test_a_word_longer_than_the_terminal_is_not_cut(self):
        lines = fit_table(["name", "text"], [["a", "x" * 30 + " y"]], 20)
        self.assertEqual(lines, ["name", "----", "a", "    text:", "    " + "x" * 30, "    y"])

    def test_key_columns_are_never_wrapped(self):
        lines = fit_table(["k", "t"], [["key with spaces", "some long text to wrap here"]], 30)
        self.assertEqual(lines[2].split("  ")[0], "key with spaces")
        self.assertTrue(all(len(l) <= 30 for l in lines), lines)

    def test_wrap_text(self):
        self.assertEqual(wrap_text("aa bb cc\ndd", 5), "aa bb\ncc\ndd")
        self.assertEqual(wrap_text("aa bb cc", 0), "aa bb cc")


class Columns(unittest.TestCase):
    def test_columns_wins_over_the_terminal(self):
        self.assertEqual(Settings.from_environ({"COLUMNS": "100"}, tty_columns=80).columns, 100)
        self.assertEqual(Settings.from_environ({}, tty_columns=80).columns, 80)
        self.assertEqual(Settings.from_environ({"COLUMNS": "wide"}, tty_columns=0).columns, 0)
        self.assertEqual(Settings.from_environ({"COLUMNS": "0"}, tty_columns=90).columns, 90)
        self.assertEqual(Settings.from_environ({}).columns, 0)


if __name__ == "__main__":
    unittest.main()
