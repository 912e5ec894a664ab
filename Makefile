# SPDX-License-Identifier: GPL-2.0
#
# ETE/TRBE out-of-tree driver.
#
#   make                 build the modules (and test modules) against KDIR
#   make check           README's test command: build everything, run every test
#   make demo            README's main job: boot the VM, load, trace, decode
#   make checkpatch      checkpatch --strict on every source file
#   make KDIR=/path      build against other kernel headers
#
# KDIR defaults to the test rig's kernel when cross-building (built on demand
# from Debian's linux-source-6.1) and to the running kernel on an arm64 host.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
RIG := $(TOP)/tools/testing/qemu
HOST_ARCH := $(shell uname -m)

ifeq ($(HOST_ARCH),aarch64)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
RIG_KDIR := $(BUILD)/kernel
KDIR ?= $(RIG_KDIR)
KARGS := ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
endif

all: modules

# The rig's kernel is built (or found current) before building against it.
rig-kernel:
	@$(RIG)/setup-host.sh $(BUILD) >/dev/null
	@$(RIG)/build-kernel.sh $(BUILD)

ifeq ($(KDIR),$(RIG_KDIR))
modules: rig-kernel
endif

modules:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) modules

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) clean

check:
	@$(RIG)/check.sh

demo:
	@$(RIG)/demo.sh

checkpatch:
	@$(RIG)/static-checks.sh $(BUILD) checkpatch

.PHONY: all rig-kernel modules clean check demo checkpatch
