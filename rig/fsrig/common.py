# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""What every stage of the rig shares: the project's paths, the error a failed
step raises, content hashes for cache keys, small file helpers and once()."""

import functools
import hashlib
import json
import os
import threading

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, "build")


class RigError(Exception):
    """A build or set-up step failed; `check` reports it as a failed test."""


def die(msg):
    raise RigError(msg)


def sha(*parts):
    """A 16-digit hex key of PARTS (bytes as they are, anything else as str())."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def file_sha(path):
    with open(path, "rb") as f:
        return sha(f.read())


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return default


def load_json(path):
    """The JSON object in PATH, or {} if there is none (missing or unreadable)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def write_if_changed(path, text):
    if read(path) != text:
        with open(path, "w") as f:
            f.write(text)


def once(fn):
    """FN() computed by the first caller, whichever thread, and kept for the run."""
    lock, value = threading.Lock(), []

    @functools.wraps(fn)
    def first():
        with lock:
            if not value:
                value.append(fn())
            return value[0]
    return first
