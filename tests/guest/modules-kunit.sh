#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The series' KUnit suite on the modules kernel (group modules-kunit): as
# v73-kunit, with the filesystems of the tree as modules.
. /tests/ktap.sh
kunit_require fs_deprecation
exec /tests/kunit.sh
