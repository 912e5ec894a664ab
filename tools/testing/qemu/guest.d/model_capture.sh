#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/20-model.list: the model's self-capture, for the host's
# OpenCSD check (post.d/model_pkt_lister.sh); no violation logged.
c=/sys/kernel/debug/ete_model
echo 65536 >$c/capture &&
	cat $c/capture >/out/model_capture.bin &&
	cat $c/capture.ini >/out/model_capture.ini &&
	cat $c/cpu*/violations
