# ipu-emu: the two commands a new user needs are `make demo` and `make test`.
# Everything else (deps, the CMake build, the sanitizer build) happens on demand.
SHELL := /bin/bash
BUILD ?= build
ASAN_BUILD ?= build-asan
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")
IPU_EMU_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ipu-emu
JOBS ?= $(shell nproc)
# In CI (CI=true) a component that cannot be built fails the configure step instead of running fewer tests.
CMAKE_ARGS := -G "$(GENERATOR)" -DIPU_EMU_CACHE=$(IPU_EMU_CACHE) -DIPU_REQUIRE_ALL=$(if $(filter true,$(CI)),ON,OFF)
CTEST_ARGS := --output-on-failure -j$(JOBS) --timeout 600
export IPU_EMU_CACHE
# ccache hashes paths relative to the checkout, so that another clone or worktree of the same sources (CI's fresh
# clone, a developer's second tree) reuses what an earlier build compiled. It only speeds builds: without ccache or
# with an empty cache everything is compiled.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= true

.PHONY: all deps build build-asan test test-fast demo bench regen install clean help qemu-shell qemu-test synth bitstream

all: build

help:
	@echo "make demo    run the main job on the in-process IPU Model"
	@echo "make test    install deps, build, run every test (normal and ASan/UBSan builds)"
	@echo "make bench   run the benchmarks and print their figures"
	@echo "make deps    install Debian packages, build newlib for the tile, fetch QEMU source"
	@echo "make qemu-shell  boot a Linux guest with the QEMU card, vfio-pci bound, gc-info on the PATH"
	@echo "make qemu-test   boot the guest: gc tools and a Poplar tutorial through vfio"
	@echo "make synth   yosys synthesis of one RTL tile and the rtl-tiny tile array"
	@echo "make bitstream BOARD=icebreaker  the RTL card through yosys/nextpnr/icepack for an FPGA board"
	@echo "make regen   regenerate the hardware-interface files from contract/card.toml"
	@echo "make install install libraries, headers and tools under PREFIX (default /usr/local)"

deps:
	@scripts/deps.sh

# The RTL file lists. A tree configured before a list changed holds Verilator's generated .cmake with the old
# list, and the build tool runs that old verilator command (to refresh the .cmake) before CMake could read the new
# list: a module added to a list is then missing and the build stops. So a changed list configures the tree again
# first, and CMake runs Verilator with the new list (rtl/cmake/ipu_rtl.cmake).
RTL_LISTS := rtl/sources.txt rtl/fpga/sources.txt

$(BUILD)/build.ninja $(BUILD)/Makefile: $(RTL_LISTS)
	cmake -S . -B $(BUILD) $(CMAKE_ARGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	touch $@

$(ASAN_BUILD)/build.ninja $(ASAN_BUILD)/Makefile: $(RTL_LISTS)
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_ARGS) -DCMAKE_BUILD_TYPE=Debug -DIPU_SANITIZE=ON
	touch $@

build: deps $(BUILD)/$(if $(filter Ninja,$(GENERATOR)),build.ninja,Makefile)
	cmake --build $(BUILD) -j$(JOBS)

build-asan: deps $(ASAN_BUILD)/$(if $(filter Ninja,$(GENERATOR)),build.ninja,Makefile)
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# The README's test command: deps, both builds, every test. ctest's summary is the last thing printed. Under CI=true
# a skipped test fails the run (scripts/ctest-strict.sh). Tests labelled once do the same in either tree (the qtest
# clients drive the one ASan QEMU both trees share; a fresh configure of the source;
# the public headers compiled as C++11): the release pass leaves them
# to the sanitizer pass.
test: build build-asan
	@echo "== tests: sanitizer build (ASan + UBSan) =="
	cd $(ASAN_BUILD) && $(CURDIR)/scripts/ctest-strict.sh $(CTEST_ARGS) -LE slow
	@echo "== tests: release build =="
	cd $(BUILD) && $(CURDIR)/scripts/ctest-strict.sh $(CTEST_ARGS) -LE '^once$$'

# The release build's tests only: the quick loop while developing.
test-fast: build
	cd $(BUILD) && ctest $(CTEST_ARGS)

demo: build
	@scripts/demo.sh $(BUILD)

bench: build
	@bench/run.sh $(BUILD)

# Driver developers: boot a Linux guest with the QEMU card and get a shell.
qemu-shell: build
	scripts/qemu/shell.sh $(BUILD)

qemu-test: build
	scripts/qemu/test.sh $(BUILD)

# Hardware engineers: synthesize the RTL tile and tile array with yosys (a few minutes).
synth: deps
	rtl/synth/synth.sh $(BUILD)/synth

# Hardware engineers: the card's bitstream for an FPGA board (boards/BOARD.toml,
# rtl/fpga/BOARD.pcf): utilisation, maximum clock, and a verdict (rtl/fpga/flow.sh).
BOARD ?= icebreaker
bitstream:
	rtl/fpga/flow.sh $(BOARD) $(BUILD)/bitstream/$(BOARD)

regen:
	python3 contract/generate.py

PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
