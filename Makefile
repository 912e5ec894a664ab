# SPDX-License-Identifier: GPL-2.0
#
# ETE/TRBE out-of-tree driver.
#
#   make                 build the production modules ete.ko and trbe.ko
#                        against KDIR, nothing else
#   make tests           the same plus the test modules (KUnit suites, the
#                        software model, the rig's canaries): the test rig
#   make install         install the modules (updates/), depmod, the tools,
#                        the man pages, the udev rule (install.mk)
#   make uninstall       remove what make install installed
#   make deb             the Debian packages ete-dkms and ete-tools (debian/)
#                        into build/deb/ (install.mk)
#   make check           README's test command: build everything, run every test
#   make post [SUITE=e2e_decode] [KERNEL=6.12]
#                        a post suite (all without SUITE) again on the runs
#                        the last make check left, for that kernel (default:
#                        the newest run's)
#   make demo            README's main job: boot the VM, load, trace, decode
#   make mutants [MUTANTS="f08-no-isb-before-trbe-enable ..."]
#                        each driver fault of tools/testing/mutants/ built
#                        and booted with the suites that must catch it, and
#                        the model's checks switched off in turn: the kill
#                        table
#   make checkpatch      checkpatch --strict on every source file
#   make KDIR=/path      build against other kernel headers
#
# KDIR defaults to the running kernel's headers on an arm64 host; when
# cross-building it defaults to the test rig's 6.12 kernel, built on demand
# from Debian's linux-source-6.12.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
RIG := $(TOP)/tools/testing/qemu
HOST_ARCH := $(shell uname -m)
VERSION := $(shell cat $(TOP)/VERSION)

ifeq ($(HOST_ARCH),aarch64)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
RIG_KVER := 6.12
RIG_KDIR := $(BUILD)/kernel-$(RIG_KVER)
KDIR ?= $(RIG_KDIR)
KARGS := ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
endif

all: modules

# The rig's kernel is built (or found current) before building against it.
rig-kernel:
	@$(RIG)/setup-host.sh $(BUILD) >/dev/null
	@$(RIG)/build-kernel.sh $(BUILD) $(RIG_KVER)

ifeq ($(KDIR),$(RIG_KDIR))
modules tests: rig-kernel
endif

modules:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) modules

tests:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) ETE_TESTS=y modules

# The test modules' directories too, where they are (not in the source
# that DKMS or ete-dkms ships, whose clean must not look for them)
clean:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) \
		$(if $(wildcard $(TOP)/ete/tests/Kbuild),ETE_TESTS=y) clean

check:
	@$(RIG)/check.sh

post:
	@$(RIG)/post.sh $(BUILD) "$(SUITE)" "$(KERNEL)"

demo:
	@$(RIG)/demo.sh

bench:
	@$(RIG)/bench.sh

mutants:
	@$(RIG)/mutants.sh $(MUTANTS)

checkpatch:
	@$(RIG)/static-checks.sh $(BUILD) checkpatch

version:
	@echo $(VERSION)

-include $(TOP)/install.mk

.PHONY: all rig-kernel modules tests clean check post demo bench mutants checkpatch version
