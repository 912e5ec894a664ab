#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# etecap's pure parts built for the host and run there (no VM needed):
# tools/ete/tests/etecap_host_test.c, the command line, the memory set,
# the gap records at file offsets and --perf-data's perf.data writer; and
# ete-decode --compare (the rig's host tool, BUILD_DIR/host-tools) on
# crafted snapshots.
#
# Usage: etecap_host.sh BUILD_DIR [RUN...]; prints TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR [RUN...]}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
src=$top/tools/ete
out=$build/host/etecap_host_test

# kselftest_harness.h from the first kernel source the rig unpacked
ksft=$(ls -d "$build"/linux-source-*/tools/testing/selftests 2>/dev/null | head -n 1)
if ! gcc -O1 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE \
	-I"$ksft" -I"$top/include/uapi" \
	-o "$out" "$src/tests/etecap_host_test.c" "$src/etecap-opts.c" \
	"$src/etecap-presets.c" \
	"$src/etecap-cpus.c" "$src/etecap-mem.c" "$src/etecap-maps.c" \
	"$src/etecap-elf.c" \
	"$src/etecap-gaps.c" "$src/etecap-write.c" \
	"$src/snapshot.c" "$src/perfdata.c" "$src/perfdata-read.c" \
	"$src/perfdata-mem.c" "$src/perfdata-elf.c" "$src/perfdata-dwarf.c" \
	"$src/perfdata-buf.c" -pthread \
	2>"$out.log"; then
	. "$here/../lib/tap.sh"
	tap 1 "etecap_host_test builds" "$(cat "$out.log")"
	finish
fi
ETE_DECODE=$build/host-tools/ete-decode exec "$out"
