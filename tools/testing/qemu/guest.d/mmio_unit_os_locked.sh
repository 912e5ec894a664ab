#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: another agent holds the PE OS Lock: the
# enable is refused (EBUSY, said in status) before any access to the
# external view, and so are reads of the trace registers in mgmt/ (the
# management registers from 0xF00 still answer).
s=/sys/kernel/debug/ete_test_sink
d=/sys/class/ete/ete3
m=/sys/kernel/debug/ete_model/cpu3
echo 0 >$m/violations && echo 8 >$s/present && echo 1 >$m/oslock || exit 1
r=1
if echo 1 >$d/enable 2>/tmp/os.err; then
	echo 'enabled with the OS Lock locked'
	echo 0 >$d/enable
else
	cat /tmp/os.err
	grep -q 'resource busy' /tmp/os.err && grep 'OS Lock' $d/status && r=0
fi
cat $d/status
cat $d/mgmt/trcauthstatus || r=1
if cat $d/mgmt/trcconfig 2>/tmp/os.err; then
	echo 'mgmt/trcconfig read with the OS Lock locked'
	r=1
else
	cat /tmp/os.err
	grep -q 'resource busy' /tmp/os.err || r=1
fi
echo 0 >$m/oslock
echo 0 >$s/present
cat $d/mgmt/trcconfig || r=1
echo 'violations:'
cat $m/violations
test $r = 0 && test -z "$(cat $m/violations)"
