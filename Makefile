# Entry points: `make` (Release build), `make test` (unit + CLI + script
# tests, then the same suite under ASan+UBSan), `make demo` (bootstrap,
# build, run on a bundled example asset).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build test test-release test-asan test-fuzz demo bench fuzz clean install

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

test: test-release test-asan test-fuzz

# What a newcomer sees first: set up, build, run the commands on the bundled
# example assets with their exit codes (scripts/demo exits 1 when a command
# gives an unexpected one).
demo:
	./scripts/bootstrap
	$(MAKE) --no-print-directory build
	./scripts/demo $(BUILD)/animsmith

# The libFuzzer targets are built whenever clang is available and each runs
# a short smoke pass seeded with the example assets and contracts (new
# inputs go to a scratch corpus under build-fuzz/, never into the sources), so a harness
# that no longer builds or crashes at once fails the suite. Long fuzzing
# sessions are run by hand (see fuzz/README.md).
test-fuzz:
	@if command -v clang >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory fuzz >/dev/null && \
		for t in "gltf examples/assets tests/fixtures/refusals" "json tests/fixtures/identity" \
		         "toml examples tests/toml/valid" "config examples tests/fixtures/configs" \
		         "numfmt tests/fixtures/numfmt" "transform examples/assets" "report examples/assets" \
		         "fbx examples/assets" "fbx_load examples/assets" \
		         "engine examples/assets tests/fixtures/gltf tests/fixtures/addressability" \
		         "model_apply tests/fixtures/model" "model_bytes" \
		         "meshq_flat tests/fixtures/meshq" "meshq_gltf tests/fixtures/meshq"; do \
			set -- $$t; name=$$1; shift; \
			build-fuzz/fuzz_$$name --help >/dev/null || { echo "fuzz smoke: fuzz_$$name --help failed"; exit 1; }; \
			rm -rf build-fuzz/smoke-corpus-$$name && mkdir -p build-fuzz/smoke-corpus-$$name && \
			build-fuzz/fuzz_$$name -runs=3000 build-fuzz/smoke-corpus-$$name "$$@" \
				> build-fuzz/smoke-$$name.log 2>&1 || \
				{ tail -30 build-fuzz/smoke-$$name.log; echo "fuzz smoke: fuzz_$$name failed"; exit 1; }; \
		done && echo "fuzz smoke: 14 targets built, answer --help, and ran 3000 inputs each"; \
	else \
		echo "fuzz smoke: skipped (clang not installed)"; \
	fi

# Release build, then the program, public headers, static library,
# animsmith.pc, man page and shell completions under PREFIX (staged below
# DESTDIR when it is set, as packagers do).
PREFIX ?= /usr/local
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

bench: build
	$(BUILD)/bench_load
	$(BUILD)/bench_json
	@for f in ../shared/corpus/gltf/Xbot.glb ../shared/corpus/gltf/Michelle.glb; do \
		if [ -f $$f ]; then $(BUILD)/bench_write $$f && $(BUILD)/bench_reduce $$f | tail -3; fi; \
	done
	bench/run_report_bench.sh $(BUILD)

fuzz:
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DANIMSMITH_FUZZ=ON -DANIMSMITH_TESTS=OFF >/dev/null
	cmake --build build-fuzz -j$(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
