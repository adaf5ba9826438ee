#!/usr/bin/env bash
# Builds the DocC documentation of every library target with warnings treated as errors, and checks that every
# top-level public symbol of each module is curated under a topic of the module's page (DocC puts the ones nobody
# curated under generated groups such as "Structures").
#
#   Scripts/check-documentation.sh [target…]   (all library targets by default)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(Courier CourierStyles CourierAsyncHTTPClient CourierTesting CourierSQLiteCache CourierOutbox
    CourierOutboxPostgres CourierCombine
    CourierObservability CourierOpenAPI CourierDemoServer)
fi

output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT
# One archive per library, as `swift package generate-documentation --target …` builds them.
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
if ! swift package --allow-writing-to-directory "$output" generate-documentation \
  "${arguments[@]}" --output-path "$output/archive" \
  --warnings-as-errors > "$output/docc.log" 2>&1; then
  grep -E "^(warning|error)" -A3 "$output/docc.log" | grep -v "found 1 file(s) which are unhandled" | head -80
  echo "error: the documentation has warnings or errors" >&2
  exit 1
fi

python3 - "$output/archive" "${targets[@]}" <<'PY'
import json, os, sys
archive, targets = sys.argv[1], sys.argv[2:]
failed = False
for target in targets:
    # One target is written to the output path itself, several to one archive each inside it.
    root = os.path.join(archive, target + ".doccarchive") if len(targets) > 1 else archive
    page = json.load(open(os.path.join(root, "data", "documentation", target.lower() + ".json")))
    uncurated = [
        identifier.rsplit("/", 1)[-1]
        for section in page.get("topicSections", [])
        if section.get("generated")
        for identifier in section.get("identifiers", [])
    ]
    if uncurated:
        failed = True
        print(f"{target}: not curated under a topic: " + ", ".join(sorted(uncurated)))
    else:
        print(f"{target}: built without warnings; every top-level symbol is curated")
sys.exit(1 if failed else 0)
PY
