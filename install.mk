# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall (included by the top Makefile, which sets
# TOP, KDIR, KARGS and VERSION).  Documentation/user-guide-install.rst.
#
#   make install           the modules (updates/), depmod, etecap (and
#                          ete-decode where it builds), the man pages, the
#                          udev rule and its helper
#   make install-modprobe  also the modprobe.d file that blacklists the
#                          in-tree CoreSight drivers (on request only)
#   make uninstall         remove exactly what those installed
#   make install-vars      print where each part goes
#   make deb               the Debian packages (debian/): ete-dkms (the
#                          modules' source, built by DKMS) and ete-tools,
#                          built for this machine's architecture into
#                          build/deb/ by dpkg-buildpackage -b, in a copy
#                          of the source tree (build/deb-src/ete-VERSION:
#                          it writes its results beside that directory)
#
# Where things go:
#
#   INSTALL_MOD_PATH  prefix of /lib/modules (default: DESTDIR); modules go
#                     to $(INSTALL_MOD_PATH)/lib/modules/KERNELRELEASE/updates/
#                     through the kernel's modules_install (INSTALL_MOD_DIR)
#   KERNELRELEASE     default: the release of the tree in KDIR
#   DESTDIR           staging root of everything else (packages)
#   PREFIX            /usr/local; BINDIR, MANDIR below it
#   UDEVDIR           udev's directory (pkg-config udev, else /lib/udev):
#                     rules.d/60-ete-trbe.rules and the helper ete-setperms,
#                     whatever PREFIX is, since udev looks nowhere else
#   MODPROBEDIR       /etc/modprobe.d (packages: /usr/lib/modprobe.d)
#   WITH_DECODE       y to build and install ete-decode (a program of the
#                     machine that builds: libopencsd-dev), n not to;
#                     default y where the OpenCSD C API header is installed
#
# depmod runs on the live system (no INSTALL_MOD_PATH), and with -b in an
# INSTALL_MOD_PATH that holds that kernel's modules.dep (a root image);
# into a bare staging directory it is skipped with a note: the target runs
# it (a package's postinst, or "depmod KERNELRELEASE").

INSTALL_MOD_PATH ?= $(DESTDIR)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
UDEVDIR ?= $(or $(shell pkg-config --variable=udevdir udev 2>/dev/null),/lib/udev)
MODPROBEDIR ?= /etc/modprobe.d
WITH_DECODE ?= $(if $(wildcard /usr/include/opencsd/c_api/opencsd_c_api.h),y,n)

# The release, asked of KDIR once, when an install target needs it
ETE_KREL = $(eval ETE_KREL := $(or $(KERNELRELEASE),$(shell MAKEFLAGS= \
	$(MAKE) --no-print-directory -s -C $(KDIR) $(KARGS) kernelrelease \
	2>/dev/null)))$(ETE_KREL)
ETE_MODDIR = $(INSTALL_MOD_PATH)/lib/modules/$(ETE_KREL)
ETE_MODULES := ete trbe
ETE_TOOLS_OUT := $(TOP)/tools/ete/build
ETE_TOOLS := etecap $(if $(filter y,$(WITH_DECODE)),ete-decode)
ETE_MAN1 := $(notdir $(wildcard $(TOP)/Documentation/man/*.1))
ETE_MAN4 := $(notdir $(wildcard $(TOP)/Documentation/man/*.4))
ETE_UDEV_RULES := 60-ete-trbe.rules
ETE_MODPROBE := ete-blacklist-coresight.conf
ETE_GROUP := etetrace

DEB_OUT = $(BUILD)/deb
DEB_SRC = $(BUILD)/deb-src/ete-$(VERSION)
DEB_BUILDPACKAGE ?= dpkg-buildpackage -b -us -uc

# ete_depmod: as the header says
define ete_depmod
	@krel='$(ETE_KREL)'; base='$(INSTALL_MOD_PATH)'; \
	PATH="$$PATH:/sbin:/usr/sbin"; \
	if [ -z "$$base" ]; then \
		echo "  DEPMOD  $$krel"; depmod -a "$$krel"; \
	elif [ -e "$$base/lib/modules/$$krel/modules.dep" ]; then \
		echo "  DEPMOD  $$krel in $$base"; depmod -b "$$base" -a "$$krel"; \
	else \
		echo "note: depmod skipped: $$base holds no modules.dep of $$krel" \
			"(a staging directory); run \"depmod $$krel\" on the target"; \
	fi
endef

install: install-modules install-tools install-man install-udev
	@if [ -z "$(DESTDIR)" ] && ! getent group $(ETE_GROUP) >/dev/null 2>&1; then \
		echo "note: no group $(ETE_GROUP): create it (groupadd --system" \
			"$(ETE_GROUP)) and add the users who trace to it;" \
			"until then /dev/trbe<N> stays root's"; \
	fi

install-modules: modules
	@test -n "$(ETE_KREL)" || { echo "install: no kernel release in $(KDIR)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) $(KARGS) \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=updates \
		DEPMOD=true modules_install
	$(ete_depmod)

install-tools:
	$(MAKE) -C $(TOP)/tools/ete OUT=$(ETE_TOOLS_OUT) $(ETE_TOOLS_OUT)/etecap
ifeq ($(WITH_DECODE),y)
	$(MAKE) -C $(TOP)/tools/ete OUT=$(ETE_TOOLS_OUT) host
else
	@echo "note: ete-decode not built (WITH_DECODE=$(WITH_DECODE); it needs libopencsd-dev)"
endif
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(addprefix $(ETE_TOOLS_OUT)/,$(ETE_TOOLS)) $(DESTDIR)$(BINDIR)/

# Whatever pages Documentation/man/ has: section 1 (programs), 4 (devices)
install-man:
ifneq ($(ETE_MAN1),)
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(addprefix $(TOP)/Documentation/man/,$(ETE_MAN1)) $(DESTDIR)$(MANDIR)/man1/
endif
ifneq ($(ETE_MAN4),)
	install -d $(DESTDIR)$(MANDIR)/man4
	install -m 0644 $(addprefix $(TOP)/Documentation/man/,$(ETE_MAN4)) $(DESTDIR)$(MANDIR)/man4/
endif

install-udev:
	install -d $(DESTDIR)$(UDEVDIR)/rules.d
	install -m 0644 $(TOP)/packaging/udev/$(ETE_UDEV_RULES) $(DESTDIR)$(UDEVDIR)/rules.d/
	install -m 0755 $(TOP)/packaging/ete-setperms $(DESTDIR)$(UDEVDIR)/
	@if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null && [ -d /run/udev ]; then \
		echo "  UDEV    reload rules, apply them to ete and trbe devices"; \
		udevadm control --reload && \
		udevadm trigger --action=add --subsystem-match=ete --subsystem-match=trbe; \
	fi

install-modprobe:
	install -d $(DESTDIR)$(MODPROBEDIR)
	install -m 0644 $(TOP)/packaging/modprobe.d/$(ETE_MODPROBE) $(DESTDIR)$(MODPROBEDIR)/

uninstall:
	@test -n "$(ETE_KREL)" || { echo "uninstall: no kernel release in $(KDIR)" >&2; exit 1; }
	rm -f $(foreach m,$(ETE_MODULES),$(addprefix $(ETE_MODDIR)/updates/$(m)/$(m).ko,'' .gz .xz .zst))
	@for d in $(foreach m,$(ETE_MODULES),$(ETE_MODDIR)/updates/$(m)) \
		$(ETE_MODDIR)/updates; do \
		rmdir "$$d" 2>/dev/null || true; \
	done
	$(ete_depmod)
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,etecap ete-decode)
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(ETE_MAN1))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man4/,$(ETE_MAN4))
	rm -f $(DESTDIR)$(UDEVDIR)/rules.d/$(ETE_UDEV_RULES) $(DESTDIR)$(UDEVDIR)/ete-setperms
	rm -f $(DESTDIR)$(MODPROBEDIR)/$(ETE_MODPROBE)
	@if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null && [ -d /run/udev ]; then \
		udevadm control --reload; \
	fi

# The tracked and new files of a git checkout, else every file but build/
deb:
	rm -rf $(dir $(DEB_SRC)) $(DEB_OUT)
	mkdir -p $(DEB_SRC) $(DEB_OUT)
	cd $(TOP) && { if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(TOP)" ]; then \
		git ls-files -co --exclude-standard; \
	else \
		find . -path ./build -prune -o \( -type f -o -type l \) -print; \
	fi; } | grep -v '^\(\./\)\{0,1\}build/' | \
		tar -cf - --no-recursion -T - | tar -C $(DEB_SRC) -xf -
	cd $(DEB_SRC) && $(DEB_BUILDPACKAGE)
	mv $(dir $(DEB_SRC))*.deb $(dir $(DEB_SRC))*.buildinfo \
		$(dir $(DEB_SRC))*.changes $(DEB_OUT)/
	@ls -1 $(DEB_OUT)

install-vars:
	@echo "KERNELRELEASE=$(ETE_KREL)"
	@echo "MODULES=$(ETE_MODDIR)/updates"
	@echo "BINDIR=$(DESTDIR)$(BINDIR)"
	@echo "TOOLS=$(ETE_TOOLS)"
	@echo "MANDIR=$(DESTDIR)$(MANDIR)"
	@echo "MAN=$(ETE_MAN1) $(ETE_MAN4)"
	@echo "UDEVDIR=$(DESTDIR)$(UDEVDIR)"
	@echo "MODPROBEDIR=$(DESTDIR)$(MODPROBEDIR)"

.PHONY: install install-modules install-tools install-man install-udev \
	install-modprobe uninstall install-vars deb
