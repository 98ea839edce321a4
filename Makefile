# otd: `make test` installs what the tests need when it is missing and it can
# (gtp-rhino from Debian's grhino, PostgreSQL from Debian's postgresql), starts
# a throw-away PostgreSQL server for the tests (unless OTD_TEST_POSTGRES names
# one already: then it uses that one), then vets and tests everything. Where
# it cannot install or start something (no apt-get, not root and no
# password-less sudo, apt-get failing, initdb failing), it says so and tests
# all the same: the tests that need it skip, and fail under CI (CI=true), so
# that CI never passes without them.
GO ?= go
FUZZTIME ?= 60s
# go test's limit for a package: its slowest (cmd/otd/cli) took 4.5 to 7
# minutes on a 2-core machine with two busy loops and other builds beside
# (BENCHMARKS.md); go's default, 10 minutes, was reached on such a machine.
TEST_TIMEOUT ?= 20m
# Where Debian puts gtp-rhino; otherwise it is looked for on PATH.
GTP_RHINO ?= /usr/games/gtp-rhino
# The folder of PostgreSQL's initdb and pg_ctl; by default Debian's newest
# (/usr/lib/postgresql/N/bin), else PATH's. find_pg sets pgbin to it, looking
# when it runs (deps may have just installed it).
PG_BIN ?=
find_pg = pgbin="$(PG_BIN)"; [ -n "$$pgbin" ] || pgbin=$$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1); \
	[ -x "$$pgbin/initdb" ] || { pgbin=$$(command -v initdb 2>/dev/null) && pgbin=$${pgbin%/initdb}; }

.PHONY: test deps vet bench fuzz e2e

# The server: a cluster made by initdb in a temporary folder, owned by the
# unprivileged user postgres when make runs as root (PostgreSQL refuses to run
# as root), on a free port of 127.0.0.1, with a random password, made for
# speed (no fsync: it is thrown away); stopped and removed at the end, even
# when a test fails or make is interrupted. The tests get its URL in
# OTD_TEST_POSTGRES (internal/testenv makes a database per test from it).
# When OTD_TEST_POSTGRES is set already, its server is used and none started.
test: deps
	@pg=; url=; as=; why=; \
	stop() { [ -n "$$pg" ] || return 0; [ -f "$$pg/data/postmaster.pid" ] && $$as "$$pgbin/pg_ctl" -D "$$pg/data" -m immediate -w stop >/dev/null 2>&1; rm -rf "$$pg"; pg=; }; \
	trap 'stop; exit 130' INT TERM; \
	$(find_pg); \
	if [ -n "$$OTD_TEST_POSTGRES" ]; then url="$$OTD_TEST_POSTGRES"; echo "make: PostgreSQL for the tests: the server of OTD_TEST_POSTGRES (none started)"; \
	elif [ ! -x "$$pgbin/initdb" ] || [ ! -x "$$pgbin/pg_ctl" ]; then why="PostgreSQL's initdb and pg_ctl are not installed (Debian package postgresql)"; \
	elif [ "$$(id -u 2>/dev/null)" = 0 ] && ! id postgres >/dev/null 2>&1; then why="make runs as root and there is no user postgres to run the server as"; \
	elif ! pg=$$(mktemp -d "$${TMPDIR:-/tmp}/otd-test-pg.XXXXXX"); then why="mktemp -d failed"; pg=; \
	else \
		[ "$$(id -u)" = 0 ] && { as="runuser -u postgres --"; chown postgres "$$pg"; }; \
		pw=$$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n'); \
		(umask 077; printf '%s\n' "$$pw" > "$$pg/pw"); [ -n "$$as" ] && chown postgres "$$pg/pw"; \
		if ! $$as "$$pgbin/initdb" -D "$$pg/data" -U otd --pwfile="$$pg/pw" --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$$pg/initdb.log" 2>&1; then \
			why="initdb failed: $$(tail -n 3 "$$pg/initdb.log" | tr '\n' ' ')"; \
		else \
			for try in 1 2 3 4 5; do \
				port=$$((20000 + $$(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000)); \
				if $$as "$$pgbin/pg_ctl" -D "$$pg/data" -l "$$pg/data/server.log" -w -t 60 -o "-p $$port -k $$pg -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null 2>&1; then \
					url="postgres://otd:$$pw@127.0.0.1:$$port/postgres?sslmode=disable"; break; \
				fi; \
			done; \
			[ -n "$$url" ] || why="the server did not start: $$(tail -n 3 "$$pg/data/server.log" 2>/dev/null | tr '\n' ' ')"; \
		fi; \
	fi; \
	if [ -n "$$pg" ] && [ -n "$$url" ]; then echo "make: PostgreSQL for the tests: $$pg, port $$port"; \
	elif [ -z "$$url" ]; then \
		stop; echo "make: could not start PostgreSQL for the tests: $$why."; \
		if [ "$$CI" = true ]; then echo "make: CI=true: the tests that need PostgreSQL will fail."; \
		else echo "make: the tests that need PostgreSQL will skip; every other test runs. To run them: install postgresql (sudo apt-get install postgresql), or set OTD_TEST_POSTGRES to a server's URL."; fi; \
	fi; \
	$(GO) vet ./... && OTD_TEST_POSTGRES="$$url" $(GO) test -timeout $(TEST_TIMEOUT) ./...; status=$$?; \
	stop; exit $$status

# deps never stops `make test`: it installs what it can and says what it could
# not. PostgreSQL is not needed when OTD_TEST_POSTGRES names a server.
deps:
	@have_rhino() { [ -x "$(GTP_RHINO)" ] || command -v gtp-rhino >/dev/null 2>&1; }; \
	have_pg() { [ -n "$$OTD_TEST_POSTGRES" ] && return 0; $(find_pg); [ -x "$$pgbin/initdb" ]; }; \
	missing=; have_rhino || missing=" grhino"; have_pg || missing="$$missing postgresql"; \
	[ -z "$$missing" ] && exit 0; \
	why=; sudo=; \
	if ! command -v apt-get >/dev/null 2>&1; then why="apt-get is not available here (not Debian or Ubuntu)"; \
	elif [ "$$(id -u 2>/dev/null)" = 0 ]; then :; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then sudo="sudo -n"; \
	else why="apt-get needs root: not root, and sudo is missing or asks for a password"; fi; \
	if [ -z "$$why" ]; then \
		echo "installing$$missing for the tests"; \
		if ! { $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; }; then \
			why="apt-get install$$missing failed (see above)"; \
		fi; \
	fi; \
	if ! have_rhino; then \
		w="$$why"; [ -z "$$w" ] && w="apt-get installed grhino, but there is no gtp-rhino at $(GTP_RHINO) or on PATH"; \
		echo "make: could not install gtp-rhino (Debian package grhino): $$w."; \
		if [ "$$CI" = true ]; then echo "make: CI=true: the tests that need gtp-rhino will fail."; \
		else echo "make: the tests that need gtp-rhino will skip; every other test runs. To run them: install grhino (sudo apt-get install grhino) or put gtp-rhino on PATH."; fi; \
	fi; \
	if ! have_pg && [ -n "$$why" ]; then echo "make: could not install PostgreSQL (Debian package postgresql): $$why."; fi; \
	exit 0

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
E2E_PACKAGES ?= libreoffice-calc chromium poppler-utils fonts-noto-cjk
# Where the checks leave their screenshots and PDFs for a person to look at.
E2E_OUT ?= /tmp/otd-e2e
e2e:
	@missing=; \
	command -v soffice >/dev/null 2>&1 || missing="$$missing libreoffice-calc"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	fc-list :lang=ja 2>/dev/null | grep -q . || missing="$$missing fonts-noto-cjk"; \
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
