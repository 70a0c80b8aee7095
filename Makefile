# Thin wrapper over CMake (as neovim has): `make run` and `make test` do all the set-up on a
# fresh Debian 12 machine — missing packages are installed, then configure, build, run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= 2
PACKAGES   := build-essential cmake pkg-config libjansson-dev libgsl-dev libcunit1-dev zlib1g-dev libopenblas-dev
CMAKE_ARGS ?=
# what the tests need beyond the build: report.html is checked with Python's html.parser and
# rendered by headless Chromium (tests/report/)
TEST_PACKAGES := python3 chromium

# `taikai run --mpi` (docs/mpi.md): Open MPI, only for `make test-mpi`
BUILD_MPI  ?= build-mpi
MPI_PACKAGES := openmpi-bin libopenmpi-dev

BUILD_FUZZ ?= build-fuzz
FUZZ_PACKAGES := clang libclang-rt-14-dev
FUZZ_SECONDS ?= 30
FUZZERS    := spec tiles hand weights records

.PHONY: all deps deps-test deps-fuzz deps-mpi build run test test-asan test-mpi fuzz bench \
        clean install package sdk

all: build

# $(call install_missing,PACKAGES): installs those of the Debian packages that are missing
# (needs root or sudo); nothing when all are installed.
define install_missing
@missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "installing:$$missing"; \
  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $$missing; \
fi
endef

# Installs the Debian packages that are missing (needs root or sudo).
deps:
	$(call install_missing,$(PACKAGES))

deps-test:
	$(call install_missing,$(TEST_PACKAGES))

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The main job: a one-player mahjong tournament of the built-in agents on 10,000 walls
# (greedy, the thesis's Algorithm 1, against tsumogiri and random), results in runs/first.
RUN_SPEC ?= arenas/solo/greedy-vs-tsumogiri.json
RUN_OUT  ?= runs/first
run: build
	$(BUILD)/taikai run $(RUN_SPEC) -j $(JOBS) --out $(RUN_OUT)

test: build deps-test
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan: deps deps-test
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DTAIKAI_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# The MPI build (-DTAIKAI_MPI=ON) and its end-to-end test under mpirun (3 and 4 ranks on this
# machine, oversubscribed; Open MPI refuses root unless told, which CI needs): only taikai, the
# plugins the test plays and the test are built.
deps-mpi:
	$(call install_missing,$(MPI_PACKAGES))

test-mpi: deps deps-mpi
	cmake -S . -B $(BUILD_MPI) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTAIKAI_MPI=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_MPI) -j $(JOBS) --target test_ref_mpi
	cd $(BUILD_MPI) && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	  ctest --output-on-failure -R '^test_ref_mpi$$'

# libFuzzer (clang) on the spec parser, the tile notation and `taikai hand`'s arguments
# (tests/fuzz/README.md): each fuzzer runs FUZZ_SECONDS on its seed corpus; any crash fails.
deps-fuzz:
	$(call install_missing,$(FUZZ_PACKAGES))

fuzz: deps deps-fuzz
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_C_COMPILER=clang -DTAIKAI_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_spec fuzz_tiles fuzz_hand fuzz_weights fuzz_records
	@for f in $(FUZZERS); do \
	  mkdir -p $(BUILD_FUZZ)/fuzz-work/$$f $(BUILD_FUZZ)/fuzz-artifacts && \
	  echo "fuzz_$$f: $(FUZZ_SECONDS) s on tests/fuzz/corpus/$$f" && \
	  if $(BUILD_FUZZ)/tests/fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 \
	      -print_final_stats=1 -dict=tests/fuzz/$$f.dict \
	      -artifact_prefix=$(BUILD_FUZZ)/fuzz-artifacts/$$f- \
	      $(BUILD_FUZZ)/fuzz-work/$$f tests/fuzz/corpus/$$f > $(BUILD_FUZZ)/fuzz-$$f.log 2>&1; then \
	    grep -E "^Done|stat::number_of_executed_units" $(BUILD_FUZZ)/fuzz-$$f.log; \
	  else \
	    tail -n 40 $(BUILD_FUZZ)/fuzz-$$f.log; \
	    echo "fuzz_$$f found a crash: input in $(BUILD_FUZZ)/fuzz-artifacts/"; exit 1; \
	  fi; \
	done

# The SDK (docs/sdk.md "Install"): `make install PREFIX=...` installs the binary, libtaikai, the
# headers, the built-in agents, taikai.pc and the CMake package; `make package` writes the
# Debian package to $(BUILD)/packages/; `make sdk` runs .ci/sdk (installs that package with
# dpkg, plays with it, builds the templates against it, removes it: root).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	cd $(BUILD) && cpack -G DEB

sdk: package
	bash .ci/sdk

bench: build
	$(BUILD)/taikai bench shanten
	$(BUILD)/taikai bench score

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_MPI)
