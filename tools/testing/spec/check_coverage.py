#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/spec-coverage.tsv, the rule-by-rule coverage table.

The table has one row per rule (R...) and software-usage statement (S...)
tag of the spec digest (requirements.md) and one per TRBE item I.1 to I.14.
This script reports, one line per problem, and exits 1 if there is any:

  * a tag or item of the digest without a row, a row whose tag is not in
    the digest, a tag with two rows, a row whose item is not the digest
    item the tag first appears in;
  * a bad binds (driver, model, both, neither) or evidence (test, code,
    reason) value; test or code evidence without refs; reason evidence
    without a note, or with refs;
  * a cited PATH:NAME whose file does not exist, or in which NAME (a test
    case, a symbol, or for a shell suite a distinctive string) does not
    occur;
  * a "model_check=EM_X" naming no constant of enum ete_model_check
    (tools/testing/ete-model/ete_model.h), a constant of that enum that no
    row names, or one that does not occur in
    tools/testing/ete-model/model_kunit.c (where the mutation suite runs
    its negative scenario);
  * a token shaped like a tag (R, S or I and five capitals) in the tree's
    sources (ete/, trbe/, include/, tools/ but not tools/testing/spec/,
    Documentation/*.rst; never build/) that is neither a tag of the seeds
    nor in the allowlist below of words and identifiers of that shape;
  * with the shared spec present, in-tree copies of its tag lists that are
    not what --refresh would write.

The digest and the seeds live outside the repository (../shared/spec and
../shared/seeds beside it, or --spec and --seeds).  A clone without them
still checks: the tags come from the in-tree copies tags-rs.txt and
seed-tags.txt beside this script, which --refresh regenerates.

At the end it prints "spec coverage: N tags; test T, code C, reason R (gap
G); model checks M, each with a negative test".
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
TAGS_RS = os.path.join(HERE, 'tags-rs.txt')
SEED_TAGS = os.path.join(HERE, 'seed-tags.txt')
TABLE = os.path.join(TOP, 'Documentation', 'spec-coverage.tsv')
MODEL_H = 'tools/testing/ete-model/ete_model.h'
MODEL_KUNIT = 'tools/testing/ete-model/model_kunit.c'

HEADER = ['tag', 'item', 'binds', 'evidence', 'refs', 'note']
BINDS = ('driver', 'model', 'both', 'neither')
EVIDENCE = ('test', 'code', 'reason')
TRBE_ITEMS = ['I.%d' % n for n in range(1, 15)]

# Tokens of a tag's shape in the sources that are not citations of a tag:
# English words, identifiers, a struct format string.  Each was read once
# where it occurs; keep the list sorted.
ALLOWLIST = sorted([
    'IGNORE',	# "IGNORE bytes", Ignore packets, trigger mode
    'IIQQQQ',	# struct.unpack format (post.d/etecap_snapshot.sh)
    'INSTEN',	# TRCEVENTCTL1R.INSTEN field
    'INTERP',	# the ELF program header (readelf -l, host.d/packages.sh)
    'ISTALL',	# TRCSTALLCTLR.ISTALL field
    'README',	# the file name
    'REVIDR',	# REVIDR_EL1, in a kernel commit's title (compat.rst)
    'RESULT',	# the rig's result line
    'RUNDIR',	# a shell variable
    'SELECT',	# TRCRSCTLR.SELECT field
    'SIGHUP',	# signal
    'SIGINT',	# signal
    'SOURCE',	# a shell variable, "SOURCE" in usage text
    'STATIC',	# a make variable (tools/ete/Makefile: STATIC=y)
    'SPARAM',	# macro in ete/param-table.c
    'SRCVER',	# a shell variable
    'STATUS',	# TRCSSCSR.STATUS and friends
    'SUBSET',	# manifest subset names
    'SWLOCK',	# the model's Software Lock check (EM_SWLOCK)
    'SYNCPR',	# TRCIDR3.SYNCPR field
])

TOKEN_RE = re.compile(r'\b[RSI][A-Z]{5}\b')
MODEL_CHECK_RE = re.compile(r'model_check=(EM_\w+)')


def read_lines(path):
    with open(path, encoding='utf-8') as f:
        return f.read().splitlines()


def seed_tags_from(seeds_dir):
    """Every line that is exactly six capitals, in the seeds 000_*.txt."""
    tags = set()
    for name in sorted(os.listdir(seeds_dir)):
        if name.startswith('000_') and name.endswith('.txt'):
            for line in read_lines(os.path.join(seeds_dir, name)):
                if re.fullmatch(r'[A-Z]{6}', line):
                    tags.add(line)
    if not tags:
        raise SystemExit('%s: no seed 000_*.txt with tags' % seeds_dir)
    return tags


def digest_tags_from(spec_dir, seeds):
    """[(key, item)]: each R/S tag of requirements.md that is a seed tag,
    with the digest item it first appears in, then the TRBE items."""
    item = None
    out = []
    seen = set()
    trbe = set()
    for line in read_lines(os.path.join(spec_dir, 'requirements.md')):
        m = re.match(r'^([A-M])\.(\d+[a-z]?)\s', line)
        if m:
            item = '%s.%s' % (m.group(1), m.group(2))
            if m.group(1) == 'I':
                trbe.add(item)
        for tok in re.findall(r'\b[RS][A-Z]{5}\b', line):
            if tok in seeds and tok not in seen:
                seen.add(tok)
                out.append((tok, item))
    for key in TRBE_ITEMS:
        if key not in trbe:
            raise SystemExit('requirements.md has no item %s' % key)
        out.append((key, key))
    return out


def render_tags_rs(pairs):
    head = ['# Generated by check_coverage.py --refresh from requirements.md',
            '# and the seeds: each R/S tag of the digest that is a seed tag,',
            '# with the item it first appears in, then the TRBE items.',
            '# Do not edit.']
    return '\n'.join(head + ['%s %s' % p for p in pairs]) + '\n'


def render_seed_tags(tags):
    head = ['# Generated by check_coverage.py --refresh: every line of the',
            '# seeds 000_*.txt that is exactly six capitals.  Do not edit.']
    return '\n'.join(head + sorted(tags)) + '\n'


def load_copies():
    pairs = []
    for line in read_lines(TAGS_RS):
        if line and not line.startswith('#'):
            key, item = line.split()
            pairs.append((key, item))
    seeds = set(l for l in read_lines(SEED_TAGS)
                if l and not l.startswith('#'))
    return pairs, seeds


def model_checks():
    """The constants of enum ete_model_check, EM_NR_CHECKS excluded."""
    text = open(os.path.join(TOP, MODEL_H), encoding='utf-8').read()
    m = re.search(r'enum\s+ete_model_check\s*\{(.*?)\}', text, re.S)
    if not m:
        raise SystemExit('%s: no enum ete_model_check' % MODEL_H)
    body = re.sub(r'/\*.*?\*/', '', m.group(1), flags=re.S)
    names = re.findall(r'\b(EM_\w+)\b', body)
    return [n for n in names if n != 'EM_NR_CHECKS']


def occurs(name, text):
    if re.fullmatch(r'\w+', name):
        return re.search(r'(?<!\w)%s(?!\w)' % re.escape(name), text)
    return name in text


def source_files():
    """The files whose tag citations are checked, relative to TOP."""
    out = []
    for top in ('ete', 'trbe', 'include', 'tools'):
        for root, dirs, files in os.walk(os.path.join(TOP, top)):
            rel = os.path.relpath(root, TOP)
            # not ours: the spec's own files, OpenCSD's vendored data
            dirs[:] = sorted(d for d in dirs if d != 'build' and
                             os.path.join(rel, d) not in
                             ('tools/testing/spec',
                              'tools/testing/ocsd-snapshots-ete'))
            out += [os.path.join(rel, f) for f in sorted(files)]
    doc = os.path.join(TOP, 'Documentation')
    out += ['Documentation/' + f for f in sorted(os.listdir(doc))
            if f.endswith('.rst')]
    return out


def check_citations(seeds, problems):
    for rel in source_files():
        try:
            lines = read_lines(os.path.join(TOP, rel))
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(lines, 1):
            for tok in TOKEN_RE.findall(line):
                if tok not in seeds and tok not in ALLOWLIST:
                    problems.append('%s:%d: %s is cited but is not a tag '
                                    'of the seeds' % (rel, n, tok))


def check_table(path, pairs, problems):
    """Check the rows; return them as dicts."""
    want = dict(pairs)
    rows = []
    seen = {}
    cache = {}
    lines = read_lines(path)
    if not lines or lines[0].split('\t') != HEADER:
        problems.append('%s:1: header is not "%s"' %
                        (path, '\\t'.join(HEADER)))
    for n, line in enumerate(lines[1:], 2):
        where = '%s:%d' % (os.path.relpath(path, TOP) if
                           path.startswith(TOP) else path, n)
        cols = line.split('\t')
        if len(cols) != len(HEADER):
            problems.append('%s: %d columns, not %d' %
                            (where, len(cols), len(HEADER)))
            continue
        row = dict(zip(HEADER, cols))
        rows.append(row)
        tag = row['tag']
        if tag in seen:
            problems.append('%s: %s has a row already (line %d)' %
                            (where, tag, seen[tag]))
        seen.setdefault(tag, n)
        if tag not in want:
            problems.append('%s: %s is not an R/S tag or TRBE item of '
                            'requirements.md' % (where, tag))
        elif row['item'] != want[tag]:
            problems.append('%s: %s: item %s, but it first appears in %s' %
                            (where, tag, row['item'], want[tag]))
        if row['binds'] not in BINDS:
            problems.append('%s: %s: binds "%s" is not one of %s' %
                            (where, tag, row['binds'], ', '.join(BINDS)))
        ev = row['evidence']
        if ev not in EVIDENCE:
            problems.append('%s: %s: evidence "%s" is not one of %s' %
                            (where, tag, ev, ', '.join(EVIDENCE)))
        refs = [r for r in row['refs'].split(';') if r]
        if ev in ('test', 'code') and not refs:
            problems.append('%s: %s: evidence %s with no refs' %
                            (where, tag, ev))
        if ev == 'reason':
            if not row['note'].strip():
                problems.append('%s: %s: evidence reason with an empty '
                                'note' % (where, tag))
            if refs:
                problems.append('%s: %s: evidence reason with refs' %
                                (where, tag))
        for ref in refs:
            rel, sep, name = ref.partition(':')
            if not sep or not name:
                problems.append('%s: %s: ref "%s" is not PATH:NAME' %
                                (where, tag, ref))
                continue
            full = os.path.join(TOP, rel)
            if full not in cache:
                try:
                    cache[full] = open(full, encoding='utf-8').read()
                except (OSError, UnicodeDecodeError):
                    cache[full] = None
            if cache[full] is None:
                problems.append('%s: %s: %s does not exist' %
                                (where, tag, rel))
            elif not occurs(name, cache[full]):
                problems.append('%s: %s: "%s" does not occur in %s' %
                                (where, tag, name, rel))
    for key, _ in pairs:
        if key not in seen:
            problems.append('%s: %s has no row' %
                            (os.path.relpath(path, TOP) if
                             path.startswith(TOP) else path, key))
    return rows


def check_model_checks(rows, problems):
    enum = model_checks()
    named = {}
    for row in rows:
        for em in MODEL_CHECK_RE.findall(row['note']):
            named.setdefault(em, row['tag'])
            if em not in enum:
                problems.append('%s: model_check=%s is not a constant of '
                                'enum ete_model_check' % (row['tag'], em))
    kunit = open(os.path.join(TOP, MODEL_KUNIT), encoding='utf-8').read()
    for em in enum:
        if em not in named:
            problems.append('%s: no row names model_check=%s' %
                            (MODEL_H, em))
        if not occurs(em, kunit):
            problems.append('%s: %s has no negative test there' %
                            (MODEL_KUNIT, em))
    return enum


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--spec', help='the spec directory (requirements.md); '
                    'default ../shared/spec beside the repository')
    ap.add_argument('--seeds', help='the seeds directory (000_*.txt); '
                    'default ../shared/seeds beside the repository')
    ap.add_argument('--table', default=TABLE, help='the coverage table')
    ap.add_argument('--refresh', action='store_true',
                    help='rewrite tags-rs.txt and seed-tags.txt from the '
                    'spec and the seeds, then stop')
    ap.add_argument('--freshness', action='store_true',
                    help='only check that the in-tree copies are current')
    ap.add_argument('--gaps', action='store_true',
                    help='also list the rows whose note starts "gap:"')
    args = ap.parse_args()

    shared = os.path.normpath(os.path.join(TOP, '..', 'shared'))
    spec = args.spec or os.path.join(shared, 'spec')
    seeds_dir = args.seeds or os.path.join(shared, 'seeds')
    have_shared = (os.path.isfile(os.path.join(spec, 'requirements.md')) and
                   os.path.isdir(seeds_dir))
    if (args.spec or args.seeds or args.refresh or args.freshness) and \
       not have_shared:
        sys.exit('no requirements.md in %s or no %s' % (spec, seeds_dir))

    problems = []
    if have_shared:
        seeds = seed_tags_from(seeds_dir)
        pairs = digest_tags_from(spec, seeds)
        fresh = {TAGS_RS: render_tags_rs(pairs),
                 SEED_TAGS: render_seed_tags(seeds)}
        if args.refresh:
            for path, text in fresh.items():
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(text)
                print('wrote %s' % os.path.relpath(path, TOP))
            return 0
        for path, text in fresh.items():
            try:
                old = open(path, encoding='utf-8').read()
            except OSError:
                old = None
            if old != text:
                problems.append('%s is not current with %s and %s: run '
                                'check_coverage.py --refresh' %
                                (os.path.relpath(path, TOP), spec,
                                 seeds_dir))
        if args.freshness:
            for p in problems:
                print(p)
            if not problems:
                print('tags-rs.txt and seed-tags.txt are current')
            return 1 if problems else 0
    else:
        pairs, seeds = load_copies()

    rows = check_table(args.table, pairs, problems)
    enum = check_model_checks(rows, problems)
    check_citations(seeds, problems)

    for p in problems:
        print(p)
    count = {e: sum(r['evidence'] == e for r in rows) for e in EVIDENCE}
    gaps = [r for r in rows if r['evidence'] == 'reason' and
            r['note'].startswith('gap:')]
    if args.gaps:
        for r in gaps:
            print('gap %s (%s): %s' % (r['tag'], r['item'], r['note'][4:]
                                        .strip()))
    print('spec coverage: %d tags; test %d, code %d, reason %d (gap %d); '
          'model checks %d, each with a negative test' %
          (len(rows), count['test'], count['code'], count['reason'],
           len(gaps), len(enum)))
    if problems:
        print('%d problem(s)' % len(problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
