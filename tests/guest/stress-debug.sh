#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The long stress run for the debug kernel (group stress-debug, kind = debug):
# the same program, more iterations, two CPUs.
exec /tests/stress.sh
