#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Only invalid policy boot parameters (tests/groups.conf [badinput-boot-invalid]):
# each is reported and both policies keep their default, warn.
exec /tests/badinput --boot-only --boot-dep warn --boot-y2038 warn
