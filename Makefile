# Entry points: `make` (Release build), `make test` (unit + CLI + script
# tests, then the same suite under ASan+UBSan), `make demo` (bootstrap,
# build, run on a bundled example asset).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build test test-release test-asan demo bench fuzz clean

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j$(JOBS)
	@echo "built $(BUILD)/animsmith"

test-release: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DANIMSMITH_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

test: test-release test-asan

demo:
	./scripts/bootstrap
	$(MAKE) build
	$(BUILD)/animsmith --version
	$(BUILD)/animsmith inspect examples/assets/walk.glb
	$(BUILD)/animsmith lint examples/assets/clip.glb
	$(BUILD)/animsmith lint examples/assets/clip-dirty.glb; echo "# exit $$? (1: failing findings)"
	$(BUILD)/animsmith fix examples/assets/clip-dirty.glb --dry-run; echo "# exit $$? (1: repairs pending)"

bench: build
	$(BUILD)/bench_load
	$(BUILD)/bench_json

fuzz:
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DANIMSMITH_FUZZ=ON -DANIMSMITH_TESTS=OFF >/dev/null
	cmake --build build-fuzz -j$(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
