# Agent Desk. Two commands do everything on a fresh Debian or Ubuntu machine:
#   make run    install what the build needs (if missing), build, open the app
#   make test   the same set-up, then vet, staticcheck, every test (race
#               detector on) and every fuzz target for a while (make fuzz)
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO      ?= go
BIN     := bin/agentdesk
# Fyne logs a locale error under LANG=C.
export LANG := en_US.UTF-8
export CGO_ENABLED := 1

# What building and testing need on Debian/Ubuntu: a C compiler and the
# OpenGL/X11 headers for Fyne; Xvfb, xdotool and ImageMagick for the
# end-to-end tests under a virtual display; desktop-file-utils and xz to
# build and check the Linux package; fonts with Hebrew, Arabic and Chinese,
# Japanese and Korean letters, which Agent Desk's own font lacks (Fyne falls
# back to the system's fonts for them: without these, such titles show as
# boxes).
DEB_PACKAGES := gcc libgl1-mesa-dev xorg-dev xvfb xauth xdotool imagemagick desktop-file-utils xz-utils \
	fonts-dejavu-core fonts-wqy-microhei

.PHONY: deps run build test fuzz bench soak clean

deps:
	@command -v $(GO) >/dev/null || { echo "Agent Desk needs Go 1.26.8 or newer: see https://go.dev/doc/install"; exit 1; }
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
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) .

# make run ARGS=--demo-seed=odd passes flags to the app.
run: build
	./$(BIN) $(ARGS)

# go test builds every package with the ci tag: it gives Fyne its headless
# test driver (a real window inside go test hangs).
test: deps
	$(GO) vet -tags ci ./...
	$(GO) tool staticcheck -tags ci ./...
	$(GO) test -race -tags ci -timeout 20m ./...
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory package-check

# Every fuzz target runs FUZZTIME (12 s) looking for inputs that crash a
# parser of server or file data, two at a time; what it finds is kept in
# the package's testdata/fuzz (.ci/fuzz). make fuzz FUZZTIME=5m for longer.
FUZZTIME ?= 12s
fuzz: deps
	GO=$(GO) FUZZTIME=$(FUZZTIME) .ci/fuzz

bench: deps
	@mkdir -p bin; set -o pipefail; $(GO) test -tags ci -run '^$$' -bench . -benchmem -timeout 30m ./... | tee bin/bench.txt | $(GO) run ./.ci/benchtable

# A working day of the real binary under Xvfb, read every 30 s (about 16
# minutes on 2 cores; AGENTDESK_SOAK_HOURS=1 for a try): prints the table.
soak: deps
	AGENTDESK_SOAK=1 AGENTDESK_E2E_OUT=$(CURDIR)/bin/soak $(GO) test -tags ci -run '^$$' -bench '^BenchmarkSoakDay$$' -benchtime 1x -timeout 180m .

clean:
	rm -rf bin

# ---- Desktop packages -------------------------------------------------------
# Users double-click the app; they never run make. These targets build what
# each desktop expects. The version and build number come from FyneApp.toml.
#   make package          Linux .tar.xz and .deb, Windows .exe and setup, in bin/dist/
#   make package-deb      the Debian package alone (assets/linux/package.mk)
#   make package-setup    the Windows setup alone (assets/windows/package.mk)
#   make install          build the Linux package and install it for you
#                         (~/.local; as root /usr/local; PREFIX=... elsewhere)
#   make package-check    the fast check make test runs: Linux package builds,
#                         its menu entry validates, and the installed app opens
#                         with Mesa's software renderer; then the Debian
#                         package installs, opens, upgrades in place and goes
#   make package-check-windows   the setup under Wine: install, open, demo,
#                         upgrade, uninstall (minutes; not in make test)

VERSION   := $(shell sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
BUILDNUM  := $(shell sed -n 's/^[[:space:]]*Build[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' FyneApp.toml)
DIST      := bin/dist
LINUX_DIR := agentdesk-$(VERSION)-linux-amd64
LINUX_PKG := $(DIST)/$(LINUX_DIR).tar.xz
WIN_EXE   := $(DIST)/agentdesk-$(VERSION)-windows-amd64.exe
# Release builds: stripped, with the release tag (no Fyne debug helpers), and
# the version FyneApp.toml names (fyne package would embed it the same way).
# A release build does not read FyneApp.toml, so its [Migrations] line is a
# tag here: migrated_fynedo (the app touches widgets only through fyne.Do).
RELEASE_FLAGS := -tags release,migrated_fynedo -trimpath -ldflags "-s -w -X main.version=$(VERSION)"
GO_WINRES := github.com/tc-hib/go-winres@v0.3.3
# xz level of the tarball; package-check uses the fastest, since it only
# checks what is inside.
XZ_LEVEL  ?= -6
DEB_PACKAGES_PACKAGING := gcc-mingw-w64-x86-64 xz-utils

.PHONY: package package-linux package-windows package-check install uninstall deps-package

package: package-linux package-windows package-deb package-setup
	@ls -l $(LINUX_PKG) $(WIN_EXE) $(DEB_PKG) $(SETUP_EXE)

# The tarball: the program, its menu entry and icons, and install.sh.
package-linux: deps
	@rm -rf $(DIST)/$(LINUX_DIR) && mkdir -p $(DIST)/$(LINUX_DIR)/share/applications
	$(GO) build $(RELEASE_FLAGS) -o $(DIST)/$(LINUX_DIR)/agentdesk .
	cp -r assets/linux/icons $(DIST)/$(LINUX_DIR)/share/icons
	cp assets/linux/com.agentdesk.app.desktop $(DIST)/$(LINUX_DIR)/share/applications/
	cp assets/linux/install.sh $(DIST)/$(LINUX_DIR)/
	desktop-file-validate $(DIST)/$(LINUX_DIR)/share/applications/com.agentdesk.app.desktop
	XZ_OPT=$(XZ_LEVEL) tar -C $(DIST) -cJf $(LINUX_PKG) $(LINUX_DIR)
	@rm -rf $(DIST)/$(LINUX_DIR)
	@echo "Linux package: $(LINUX_PKG)"

# A 64-bit Windows program cross-compiled with mingw-w64: icon, version and
# a manifest embedded (go-winres), and -H=windowsgui so a double-click opens
# no console window.
package-windows: deps deps-package
	@mkdir -p $(DIST)
	@set -e; syso=zz_agentdesk_windows_amd64.syso; trap 'rm -f $$syso' EXIT; \
	$(GO) run $(GO_WINRES) simply --arch amd64 --out zz_agentdesk --manifest gui \
	  --icon assets/icon.png --product-name "Agent Desk" --file-description "Agent Desk" \
	  --product-version $(VERSION).$(BUILDNUM) --file-version $(VERSION).$(BUILDNUM) \
	  --original-filename agentdesk.exe --copyright "Agent Desk authors"; \
	CC=x86_64-w64-mingw32-gcc GOOS=windows GOARCH=amd64 CGO_ENABLED=1 \
	  $(GO) build -tags release,migrated_fynedo -trimpath \
	  -ldflags "-s -w -H=windowsgui -X main.version=$(VERSION)" -o $(WIN_EXE) .
	@echo "Windows program: $(WIN_EXE)"

# The check builds the package without the release tag and -trimpath: those
# compile every package anew, and the check is about what the package holds,
# so it reuses what the end-to-end tests just built.
package-check:
	@$(MAKE) --no-print-directory package-linux XZ_LEVEL=-0 \
	  RELEASE_FLAGS='-ldflags "-s -w -X main.version=$(VERSION)"'
	desktop-file-validate assets/linux/com.agentdesk.app.desktop
	assets/linux/check-launch.sh $(LINUX_PKG) $(DIST)/launch.png
	@$(MAKE) --no-print-directory package-check-deb

install: package-linux
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && tar -xJf $(LINUX_PKG) -C $$tmp && $$tmp/$(LINUX_DIR)/install.sh

uninstall:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && mkdir -p $$tmp/share && cp -r assets/linux/icons $$tmp/share/icons && \
	  cp assets/linux/install.sh $$tmp/ && $$tmp/install.sh --uninstall

# What packaging needs beyond make deps: the mingw-w64 cross-compiler for the
# Windows build and xz for the tarball, installed the same way.
deps-package:
	@missing=""; for p in $(DEB_PACKAGES_PACKAGING); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "Installing what packaging needs:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	else echo; echo "These packages are missing:$$missing"; \
	  echo "Install them with:  sudo apt-get install -y$$missing"; echo "then run make again."; exit 1; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing

include assets/linux/package.mk
include assets/windows/package.mk
