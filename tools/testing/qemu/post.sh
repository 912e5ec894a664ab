#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One post suite (post.d/SUITE.sh), or all of them, again on the runs the
# last make check left in BUILD_DIR/runs/KERNEL/ (el1, el2, acpi), without
# building or booting anything: for working on a suite or on what it
# checks (make post SUITE=e2e_decode KERNEL=6.12; Documentation/
# testing.rst).  Each suite runs as check.sh runs it, under the same budget
# (RIG_SUITE_TIMEOUT, default 1200 s); its TAP goes to
# BUILD_DIR/post/SUITE-KERNEL.tap and rig_results.py judges it.
#
# Usage: post.sh BUILD_DIR [SUITE [KERNEL]]
#   SUITE   a post.d/ script's name; all of them if empty
#   KERNEL  whose runs to read; by default the kernel of the newest run
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR [SUITE [KERNEL]]}")
suite=${2:-}
k=${3:-}

if [ -z "$k" ]; then
	k=$(ls -td "$build"/runs/*/*/ 2>/dev/null | head -n1)
	k=${k%/*/}
	k=${k##*/}
fi
if [ -z "$k" ] || [ ! -d "$build/runs/$k" ]; then
	echo "post: no runs of kernel '${k:-any}' in $build/runs (make check leaves them)" >&2
	exit 2
fi
runs=()
for r in el1 el2 acpi; do
	[ -d "$build/runs/$k/$r" ] && runs+=("$k/$r")
done
if [ -n "$suite" ]; then
	scripts=("$here/post.d/$suite.sh")
	if [ ! -f "${scripts[0]}" ]; then
		echo "post: no post suite $suite; there are: $(cd "$here/post.d" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')" >&2
		exit 2
	fi
else
	scripts=("$here"/post.d/*.sh)
fi

mkdir -p "$build/post"
args=()
budget=${RIG_SUITE_TIMEOUT:-1200}
for script in "${scripts[@]}"; do
	name=$(basename "$script" .sh)
	tap=$build/post/$name-$k.tap
	echo "post: $name on ${runs[*]}" >&2
	rm -f "$tap.timeout"
	timeout -k 30 "$budget" "$script" "$build" "${runs[@]}" >"$tap" 2>&1
	rc=$?
	echo $rc >"$tap.rc"
	[ $rc = 124 ] && echo "$budget" >"$tap.timeout"
	args+=(--host "$name $k=$tap")
done
python3 "$here/rig_results.py" "${args[@]}"
