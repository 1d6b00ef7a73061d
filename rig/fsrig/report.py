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
    print(ktap.summary(results))
    return 1 if failed(results) else 0
