#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Host suite "reuse": every file of the checkout states its licence and
# copyright (REUSE specification, `reuse lint` from Debian's reuse package).
cd "$(dirname "$0")/../.." || exit 1
echo "TAP version 13"
echo "1..1"
if out=$(reuse lint 2>&1); then
	echo "ok 1 - reuse lint: every file has licence and copyright information"
else
	printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
	echo "not ok 1 - reuse lint: every file has licence and copyright information"
fi
