#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group upstream-stock: the same tests as group upstream, on the kernel
# without the series (see upstream.sh).
exec /tests/upstream.sh "$@"
