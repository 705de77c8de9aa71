# ---- Windows setup ----------------------------------------------------------
# A make fragment: the Makefile includes it after its "Desktop packages"
# section, whose variables (VERSION, BUILDNUM, DIST, WIN_EXE) and
# package-windows target it uses. On its own:
#   make -f Makefile -f assets/windows/package.mk package-setup
#
#   make package-setup          bin/dist/AgentDesk-VERSION-setup.exe: the NSIS
#                               setup staff double-click (per-user by default,
#                               all users as an option; see agentdesk.nsi)
#   make package-check-windows  not part of make test (a minute or more): the
#                               setup installed, started, updated and removed
#                               under Wine in a scratch prefix, with screenshots
#                               in bin/dist/windows-*.png, and the organisation's
#                               settings it takes on the command line (see
#                               check-setup.sh)

SETUP_EXE := $(DIST)/AgentDesk-$(VERSION)-setup.exe
# makensis builds the setup (Debian's nsis has the 64-bit amd64-unicode stubs).
DEB_PACKAGES_SETUP := nsis
# The check: Wine (64-bit), Xvfb, xdotool and ImageMagick's import to see and
# drive the window, Mesa's software renderer for OpenGL under Xvfb, and
# mingw-w64 for the test-only bcryptprimitives.dll when Wine lacks one,
# binutils' strings to read the shortcuts, jq to compare the policy.json
# setup writes with the one expected.
DEB_PACKAGES_CHECK_WINDOWS := wine64 nsis xvfb xdotool imagemagick libgl1-mesa-dri \
  gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 binutils jq

.PHONY: package-setup package-check-windows deps-setup deps-check-windows

# makensis runs in assets/windows (the icon and the wizard picture are
# there), so the program and the setup are given as absolute paths.
package-setup: package-windows deps-setup
	makensis -V2 -DVERSION=$(VERSION) -DBUILD=$(BUILDNUM) \
	  -DEXE=$(abspath $(WIN_EXE)) -DOUTFILE=$(abspath $(SETUP_EXE)) assets/windows/agentdesk.nsi
	@echo "Windows setup: $(SETUP_EXE) ($$(du -h $(SETUP_EXE) | cut -f1))"

package-check-windows: deps-check-windows package-setup
	assets/windows/check-setup.sh $(SETUP_EXE) $(WIN_EXE) $(VERSION) $(BUILDNUM) $(DIST)

deps-setup:
	@$(call apt_install_missing,$(DEB_PACKAGES_SETUP),the Windows setup)

deps-check-windows:
	@$(call apt_install_missing,$(DEB_PACKAGES_CHECK_WINDOWS),the Windows setup check)

# $(call apt_install_missing,PACKAGES,WHAT): installs the Debian packages
# that are missing, as the Makefile's deps does: as root with apt-get, with
# passwordless sudo, or else it prints the command to run.
define apt_install_missing
command -v dpkg-query >/dev/null || { echo "Install $(1) by hand for $(2)."; exit 1; }; \
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -z "$$missing" ]; then exit 0; fi; \
echo "Installing what $(2) needs:$$missing"; \
if [ "$$(id -u)" = 0 ]; then SUDO=""; \
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
else echo; echo "These packages are missing:$$missing"; \
  echo "Install them with:  sudo apt-get install -y$$missing"; echo "then run make again."; exit 1; fi; \
$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing
endef
