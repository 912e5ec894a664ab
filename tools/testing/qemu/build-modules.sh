#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the production and test modules (make tests) against one of the
# rig's kernels, in a copy of the source tree of its own: the object files
# of two kernels never meet, and the checkout stays free of build output.
#
# Usage: build-modules.sh BUILD_DIR VERSION
#   the modules land in BUILD_DIR/mod-VERSION/ (ete/ete.ko, trbe/trbe.ko,
#   the test modules), built against BUILD_DIR/kernel-VERSION.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: build-modules.sh BUILD_DIR VERSION}")
ver=${2:?usage: build-modules.sh BUILD_DIR VERSION}
dst=$build/mod-$ver

mkdir -p "$dst"
# Only the tracked and new source files (not build/, not other objects);
# rsync keeps the timestamps, so an unchanged file is not rebuilt.
(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/') |
	rsync -a --files-from=- "$top/" "$dst/"
make -s -C "$build/kernel-$ver" M="$dst" ARCH=arm64 \
	CROSS_COMPILE=aarch64-linux-gnu- ETE_TESTS=y -j"$(nproc)" modules
echo "modules $ver: $(find "$dst" -name '*.ko' | wc -l) modules in $dst"
