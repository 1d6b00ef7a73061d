#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group nothing-written-deny: see nothing-written.sh
exec /tests/nothing-written.sh deny
