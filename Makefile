# otd: `make test` installs what the tests need (gtp-rhino from Debian's grhino)
# when it is missing and it can, then vets and tests everything. Where it cannot
# install it (no apt-get, not root and no password-less sudo, apt-get failing),
# it says so and tests all the same: the tests that need gtp-rhino skip, and
# fail under CI (CI=true), so that CI never passes without them.
GO ?= go
FUZZTIME ?= 60s
# Where Debian puts gtp-rhino; otherwise it is looked for on PATH.
GTP_RHINO ?= /usr/games/gtp-rhino

.PHONY: test deps vet bench fuzz e2e

test: deps
	$(GO) vet ./...
	$(GO) test ./...

# deps never stops `make test`: it installs what it can and says what it could not.
deps:
	@have() { [ -x "$(GTP_RHINO)" ] || command -v gtp-rhino >/dev/null 2>&1; }; \
	have && exit 0; \
	why=; sudo=; \
	if ! command -v apt-get >/dev/null 2>&1; then why="apt-get is not available here (not Debian or Ubuntu)"; \
	elif [ "$$(id -u 2>/dev/null)" = 0 ]; then :; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then sudo="sudo -n"; \
	else why="apt-get needs root: not root, and sudo is missing or asks for a password"; fi; \
	if [ -z "$$why" ]; then \
		echo "installing grhino (gtp-rhino) for the engine tests"; \
		if ! { $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y grhino; }; then \
			why="apt-get install grhino failed (see above)"; \
		elif ! have; then why="apt-get installed grhino, but there is no gtp-rhino at $(GTP_RHINO) or on PATH"; fi; \
	fi; \
	[ -z "$$why" ] && exit 0; \
	echo "make: could not install gtp-rhino (Debian package grhino): $$why."; \
	if [ "$$CI" = true ]; then echo "make: CI=true: the tests that need gtp-rhino will fail."; \
	else echo "make: the tests that need gtp-rhino will skip; every other test runs. To run them: install grhino (sudo apt-get install grhino) or put gtp-rhino on PATH."; fi

# Benchmarks, built for this machine's CPU level: x86-64-v3 (AVX2, BMI1/2,
# LZCNT) where the CPU has it, as on CI's machines. BENCHMARKS.md gives both.
BENCH_GOAMD64 ?= $(shell grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo && echo v3 || echo v1)
# The 6x6 solve (BenchmarkSolve6x6, about 6 minutes) runs only by name:
#   cd engine && go test -run '^$' -bench Solve6x6 -benchtime 1x -v -timeout 2h .
bench:
	GOAMD64=$(BENCH_GOAMD64) $(GO) test -run '^$$' -bench . -skip 'Solve6x6' -benchmem ./...

# Run every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$(grep -rlE '^func Fuzz' --include='*_test.go' . | xargs -n1 dirname | sort -u); do \
		for t in $$(grep -hoE '^func Fuzz[A-Za-z0-9_]+' $$pkg/*_test.go | sed 's/^func //'); do \
			echo "== $$pkg $$t"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done

# End-to-end checks of what a person opens (not part of `make test`): the
# spreadsheet converted to CSV by LibreOffice, the HTML page and the wall sheet
# rendered and printed to PDF by Chromium, an SVG board rendered (e2e/). It
# installs what they need from Debian's packages when missing (as root, or with
# password-less sudo); where it cannot, it says why and stops.
E2E_PACKAGES ?= libreoffice-calc chromium poppler-utils
# Where the checks leave their screenshots and PDFs for a person to look at.
E2E_OUT ?= /tmp/otd-e2e
e2e:
	@missing=; \
	command -v soffice >/dev/null 2>&1 || missing="$$missing libreoffice-calc"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	[ -z "$$missing" ] && exit 0; \
	sudo=; \
	if ! command -v apt-get >/dev/null 2>&1; then why="apt-get is not available here (not Debian or Ubuntu)"; \
	elif [ "$$(id -u 2>/dev/null)" = 0 ]; then why=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then why=; sudo="sudo -n"; \
	else why="apt-get needs root: not root, and sudo is missing or asks for a password"; fi; \
	if [ -z "$$why" ]; then \
		echo "installing$$missing for the end-to-end checks (a few minutes)"; \
		$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing && exit 0; \
		why="apt-get install$$missing failed (see above)"; \
	fi; \
	echo "make e2e: could not install$$missing: $$why. Install them (apt-get install $(E2E_PACKAGES)) and run make e2e again."; \
	exit 1
	E2E_OUT=$(E2E_OUT) $(GO) test -tags e2e -count=1 -v ./e2e/...
