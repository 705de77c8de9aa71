# ---- Debian package -----------------------------------------------------------
# Included from the Makefile (it uses GO, VERSION, DIST, RELEASE_FLAGS and
# XZ_LEVEL from there). To try it alone:
#   make -f Makefile -f assets/linux/package.mk package-deb
#
#   make package-deb         bin/dist/agentdesk_VERSION_amd64.deb, lintian clean
#   make package-check-deb   install it, open it, Try the demo, upgrade it in
#                            place, remove it (root or passwordless sudo; under
#                            a minute beyond the build)
#
# VERSION may be given on the command line (make package-deb VERSION=0.1.1).

DEB_PKG        = $(DIST)/agentdesk_$(VERSION)_amd64.deb
DEB_MAINTAINER ?= Agent Desk authors <dev@agentdesk.invalid>
# dpkg-deb's xz level, from the tarball's (-6 -> 6).
DEB_ZLEVEL     ?= $(patsubst -%,%,$(XZ_LEVEL:e=))
# What building the package needs beyond make deps: dpkg-shlibdeps (dpkg-dev)
# and, for the release package, its checkers lintian and appstreamcli.
DEB_PACKAGES_DEB       := dpkg-dev lintian appstream
DEB_PACKAGES_DEB_CHECK := dpkg-dev
# The C parts (GLFW, the cgo runtime) built with Debian's hardening flags:
# stack protector, fortified functions, read-only relocations bound at start.
# (LC_ALL: the perl tools warn when LANG names a locale not generated.)
DEB_BUILDFLAGS = LC_ALL=C.UTF-8 DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get
DEB_CGO_ENV = CGO_CFLAGS="$$($(DEB_BUILDFLAGS) CFLAGS) $$($(DEB_BUILDFLAGS) CPPFLAGS)" CGO_LDFLAGS="$$($(DEB_BUILDFLAGS) LDFLAGS)"
DEB_GOFLAGS = -buildmode=pie $(RELEASE_FLAGS)
# The check builds like package-check does, without PIE, the release tag
# and -trimpath, so it reuses what the tests compiled and only links; the
# program is timed installed and as built.
# DEB_CHECK_RELEASE=1 checks the release build instead, and compares its
# start with a plain go build (one more link).
ifeq ($(DEB_CHECK_RELEASE),1)
DEB_CHECK_ENV     = $(DEB_CGO_ENV)
DEB_CHECK_GOFLAGS = $(DEB_GOFLAGS)
DEB_CHECK_BARE    = $(GO) build -o $$tmp/bare .
else
DEB_CHECK_ENV     =
DEB_CHECK_GOFLAGS = -ldflags "-s -w -X main.version=$(VERSION)"
DEB_CHECK_BARE    = ln -s agentdesk $$tmp/bare
endif

.PHONY: package-deb package-check-deb deps-deb

# Installs the Debian packages named in $(1) that are missing, the way make
# deps does: apt-get as root, through passwordless sudo, or else it prints
# the command to run and fails.
define deb_install_missing
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "Installing what the Debian package needs:$$missing"; \
  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
  else echo; echo "These packages are missing:$$missing"; \
    echo "Install them with:  sudo apt-get install -y$$missing"; echo "then run make again."; exit 1; fi; \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=300 $$missing; \
fi
endef

deps-deb:
	@$(call deb_install_missing,$(DEB_PACKAGES_DEB))

# The program as Debian builds one (PIE, hardened C), then the package
# around it, then lintian: any error or warning stops the build.
package-deb: deps deps-deb
	@mkdir -p bin/deb $(DIST)
	$(DEB_CGO_ENV) $(GO) build $(DEB_GOFLAGS) -o bin/deb/agentdesk .
	DEB_MAINTAINER='$(DEB_MAINTAINER)' DEB_ZLEVEL='$(DEB_ZLEVEL)' GO='$(GO)' \
	  assets/linux/build-deb.sh bin/deb/agentdesk $(VERSION) $(DEB_PKG)
	LC_ALL=C.UTF-8 lintian --fail-on error,warning $(DEB_PKG)

# Two packages of one program, VERSION and VERSION+check (newer for dpkg),
# so the upgrade is checked without a second build; check-deb.sh does the
# rest and leaves its screenshots in $(DIST). Installing needs root or
# passwordless sudo: without, it says so and skips.
package-check-deb: deps
	@if [ "$$(id -u)" != 0 ] && ! { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then \
	  echo "package-check-deb: skipped: installing a package needs root or passwordless sudo"; exit 0; fi; \
	$(call deb_install_missing,$(DEB_PACKAGES_DEB_CHECK)); \
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo '$(GO) build $(DEB_CHECK_GOFLAGS) -o TMP/agentdesk .'; \
	$(DEB_CHECK_ENV) $(GO) build $(DEB_CHECK_GOFLAGS) -o $$tmp/agentdesk .; \
	$(DEB_CHECK_BARE); \
	for v in $(VERSION) $(VERSION)+check; do \
	  DEB_MAINTAINER='$(DEB_MAINTAINER)' DEB_ZLEVEL=0 GO='$(GO)' \
	    assets/linux/build-deb.sh $$tmp/agentdesk $$v $$tmp/agentdesk_$${v}_amd64.deb; \
	done; \
	assets/linux/check-deb.sh $$tmp/agentdesk_$(VERSION)_amd64.deb $$tmp/agentdesk_$(VERSION)+check_amd64.deb \
	  $$tmp/bare $(DIST)
