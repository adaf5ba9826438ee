#!/usr/bin/env bash
# A protocol requirement that moved must never compile into different behaviour: typechecks
# Scripts/moved-requirements/Fixture.swift against the debug build's modules (run `swift build` first) and checks that
# exactly the lines marked WARN draw a deprecation warning.
#
#   Scripts/check-moved-requirements.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fixture=Scripts/moved-requirements/Fixture.swift
modules=$(swift build --show-bin-path)/Modules
[ -f "$modules/CourierStyles.swiftmodule" ] || { echo "error: build the package first (swift build)" >&2; exit 1; }
output=$(swiftc -swift-version 6 -typecheck -I "$modules" "$fixture" 2>&1) || { echo "$output"; exit 1; }
warned=$(echo "$output" | grep -oE "^[^ ]*Fixture.swift:[0-9]+:[0-9]+: warning: .*" || true)
status=0
# The type declared on the line after each marker.
while IFS=: read -r marker_line marker; do
  declaration=$((marker_line + 1))
  name=$(sed -n "${declaration}p" "$fixture" | grep -oE "(enum|struct) [A-Za-z]+" | cut -d' ' -f2)
  hit=$(echo "$warned" | grep -E "Fixture.swift:$declaration:[0-9]+: warning: " | head -1 || true)
  if [ "$marker" = WARN ] && ! echo "$hit" | grep -q "conform to TargetType"; then
    echo "error: $name (line $declaration) must draw the deprecation warning that names TargetType" >&2
    status=1
  elif [ "$marker" = OK ] && [ -n "$hit" ]; then
    echo "error: $name (line $declaration) must compile without a warning: $hit" >&2
    status=1
  else
    echo "ok: $name — ${hit:+${hit#*warning: }}${hit:-no warning}"
  fi
done < <(grep -noE "^// (WARN|OK)" "$fixture" | sed 's|// ||')
others=$(echo "$warned" | grep -vE "Fixture.swift:($(grep -nE '^// (WARN)' "$fixture" | cut -d: -f1 | while read -r l; do
  echo -n "$((l + 1))|"; done)0):" || true)
if [ -n "$others" ]; then
  echo "error: unexpected warnings:" >&2
  echo "$others" >&2
  status=1
fi
exit $status
