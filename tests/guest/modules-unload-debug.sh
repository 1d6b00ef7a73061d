#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group modules-unload-debug: modules-unload.sh on the modules-debug kernel
# (KASAN, lockdep, kmemleak; unloadstress.cycles= and .seconds= from the
# command line).
exec /tests/modules-unload.sh
