# Comptoir: make demo runs the demo, make test runs the tests. Both install
# what they need first (Debian / Raspberry Pi OS packages through apt, Go
# tools through the Go module proxy).

SHELL := /bin/bash
GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
STATICCHECK_VERSION := v0.8.2
# Debian packages the tests need: OpenCV for vision/ (gocv), Chromium for
# the dashboard's real-browser test.
TEST_PACKAGES := libopencv-dev chromium
DEMO_PACKAGES := libopencv-dev
FUZZTIME ?= 10s
SIMGAMES ?= 2000

.PHONY: demo test deps-test deps-demo vet lint unit fuzz simulate bench

demo: deps-demo
	$(GO) run ./cmd/comptoird --config configs/tables/demo.yaml

test: deps-test vet lint unit fuzz simulate

# apt-get only when a package is missing; sudo when not root.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps-test:
	$(call apt_install,$(TEST_PACKAGES))
	@[ -x $(STATICCHECK) ] || $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

deps-demo:
	$(call apt_install,$(DEMO_PACKAGES))

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

lint:
	$(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -tags matprofile ./vision/...

# Each fuzz target runs briefly: FUZZTIME each.
FUZZ_TARGETS := \
	./notation:FuzzRead

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg >/dev/null; \
	done

simulate:
	$(GO) run ./cmd/comptoir simulate --game tally --games 500 --players 2-4 --seed 1

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./journal ./notation
