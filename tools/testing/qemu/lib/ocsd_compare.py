#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ete-decode against OpenCSD's trc_pkt_lister on one snapshot directory.

For every buffer of the snapshot's trace ini, trc_pkt_lister -decode_only
-src_name BUFFER lists the generic elements of each trace ID it decodes,
and ete-decode --source BUFFER prints each ETE source of the buffer
(its header names the trace ID).  Per trace ID, in order:
  R  OCSD_GEN_TRC_ELEM_INSTR_RANGE     (index, start, end, instructions)
  Q  OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH  (index, first, next, instructions)
  E  OCSD_GEN_TRC_ELEM_ADDR_NACC       (index, address)
must be equal.  A buffer whose sources are none of them ETE (an STM's) is
left out when trc_pkt_lister finds no instruction in it either.

Usage: ocsd_compare.py [--drop-one] ETE_DECODE SNAPSHOT_DIR
  --drop-one  leave out one record of ete-decode's (the self-test: the
              comparison must then fail)
Prints one summary line; exit 0 equal, 1 different, 2 a tool failed.
"""
import re
import subprocess
import sys

LISTER = re.compile(
    r'^Idx:(\d+); ID:([0-9a-fA-F]+); OCSD_GEN_TRC_ELEM_(INSTR_RANGE|'
    r'I_RANGE_NOPATH|ADDR_NACC)\((.*)$')
RANGE = re.compile(r'exec range=0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\((\d+)\)')
NOPATH = re.compile(r'first 0x([0-9a-f]+):\[next 0x([0-9a-f]+)\] num_i\((\d+)\)')
NACC = re.compile(r'^\s*0x([0-9a-f]+)')
HEADER = re.compile(r'^# cpu -?\d+: source (\S+), buffer (\S+), trace ID 0x([0-9a-f]+):')


def buffers(snap):
    """The buffer names of the snapshot's trace ini, in its order."""
    meta = 'trace.ini'
    section = None
    with open(f'{snap}/snapshot.ini', encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line.startswith('['):
                section = line[1:-1]
            elif section == 'trace' and line.startswith('metadata='):
                meta = line.split('=', 1)[1].strip()
    names = {}
    order = []
    section = None
    with open(f'{snap}/{meta}', encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line.startswith('['):
                section = line[1:-1]
            elif '=' in line:
                key, val = (x.strip() for x in line.split('=', 1))
                if section == 'trace_buffers' and key == 'buffers':
                    order = [x.strip() for x in val.split(',') if x.strip()]
                elif key == 'name':
                    names[section] = val
    return [names[s] for s in order if s in names]


def lister(snap, buf):
    out = subprocess.run(['trc_pkt_lister', '-ss_dir', snap, '-decode_only',
                          '-src_name', buf, '-logstdout'],
                         capture_output=True, text=True, check=False)
    recs = {}
    for line in out.stdout.splitlines():
        m = LISTER.match(line)
        if not m:
            continue
        idx, tid, kind, rest = int(m[1]), int(m[2], 16), m[3], m[4]
        if kind == 'INSTR_RANGE':
            r = RANGE.search(rest)
            rec = ('R', idx, int(r[1], 16), int(r[2], 16), int(r[3]))
        elif kind == 'I_RANGE_NOPATH':
            r = NOPATH.search(rest)
            rec = ('Q', idx, int(r[1], 16), int(r[2], 16), int(r[3]))
        else:
            r = NACC.search(rest)
            rec = ('E', idx, int(r[1], 16))
        recs.setdefault(tid, []).append(rec)
    return out.returncode, recs


def ete_decode(tool, snap, buf):
    out = subprocess.run([tool, '--source', buf, '-j', '1', snap],
                         capture_output=True, text=True, check=False)
    recs = {}
    cur = None
    for line in out.stdout.splitlines():
        m = HEADER.match(line)
        if m:
            cur = recs.setdefault(int(m[3], 16), [])
            continue
        f = line.split()
        if cur is None or not f:
            continue
        if f[0] in ('R', 'Q') and len(f) >= 5:
            cur.append((f[0], int(f[1]), int(f[2], 16), int(f[3], 16), int(f[4])))
        elif f[0] == 'E' and 'no memory image at' in line:
            cur.append(('E', int(f[1]), int(f[-1], 16)))
    return out.returncode, out.stderr, recs


def main():
    args = sys.argv[1:]
    drop = '--drop-one' in args
    args = [a for a in args if a != '--drop-one']
    tool, snap = args
    total = {'R': 0, 'Q': 0, 'E': 0}
    compared = 0
    diffs = []
    for buf in buffers(snap):
        lrc, want = lister(snap, buf)
        rc, err, got = ete_decode(tool, snap, buf)
        if rc == 2 and 'ETE trace source' in err and \
                not any(r[0] != 'E' for v in want.values() for r in v):
            continue
        if lrc != 0 or rc == 2:
            print(f'{buf}: trc_pkt_lister exit {lrc}, ete-decode exit {rc}: '
                  f'{err.strip()}')
            return 2
        compared += 1
        if drop and got:
            tid = sorted(got)[0]
            if got[tid]:
                del got[tid][len(got[tid]) // 2]
        for tid in sorted(set(want) | set(got)):
            w, g = want.get(tid, []), got.get(tid, [])
            for r in w:
                total[r[0]] += 1
            if w == g:
                continue
            i = next((k for k in range(min(len(w), len(g))) if w[k] != g[k]),
                     min(len(w), len(g)))
            diffs.append(f'{buf} ID 0x{tid:x}: {len(w)} records from '
                         f'trc_pkt_lister, {len(g)} from ete-decode; first '
                         f'difference at record {i}: '
                         f'{w[i] if i < len(w) else None} vs '
                         f'{g[i] if i < len(g) else None}')
    print(f'{compared} buffers, {total["R"]} ranges, {total["Q"]} no-path '
          f'ranges, {total["E"]} no-memory records compared; '
          f'{len(diffs)} differ')
    for d in diffs[:10]:
        print(d)
    if not compared:
        print('no ETE buffer compared')
        return 1
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
