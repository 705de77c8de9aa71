#!/bin/bash
# Checks the Windows setup as staff meet it, under Wine in a scratch prefix
# (make package-check-windows runs it; it takes a minute or two):
#
#   1. the setup installs silently for the user (/S): program, uninstaller,
#      Start-menu and desktop shortcuts, the "Apps & features" entry;
#   2. Agent Desk starts from its Start-menu shortcut under Xvfb and shows
#      the welcome screen (screenshot), then the demo after a click on
#      "Try the demo" (screenshot);
#   3. a newer setup (VERSION with its last number plus one) installs over it
#      while the app is open: setup closes the app, replaces the program, and
#      the settings and history of the first start are still there;
#   4. its uninstaller, run as "Apps & features" runs it (QuietUninstallString),
#      removes the program, shortcuts and entry, and keeps the user's data;
#      with /REMOVEDATA it removes the data too;
#   5. /ALLUSERS installs for everyone (Program Files, HKLM) and uninstalls;
#   6. the organisation's settings on the command line: a refused value
#      (/SERVICE=bad"value, /POLICY= with /LANGUAGE=) ends setup with exit
#      code 87 and nothing written; /SERVICE= /WORKSPACE= /LANGUAGE= /PROXY=
#      /LOCK write %ProgramData%\Agent Desk\policy.json, exactly the JSON
#      expected (jq); an account name with spaces and accents, /PAC= and
#      /CERTIFICATE= replace it (company-ca.pem copied); /POLICY= copies a
#      given file over it; the uninstaller keeps them.
#
#   check-setup.sh SETUP.exe AGENTDESK.exe VERSION BUILD OUT_DIR
#
# Screenshots: OUT_DIR/windows-launch.png and OUT_DIR/windows-demo.png
# (OUT_DIR/windows-failure.png when a step fails).
#
# Wine must not touch the real home: the prefix, HOME (Wine links the
# prefix's Desktop and Documents to it) and the display are scratch ones, and
# WINEDLLOVERRIDES turns off winemenubuilder (menu entries and file types in
# the real desktop) and the Mono and Gecko installers (dialogs nobody answers).
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: $0 SETUP.exe AGENTDESK.exe VERSION BUILD OUT_DIR" >&2; exit 2; }
setup=$(realpath "$1") exe=$(realpath "$2") version=$3 build=$4
mkdir -p "$5" && out=$(realpath "$5")
rm -f "$out/windows-failure.png"
here=$(cd "$(dirname "$0")" && pwd)
t_all=$(date +%s%N)

# Debian's wine64 package has no wine64 in PATH; the wine package adds one.
WINE=${WINE:-$(command -v wine64 || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || command -v wine || true)}
[ -n "$WINE" ] || { echo "Wine is not installed (Debian: apt-get install wine64)" >&2; exit 1; }
WINESERVER=${WINESERVER:-$(command -v wineserver || { [ -x "$(dirname "$WINE")/wineserver" ] && echo "$(dirname "$WINE")/wineserver"; } || true)}
[ -n "$WINESERVER" ] || { echo "wineserver is not installed next to $WINE" >&2; exit 1; }
for tool in Xvfb xdotool import convert makensis x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump strings jq; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: make deps-check-windows installs what this check needs" >&2; exit 1; }
done

tmp=$(mktemp -d -t agentdesk-setup-check.XXXXXX)
app_pid="" xvfb_pid=""
cleanup() {
	[ -z "$app_pid" ] || kill "$app_pid" 2>/dev/null || true # the app this check started
	# Ends what runs in this scratch prefix only.
	if [ -d "$tmp/prefix" ]; then
		"$WINESERVER" -k 2>/dev/null || true
		timeout 30 "$WINESERVER" -w 2>/dev/null || true
	fi
	[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

export WINEPREFIX=$tmp/prefix WINEARCH=win64 WINEDEBUG=-all HOME=$tmp/home
export WINEDLLOVERRIDES="winemenubuilder.exe=d;mscoree=d;mshtml=d"
export LANG=en_US.UTF-8 LIBGL_ALWAYS_SOFTWARE=1
# Wine hands the Unix environment to Windows programs: XDG_* pointing into
# the real home would move Agent Desk's folders there.
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME
mkdir -p "$HOME"

# alive PID: the process runs (a zombie waiting to be reaped does not).
alive() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f s", ms / 1000 }'; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }
step() { echo "== $*"; }
fail() {
	echo "FAIL: $*" >&2
	if [ -n "${DISPLAY:-}" ] && import -window root "$out/windows-failure.png" 2>/dev/null; then
		echo "the screen at that moment: $out/windows-failure.png" >&2
	fi
	if [ -s "$tmp/app.log" ]; then echo "--- Agent Desk's output:" >&2; tail -n 20 "$tmp/app.log" >&2; fi
	exit 1
}
# A Windows program in the prefix, its output kept for a failure message.
win() { timeout 300 "$WINE" "$@" >>"$tmp/wine.log" 2>&1; }
# settle: waits until Wine has no program left running (an NSIS
# uninstaller copies itself to the temporary folder and runs that copy, so
# the uninstall.exe started here returns before the work is done).
settle() { timeout 120 "$WINESERVER" -w || fail "Wine's programs did not end within two minutes"; }

# ---- A virtual display and a scratch Wine prefix -----------------------------
step "virtual display and a scratch Wine prefix ($("$WINE" --version))"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.1; done
[ -s "$tmp/display" ] || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
DISPLAY=:$(head -n1 "$tmp/display")
export DISPLAY

t=$(date +%s%N)
win wineboot -i || fail "wineboot -i failed: $(tail -n 5 "$tmp/wine.log")"
settle
echo "prefix ready in $(secs "$(ms "$t")")"

user=$(find "$WINEPREFIX/drive_c/users" -mindepth 1 -maxdepth 1 ! -name Public -printf '%f\n' | head -n1)
profile=$WINEPREFIX/drive_c/users/$user
sys32=$WINEPREFIX/drive_c/windows/system32

# The Go runtime takes its random numbers from ProcessPrng in
# bcryptprimitives.dll (Windows 10 and later). Wine 8 lacks it; the test-only
# stand-in from processprng.c goes in only then.
dll=$sys32/bcryptprimitives.dll
if [ -f "$dll" ] && x86_64-w64-mingw32-objdump -p "$dll" | grep -qw ProcessPrng; then
	echo "this Wine's bcryptprimitives.dll has ProcessPrng: no stand-in needed"
else
	x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll" "$here/processprng.c"
	export WINEDLLOVERRIDES="$WINEDLLOVERRIDES;bcryptprimitives=n"
	echo "this Wine lacks ProcessPrng: added the test-only bcryptprimitives.dll (processprng.c)"
fi

# ---- Where the setup puts things -------------------------------------------
uninst='Software\Microsoft\Windows\CurrentVersion\Uninstall\AgentDesk'
declare -A prog menu desk key dir
# Per user: %LOCALAPPDATA%\Programs, the user's Start menu and desktop, HKCU.
prog[user]="$profile/AppData/Local/Programs/Agent Desk"
menu[user]="$profile/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Agent Desk.lnk"
desk[user]="$profile/Desktop/Agent Desk.lnk"
key[user]="HKCU\\$uninst"
dir[user]="C:\\users\\$user\\AppData\\Local\\Programs\\Agent Desk"
# For everyone: Program Files, the common Start menu and desktop, HKLM.
prog[all]="$WINEPREFIX/drive_c/Program Files/Agent Desk"
menu[all]="$WINEPREFIX/drive_c/ProgramData/Microsoft/Windows/Start Menu/Programs/Agent Desk.lnk"
desk[all]="$WINEPREFIX/drive_c/users/Public/Desktop/Agent Desk.lnk"
key[all]="HKLM\\$uninst"
dir[all]='C:\Program Files\Agent Desk'
# Agent Desk's data (github.com/adrg/xdg on Windows): settings, history and
# state in %LOCALAPPDATA%\agentdesk, previews in %LOCALAPPDATA%\cache\agentdesk.
data="$profile/AppData/Local/agentdesk"
cache="$profile/AppData/Local/cache/agentdesk"

# reg_query KEY: the key's values as `reg query` prints them; fails when the
# key is not there.
reg_query() { "$WINE" reg query "$1" 2>/dev/null | tr -d '\r'; }
# reg_value NAME VALUES: one value from reg_query's output.
reg_value() { sed -n "s/^ *$1 \{1,\}REG_[A-Z_]* \{1,\}//p" <<<"$2"; }

# check_installed MODE VERSION: everything the setup should have put in place.
check_installed() {
	local m=$1 ver=$2 values v
	local d=${dir[$m]} k=${key[$m]}
	cmp -s "${prog[$m]}/agentdesk.exe" "$exe" || fail "${prog[$m]}/agentdesk.exe is missing or not the program built"
	[ -f "${prog[$m]}/uninstall.exe" ] || fail "no uninstaller in ${prog[$m]}"
	[ -f "${menu[$m]}" ] || fail "no Start-menu shortcut ${menu[$m]}"
	strings -el "${menu[$m]}" | grep -iF "$d\\agentdesk.exe" >/dev/null || fail "the Start-menu shortcut does not start $d\\agentdesk.exe"
	[ -f "${desk[$m]}" ] || fail "no desktop shortcut ${desk[$m]}"
	values=$(reg_query "$k") || fail "no uninstall entry $k"
	[ "$(reg_value DisplayName "$values")" = "Agent Desk" ] || fail "$k: DisplayName is not Agent Desk"
	v=$(reg_value DisplayVersion "$values"); [ "$v" = "$ver" ] || fail "$k: DisplayVersion is $v, not $ver"
	[ "$(reg_value Publisher "$values")" = "Agent Desk authors" ] || fail "$k: Publisher is not Agent Desk authors"
	v=$(reg_value DisplayIcon "$values"); [ "$v" = "$d\\agentdesk.exe,0" ] || fail "$k: DisplayIcon is $v"
	v=$(reg_value InstallLocation "$values"); [ "$v" = "$d" ] || fail "$k: InstallLocation is $v"
	v=$(reg_value UninstallString "$values"); [[ $v == "\"$d\\uninstall.exe\""* ]] || fail "$k: UninstallString is $v"
	v=$(reg_value QuietUninstallString "$values"); [[ $v == "\"$d\\uninstall.exe\""*" /S" ]] || fail "$k: QuietUninstallString is $v"
	v=$(reg_value NoModify "$values")$(reg_value NoRepair "$values"); [ "$v" = 0x10x1 ] || fail "$k: NoModify and NoRepair are not 1"
	v=$(reg_value EstimatedSize "$values"); [ $((v)) -gt 1000 ] || fail "$k: EstimatedSize is $v"
	echo "installed: $d (agentdesk.exe, uninstall.exe), Start-menu and desktop shortcuts, $k (version $ver, EstimatedSize $((v / 1024)) MB)"
}

# check_removed MODE: the program, its shortcuts and its entry are gone.
check_removed() {
	local m=$1
	[ ! -e "${prog[$m]}" ] || fail "the uninstaller left ${prog[$m]}: $(ls -A "${prog[$m]}")"
	[ ! -e "${menu[$m]}" ] || fail "the uninstaller left the Start-menu shortcut"
	[ ! -e "${desk[$m]}" ] || fail "the uninstaller left the desktop shortcut"
	! reg_query "${key[$m]}" >/dev/null || fail "the uninstaller left ${key[$m]}"
}

# uninstall MODE [ARGS]: runs the entry's QuietUninstallString, as "Apps &
# features" and deployment tools do, and waits for the uninstaller's copy.
uninstall() {
	local values quiet uexe uargs
	values=$(reg_query "${key[$1]}") || fail "no uninstall entry ${key[$1]}"
	quiet=$(reg_value QuietUninstallString "$values")
	uexe=${quiet#\"}; uexe=${uexe%%\"*}; uargs=${quiet:${#uexe}+2}
	# shellcheck disable=SC2086 # the arguments are words
	win "$uexe" $uargs "${@:2}" || fail "$quiet ${*:2} failed"
	settle
}

# window_box: the window's geometry as WxH+X+Y.
window_box() {
	local X Y WIDTH HEIGHT
	eval "$(xdotool getwindowgeometry --shell "$1" | grep -E '^(X|Y|WIDTH|HEIGHT)=')"
	echo "${WIDTH}x${HEIGHT}+${X}+${Y}"
}
# shot FILE: the Agent Desk window as a PNG.
shot() {
	import -window root "$tmp/root.png"
	convert "$tmp/root.png" -crop "$(window_box "$wid")" +repage "$1"
}
# demo_button: where "Try the demo" is on screen (the welcome screen's one
# button in the theme's primary colour), as "X Y" of its middle; empty
# while it is not drawn.
demo_button() {
	local box w h x y
	import -window root "$tmp/root.png"
	box=$(convert "$tmp/root.png" -fuzz 8% -transparent 'srgb(41,111,246)' -alpha extract -negate -format '%@' info: 2>/dev/null) || return 0
	IFS='x+' read -r w h x y <<<"$box"
	if [ "${w:-0}" -ge 120 ] && [ "${h:-0}" -ge 20 ] && [ "$w" -lt 1000 ]; then echo "$((x + w / 2)) $((y + h / 2))"; fi
}
# settled: waits (up to 20 s) until two screenshots a second apart are the same.
settled() {
	local prev="" cur
	for _ in $(seq 20); do
		sleep 1
		import -window root "$tmp/root.png"
		cur=$(md5sum <"$tmp/root.png")
		[ "$cur" != "$prev" ] || return 0
		prev=$cur
	done
}

# ---- 1. Install for the user, silently ----------------------------------------
step "install $(basename "$setup") silently for the user (/S)"
mkdir -p "$profile/Downloads"
cp "$setup" "$profile/Downloads/"
t=$(date +%s%N)
win "$profile/Downloads/$(basename "$setup")" /S || fail "the setup failed (exit code $?)"
echo "installed in $(secs "$(ms "$t")")"
check_installed user "$version"

# ---- 2. Start it from the Start menu -------------------------------------------
step "start Agent Desk from its Start-menu shortcut"
t=$(date +%s%N)
# Wine's start opens the shortcut as Explorer would (it does not wait for
# the program); the window's _NET_WM_PID is then the program's process.
"$WINE" start /unix "${menu[user]}" >"$tmp/app.log" 2>&1 || fail "Wine could not open the Start-menu shortcut"
wid=""
for _ in $(seq 300); do
	wid=$(xdotool search --onlyvisible --name '^Agent Desk$' 2>/dev/null | head -n1 || true)
	[ -z "$wid" ] || break
	sleep 0.2
done
[ -n "$wid" ] || fail "no Agent Desk window within 60 s"
t_window=$(ms "$t")
app_pid=$(xdotool getwindowpid "$wid")
button=""
for _ in $(seq 150); do
	button=$(demo_button)
	[ -z "$button" ] || break
	sleep 0.2
done
[ -n "$button" ] || fail "the welcome screen with \"Try the demo\" did not show within 30 s of the window"
t_welcome=$(ms "$t")
shot "$out/windows-launch.png"
echo "window after $(secs "$t_window"), welcome screen drawn after $(secs "$t_welcome"): $out/windows-launch.png"

step "click \"Try the demo\""
# shellcheck disable=SC2086 # "X Y"
xdotool mousemove $button click 1
for _ in $(seq 100); do
	grep -q '"onboarded": true' "$data/settings.json" 2>/dev/null && break
	sleep 0.2
done
grep -q '"active_account": "demo"' "$data/settings.json" 2>/dev/null || fail "the click did not open the demo: no demo in $data/settings.json"
settled
shot "$out/windows-demo.png"
echo "the demo is open, its settings saved in %LOCALAPPDATA%/agentdesk: $out/windows-demo.png"
[ -f "$data/history.db" ] || fail "no history.db in $data"

# ---- 3. Update in place, while the app is open ----------------------------------------
IFS=. read -r -a parts <<<"$version"
parts[${#parts[@]}-1]=$((parts[${#parts[@]}-1] + 1))
next=$(IFS=.; echo "${parts[*]}")
step "update to $next over $version while Agent Desk is open"
# The same program in a setup with the next version (zlib: the contents are
# what counts here, and it builds in a second or two instead of lzma's 15).
makensis -V1 -X"SetCompressor /FINAL zlib" -DVERSION="$next" -DBUILD=$((build + 1)) \
	-DEXE="$exe" -DOUTFILE="$tmp/AgentDesk-$next-setup.exe" "$here/agentdesk.nsi" >"$tmp/makensis.log" 2>&1 ||
	fail "makensis failed for $next: $(cat "$tmp/makensis.log")"
t=$(date +%s%N)
win "$tmp/AgentDesk-$next-setup.exe" /S &
setup_pid=$!
# When the app ends, seen from here: by itself a moment after setup closed
# its window, or ended by setup 15 s later if it lingered.
t_gone=""
while alive "$setup_pid"; do
	[ -n "$t_gone" ] || alive "$app_pid" || t_gone=$(ms "$t")
	sleep 0.2
done
wait "$setup_pid" || fail "the $next setup failed (exit code $?)"
[ -n "$t_gone" ] || alive "$app_pid" || t_gone=$(ms "$t")
[ -n "$t_gone" ] || fail "Agent Desk still runs after the update"
app_pid=""
echo "updated in $(secs "$(ms "$t")"); setup closed the open app first (it ended $(secs "$t_gone") after setup started)"
if [ "$t_gone" -ge 15000 ]; then
	echo "note: Agent Desk did not end by itself after its window closed; setup ended it after its 15 s grace"
fi
check_installed user "$next"
if ! grep -q '"onboarded": true' "$data/settings.json" || ! grep -q '"active_account": "demo"' "$data/settings.json"; then
	fail "the settings of the first start are gone after the update"
fi
[ -f "$data/history.db" ] || fail "the history of the first start is gone after the update"
echo "the settings and history of the first start are still there"
settle

# ---- 4. Uninstall: the program goes, the data stays -------------------------------
step "uninstall silently (QuietUninstallString)"
uninstall user
check_removed user
if [ ! -f "$data/settings.json" ] || [ ! -f "$data/history.db" ]; then
	fail "the uninstaller removed the user's data without being asked"
fi
echo "program, shortcuts and entry removed; settings and history kept"

step "install again, uninstall with /REMOVEDATA"
win "$tmp/AgentDesk-$next-setup.exe" /S || fail "the $next setup failed on a second install"
check_installed user "$next"
uninstall user /REMOVEDATA
check_removed user
left=$(ls -d "$data" "$cache" "$profile/AppData/Roaming/fyne/com.agentdesk.app" 2>/dev/null || true)
[ -z "$left" ] || fail "/REMOVEDATA left data: $left"
echo "program and data removed"

# ---- 5. For everyone ----------------------------------------------------------
step "install for everyone (/S /ALLUSERS), then uninstall"
win "$setup" /S /ALLUSERS || fail "the setup failed with /ALLUSERS"
check_installed all "$version"
! reg_query "${key[user]}" >/dev/null || fail "/ALLUSERS also wrote ${key[user]}"
uninstall all
check_removed all
echo "removed for everyone"

# ---- 6. The organisation's settings, for IT -------------------------------------
# Setup writes them to %ProgramData%\Agent Desk (see agentdesk.nsi's header).
policy_dir=$WINEPREFIX/drive_c/ProgramData/Agent\ Desk
policy=$policy_dir/policy.json
# What IT hands to setup, in a folder whose name has a space.
it_dir=$WINEPREFIX/drive_c/IT\ files
mkdir -p "$it_dir"

# same_json FILE EXPECTED: FILE holds the JSON EXPECTED, no more and no less
# (jq -S: the same keys with the same values, in any order and layout), in
# UTF-8 without a byte-order mark, as Agent Desk reads it.
same_json() {
	local got want
	got=$(jq -S . "$1" 2>&1) || fail "$1 is not valid JSON ($got): $(head -c 400 "$1")"
	want=$(jq -S . <<<"$2")
	[ "$got" = "$want" ] || fail "$1 is not the JSON expected; it holds:
$(cat "$1")
expected:
$2"
	[ "$(head -c1 "$1")" = "{" ] || fail "$1 does not start with {: a byte-order mark?"
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || fail "$1 is not UTF-8"
}
# refused ARGS...: setup with ARGS ends with exit code 87 and writes nothing.
refused() {
	local rc=0
	win "$setup" "$@" || rc=$?
	settle
	[ "$rc" = 87 ] || fail "setup $* ended with exit code $rc, not 87 (refused)"
	[ ! -e "$policy_dir" ] || fail "setup $* was refused but wrote $policy_dir: $(ls -A "$policy_dir")"
	[ ! -e "${prog[all]}" ] || fail "setup $* was refused but installed ${prog[all]}"
	! reg_query "${key[all]}" >/dev/null || fail "setup $* was refused but wrote ${key[all]}"
	echo "refused (exit code 87), nothing written: $*"
}

step "the organisation's settings: refused values"
[ ! -e "$policy_dir" ] || fail "$policy_dir is there before any setup wrote it"
refused /S /ALLUSERS '/SERVICE=bad"value'
printf '{"language": {"value": "es"}}\n' >"$it_dir/policy.json"
refused /S /ALLUSERS '/POLICY=C:\IT files\policy.json' /LANGUAGE=pt-BR

step "the organisation's settings one by one (/SERVICE= /WORKSPACE= /LANGUAGE= /PROXY= /LOCK)"
t=$(date +%s%N)
win "$setup" /S /ALLUSERS /SERVICE=https://agents.acme.example/api /WORKSPACE=123 /LANGUAGE=pt-BR \
	/PROXY=http://proxy.acme.example:3128 /LOCK || fail "the setup failed with the organisation's settings (exit code $?)"
echo "installed in $(secs "$(ms "$t")")"
check_installed all "$version"
same_json "$policy" '{
  "accounts": [{"base_url": "https://agents.acme.example/api", "workspace_id": "123", "locked": true}],
  "language": {"value": "pt-BR", "locked": true},
  "proxy": {"mode": "manual", "url": "http://proxy.acme.example:3128", "locked": true}
}'
echo "%ProgramData%\\Agent Desk\\policy.json:"
sed 's/^/  /' "$policy" | tr -d '\r'

step "again, with an account name, /PAC= and /CERTIFICATE=, unlocked"
# Only copied here, never read: any text does for the certificate.
printf -- '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n' >"$it_dir/acme root ca.pem"
# Wine turns the arguments into Windows' command line with the Unix locale's
# character set: C.UTF-8 (glibc has it built in) whether or not the
# en_US.UTF-8 of LANG is installed, so São reaches setup as São.
LC_ALL=C.UTF-8 win "$setup" /S /ALLUSERS '/ACCOUNTNAME=Acme São Paulo' /SERVICE=https://agents.acme.example/api \
	/PAC=http://wpad.acme.example/proxy.pac '/CERTIFICATE=C:\IT files\acme root ca.pem' ||
	fail "the setup failed with an account name, /PAC= and /CERTIFICATE= (exit code $?)"
check_installed all "$version"
same_json "$policy" '{
  "accounts": [{"name": "Acme São Paulo", "base_url": "https://agents.acme.example/api", "locked": false}],
  "proxy": {"mode": "pac", "url": "http://wpad.acme.example/proxy.pac", "locked": false},
  "certificates": ["C:\\ProgramData\\Agent Desk\\company-ca.pem"]
}'
cmp -s "$it_dir/acme root ca.pem" "$policy_dir/company-ca.pem" || fail "/CERTIFICATE= did not copy the file to $policy_dir/company-ca.pem"
left=$(ls -A "$policy_dir")
[ "$left" = "$(printf 'company-ca.pem\npolicy.json')" ] || fail "$policy_dir holds more than policy.json and company-ca.pem: $left"
echo "policy.json replaced; the certificate copied as company-ca.pem"

step "a policy file IT wrote (/POLICY=)"
cat >"$it_dir/policy.json" <<'JSON'
{
  "accounts": [{"name": "Acme test", "base_url": "https://agents-test.acme.example/api"}],
  "requests_per_second": {"value": 2, "locked": false}
}
JSON
win "$setup" /S /ALLUSERS '/POLICY=C:\IT files\policy.json' || fail "the setup failed with /POLICY= (exit code $?)"
cmp -s "$it_dir/policy.json" "$policy" || fail "/POLICY= did not copy the file to $policy: $(cat "$policy")"
echo "policy.json is the file given, byte for byte"

step "uninstall: the organisation's settings stay"
uninstall all
check_removed all
[ -f "$policy" ] && [ -f "$policy_dir/company-ca.pem" ] || fail "the uninstaller removed the organisation's settings from $policy_dir"
echo "program removed; policy.json and company-ca.pem kept"

step "passed in $(secs "$(ms "$t_all")")"
echo "setup:          $setup ($(mb "$setup"))"
echo "agentdesk.exe:  $exe ($(mb "$exe"))"
echo "first start:    window after $(secs "$t_window"), welcome screen drawn after $(secs "$t_welcome") (Wine, Xvfb, Mesa software rendering)"
echo "screenshots:    $out/windows-launch.png $out/windows-demo.png"
