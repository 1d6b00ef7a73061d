#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group modules-policy-boot: modules-policy.sh with the policies from
# fs_deprecated_policy= on the kernel command line.
exec /tests/modules-policy.sh boot
