#!/bin/sh
# Group modules-policy-boot: modules-policy.sh with the policies from
# fs_deprecated_policy= on the kernel command line.
exec /tests/modules-policy.sh boot
