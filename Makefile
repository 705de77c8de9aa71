# Agent Desk. Two commands do everything on a fresh Debian or Ubuntu machine:
#   make run    install what the build needs (if missing), build, open the app
#   make test   the same set-up, then vet and every test (race detector on)
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO      ?= go
BIN     := bin/agentdesk
# Fyne logs a locale error under LANG=C.
export LANG := en_US.UTF-8
export CGO_ENABLED := 1

# What building and testing need on Debian/Ubuntu: a C compiler and the
# OpenGL/X11 headers for Fyne; Xvfb, xdotool and ImageMagick for the
# end-to-end tests under a virtual display; desktop-file-utils to check the
# Linux package's .desktop file.
DEB_PACKAGES := gcc libgl1-mesa-dev xorg-dev xvfb xauth xdotool imagemagick desktop-file-utils

.PHONY: deps run build test bench clean

deps:
	@command -v $(GO) >/dev/null || { echo "Agent Desk needs Go 1.24 or newer: see https://go.dev/doc/install"; exit 1; }
	@command -v dpkg-query >/dev/null || { echo "make deps installs packages on Debian and Ubuntu only. Elsewhere, install a C compiler and the OpenGL and X11 development headers (see README)."; exit 1; }
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "Installing what Agent Desk needs:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	else echo; echo "These packages are missing:$$missing"; \
	  echo "Install them with:  sudo apt-get install -y$$missing"; echo "then run make again."; exit 1; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing

build: deps
	$(GO) build -o $(BIN) .

run: build
	./$(BIN)

# go test builds every package with the ci tag: it gives Fyne its headless
# test driver (a real window inside go test hangs).
test: deps
	$(GO) vet -tags ci ./...
	$(GO) test -race -tags ci -timeout 20m ./...

bench: deps
	@mkdir -p bin; set -o pipefail; $(GO) test -tags ci -run '^$$' -bench . -benchmem -timeout 30m ./... | tee bin/bench.txt | $(GO) run ./.ci/benchtable

clean:
	rm -rf bin
