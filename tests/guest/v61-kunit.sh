#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Base 6.1 (the final code, one commit for now): the series' KUnit suite
# fs_deprecation at boot (kunit.enable=1, with the other suites: no filter,
# see tests/groups.conf).  It must have run; the results of every suite,
# test by test, are the group's (tests/guest/kunit.sh).
. /tests/ktap.sh
kunit_require fs_deprecation
# 6.1's debugfs results keep, of a parameterised test, only its last
# parameter's line, without the subtest's header and plan (the console has
# them all): those lone lines go, the test's own line and its
# "# TEST: pass:N fail:N" count stay.
/tests/kunit.sh | sed -e '/^        \(not \)\{0,1\}ok [0-9]/d'
