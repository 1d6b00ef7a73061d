# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""What a run says: progress on stderr ("rig: ..." lines, timed steps, one
updating line at a terminal or at most one line per interval in a log) and,
at the end, the results report and the "N passed, N failed" summary on
stdout."""

import shutil
import sys
import threading
import time

from . import ktap

TTY = sys.stderr.isatty()
_status = [""]      # the updating progress line on a terminal (cleared before any log line)
_out_lock = threading.Lock()
_interval = [10.0]  # RIG_PROGRESS_INTERVAL, set by the CLI


def set_progress_interval(seconds):
    _interval[0] = float(seconds)


def log(msg):
    with _out_lock:
        if _status[0]:
            sys.stderr.write("\r\033[K")
        print(f"rig: {msg}", file=sys.stderr, flush=True)
        if _status[0]:
            sys.stderr.write(_status[0])
            sys.stderr.flush()


def progress(msg, last=[0.0]):
    """A progress report: at a terminal one updating line, in a log (CI) at
    most one line per RIG_PROGRESS_INTERVAL seconds (default 10)."""
    now = time.monotonic()
    with _out_lock:
        if TTY:
            _status[0] = f"rig: {msg}"[:(shutil.get_terminal_size().columns - 1)]
            sys.stderr.write("\r\033[K" + _status[0])
            sys.stderr.flush()
            return
    if now - last[0] >= _interval[0]:
        last[0] = now
        log(msg)


def progress_done():
    with _out_lock:
        if _status[0]:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            _status[0] = ""


def hms(secs):
    secs = int(round(secs))
    return f"{secs // 60} min {secs % 60:02d} s" if secs >= 60 else f"{secs} s"


def stamp():
    """The time of day a step starts, as every start line shows it."""
    return time.strftime("%H:%M:%S")


class Step:
    """`with Step("what"):` logs the start (with the time of day) and how long it took."""

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        self.t0 = time.monotonic()
        log(f"{stamp()} {self.what} ...")
        return self

    def __exit__(self, et, ev, tb):
        progress_done()
        log(f"{self.what}: {'done' if et is None else 'FAILED'} in {hms(time.monotonic() - self.t0)}")


def failed(results):
    return any(r.status == ktap.FAIL for r in results)


def finish(results, accel=None):
    """The end of a command: one line per result (failures with their
    details), the accelerator on stderr, the summary last; the exit status."""
    ktap.report(results)
    if accel is not None:
        print(f"(guest accelerator: {accel})", file=sys.stderr)
    cached = sum(1 for r in results if r.cached)
    if cached:
        # Counted in the summary like the others; said once more just above it.
        print(f"({cached} of {len(results)} results \"(cached)\": kept from an earlier boot with the same inputs, "
              "build/result-cache/; --no-cache or RIG_NO_CACHE=1 boots every group)")
    print(ktap.summary(results))
    return 1 if failed(results) else 0


def _words(text):
    return text.split() or [""]


def _wrap(text, width):
    """TEXT in lines of at most WIDTH characters, broken at spaces only: a
    word longer than WIDTH gets a line of its own and is never cut."""
    lines, cur = [], ""
    for w in _words(text):
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    return lines + [cur]


def _row(cells, widths, gap):
    """The lines of one row: each cell wrapped to its width; a cell of
    several lines makes the row several lines high."""
    parts = [_wrap(c, w) for c, w in zip(cells, widths)]
    return [gap.join(p[i].ljust(w) if i < len(p) else " " * w for p, w in zip(parts, widths)).rstrip()
            for i in range(max(len(p) for p in parts))]


def _grid(head, body, widths, gap):
    """A table of cells wrapped to WIDTHS: a header, a rule of dashes, the rows."""
    out = _row(head, widths, gap) + [gap.join("-" * w for w in widths)]
    for r in body:
        out += _row(r, widths, gap)
    return out


def fit_table(head, body, width=0, keep=(0,), gap="  "):
    """The lines of a table with header HEAD and rows BODY (lists of
    strings) for a terminal of WIDTH columns, as lsblk fits its output:

    - WIDTH 0 (not a terminal) or wide enough: one line per row, every
      column as wide as its widest cell;
    - else the columns that are not in KEEP (the key columns, never cut nor
      wrapped) are wrapped within their cells, at spaces, the widest first,
      down to their longest word;
    - else (still too wide) the table keeps the key columns and as many
      of the others as fit unwrapped, the narrowest first, and each row
      is followed by its remaining cells as "header: value" lines, wrapped
      and indented by four spaces (none for an empty cell or "-").

    No word is ever cut; no line is wider than WIDTH unless a single word is
    (a name longer than the terminal)."""
    n = len(head)
    natural = [max(len(r[i]) for r in [head] + body) for i in range(n)]
    total = lambda ws: sum(ws) + len(gap) * (len(ws) - 1)
    if not width or total(natural) <= width:
        return _grid(head, body, natural, gap)
    widths = list(natural)
    least = [natural[i] if i in keep else max(len(w) for r in [head] + body for w in _words(r[i]))
             for i in range(n)]
    while total(widths) > width:
        shrink = [i for i in range(n) if widths[i] > least[i]]
        if not shrink:
            break
        i = max(shrink, key=lambda j: (widths[j], -j))
        widths[i] -= 1
    if total(widths) <= width:
        return _grid(head, body, widths, gap)
    # the key columns, then the others that fit whole, the narrowest first
    cols = sorted(keep)
    for i in sorted(range(n), key=lambda j: (natural[j], j)):
        if i not in keep and total([natural[j] for j in sorted(cols + [i])]) <= width:
            cols = sorted(cols + [i])
    below = [i for i in range(n) if i not in cols]
    out = _grid([head[i] for i in cols], [], [natural[i] for i in cols], gap)
    for r in body:
        out += _row([r[i] for i in cols], [natural[i] for i in cols], gap)
        for i in below:
            if r[i] in ("", "-"):
                continue        # nothing to say: no line
            text = f"{head[i]}: {r[i]}"
            out += ["    " + line for line in _wrap(text, max(width - 4, 1))]
    return out


def wrap_text(text, width):
    """TEXT (paragraphs separated by newlines) wrapped at spaces to WIDTH
    columns; unchanged when WIDTH is 0 (not a terminal)."""
    if not width:
        return text
    return "\n".join("\n".join(_wrap(p, width)) if p.strip() else p for p in text.split("\n"))
