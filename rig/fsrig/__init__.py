# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""fsrig: the fsdeprecate QEMU test rig (entry point: rig/rig.py).

The modules follow the pipeline of a run (docs/rig.md):

  cli         the command line; the only place that reads the rig's environment
              variables (Settings.from_environ())
  commands    check, run, build, bench, boot: what each subcommand does
  session     one run: its settings, the kernels prepared, the accelerator,
              boots of groups on kernels, the reference cache for the stock side
  kernel      the Kernel value (base, flavour, stock or series) and its build
              by rig/kernel.sh, with progress
  images      rig/images.conf's images; images a guest prepares (NAME-dirty,
              root filesystems)
  initramfs   the initramfs of a kernel: busybox, /init, the guest scripts and
              programs, the kselftests and host programs
  qemu        the QEMU command line and one QEMU run; the run-wide probes
  boots       the boot queue (at most RIG_JOBS boots at once, longest first)
  reference   the reference cache: the stock side's boot record kept under a
              key of everything the boot depends on
  groups      tests/groups.conf: parsing, validation, selection
  ktap        the KTAP / TAP 13 parser of the results channel
  judge       a boot's record -> results (KTAP, guest finished, kernel log
              clean, kmemleak)
  compare     the comparison pairs (series and stock kernel, results compared)
  demo        `make demo`: the story and its summary table
  hostsuites  the host-side suites run beside the boots
  report      progress on stderr, the results report and summary on stdout
  common      paths, RigError, content hashes, small file helpers
"""
