#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that calls between the files of a module go down its layers.

Usage: check_layers.py LAYERS OBJDIR [--nm NM]

LAYERS lists the module's files bottom to top, one layer per line:
"NAME: file.c file.c ..." ('#' starts a comment).  From the objects in
OBJDIR (nm: the global symbols each defines, and the ones it needs), every
reference from one file to a symbol another file defines must go to the
same layer or a lower one.  Prints a TAP line per file and, for each
upward reference, "caller.c -> callee.c: symbol"; exits 1 if there is one,
if a built object is in no layer, or a declared file was not built.
"""
import os
import subprocess
import sys


def parse_layers(path):
    layers, rank = [], {}
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, _, files = line.partition(':')
            files = files.split()
            if not files:
                sys.exit(f"{path}: layer {name.strip()} lists no file")
            for fn in files:
                if fn in rank:
                    sys.exit(f"{path}: {fn} is in two layers")
                rank[fn] = len(layers)
            layers.append((name.strip(), files))
    return layers, rank


def symbols(nm, obj):
    out = subprocess.run([nm, obj], capture_output=True, text=True,
                         check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            needed.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRGSV':
            defined.add(parts[2])
    return defined, needed


def main(argv):
    nm = 'nm'
    if '--nm' in argv:
        i = argv.index('--nm')
        nm = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 2:
        sys.exit(__doc__)
    layers, rank = parse_layers(argv[0])
    objdir = argv[1]
    defs, needs = {}, {}
    problems = []
    for fn in rank:
        obj = os.path.join(objdir, fn[:-2] + '.o')
        if not os.path.exists(obj):
            problems.append(f"{fn}: declared but not built ({obj})")
            continue
        defs[fn], needs[fn] = symbols(nm, obj)
    owner = {}
    for fn, syms in defs.items():
        for s in syms:
            owner[s] = fn
    up = {}
    for fn in needs:
        for s in sorted(needs[fn]):
            callee = owner.get(s)
            if callee and callee != fn and rank[callee] > rank[fn]:
                up.setdefault(fn, []).append(f"{fn} -> {callee}: {s}")
    files = [fn for _, fl in layers for fn in fl]
    print("TAP version 13")
    print(f"1..{len(files) + 1}")
    n = 0
    for fn in files:
        n += 1
        if fn in up:
            print(f"not ok {n} {fn}: calls up")
            for line in up[fn]:
                print(f"# {line}")
        else:
            print(f"ok {n} {fn}")
    # objects of the module that no layer lists
    built = {f[:-2] + '.c' for f in os.listdir(objdir)
             if f.endswith('.o') and not f.endswith('.mod.o')}
    module_objs = {fn for fn in built if fn[:-2] + '.mod.o' not in
                   os.listdir(objdir)}
    unlisted = sorted(module_objs - set(rank))
    for fn in unlisted:
        problems.append(f"{fn}: built but in no layer")
    n += 1
    if problems:
        print(f"not ok {n} every file in exactly one layer")
        for p in problems:
            print(f"# {p}")
    else:
        print(f"ok {n} every file in exactly one layer")
    ncalls = sum(len(v) for v in up.values())
    print(f"# {len(files)} files in {len(layers)} layers, "
          f"{ncalls} upward reference(s)")
    return 1 if up or problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
