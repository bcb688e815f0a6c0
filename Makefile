# SPDX-License-Identifier: GPL-2.0
#
# smcx top-level build.  `make` builds the module and the user tools;
# `make check` is the one test command (README, CI); `make demo` shows it off.
#
# The module is built against the lab kernel's headers; LAB_KERNEL selects the
# kernel release (default: the newest installed Debian 6.12), KDIR overrides the
# header tree outright.
#
# Neither is exported: targets that install the headers first (check, demo,
# bench) run scripts/setup and only then a sub-make, which looks for the
# headers itself.  A value given on the command line reaches the sub-makes
# through MAKEFLAGS as usual.

LAB_KERNEL ?= $(shell ls -d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | \
		sort -V | tail -n1 | sed 's,.*/linux-headers-,,')
KDIR ?= /usr/src/linux-headers-$(LAB_KERNEL)
BUILD ?= $(CURDIR)/build
JOBS ?= $(shell nproc)
# seconds each fuzz target runs in `make check`; `make fuzz-long` runs longer
FUZZ_SECONDS ?= 10
FUZZ_LONG_SECONDS ?= 600
# selftests to run (default: the tier's); e.g. `make selftest T=lab_rdma`
T ?=
# the selftest tier `make selftest` runs without T (main, reference, fast)
TIER ?= main
# the lab smoke of `make check-fast`: the lab, load/unload, one SMC-R cell
FAST_TESTS ?= smcx_load smcr_smoke
FAST_FUZZ_SECONDS ?= 2

# `make install` (docs/install.md): DESTDIR stages, PREFIX is where the tools
# live (/usr as on Debian; the preload library goes to PREFIX/lib/smcx, where
# smc_run looks for it), KVER the kernel release of the module's directory
# (default: the one smcx.ko was built for).
PREFIX ?= /usr
DESTDIR ?=
KVER ?= $(or $(shell modinfo -F vermagic smcx.ko 2>/dev/null | cut -d' ' -f1),$(LAB_KERNEL))

.PHONY: all module modules-compat user tools smcprof setup layers check check-fast check-reference unit selftest \
	check-6.1 selftest-6.1 \
	fuzz fuzz-long demo bench perfcount hostile clean shell lab-up lab-down \
	install install-module install-tools uninstall uninstall-module uninstall-tools deb

all: module user tools smcprof

module:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR); run 'make setup'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) -j$(JOBS) modules

# The module for the other kernel series the tree supports (compat/,
# docs/install.md): Debian 12's default 6.1 (COMPAT_KERNELS: the newest 6.1
# headers installed).  Each is built in a copy of the module's sources in
# build/k/<release>/ (scripts/module-tree), as DKMS does.  make check
# builds it: a tree that does not build for every supported kernel fails.
# The lab loads
# build/k/<release>/smcx.ko into a guest that boots <release>, and
# build/k/<release>/rxefix/rxefix.ko (selftests/tools/rxefix: rdma_rxe fixes
# Debian's 6.1 lacks) before a stock smc.ko there.
COMPAT_KERNELS ?= $(shell ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | \
		sort -V | tail -n1 | sed 's,.*/linux-headers-,,')

modules-compat:
	@test -n "$(COMPAT_KERNELS)" || { echo "no 6.1 kernel headers; run 'make setup'" >&2; exit 1; }
	@set -e; for k in $(COMPAT_KERNELS); do \
		d=$(BUILD)/k/$$k; scripts/module-tree $$d; \
		echo "module for $$k in $${d#$(CURDIR)/}"; \
		$(MAKE) -C /usr/src/linux-headers-$$k M=$$d -j$(JOBS) modules; \
		mkdir -p $$d/rxefix; cp -p selftests/tools/rxefix/Kbuild selftests/tools/rxefix/rxefix.c $$d/rxefix/; \
		$(MAKE) -C /usr/src/linux-headers-$$k M=$$d/rxefix modules; \
	done

user:
	cmake -S user -B $(BUILD)/user -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD)/user -j $(JOBS)

# programs the selftests run inside the lab guests
tools:
	$(MAKE) -C selftests/tools OUT=$(BUILD)/tools

# the QEMU TCG plugin that counts guest instructions (tools/smcprof/README.md)
smcprof:
	$(MAKE) -C tools/smcprof OUT=$(BUILD)/smcprof

setup:
	scripts/setup

# GoogleTest through ctest, then smcprof's exact self-test (a few seconds)
unit: user smcprof
	cd $(BUILD)/user && ctest --output-on-failure -j $(JOBS)
	tools/smcprof/selftest $(BUILD)/smcprof

fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

fuzz-long:
	scripts/fuzz $(FUZZ_LONG_SECONDS)

# The style gate (HACKING.md, "The loop"; scripts/style): checkpatch --strict on
# kernel/ and include/, clang-format on user/, shellcheck on scripts/ and
# tools/smcprof/selftest, pyflakes on selftests/ and tools/smcprof/attrib.py,
# a W=1 build of the module in $(BUILD)/w1.  Any
# finding fails it; style-<part> runs one part.
STYLE_TARGETS = style-checkpatch style-format style-shell style-python style-w1
.PHONY: style $(STYLE_TARGETS)

style:
	KDIR=$(KDIR) BUILD=$(BUILD) JOBS=$(JOBS) scripts/style

$(STYLE_TARGETS):
	KDIR=$(KDIR) BUILD=$(BUILD) JOBS=$(JOBS) scripts/style $(@:style-%=%)

# make check runs the lab tests in 2 shards side by side, each with its
# own lab (selftests/run --jobs); SELFTEST_JOBS=1 runs them one by one.
SELFTEST_JOBS ?= 2
selftest: all
	LAB_KERNEL=$(LAB_KERNEL) selftests/run --jobs $(if $(T),1,$(SELFTEST_JOBS)) --tier $(TIER) $(T)

# The layer rule of kernel/ (docs/architecture.md): the check, then its
# self-test (copies of the tree with an upward include, a file in no layer,
# a file over 800 lines must fail).  Needs only bash: it runs before setup.
layers:
	scripts/layers
	scripts/layers --self-test

# The test command: the layer rule, install what is missing, build, the
# style gate, unit tests, bounded fuzz runs, the Debian packages (lintian;
# the lab test smcx_package installs them), then the lab suite.  Sub-makes so that setup
# runs before anything evaluates the kernel header location.
check:
	$(MAKE) layers
	scripts/setup
	$(MAKE) all modules-compat
	$(MAKE) style
	$(MAKE) unit
	$(MAKE) fuzz
	$(MAKE) deb
	$(MAKE) selftest

# The edit loop (under 8 minutes): unit tests, a fuzz smoke, a lab smoke.
check-fast:
	$(MAKE) layers
	scripts/setup
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) fuzz FUZZ_SECONDS=$(FAST_FUZZ_SECONDS)
	$(MAKE) selftest T="$(FAST_TESTS)"

# Debian 12's default kernel (docs/install.md, "Kernels"): the module built
# for 6.1 (COMPAT_KERNELS) in a lab that boots it: load and unload, an SMC-R
# smoke, the socket API oracle over SMC-R, tcp2smc with real applications,
# failover on two wires, the packages through DKMS for the 6.1 guest, and
# the interop matrix with the stock 6.1 smc.ko (SMC-Rv2.0); then mixed
# kernels, one host on 6.1 and the other on 6.12, each way round: the
# matrix's cells are then smcx 6.1 <-> smcx 6.12 and smcx on either kernel
# <-> the stock smc.ko on the other.  A sub-make: setup may install the
# 6.1 headers first.
KERNEL61_TESTS ?= smcx_load smcr_smoke sockapi_smcr smcx_tcp2smc smcx_failover smcx_package \
	smcr_interop
KERNEL61_MIXED_TESTS ?= smcr_interop
check-6.1:
	scripts/setup
	$(MAKE) all modules-compat deb
	$(MAKE) selftest-6.1

K61 = $(firstword $(COMPAT_KERNELS))
selftest-6.1:
	@test -n "$(K61)" || { echo "no 6.1 kernel headers; run 'make setup'" >&2; exit 1; }
	LAB_KERNEL=$(K61) selftests/run --jobs $(SELFTEST_JOBS) $(KERNEL61_TESTS)
	LAB_KERNEL_ALPHA=$(K61) LAB_KERNEL_BETA=$(LAB_KERNEL) selftests/run $(KERNEL61_MIXED_TESTS)
	LAB_KERNEL_ALPHA=$(LAB_KERNEL) LAB_KERNEL_BETA=$(K61) selftests/run $(KERNEL61_MIXED_TESTS)

# The stock smc.ko alone, validating the test logic: run it when such a test
# or the library it shares with smcx's tests (selftests/lib) changes.
check-reference:
	scripts/setup
	$(MAKE) all
	$(MAKE) selftest TIER=reference

# The hostile-peer suite at length (docs/security.md): smcx_hostile with
# HOSTILE_CASES cases (default 100,000) and a fresh seed unless HOSTILE_SEED
# is set; prints the count, the time and the table of outcomes.
HOSTILE_CASES ?= 100000
hostile: all
	HOSTILE_CASES=$(HOSTILE_CASES) HOSTILE_SEED=$${HOSTILE_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} \
		LAB_KERNEL=$(LAB_KERNEL) selftests/run -v smcx_hostile

demo:
	scripts/setup
	$(MAKE) all
	scripts/demo

# The benchmark (docs/bench.md): its figures and targets, with the
# plot; BENCH_ARGS adds options (scripts/bench --help: sweeps, --quick).
BENCH_ARGS ?=
bench:
	scripts/setup
	$(MAKE) all
	scripts/bench --msgs 1K,64K --bufs 64K,1M --setup --busy-poll 1000 --loopback \
		--plot build/bench.png $(BENCH_ARGS)

# The instruction count (docs/bench.md, "Counted"): every stack's own
# instructions per round trip, MiB and connection under the smcprof TCG
# plugin, against the recorded budget; PERFCOUNT_ARGS adds options
# (scripts/perfcount --help).  A measurement, not a test.
PERFCOUNT_ARGS ?=
perfcount:
	scripts/setup
	$(MAKE) all
	scripts/perfcount --plot build/perfcount.png --json build/perfcount.json \
		--budget docs/bench-runs/perfcount-budget.json $(PERFCOUNT_ARGS)

# An interactive lab: `make lab-up`, then `scripts/lab shell alpha`.
lab-up: all
	scripts/lab up

lab-down:
	scripts/lab down

# --- install, uninstall, Debian packages (docs/install.md) -------------------
#
# What goes where.  The configuration files keep their place under any
# PREFIX: modprobe reads only /etc/modprobe.d (and /lib, /usr/lib), and
# sysctl --system reads PREFIX/lib/sysctl.d for /usr and /usr/local.
SBINDIR = $(PREFIX)/sbin
PRELOADDIR = $(PREFIX)/lib/smcx
MAN8DIR = $(PREFIX)/share/man/man8
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
MODPROBEDIR = /etc/modprobe.d
SYSCTLDIR = $(PREFIX)/lib/sysctl.d
MODULEDIR = /lib/modules/$(KVER)/updates

# smcctl's personalities (links to smcctl, argv[0] chooses): the names of the
# command table in user/smcctl/cli.cpp, which CMake links too
PERSONALITIES = $(shell sed -n 's/^    {Personality::[a-z_]*, "\([a-z_]*\)",.*/\1/p' \
		user/smcctl/cli.cpp | grep -vx smcctl)
MANPAGES = $(notdir $(wildcard man/*.8))
SMCX_VERSION = $(shell sed -n 's/^\#define SMCX_VERSION "\(.*\)"/\1/p' include/smcx/version.h)
SMCCTL_BUILT = $(BUILD)/user/smcctl/smcctl
PRELOAD_BUILT = $(BUILD)/user/preload/libsmc-preload.so

install: install-module install-tools

# The module goes to updates/, which depmod ranks above the kernel's own
# modules; depmod then runs for KVER (not for a staged DESTDIR, where the
# package's postinst or the target machine does it).
install-module:
	@test -e smcx.ko || { echo "install: no smcx.ko; run 'make module' first (or 'make install-tools' for the tools alone, DKMS for the module: docs/install.md)" >&2; exit 1; }
	@test -n "$(KVER)" || { echo "install: no kernel release for smcx.ko; set KVER" >&2; exit 1; }
	install -D -m 0644 smcx.ko $(DESTDIR)$(MODULEDIR)/smcx.ko
ifeq ($(DESTDIR),)
	depmod -a $(KVER)
else
	@echo "install: depmod skipped under DESTDIR; run 'depmod -a $(KVER)' on the target"
endif

install-tools:
	@test -x $(SMCCTL_BUILT) -a -e $(PRELOAD_BUILT) || { echo "install: the tools are not built in $(BUILD)/user; run 'make user' first" >&2; exit 1; }
	@for p in $(PERSONALITIES); do test -L $(BUILD)/user/smcctl/$$p || { echo "install: no $$p link in $(BUILD)/user/smcctl; run 'make user'" >&2; exit 1; }; done
	install -D -m 0755 $(SMCCTL_BUILT) $(DESTDIR)$(SBINDIR)/smcctl
	for p in $(PERSONALITIES); do ln -sfn smcctl $(DESTDIR)$(SBINDIR)/$$p || exit 1; done
	install -D -m 0644 $(PRELOAD_BUILT) $(DESTDIR)$(PRELOADDIR)/libsmc-preload.so
ifneq ($(MANPAGES),)
	install -d $(DESTDIR)$(MAN8DIR)
	for m in $(MANPAGES); do gzip -9n <man/$$m >$(DESTDIR)$(MAN8DIR)/$$m.gz && \
		chmod 0644 $(DESTDIR)$(MAN8DIR)/$$m.gz || exit 1; done
else
	@echo "install: no man pages in man/ (yet)"
endif
ifneq ($(wildcard completion/smcctl),)
	install -D -m 0644 completion/smcctl $(DESTDIR)$(COMPLETIONDIR)/smcctl
	for p in $(PERSONALITIES); do ln -sfn smcctl $(DESTDIR)$(COMPLETIONDIR)/$$p || exit 1; done
else
	@echo "install: no bash completion in completion/ (yet)"
endif
ifneq ($(wildcard conf/smcx-modprobe.conf),)
	install -D -m 0644 conf/smcx-modprobe.conf $(DESTDIR)$(MODPROBEDIR)/smcx.conf
else
	@echo "install: no conf/smcx-modprobe.conf (yet)"
endif
ifneq ($(wildcard conf/smcx-sysctl.conf),)
	install -D -m 0644 conf/smcx-sysctl.conf $(DESTDIR)$(SYSCTLDIR)/50-smcx.conf
else
	@echo "install: no conf/smcx-sysctl.conf (yet)"
endif

uninstall: uninstall-tools uninstall-module

# Exactly what install put there (computed the same way), nothing else.
uninstall-module:
	rm -f $(DESTDIR)$(MODULEDIR)/smcx.ko
ifeq ($(DESTDIR),)
	if [ -d /lib/modules/$(KVER)/kernel ]; then depmod -a $(KVER); fi
endif

uninstall-tools:
	rm -f $(DESTDIR)$(SBINDIR)/smcctl $(addprefix $(DESTDIR)$(SBINDIR)/,$(PERSONALITIES))
	rm -f $(DESTDIR)$(PRELOADDIR)/libsmc-preload.so
	if [ -d $(DESTDIR)$(PRELOADDIR) ]; then rmdir $(DESTDIR)$(PRELOADDIR); fi
	rm -f $(addprefix $(DESTDIR)$(MAN8DIR)/,$(addsuffix .gz,$(MANPAGES)))
	rm -f $(DESTDIR)$(COMPLETIONDIR)/smcctl $(addprefix $(DESTDIR)$(COMPLETIONDIR)/,$(PERSONALITIES))
	rm -f $(DESTDIR)$(MODPROBEDIR)/smcx.conf $(DESTDIR)$(SYSCTLDIR)/50-smcx.conf

# Debian packages smcx-dkms and smcx-tools into build/deb/, built with
# debhelper in a copy of what they are made of (DEB_TREE: the files git
# knows there, untracked ones that are not ignored included), so the tree
# stays clean; lintian's report goes to build/deb/lintian.txt and an error
# in it fails the target.  Rebuilt only when one of those files changed.
DEB_DIR = $(BUILD)/deb
DEB_WORK = $(BUILD)/deb-work
DEB_TREE = Makefile Kbuild dkms.conf debian kernel include compat user man completion conf
ifneq ($(filter deb,$(MAKECMDGOALS)),)
DEB_SOURCES := $(wildcard $(shell git ls-files -co --exclude-standard -- $(DEB_TREE) 2>/dev/null || \
	find $(wildcard $(DEB_TREE)) -type f))
endif

deb: $(DEB_DIR)/.built

$(DEB_DIR)/.built: $(DEB_SOURCES)
	@v=$(SMCX_VERSION); \
	d=$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf); \
	c=$$(dpkg-parsechangelog -S Version); \
	[ "$$d" = "$$v" ] && [ "$$c" = "$$v" ] || { echo "deb: versions differ: include/smcx/version.h $$v, dkms.conf $$d, debian/changelog $$c" >&2; exit 1; }
	rm -rf $(DEB_WORK) $(DEB_DIR)
	mkdir -p $(DEB_WORK)/smcx-$(SMCX_VERSION) $(DEB_DIR)
	@echo "copying $(words $(DEB_SOURCES)) files of the tree to $(DEB_WORK)/smcx-$(SMCX_VERSION)"
	@printf '%s\n' $(DEB_SOURCES) | tar -cf - -T - | tar -xf - -C $(DEB_WORK)/smcx-$(SMCX_VERSION)
	cd $(DEB_WORK)/smcx-$(SMCX_VERSION) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="parallel=$(JOBS) $(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -b -us -uc >$(DEB_WORK)/build.log 2>&1 || \
		{ tail -n 40 $(DEB_WORK)/build.log >&2; echo "deb: dpkg-buildpackage failed; log: $(DEB_WORK)/build.log" >&2; exit 1; }
	mv $(DEB_WORK)/*.deb $(DEB_WORK)/*.changes $(DEB_WORK)/*.buildinfo $(DEB_DIR)/
	lintian --fail-on error --display-info $(DEB_DIR)/*.changes >$(DEB_DIR)/lintian.txt 2>&1; \
		rc=$$?; cat $(DEB_DIR)/lintian.txt; \
		[ $$rc = 0 ] || { echo "deb: lintian found errors (build/deb/lintian.txt)" >&2; exit 1; }
	rm -rf $(DEB_WORK)
	touch $@
	@ls -l $(DEB_DIR)/*.deb

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(BUILD)
