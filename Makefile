# Thin wrapper over CMake (as neovim has): `make run` and `make test` do all the set-up on a
# fresh Debian 12 machine — missing packages are installed, then configure, build, run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= 2
PACKAGES   := build-essential cmake pkg-config libjansson-dev libgsl-dev libcunit1-dev
CMAKE_ARGS ?=

.PHONY: all deps build run test test-asan bench clean

all: build

# Installs the Debian packages that are missing (needs root or sudo).
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $$missing; \
	fi

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

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DTAIKAI_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/taikai bench shanten
	$(BUILD)/taikai bench score

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
