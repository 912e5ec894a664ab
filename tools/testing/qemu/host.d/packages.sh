#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages (debian/, "make deb"; Documentation/
# user-guide-install.rst, "Debian packages") as a distribution user gets
# them: built for the host's architecture by make deb into
# BUILD_DIR/deb, checked by lintian (--pedantic; any error or warning
# not overridden in debian/*.lintian-overrides fails), their contents
# checked against the tree, then installed with apt into a fresh minimal
# root of the host's own Debian release (debootstrap --variant=minbase,
# cached as BUILD_DIR/packages/base-CODENAME.tar) and purged again.
#
# In that root: apt-get install ./ete-dkms_*.deb ./ete-tools_*.deb as
# the guide says (without Recommends, for time, but with the kernel
# headers dkms recommends: linux-headers-ARCH); both packages installed,
# DKMS knows ete/VERSION (built and installed on arm64; elsewhere
# dkms.conf's BUILD_EXCLUSIVE_ARCH keeps it from building, and dkms must
# say so instead of failing the install), the group etetrace (a system
# group; the postinst may run again), the udev rule and its helper in
# udev's directory, the modprobe.d file only as an example, the manual
# pages for man -w, etecap and ete-decode of VERSION; ete-decode rejects
# a directory that is no snapshot with its documented status 2 (no
# snapshot with real trace exists before the VM runs; the post.d suites
# decode the VM's captures with ete-decode built from the same sources).
# Then apt-get purge: DKMS forgets the module, every file is gone, the
# group stays (debian/ete-tools.postrm says why).
#
# With the first rig kernel built (BUILD_DIR/kernel-VERSION, RIG_KERNELS)
# dkms also builds what ete-dkms ships in /usr/src (not the whole tree,
# which dkms.sh builds) for it, cross-compiling; without it that case is
# skipped: the suite needs no rig kernel.
#
# It needs root (debootstrap, unshare, mount, chroot; or sudo without a
# password) and the mirror the host's apt uses (read from its sources, as
# ../shared/tools/fresh-machine does).  Every long step runs under
# timeout(1), so a hang fails its case.
#
# Usage: packages.sh BUILD_DIR; prints TAP.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
version=$(cat "$top/VERSION")
work=$build/packages
debs=$build/deb
root=$work/root
times=()
t_start=$(date +%s)

# shellcheck source=../lib/tap.sh
. "$here/lib/tap.sh"

# done_run: the steps' times as a diagnostic, then finish (lib/tap.sh)
done_run() {
	diag "time: ${times[*]/%/,} total $(($(date +%s) - t_start)) s"
	finish
}

# as_root CMD...: CMD as root (sudo -n when not root); "${sudo[@]}" is
# the same prefix for what runs under timeout(1)
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo -n)
as_root() {
	"${sudo[@]}" "$@"
}

# in_root CMD...: CMD in the chroot, with a clean environment and the
# host's /proc, /sys, /dev and /dev/pts bound in, as fresh-machine binds
# them, but in a mount namespace of the command's own (unshare -m): the
# mounts end with the command, however it ends (even killed), and are
# never seen outside it.  Where this suite itself runs in a chroot (as in
# fresh-machine), / is no mount point and its propagation cannot be made
# private (unshare: "cannot change root filesystem propagation"): there
# the namespace keeps the propagation it has, and the command's mounts
# are undone when it ends.  "${chroot[@]}" is the same prefix for what
# runs under timeout(1).
propagation=private
"${sudo[@]}" unshare --mount --propagation private true 2>/dev/null ||
	propagation=unchanged
chroot=("${sudo[@]}" unshare --mount --propagation "$propagation" sh -c '
	for m in proc sys dev dev/pts; do
		mount --bind "/$m" "$0/$m" || exit 125
	done
	chroot "$0" /usr/bin/env -i LC_ALL=C.UTF-8 HOME=/root \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive "$@"
	rc=$?
	for m in dev/pts dev sys proc; do
		umount -l "$0/$m"
	done
	exit $rc' "$root")
in_root() {
	"${chroot[@]}" "$@"
}

# mounts_in DIR: the mounts below DIR seen here (left by an older version
# of this script that bound them for the whole run, and was killed)
mounts_in() {
	awk -v r="$1/" 'index($2 "/", r) == 1 {print $2}' /proc/mounts | sort -r
}

# --- the tree -------------------------------------------------------------

changelog=$(cd "$top" && dpkg-parsechangelog -S Version 2>&1)
[ "${changelog%-*}" = "$version" ] && [ "$changelog" != "${changelog%-*}" ]
tap $? "debian/changelog: $changelog is VERSION ($version) with a Debian revision" \
	"debian/rules refuses to build while they differ: add a changelog entry $version-1"

missing=
for t in dpkg-buildpackage dpkg-checkbuilddeps dh dh_dkms lintian debootstrap \
	timeout chroot unshare mount readelf git; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
[ -z "$missing" ]
tap $? "the tools are installed (debhelper, dh-dkms, lintian, debootstrap: host-packages.txt)" \
	"missing:$missing"
[ -z "$missing" ] || done_run
log=$(cd "$top" && dpkg-checkbuilddeps 2>&1)
tap $? "debian/control's build dependencies are installed" "$log"
as_root true 2>/dev/null
rc=$?
tap $rc "root, or sudo without a password (debootstrap, chroot)"
[ $rc = 0 ] || done_run

# --- build ----------------------------------------------------------------

arch=$(dpkg --print-architecture)
full=${changelog#*:}
dkms_deb=$debs/ete-dkms_${full}_all.deb
tools_deb=$debs/ete-tools_${full}_$arch.deb
changes=$debs/ete_${full}_$arch.changes
t0=$(date +%s)
log=$(timeout -k 30 1800 make -C "$top" BUILD="$build" deb 2>&1)
rc=$?
times+=("make deb $(($(date +%s) - t0)) s")
[ $rc = 0 ] && [ -f "$dkms_deb" ] && [ -f "$tools_deb" ] && [ -f "$changes" ]
tap $? "make deb: ${dkms_deb##*/}, ${tools_deb##*/}, ${changes##*/} in ${debs#"$top"/}" \
	"exit $rc"$'\n'"$log"
[ -f "$dkms_deb" ] && [ -f "$tools_deb" ] || done_run

# lintian: errors and warnings fail, unless debian/*.lintian-overrides
# overrides them (each with its reason); info and pedantic tags are shown
# (counted here: lintian 2.116 exits 2 for --fail-on with --show-overrides)
t0=$(date +%s)
log=$(timeout -k 30 900 lintian --pedantic --display-info --display-experimental \
	--show-overrides --fail-on none "$changes" 2>&1)
rc=$?
count() { grep -c "^$1: " <<<"$log"; }
summary="$(count E) errors, $(count W) warnings, $(count I) info, $(count P) pedantic, $(count X) experimental, $(count O) overridden"
[ $rc = 0 ] && [ "$(count E)" = 0 ] && [ "$(count W)" = 0 ]
tap $? "lintian --pedantic on the .changes and its .debs: no error or warning left" \
	"exit $rc"$'\n'"$(grep -v 'root privileges' <<<"$log")"
diag "lintian: $summary"
while IFS= read -r l; do diag "lintian: $l"; done < <(grep '^[IPXO]: ' <<<"$log")
times+=("lintian $(($(date +%s) - t0)) s")

# ete-dkms: the modules' sources only
src=/usr/src/ete-$version
got=$(dpkg-deb -c "$dkms_deb" | awk '$1 !~ /^d/ {sub(/^\./, "", $6); print $6}' |
	grep -v '^/usr/share/doc/ete-dkms/\|^/usr/share/lintian/overrides/ete-dkms$' | sort)
want=$( (cd "$top" && git ls-files ete trbe include | grep -v '/tests/\|/layers$';
	printf '%s\n' Kbuild Makefile VERSION dkms.conf) | sed "s|^|$src/|" | sort)
diff=$(diff <(echo "$want") <(echo "$got"))
[ -z "$diff" ]
tap $? "ete-dkms: $src holds the modules' sources (ete/, trbe/ without tests/, include/, Kbuild, Makefile, VERSION, dkms.conf) and nothing else ($(wc -l <<<"$got") files)" \
	"$diff"
x=$work/extract
rm -rf "$x"
mkdir -p "$x/dkms" "$x/tools"
dpkg-deb -x "$dkms_deb" "$x/dkms" && dpkg-deb -x "$tools_deb" "$x/tools"
cmp -s "$top/dkms.conf" "$x/dkms$src/dkms.conf" &&
	[ "$(dpkg-deb -f "$dkms_deb" Architecture)" = all ]
tap $? "ete-dkms: Architecture all, dkms.conf as the tree's"
deps=$(dpkg-deb -f "$dkms_deb" Depends)
grep -q '\bdkms\b' <<<"$deps"
tap $? "ete-dkms depends on dkms (dh_dkms): $deps"

# ete-tools: the programs for this architecture, dynamically linked
machine() { readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
bad=
for p in etecap ete-decode; do
	f=$x/tools/usr/bin/$p
	[ -x "$f" ] && [ "$(machine "$f")" = "$(machine /bin/sh)" ] &&
		readelf -l "$f" | grep -q 'Requesting program interpreter' ||
		bad="$bad $p: $(machine "$f") $(readelf -l "$f" 2>/dev/null | grep -c INTERP) INTERP"
done
[ -z "$bad" ]
tap $? "ete-tools: etecap and ete-decode built for $arch ($(machine /bin/sh)), dynamically linked" "$bad"
deps=$(dpkg-deb -f "$tools_deb" Depends)
grep -q 'libopencsd' <<<"$deps" && grep -q 'adduser' <<<"$deps"
tap $? "ete-tools depends on libopencsd and adduser: $deps"

# --- a fresh root of the host's release -----------------------------------

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
mirror=$({ grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
	/etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
	awk 'NR == 1 {print $2}')
[ -n "$codename" ] && [ -n "$mirror" ]
tap $? "the host's release (${codename:-none}) and its Debian mirror (from /etc/apt)" \
	"/etc/os-release has no VERSION_CODENAME, or /etc/apt names no Debian mirror"
[ -n "$codename" ] && [ -n "$mirror" ] || done_run

t0=$(date +%s)
base=$work/base-$codename.tar
if [ ! -f "$base" ]; then
	tmp=$work/base.new
	as_root rm -rf --one-file-system "$tmp"
	mkdir -p "$work"
	log=$(timeout -k 30 1800 "${sudo[@]}" debootstrap --variant=minbase \
		--include=man-db "$codename" "$tmp" "$mirror" 2>&1) &&
		as_root tar -C "$tmp" -cf "$base.new" . && mv "$base.new" "$base"
	tap $? "debootstrap --variant=minbase $codename (made once, kept as ${base#"$build"/})" "$log"
	as_root rm -rf --one-file-system "$tmp" "$base.new"
	[ -f "$base" ] || done_run
	times+=("debootstrap $(($(date +%s) - t0)) s")
fi

t0=$(date +%s)
while read -r m; do
	as_root umount -l "$m"
done < <(mounts_in "$root")
as_root rm -rf --one-file-system "$root"
mkdir -p "$root"
as_root tar -C "$root" -xf "$base"
as_root cp /etc/resolv.conf "$root/etc/resolv.conf"
# no service starts in the chroot
printf '#!/bin/sh\nexit 101\n' | as_root tee "$root/usr/sbin/policy-rc.d" >/dev/null
as_root chmod 755 "$root/usr/sbin/policy-rc.d"
for m in proc sys dev dev/pts; do
	as_root mkdir -p "$root/$m"
done
times+=("new root $(($(date +%s) - t0)) s")
# A root thrown away after the test: dpkg need not sync each file
unsafe=-oDPkg::Options::=--force-unsafe-io
# The packages apt downloaded last time (hard links, same file system)
cache=$work/apt-archives
mkdir -p "$cache"
as_root cp -al "$cache/." "$root/var/cache/apt/archives/" 2>/dev/null
as_root mkdir -p "$root/tmp/debs"
as_root cp "$dkms_deb" "$tools_deb" "$root/tmp/debs/"
as_root chmod -R a+rX "$root/tmp/debs"

t0=$(date +%s)
log=$(timeout -k 30 600 "${chroot[@]}" apt-get update 2>&1)
tap $? "apt-get update in the new root" "$log"
# Recommends left out to keep the suite quick (they bring a desktop's
# worth of libraries); the one that matters, the kernel headers dkms
# recommends, named instead, so that the postinst has a kernel to build for
headers=linux-headers-$arch
log=$(timeout -k 30 1800 "${chroot[@]}" sh -c \
	"cd /tmp/debs && apt-get install -y --no-install-recommends $unsafe \
		./${dkms_deb##*/} ./${tools_deb##*/} $headers" 2>&1)
rc=$?
times+=("apt-get update, install $(($(date +%s) - t0)) s")
echo "$log" >"$work/apt-install.log"
tap $rc "apt-get install ./${dkms_deb##*/} ./${tools_deb##*/} $headers" "$log"
as_root find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
	-exec cp -al -t "$cache/" {} + 2>/dev/null

for p in ete-dkms ete-tools; do
	st=$(in_root dpkg-query -W -f='${Status} ${Version}' "$p" 2>&1)
	[ "$st" = "install ok installed $full" ]
	tap $? "dpkg: $p $st"
done

# DKMS: ete/VERSION registered; built for each kernel of the root on
# arm64, refused by BUILD_EXCLUSIVE_ARCH elsewhere
st=$(in_root dkms status 2>&1)
grep -q "^ete/$version\b" <<<"$st"
tap $? "dkms status lists ete/$version: $(grep "^ete/" <<<"$st" | tr '\n' ' ')" "$st"
krels=$(in_root ls /lib/modules 2>/dev/null)
if [ "$(uname -m)" = aarch64 ]; then
	bad=
	for k in $krels; do
		grep -q "^ete/$version, $k, .*: installed" <<<"$st" || bad="$bad $k"
	done
	[ -n "$krels" ] && [ -z "$bad" ]
	tap $? "dkms built and installed ete for each kernel of the root: $krels" "$st"
else
	k=${krels%%$'\n'*}
	k=${k:-$(uname -r)}
	blog=$(in_root dkms build -m ete -v "$version" -k "$k" 2>&1)
	rc=$?
	[ $rc = 77 ] && grep -q BUILD_EXCLUSIVE <<<"$blog" && ! grep -q 'installed' <<<"$st"
	tap $? "dkms build for $k ($(uname -m)) is refused by BUILD_EXCLUSIVE_ARCH (status 77), nothing installed" \
		"exit $rc: $blog"$'\n'"$st"
	grep -q BUILD_EXCLUSIVE "$work/apt-install.log" && ! grep -qi 'error processing' "$work/apt-install.log"
	tap $? "the install said so (BUILD_EXCLUSIVE) for the root's kernels (${krels:-none}) and went on" \
		"$(grep -i 'dkms\|exclusive\|building\|error' "$work/apt-install.log")"
fi

# The group: a system group, made once
grp=$(in_root getent group etetrace)
gid=$(cut -d: -f3 <<<"$grp")
[ -n "$gid" ] && [ "$gid" -lt 1000 ]
tap $? "group etetrace created, a system group (${grp:-none})"
log=$(in_root /var/lib/dpkg/info/ete-tools.postinst configure "$full" 2>&1)
rc=$?
[ $rc = 0 ] && [ "$(in_root getent group etetrace)" = "$grp" ]
tap $? "ete-tools.postinst configure again: exit 0, the group unchanged" "exit $rc: $log"

# The udev rule where udev reads rules shipped by packages, the helper
# it runs beside it (udev looks for RUN programs in its own directory)
files=$(in_root dpkg -L ete-tools)
rules=$(grep '/rules\.d/60-ete-trbe\.rules$' <<<"$files")
udevdir=${rules%/rules.d/*}
case $udevdir in
/lib/udev | /usr/lib/udev) true ;;
*) false ;;
esac && cmp -s "$top/packaging/udev/60-ete-trbe.rules" "$root$rules"
tap $? "udev rule ${rules:-missing} (udev's rules directory), as packaging/udev has it"
[ -n "$udevdir" ] && [ -x "$root$udevdir/ete-setperms" ] &&
	cmp -s "$top/packaging/ete-setperms" "$root$udevdir/ete-setperms"
tap $? "its helper ${udevdir:-?}/ete-setperms, executable"
active=$(grep 'modprobe\.d/' <<<"$files")
example=$(grep '/usr/share/doc/ete-tools/examples/ete-blacklist-coresight\.conf' <<<"$files")
[ -z "$active" ] && [ -n "$example" ]
tap $? "the modprobe.d blacklist only as an example (${example:-missing})" "active: $active"

mans=$(in_root man -w etecap ete-decode 4 trbe 2>&1)
[ "$(grep -c '^/usr/share/man/man[14]/.*\.[14]\.gz$' <<<"$mans")" = 3 ]
tap $? "man -w finds etecap(1), ete-decode(1), trbe(4): $(echo $mans)" "$mans"

# The programs
out=$(in_root etecap --version 2>&1)
[ "$out" = "etecap $version" ]
tap $? "etecap --version: $out"
out=$(in_root ete-decode --version 2>&1)
[ "$out" = "ete-decode $version" ]
tap $? "ete-decode --version: $out"
out=$(in_root ete-decode --help 2>&1)
rc=$?
[ $rc = 0 ] && grep -q -- '--to-perf' <<<"$out"
tap $? "ete-decode --help: exit 0, the options" "exit $rc: $out"
as_root mkdir -p "$root/tmp/nosnap"
out=$(in_root ete-decode /tmp/nosnap 2>&1)
rc=$?
# (ete-decode reads any OpenCSD snapshot: snapshot.ini first)
want="ete-decode: /tmp/nosnap/snapshot.ini: No such file or directory"
[ $rc = 2 ] && [ "$out" = "$want" ]
tap $? "ete-decode on a directory that is no snapshot: exit 2, \"$out\" (ete-decode(1), EXIT STATUS)" \
	"exit $rc, wanted 2 and \"$want\""

# --- purge -------------------------------------------------------------------

t0=$(date +%s)
log=$(timeout -k 30 900 "${chroot[@]}" apt-get purge -y $unsafe ete-dkms ete-tools 2>&1)
times+=("apt-get purge $(($(date +%s) - t0)) s")
tap $? "apt-get purge ete-dkms ete-tools" "$log"
for p in ete-dkms ete-tools; do
	st=$(in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ -z "$st" ] || [ "$st" = "unknown ok not-installed" ] || [ "$st" = "purge ok not-installed" ]
	tap $? "dpkg: $p purged (${st:-unknown})"
done
st=$(in_root dkms status 2>&1)
! grep -q '^ete/' <<<"$st" && [ ! -e "$root/var/lib/dkms/ete" ] && [ ! -e "$root$src" ]
tap $? "dkms forgets ete: not in dkms status, no /var/lib/dkms/ete, no $src" "$st"
left=
while IFS= read -r f; do
	[ -z "$f" ] && continue
	[ -d "$root$f" ] && continue	# directories other packages share
	[ -e "$root$f" ] || [ -L "$root$f" ] && left="$left$f"$'\n'
done <<<"$files"$'\n'"$(dpkg-deb -c "$dkms_deb" | awk '{sub(/^\./, "", $6); print $6}')"
[ -z "$left" ]
tap $? "no file of either package is left" "$left"
[ "$(in_root getent group etetrace)" = "$grp" ]
tap $? "the group etetrace stays after the purge (debian/ete-tools.postrm)"

# --- the shipped source builds with DKMS ---------------------------------

t0=$(date +%s)
k=${kernels%% *}
kdir=$build/kernel-$k
if [ -f "$kdir/Module.symvers" ]; then
	d=$work/dkms
	rm -rf "$d"
	mkdir -p "$d/tree" "$d/lib/modules" "$d/bin"
	# cross-compiling: dkms strips with arm64's strip; no signing key
	[ "$(uname -m)" = aarch64 ] ||
		ln -sf "$(command -v aarch64-linux-gnu-strip)" "$d/bin/strip"
	trees=(--dkmstree "$d/tree" --sourcetree "$x/dkms/usr/src" --installtree "$d/lib/modules")
	krel=$(make -s -C "$kdir" kernelrelease 2>/dev/null)
	log=$(PATH="$d/bin:$PATH" sign_file=/nonexistent mok_signing_key=$d/mok.key \
		mok_certificate=$d/mok.pub timeout -k 30 900 \
		dkms build -m ete -v "$version" -k "$krel/aarch64" --kernelsourcedir "$kdir" \
		"${trees[@]}" 2>&1)
	rc=$?
	mod=$d/tree/ete/$version/$krel/aarch64/module
	[ $rc = 0 ] && [ -f "$mod/ete.ko" ] && [ -f "$mod/trbe.ko" ] &&
		! grep -q 'bad exit status' <<<"$log"
	tap $? "dkms builds ete-dkms's $src for the rig's $k kernel ($krel/aarch64): ete.ko, trbe.ko, a clean that works" \
		"exit $rc: $log"$'\n'"$(cat "$d/tree/ete/$version/build/make.log" 2>/dev/null | tail -15)"
	dkms remove -m ete -v "$version" --all "${trees[@]}" >/dev/null 2>&1
	rm -rf "$d"
	times+=("dkms build $(($(date +%s) - t0)) s")
else
	skip "dkms builds ete-dkms's $src for the rig's $k kernel" "no rig kernel ($kdir)"
fi

# --- done: remove the root ------------------------------------------------------

held=$(mounts_in "$root")
[ -z "$held" ]
tap $? "no mount of the root is left outside its commands" "$held"
[ -z "$held" ] && as_root rm -rf --one-file-system "$root"
done_run
