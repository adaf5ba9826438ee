#!/usr/bin/env bash
# Generates the demo API's client (Sources/CourierDemoClient/Generated) from its OpenAPI document with
# swift-openapi-generator, built from the package in Scripts/openapi-generator so that Courier's own build never
# compiles the generator.
#
#   Scripts/generate-openapi.sh          regenerate the committed sources
#   Scripts/generate-openapi.sh --check  fail when the committed sources differ from a fresh generation
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

tool=Scripts/openapi-generator
swift build --package-path "$tool" --product swift-openapi-generator
generator="$(swift build --package-path "$tool" --show-bin-path)/swift-openapi-generator"

target=Sources/CourierDemoClient
fresh=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$fresh" "$log"' EXIT
"$generator" generate --config "$target/openapi-generator-config.yaml" --output-directory "$fresh" \
  "$target/openapi.json" > "$log" 2>&1 || { cat "$log"; exit 1; }
# Generated code keeps the generator's layout; the formatter leaves it alone. Its `public import`s become plain
# imports, which are public in this target (it does not adopt InternalImportsByDefault) but are not reported when a
# file uses nothing of the module in a public declaration: the generator silences that report only for Swift 6.4 and
# later (`@diagnose(UnusedImportAccess, as: ignored)`), and the project's targets build without warnings.
for file in "$fresh"/*.swift; do
  { echo "// swift-format-ignore-file"; sed -E 's/^((@[A-Za-z_]+(\([^)]*\))? )*)public import /\1import /' "$file"; } \
    > "$file.tmp" && mv "$file.tmp" "$file"
done

if $check; then
  if ! diff -r "$target/Generated" "$fresh" > /dev/null; then
    diff -r "$target/Generated" "$fresh" | head -40
    echo "error: $target/Generated differs from a fresh generation; run Scripts/generate-openapi.sh" >&2
    exit 1
  fi
  echo "$target/Generated matches $target/openapi.json"
else
  rm -rf "$target/Generated"
  mkdir -p "$target/Generated"
  cp "$fresh"/*.swift "$target/Generated/"
  echo "Generated $(ls "$target/Generated" | wc -l) files in $target/Generated"
fi
