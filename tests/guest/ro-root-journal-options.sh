#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21, item 5: booted without initramfs from an ext4 root with 128-byte
# inodes, rw asked, fs_deprecated_policy=ro and journal options in
# rootflags= (commit=30,data=journal): the root is mounted read-only with
# those options (forced noload made ext4 reject them: EINVAL, no root).
. /tests/ktap.sh
ktap_plan 3
set -- $(awk '$2 == "/" { print $3, $4 }' /proc/mounts)
expect "root filesystem is ext4" ext4 "$1"
case ,$2, in *,ro,*) ktap_ok "root mounted read-only despite rw" ;;
*) ktap_diag "options $2"; ktap_fail "root mounted read-only despite rw" ;; esac
case ,$2, in *,commit=30,*data=journal*) ktap_ok "rootflags= journal options applied" ;;
*) ktap_diag "options $2"; ktap_fail "rootflags= journal options applied" ;; esac
ktap_done
