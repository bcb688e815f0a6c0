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

.PHONY: all module user tools setup check check-fast check-reference unit selftest \
	fuzz fuzz-long demo bench clean shell lab-up lab-down

all: module user tools

module:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR); run 'make setup'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

user:
	cmake -S user -B $(BUILD)/user -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)/user -j $(JOBS)

# programs the selftests run inside the lab guests
tools:
	$(MAKE) -C selftests/tools OUT=$(BUILD)/tools

setup:
	scripts/setup

unit: user
	cd $(BUILD)/user && ctest --output-on-failure -j $(JOBS)

fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

fuzz-long:
	scripts/fuzz $(FUZZ_LONG_SECONDS)

selftest: all
	LAB_KERNEL=$(LAB_KERNEL) selftests/run --tier $(TIER) $(T)

# The test command: install what is missing, build, unit tests, bounded fuzz
# runs, then the lab suite.  Sub-makes so that setup runs before anything
# evaluates the kernel header location.
check:
	scripts/setup
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) fuzz
	$(MAKE) selftest

# The edit loop (under 8 minutes): unit tests, a fuzz smoke, a lab smoke.
check-fast:
	scripts/setup
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) fuzz FUZZ_SECONDS=$(FAST_FUZZ_SECONDS)
	$(MAKE) selftest T="$(FAST_TESTS)"

# The stock smc.ko alone, validating the test logic: run it when such a test
# or the library it shares with smcx's tests (selftests/lib) changes.
check-reference:
	scripts/setup
	$(MAKE) all
	$(MAKE) selftest TIER=reference

demo:
	scripts/setup
	$(MAKE) all
	scripts/demo

bench:
	scripts/setup
	$(MAKE) all
	scripts/bench

# An interactive lab: `make lab-up`, then `scripts/lab shell alpha`.
lab-up: all
	scripts/lab up

lab-down:
	scripts/lab down

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(BUILD)
