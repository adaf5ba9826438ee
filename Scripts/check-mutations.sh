#!/usr/bin/env bash
# Applies each deliberate bug of Scripts/mutations/mutants.py to the sources, one at a time, builds incrementally, runs
# the tests that guard it, and fails when a mutant survives (its tests pass). Restores every file, also on failure.
#
#   Scripts/check-mutations.sh            every mutant
#   Scripts/check-mutations.sh 3 5        the third and the fifth
#   Scripts/check-mutations.sh --check    only that every mutant's code is still where it says
#
# Each mutant costs an incremental build (15 s to 1 min on a 2-core machine) and its tests, whose waits count as hung
# after 30 s (COURIER_HANG_SECONDS; the unmutated code first passes them all within it): about 35 minutes in all.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 Scripts/mutations/run.py "$@"
