#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""fsdeprecate QEMU rig: `python3 rig/rig.py --help`.  The rig is the package
rig/fsrig/ (its modules follow the pipeline; docs/rig.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsrig.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
