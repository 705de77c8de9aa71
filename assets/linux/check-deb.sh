#!/bin/bash
# Checks the Debian package as staff meet it: apt installs it, the menu
# entry, icon and manual page are in place, the installed program opens
# its window (Xvfb, Mesa's software renderer: a machine without a graphics
# driver), "Try the demo" makes it write its settings and history; then a
# newer package installed over it keeps them and opens again, and removing
# the package takes the program away but leaves the user's data.
#
#   check-deb.sh OLD.deb NEW.deb BARE-BINARY OUTDIR
#
# NEW.deb must carry a higher version than OLD.deb. BARE-BINARY is the same
# program not installed (go build), started in the same virtual display to
# compare the time to the first window. Screenshots: OUTDIR/deb-launch.png
# (first start: the welcome screen), deb-demo.png (after Try the demo),
# deb-upgrade.png (the newer package, same home: straight into the demo).
#
# It installs packages, so it runs as root or with passwordless sudo, and
# otherwise says it skipped. It refuses to run where agentdesk is installed
# already: it would replace, then remove, that installation.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") bare=$(realpath "$3") out=$4

say() { printf 'check-deb: %s\n' "$*"; }
fail() { printf 'check-deb: FAILED: %s\n' "$*" >&2; exit 1; }

if [ "$(id -u)" = 0 ]; then
	SUDO=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	SUDO=(sudo -n)
else
	say "skipped: installing a package needs root or passwordless sudo"
	exit 0
fi
for tool in Xvfb xdotool import desktop-file-validate apt-get; do
	command -v $tool >/dev/null || fail "$tool is missing (make deps installs it)"
done
if dpkg-query -W -f '${db:Status-Abbrev}' agentdesk 2>/dev/null | grep -q '^i'; then
	fail "agentdesk is installed on this machine already ($(dpkg-query -W -f '${Version}' agentdesk)); the check would replace and then remove it. Remove it first: apt-get remove agentdesk"
fi
vold=$(dpkg-deb -f "$old" Version) vnew=$(dpkg-deb -f "$new" Version)
dpkg --compare-versions "$vnew" gt "$vold" || fail "$new ($vnew) is not newer than $old ($vold)"
mkdir -p "$out"

tmp=$(mktemp -d)
chmod 0755 "$tmp" # apt's download user reads the .deb from here
installed=no app='' xvfb=''
cleanup() {
	[ -z "$app" ] || kill -9 "$app" 2>/dev/null || true
	[ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
	# A check that stopped half-way does not leave the package behind.
	if [ "$installed" = yes ]; then
		"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq agentdesk >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
cp "$old" "$tmp/old.deb"
cp "$new" "$tmp/new.deb"

apt_install() { # DEB: apt-get install ./DEB, waiting for another apt to finish
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=300 "$1" >"$tmp/apt.log" 2>&1 ||
		{ cat "$tmp/apt.log" >&2; fail "apt-get install $1 failed"; }
	installed=yes
}
status() { dpkg-query -W -f '${db:Status-Abbrev} ${Version}' agentdesk 2>/dev/null || true; }

# ---- install the older package ----------------------------------------------
say "installing $(basename "$old") ($vold)"
apt_install "$tmp/old.deb"
[ "$(status)" = "ii  $vold" ] || fail "after installing, dpkg says: $(status)"
[ -x /usr/bin/agentdesk ] || fail "/usr/bin/agentdesk is not there"
inst_size=$(stat -c %s /usr/bin/agentdesk)
[ "$(command -v agentdesk)" = /usr/bin/agentdesk ] || fail "agentdesk on the PATH is $(command -v agentdesk), not /usr/bin/agentdesk"
desktop=/usr/share/applications/com.agentdesk.app.desktop
desktop-file-validate "$desktop" || fail "the installed menu entry does not validate"
grep -qx 'Exec=agentdesk' "$desktop" || fail "the menu entry does not start agentdesk: $(grep ^Exec= "$desktop")"
for f in $(dpkg-deb -c "$old" | awk '$1 ~ /^-/ && $6 ~ /\/icons\// { sub(/^\./, "", $6); print $6 }'); do
	[ -f "$f" ] || fail "icon $f is not there"
done
[ -f /usr/share/icons/hicolor/256x256/apps/agentdesk.png ] || fail "the 256 px icon is not there"
[ -f /usr/share/icons/hicolor/scalable/apps/agentdesk.svg ] || fail "the scalable icon is not there"
man=/usr/share/man/man1/agentdesk.1.gz
[ -f "$man" ] || fail "the manual page is not there"
# (The page read once: grep -q ending a pipe early fails it under pipefail.)
mantext=$(zcat "$man" | sed 's/\\-/-/g')
grep -q '^agentdesk - ' <<<"$mantext" || fail "the manual page has no NAME line"
[ -f /usr/share/metainfo/com.agentdesk.app.metainfo.xml ] || fail "the AppStream metadata is not there"
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' /usr/share/doc/agentdesk/copyright ||
	fail "no machine-readable copyright file"
# The options the manual page describes are the program's.
help=$(/usr/bin/agentdesk -h 2>&1) || fail "agentdesk -h failed: $help"
for opt in serve-demo demo-api; do
	grep -q -- "-$opt" <<<"$help" || fail "agentdesk -h does not know --$opt"
	grep -q -- "^\.B.* --$opt" <<<"$mantext" || fail "the manual page does not describe --$opt"
done
say "installed: program, menu entry (valid), $(find /usr/share/icons/hicolor -name 'agentdesk.*' | wc -l) icons, manual page, AppStream metadata, copyright"

# ---- one virtual display for every start --------------------------------------
# -displayfd: Xvfb picks a free display and says which; -noreset: it stays
# usable between programs.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb=$!
for _ in $(seq 100); do [ -s "$tmp/display" ] && break; sleep 0.05; done
[ -s "$tmp/display" ] || { cat "$tmp/xvfb.log" >&2; fail "Xvfb did not start"; }
DISPLAY=:$(head -n1 "$tmp/display")
export DISPLAY
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME WAYLAND_DISPLAY
export LIBGL_ALWAYS_SOFTWARE=1 LANG=en_US.UTF-8

win=
start() { # PROGRAM HOME: start it as the menu does; sets app, win and ms
	local t0 t1
	mkdir -p "$2"
	t0=$(date +%s%N)
	HOME=$2 "$1" >"$2/app.log" 2>&1 &
	app=$!
	win=
	for _ in $(seq 1500); do # 30 s
		win=$(xdotool search --onlyvisible --name '^Agent Desk' 2>/dev/null | head -n1) && [ -n "$win" ] && break
		kill -0 "$app" 2>/dev/null || { cat "$2/app.log" >&2; fail "$1 stopped at start"; }
		sleep 0.02
	done
	t1=$(date +%s%N)
	[ -n "$win" ] || { cat "$2/app.log" >&2; fail "no Agent Desk window appeared for $1 within 30 s"; }
	ms=$(((t1 - t0) / 1000000))
}
quit() { # ask the program to end (Fyne closes the app on SIGTERM), as a logout does
	kill -TERM "$app"
	for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$app" 2>/dev/null; then kill -9 "$app"; fail "the program did not end within 10 s of SIGTERM"; fi
	wait "$app" 2>/dev/null || true
	app=
}
shot() { sleep "${2:-1.5}"; import -window root "$1"; }

# The time to the window (mapped, before its first frame is drawn), three
# times each, in turn, every time in a fresh home: the middle one counts.
bare_all='' inst_all=''
for i in 1 2 3; do
	start "$bare" "$tmp/time-bare-$i"
	bare_all="$bare_all $ms"
	quit
	start /usr/bin/agentdesk "$tmp/time-installed-$i"
	inst_all="$inst_all $ms"
	quit
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | sed -n 2p; }
bare_ms=$(median "$bare_all") inst_ms=$(median "$inst_all")

# ---- first start of the installed program, then the demo ------------------------
home=$tmp/home
start /usr/bin/agentdesk "$home"
first_ms=$ms
shot "$out/deb-launch.png"
# The welcome screen's column is centred: "Try the demo" sits 162 px left
# of the middle and 163 px below it (at the 1024x720 first size: 350,523).
read -r w h < <(xdotool getwindowgeometry --shell "$win" | awk -F= '$1 == "WIDTH" { w = $2 } $1 == "HEIGHT" { h = $2 } END { print w, h }')
xdotool mousemove --window "$win" $((w / 2 - 162)) $((h / 2 + 163)) click 1
xdotool mousemove 0 799 # out of the way of the screenshots
settings=$home/.config/agentdesk/settings.json history=$home/.local/share/agentdesk/history.db
for _ in $(seq 100); do grep -Eq '"onboarded":[[:space:]]*true' "$settings" 2>/dev/null && break; sleep 0.1; done
grep -Eq '"onboarded":[[:space:]]*true' "$settings" 2>/dev/null || { shot "$out/deb-demo.png" 0; fail "Try the demo did not save the settings (screenshot: $out/deb-demo.png)"; }
[ -s "$history" ] || fail "no history at $history after Try the demo"
shot "$out/deb-demo.png"
quit
sum_settings=$(md5sum <"$settings") history_size=$(stat -c %s "$history")
say "first start: window in $first_ms ms; Try the demo saved $settings and $history ($history_size bytes)"

# ---- upgrade in place ----------------------------------------------------------------
say "installing $(basename "$new") ($vnew) over it"
apt_install "$tmp/new.deb"
[ "$(status)" = "ii  $vnew" ] || fail "after the upgrade, dpkg says: $(status)"
[ "$(md5sum <"$settings")" = "$sum_settings" ] || fail "the upgrade changed $settings"
[ -s "$history" ] || fail "the upgrade lost $history"
start /usr/bin/agentdesk "$home"
upgrade_ms=$ms
shot "$out/deb-upgrade.png" 2
kill -0 "$app" 2>/dev/null || { cat "$home/app.log" >&2; fail "the upgraded program stopped"; }
quit
grep -Eq '"onboarded":[[:space:]]*true' "$settings" || fail "after the upgraded start, the settings lost the demo choice"
[ "$(stat -c %s "$history")" -ge "$history_size" ] || fail "after the upgraded start, the history is smaller"
say "upgrade: $vold -> $vnew kept settings and history; the upgraded program opened in $upgrade_ms ms on them"

# ---- removal -------------------------------------------------------------------------
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq -o DPkg::Lock::Timeout=300 agentdesk >"$tmp/apt.log" 2>&1 ||
	{ cat "$tmp/apt.log" >&2; fail "apt-get remove agentdesk failed"; }
installed=no
[ ! -e /usr/bin/agentdesk ] || fail "/usr/bin/agentdesk is still there after apt-get remove"
for f in $(dpkg-deb -c "$new" | awk '$1 ~ /^-/ { sub(/^\./, "", $6); print $6 }'); do
	[ ! -e "$f" ] || fail "$f is still there after apt-get remove"
done
case $(status) in "" | un* | "rc "*) ;; *) fail "after removing, dpkg says: $(status)" ;; esac
if [ ! -f "$settings" ] || [ ! -s "$history" ]; then fail "removing the package touched the user's data"; fi
say "removed: no file of the package is left; the user's settings and history stay"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }
say "sizes: $(basename "$old") $(mb "$(stat -c %s "$old")"), installed /usr/bin/agentdesk $(mb "$inst_size"), bare program $(mb "$(stat -c %s "$bare")")"
say "time to the window (Xvfb, software GL, fresh home; middle of 3): installed $inst_ms ms (${inst_all# }), bare program $bare_ms ms (${bare_all# }); after the upgrade, second start: $upgrade_ms ms"
say "passed (screenshots: $out/deb-launch.png, deb-demo.png, deb-upgrade.png)"
