# otd: `make test` installs what the tests need (gtp-rhino from Debian's grhino)
# when it is missing, then vets and tests everything.
GO ?= go
FUZZTIME ?= 60s

.PHONY: test deps vet bench fuzz

test: deps
	$(GO) vet ./...
	$(GO) test ./...

deps:
	@if [ ! -x /usr/games/gtp-rhino ] && ! command -v gtp-rhino >/dev/null 2>&1; then \
		echo "installing grhino (gtp-rhino) for the engine tests"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y grhino; \
	fi

# Benchmarks, built for this machine's CPU level: x86-64-v3 (AVX2, BMI1/2,
# LZCNT) where the CPU has it, as on CI's machines. BENCHMARKS.md gives both.
BENCH_GOAMD64 ?= $(shell grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo && echo v3 || echo v1)
bench:
	GOAMD64=$(BENCH_GOAMD64) $(GO) test -run '^$$' -bench . -benchmem ./...

# Run every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$(grep -rlE '^func Fuzz' --include='*_test.go' . | xargs -n1 dirname | sort -u); do \
		for t in $$(grep -hoE '^func Fuzz[A-Za-z0-9_]+' $$pkg/*_test.go | sed 's/^func //'); do \
			echo "== $$pkg $$t"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done
