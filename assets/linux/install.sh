#!/bin/sh
# Installs Agent Desk so that it appears in the desktop's application menu.
#
#   ./install.sh              for you alone, in ~/.local (as root: for everyone, in /usr/local)
#   ./install.sh --uninstall  removes it again (your settings and history stay)
#   PREFIX=/opt/agentdesk ./install.sh   somewhere else
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${PREFIX:-}" ]; then
	prefix=$PREFIX
elif [ "$(id -u)" = 0 ]; then
	prefix=/usr/local
else
	prefix=$HOME/.local
fi
bin=$prefix/bin/agentdesk
apps=$prefix/share/applications
desktop=$apps/com.agentdesk.app.desktop
icons=$prefix/share/icons/hicolor

refresh_menus() {
	# Menus notice new entries by themselves on most desktops; these make
	# sure of it where the tools exist.
	command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" 2>/dev/null || true
	command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t -f "$icons" 2>/dev/null || true
}

if [ "${1:-}" = "--uninstall" ]; then
	rm -f "$bin" "$desktop"
	for f in "$here"/share/icons/hicolor/*/apps/agentdesk.*; do
		rel=${f#"$here"/share/icons/hicolor/}
		rm -f "$icons/$rel"
	done
	refresh_menus
	echo "Agent Desk was removed. Your settings and history are still in your home folder."
	exit 0
fi

mkdir -p "$prefix/bin" "$apps"
cp "$here/agentdesk" "$bin.new"
chmod 755 "$bin.new"
mv -f "$bin.new" "$bin"
(cd "$here/share/icons" && find hicolor -type f) | while read -r f; do
	mkdir -p "$(dirname "$prefix/share/icons/$f")"
	cp "$here/share/icons/$f" "$prefix/share/icons/$f"
done
# The menu starts the program by its full path, so it works even when
# ~/.local/bin is not on the PATH.
sed "s|^Exec=.*|Exec=\"$bin\"|" "$here/share/applications/com.agentdesk.app.desktop" >"$desktop"
chmod 644 "$desktop"
refresh_menus
echo "Agent Desk is installed: find it in your application menu (Office), or run $bin"
