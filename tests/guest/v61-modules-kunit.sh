#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Every KUnit suite of 6.1's modules kernel (group v61-modules-kunit), read
# as v61-kunit reads them.
exec /tests/v61-kunit.sh
