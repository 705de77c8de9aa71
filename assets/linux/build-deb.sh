#!/bin/bash
# Builds the Debian package of Agent Desk around a program already built
# (assets/linux/package.mk builds it: PIE, release tags, stripped).
#
#   build-deb.sh BINARY VERSION OUT.deb
#
# What goes in: the program as /usr/bin/agentdesk, the menu entry, the icon
# in every hicolor size, the AppStream metadata, the manual page, the
# copyright file (Agent Desk's, then every Go module compiled into the
# program, read from the Go module cache), the changelog and SECURITY.md.
# Depends is what dpkg-shlibdeps finds the program linked against, plus the
# X libraries GLFW opens at run time (dlopen, invisible to dpkg-shlibdeps).
#
# Environment:
#   DEB_MAINTAINER     Maintainer field (package.mk sets it)
#   DEB_ZLEVEL         xz level for dpkg-deb, 0-9 (default 6)
#   GO                 the go command, to list the modules compiled in
#   SOURCE_DATE_EPOCH  date of the changelog entry and of every file in the
#                      package (default: the last commit's, for builds that
#                      come out the same byte for byte)
set -euo pipefail
# C.UTF-8: every Debian has it (dpkg's perl tools warn about a LANG whose
# locale is not generated), and sort and date give the same on every machine.
export LC_ALL=C.UTF-8
bin=$1 version=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
deb=$here/deb
GO=${GO:-go}
maintainer=${DEB_MAINTAINER:-Agent Desk authors <dev@agentdesk.invalid>}
zlevel=${DEB_ZLEVEL:-6}

die() { echo "build-deb: $*" >&2; exit 1; }
[ -x "$bin" ] || die "no program at $bin"
# dpkg compares versions: a Debian version has no dash when the package is
# made by upstream (a "native" package), and must start with a digit.
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "version '$version' is not a Debian version without revision (digits, letters, . + ~)"
for tool in dpkg-deb dpkg-shlibdeps desktop-file-validate objcopy; do
	command -v $tool >/dev/null || die "$tool is missing (Debian packages dpkg-dev, desktop-file-utils, binutils)"
done
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
doc=$root/usr/share/doc/agentdesk
umask 022
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/applications" "$root/usr/share/metainfo" \
	"$root/usr/share/man/man1" "$root/usr/share/icons" "$doc"

# The program, the menu entry (Exec=agentdesk: /usr/bin is on the PATH),
# the icons and the AppStream metadata.
install -m 0755 "$bin" "$root/usr/bin/agentdesk"
# As dh_strip does: the C compiler's version notes are of no use at run time.
objcopy --remove-section=.comment "$root/usr/bin/agentdesk"
install -m 0644 "$here/com.agentdesk.app.desktop" "$root/usr/share/applications/"
desktop-file-validate "$root/usr/share/applications/com.agentdesk.app.desktop"
cp -r "$here/icons/hicolor" "$root/usr/share/icons/"
install -m 0644 "$here/com.agentdesk.app.metainfo.xml" "$root/usr/share/metainfo/"
if command -v appstreamcli >/dev/null; then
	appstreamcli validate --no-net --no-color "$root/usr/share/metainfo/com.agentdesk.app.metainfo.xml" >"$tmp/as.log" 2>&1 ||
		{ cat "$tmp/as.log" >&2; die "the AppStream metadata does not validate"; }
else
	echo "build-deb: appstreamcli is not installed, the AppStream metadata was not validated (Debian package appstream)" >&2
fi
# (Only for release numbers: not for the check's VERSION+check.)
[[ ! $version =~ ^[0-9.]+$ ]] || grep -q "<release version=\"$version\"" "$here/com.agentdesk.app.metainfo.xml" ||
	echo "build-deb: note: com.agentdesk.app.metainfo.xml has no <release version=\"$version\">; add one when releasing" >&2

# The manual page, compressed without a name or a time stamp inside (-n),
# so two builds give the same file.
sed "s/@VERSION@/$version/g" "$deb/agentdesk.1" | gzip -9n >"$root/usr/share/man/man1/agentdesk.1.gz"

# /usr/share/doc/agentdesk: SECURITY.md (named by the manual page; under
# 4 kB, so it stays uncompressed), the changelog and the copyright file.
install -m 0644 "$top/SECURITY.md" "$doc/SECURITY.md"
{
	printf 'agentdesk (%s) unstable; urgency=medium\n\n' "$version"
	printf '  * Agent Desk %s, packaged by its authors. What changed is in the\n' "$version"
	printf '    project'\''s history: https://github.com/agentdesk/agentdesk/commits\n\n'
	printf ' -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"

# The copyright file: Agent Desk's own paragraphs, then one paragraph per
# folder of each Go module compiled into the program (and the Go standard
# library) that holds a licence or notice file, with the file's text. The
# licence is named by its SPDX identifier when its text says which; texts
# Debian ships in /usr/share/common-licenses are referred to there.
license_name() { # FILE: the licence's short name, from its text
	local t
	t=$(tr -s '[:space:]' ' ' <"$1")
	shopt -s nocasematch
	case $t in
	*"Apache License"*"Version 2.0"*) echo Apache-2.0 ;;
	*"Mozilla Public License"*"2.0"*) echo MPL-2.0 ;;
	*[Oo][Pp][Ee][Nn]" "[Ff][Oo][Nn][Tt]" "[Ll][Ii][Cc][Ee][Nn][Ss][Ee]*"1.1"*) echo OFL-1.1 ;;
	*"Permission is hereby granted, free of charge"*) echo Expat ;;
	*"Redistribution and use"*"Neither the name"* | *"Redistribution and use"*"endorse or promote"*) echo BSD-3-Clause ;;
	*"Redistribution and use"*) echo BSD-2-Clause ;;
	*"Permission to use, copy, modify, and/or distribute"* | *"Permission to use, copy, modify, and distribute this software for any purpose"*) echo ISC ;;
	*"provided 'as-is'"*"altered source versions"*) echo Zlib ;;
	*"SQLite Is Public Domain"*) echo public-domain ;;
	*"Additional IP Rights Grant (Patents)"*) echo LicenseRef-Go-patents ;;
	*"dedicated to the public domain"* | *"disclaims copyright"*) echo public-domain ;;
	*) echo LicenseRef-see-text ;;
	esac
}
indent() { # FILE: the text as a DEP-5 field continuation
	# shellcheck disable=SC1003 # sed's "append a newline if missing"
	sed -e '$a\' "$1" | sed -e 's/[[:space:]]*$//' | cat -s | sed -e 's/^$/./' -e 's/^/ /'
}
copyright_of() { # FILES...: the copyright lines in them, or nothing
	# A line that starts with "Copyright" (or "(c)", "©") and a year.
	grep -hiE '^[[:space:]#*]*(copyright|\(c\)|©)[[:space:]]*(\(c\)|©)?[[:space:]]*(by[[:space:]]+)?[0-9]{4}' "$@" 2>/dev/null |
		sed -E -e 's/^[[:space:]#*]*//' -e 's/^(copyright|\(c\)|©)[[:space:]]*(\(c\)|©)?[[:space:]]*//I' -e 's/[[:space:]]*$//' |
		grep -v '^$' | awk '!seen[$0]++' | head -n 12 || true
}
module_paragraphs() { # DIR NAME VERSION: the paragraphs of one module
	local dir=$1 name=$2 ver=$3 sub files f main lic holders rest
	# Licence files outside commands, tests and examples (not compiled in).
	# Of the Go tree, only its own notices: the modules vendored into the
	# standard library (src/vendor) are the Go authors' under the same terms.
	local depth=()
	[ "$name" != std ] || depth=(-maxdepth 1)
	(cd "$dir" && find . "${depth[@]}" \( -name testdata -o -name cmd -o -name examples -o -name _examples -o -name 'example*' \) -prune -o \
		-type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' -o -iname 'patents*' \) -print) |
		sed 's|^\./||' | sort >"$tmp/lic"
	[ -s "$tmp/lic" ] || die "$name $ver has no licence file in $dir: cannot write the copyright file"
	for sub in $(xargs -n1 dirname <"$tmp/lic" | sort -u); do
		mapfile -t files < <(awk -v d="$sub" '{ n = split($0, p, "/"); dd = (n == 1) ? "." : substr($0, 1, length($0) - length(p[n]) - 1); if (dd == d) print }' "$tmp/lic")
		# The main text is LICENSE (COPYING...) when there is one.
		main=$(printf '%s\n' "${files[@]}" | grep -iE '(^|/)(licen[cs]e|copying)(\.md|\.txt)?$' | head -n1 || true)
		[ -n "$main" ] || main=${files[0]}
		mapfile -t rest < <(printf '%s\n' "${files[@]}" | grep -vxF "$main" || true)
		lic=$(license_name "$dir/$main")
		holders=$(cd "$dir" && copyright_of "${files[@]}")
		[ -n "$holders" ] || holders="the authors of $name"
		echo
		if [ "$sub" = . ]; then echo "Files: vendor/$name/*"; else echo "Files: vendor/$name/$sub/*"; fi
		echo "Copyright: $(printf '%s\n' "$holders" | sed '2,$s/^/ /')"
		echo "License: $lic"
		for f in "$main" "${rest[@]}"; do
			[ "$f" = "$main" ] || printf ' .\n ---- %s ----\n .\n' "$(basename "$f")"
			case $(license_name "$dir/$f") in
			Apache-2.0 | MPL-2.0)
				printf ' On Debian systems, the complete text of the %s licence is in\n /usr/share/common-licenses/%s.\n' \
					"$(license_name "$dir/$f")" "$(license_name "$dir/$f")" ;;
			*) indent "$dir/$f" ;;
			esac
		done
		echo "Comment: from $name $ver, compiled into /usr/bin/agentdesk"
	done
}
{
	cat "$deb/copyright"
	goroot=$("$GO" env GOROOT)
	module_paragraphs "$goroot" std "$("$GO" env GOVERSION)" |
		sed -e 's|^Files: vendor/std/\*|Files: vendor/go/*|' -e 's|^Comment: from std |Comment: the Go standard library and runtime, |'
	modcache=$("$GO" env GOMODCACHE)
	"$GO" version -m "$bin" | awk '$1 == "dep" { print $2, $3 } $1 == "=>" { print "replaced" }' | while read -r name ver; do
		[ "$name" != replaced ] || die "a replaced module: the copyright file cannot name it"
		# The module cache spells capitals as !lower-case.
		esc=$(printf '%s@%s' "$name" "$ver" | sed 's/[A-Z]/!\L&/g')
		[ -d "$modcache/$esc" ] || die "$name $ver is not in the module cache ($modcache): run go mod download"
		module_paragraphs "$modcache/$esc" "$name" "$ver"
	done
} >"$doc/copyright"
grep -q '^Files: vendor/' "$doc/copyright" || die "no Go module found in $bin (built with -buildvcs and module info?)"

# Lintian overrides, each with its reason.
if [ -s "$deb/lintian-overrides" ]; then
	install -D -m 0644 "$deb/lintian-overrides" "$root/usr/share/lintian/overrides/agentdesk"
fi

# The control file. dpkg-shlibdeps reads only what the program is linked
# against (libc, libGL, libX11); GLFW opens the X extension libraries it
# uses itself (dlopen), so they are named here.
mkdir -p "$tmp/debian"
printf 'Source: agentdesk\n\nPackage: agentdesk\nArchitecture: amd64\n' >"$tmp/debian/control"
shlibs=$(cd "$tmp" && dpkg-shlibdeps -O -e root/usr/bin/agentdesk 2>"$tmp/shlibdeps.log") ||
	{ cat "$tmp/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
depends=$(printf '%s\n' "${shlibs#shlibs:Depends=}" | sed 's/, /\n/g'
	printf '%s\n' libx11-6 libxcursor1 libxrandr2 libxinerama1 libxi6 libxxf86vm1)
depends=$(printf '%s\n' "$depends" | awk '{ n = $1 } !seen[n]++' | paste -sd, - | sed 's/,/, /g')
homepage=$(sed -n 's/^[[:space:]]*Website[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' "$top/FyneApp.toml")
[ -n "$homepage" ] || die "FyneApp.toml names no Website"
size=$(du -sk --apparent-size "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$size|" \
	-e "s|@DEPENDS@|$depends|" -e "s|@HOMEPAGE@|$homepage|" "$deb/control" >"$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# Every file readable by all, only the program executable; owner root
# (--root-owner-group), times clamped to SOURCE_DATE_EPOCH by dpkg-deb.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f ! -path "$root/usr/bin/agentdesk" -exec chmod 0644 {} +
mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group -Zxz "-z$zlevel" --build "$root" "$out" >/dev/null
echo "Debian package: $out ($(du -h "$out" | cut -f1); Depends: $depends)"
