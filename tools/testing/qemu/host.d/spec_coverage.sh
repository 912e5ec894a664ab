#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rule-by-rule coverage table (Documentation/spec-coverage.tsv,
# Documentation/spec-coverage.rst) against the spec digest, the seeds and
# the tree, by tools/testing/spec/check_coverage.py:
#  - the checker passes on the tree: a row per R/S tag and TRBE item, every
#    cited test case or symbol exists, every model check has a row and a
#    negative test, no source cites a tag that is not in the seeds;
#  - when the shared spec is beside the repository (../shared/spec and
#    ../shared/seeds), the in-tree copies of its tag lists are current
#    (a fresh clone has only the copies: the check is skipped there).
# Self-tests: the checker fails, naming the cause, on copies of the table
# with a row taken out, with a test case that does not exist, with a tag
# that is not in the spec, and without the row of a model check.
#
# Usage: spec_coverage.sh BUILD_DIR; prints TAP.
set -uo pipefail

build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
checker=$top/tools/testing/spec/check_coverage.py
table=$top/Documentation/spec-coverage.tsv
work=$build/spec-coverage
. "$here/../lib/tap.sh"

if ! command -v python3 >/dev/null; then
	tap 1 "python3 is installed (host-packages.txt)"
	finish
fi
rm -rf "$work"
mkdir -p "$work"

# check TABLE: the checker's output on TABLE; its status
check() {
	python3 "$checker" --table "$1" 2>&1
}

# 1. The tree
out=$(check "$table")
rc=$?
summary=$(grep '^spec coverage:' <<<"$out")
[ $rc = 0 ]
tap $? "check_coverage.py passes on the tree (${summary:-no summary})"
[ $rc = 0 ] || diag "$(grep -v '^spec coverage:' <<<"$out" | head -20)"

# 2. The in-tree copies against the shared spec, where it is
shared=$(cd "$top/.." && pwd)/shared
if [ -f "$shared/spec/requirements.md" ] && [ -d "$shared/seeds" ]; then
	out=$(python3 "$checker" --freshness 2>&1)
	tap $? "tags-rs.txt and seed-tags.txt are current with $shared"
	diag "$out"
else
	skip "tags-rs.txt and seed-tags.txt are current" "no $shared/spec beside the repository"
fi

# selftest NAME WANT DESCRIPTION: the checker fails on $work/NAME.tsv and
# says WANT (a fixed string)
selftest() {
	local out rc
	out=$(check "$work/$1.tsv")
	rc=$?
	[ $rc != 0 ] && grep -qF -- "$2" <<<"$out"
	tap $? "self-test: $3 (says: $2)"
	grep -F -- "$2" <<<"$out" >/dev/null || diag "$(head -5 <<<"$out")"
}

# 3. A row taken out
grep -v '^RDXFFN	' "$table" >"$work/missing-row.tsv"
selftest missing-row "RDXFFN has no row" "a table without the row of RDXFFN fails"

# 4. A test case that does not exist
sed 's/:rdxffn_enable_enters_enabling/:rdxffn_no_such_case/' "$table" >"$work/bogus-case.tsv"
selftest bogus-case '"rdxffn_no_such_case" does not occur in tools/testing/ete-model/model_kunit.c' \
	"a row citing a test case that does not exist fails"

# 5. A tag that is not in the spec (spelt so that this file cites none)
fake=$(printf 'R%s' ZZZZZ)
{ cat "$table"; printf '%s\tA.1\tmodel\treason\t\tnot a rule\n' "$fake"; } >"$work/bogus-tag.tsv"
selftest bogus-tag "$fake is not an R/S tag or TRBE item of requirements.md" \
	"a row for a tag the spec does not have fails"

# 6. The row of a model check taken out
grep -v '^RMDZDN	' "$table" >"$work/missing-check.tsv"
selftest missing-check "no row names model_check=EM_RMDZDN" \
	"a table without the row naming EM_RMDZDN fails"
finish
