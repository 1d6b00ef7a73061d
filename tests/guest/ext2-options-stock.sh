#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group ext2-options-stock: the same as ext2-options, on the kernel without
# the series (see ext2-options.sh).
exec /tests/ext2-options.sh "$@"
