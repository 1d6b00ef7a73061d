#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Base 7.3: the series' KUnit suite fs_deprecation at
# boot (kunit.enable=1 kunit.filter_glob=fs_deprecation).  It must have run;
# its results, test by test, are the group's (tests/guest/kunit.sh).
. /tests/ktap.sh
kunit_require fs_deprecation
exec /tests/kunit.sh
