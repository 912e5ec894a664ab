#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A capture through /dev/trbe0 in whichever boot this is (its firmware's
# units), saved to /out/fw_capture for post.d/fw_capture_decode.sh; fails
# on etecap's failure, an empty trace or a model violation.
for v in /sys/kernel/debug/ete_model/cpu*/violations; do
	echo >"$v"
done
etecap -q -c 0 -t 200 --no-kernel -o /out/fw_capture
rc=$?
v=$(grep . /sys/kernel/debug/ete_model/cpu*/violations)
echo "etecap exit $rc; violations: ${v:-none}"
test $rc = 0 && test -s /out/fw_capture/trace_cpu0.bin && test -z "$v"
