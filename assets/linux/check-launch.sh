#!/bin/bash
# Checks the Linux package as a user meets it: unpack the tarball, install
# it into a scratch home, check the menu entry, then start the program the
# way the menu does, under a virtual display with Mesa's software renderer
# (as on a machine without a graphics driver), and keep a screenshot.
#
#   check-launch.sh TARBALL SCREENSHOT [SECONDS]
set -euo pipefail
tarball=$1 shot=$2 secs=${3:-6}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp"
pkg=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)

export HOME=$tmp/home
mkdir -p "$HOME"
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME
# PREFIX as a user install gets it, even when the check runs as root.
export PREFIX=$HOME/.local
"$pkg/install.sh" >/dev/null

desktop=$HOME/.local/share/applications/com.agentdesk.app.desktop
desktop-file-validate "$desktop"
exe=$(sed -n 's/^Exec="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$desktop")
[ -x "$exe" ] || { echo "the menu entry starts $exe, which is not there" >&2; exit 1; }
[ -f "$HOME/.local/share/icons/hicolor/256x256/apps/agentdesk.png" ] || { echo "the menu icon was not installed" >&2; exit 1; }

# Start it as a double-click does: no terminal, a fresh home, no account.
LIBGL_ALWAYS_SOFTWARE=1 LANG=en_US.UTF-8 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
	"$0" >"$1/app.log" 2>&1 &
	pid=$!
	sleep "$3"
	if ! kill -0 $pid 2>/dev/null; then echo "Agent Desk stopped at start:" >&2; cat "$1/app.log" >&2; exit 1; fi
	xdotool search --name "Agent Desk" >/dev/null || { echo "no Agent Desk window appeared" >&2; kill $pid; exit 1; }
	import -window root "$2"
	kill $pid
' "$exe" "$tmp" "$shot" "$secs"

[ -f "$HOME/.config/agentdesk/settings.json" ] || echo "note: no settings were written during the short launch" >&2
"$pkg/install.sh" --uninstall >/dev/null
[ ! -e "$exe" ] || { echo "uninstall left $exe behind" >&2; exit 1; }
echo "launch check passed: installed, menu entry valid, window opened with the software renderer ($shot)"
