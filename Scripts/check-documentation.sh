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
  targets=(Courier CourierStyles CourierAsyncHTTPClient CourierTesting CourierSQLiteCache CourierCombine
    CourierObservability CourierOpenAPI CourierDemoServer)
fi

output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT
failed=0
for target in "${targets[@]}"; do
  echo "== $target"
  if ! swift package --allow-writing-to-directory "$output" generate-documentation --target "$target" \
    --output-path "$output/$target" --warnings-as-errors > "$output/$target.log" 2>&1; then
    grep -E "warning|error" "$output/$target.log" | head -40 || tail -40 "$output/$target.log"
    failed=1
    continue
  fi
  page="$output/$target/data/documentation/$(echo "$target" | tr '[:upper:]' '[:lower:]').json"
  python3 - "$page" <<'PY' || failed=1
import json, sys
page = json.load(open(sys.argv[1]))
uncurated = [
    identifier.rsplit("/", 1)[-1]
    for section in page.get("topicSections", [])
    if section.get("generated")
    for identifier in section.get("identifiers", [])
]
if uncurated:
    print("not curated under a topic: " + ", ".join(sorted(uncurated)))
    sys.exit(1)
print("documentation built without warnings; every top-level symbol is curated")
PY
done
exit $failed
