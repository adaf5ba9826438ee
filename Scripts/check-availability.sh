#!/usr/bin/env bash
# Checks that the sources use only APIs available on the Apple platforms Package.swift declares, from the index store
# of a debug `swift build` on Linux (see Scripts/check-availability.py for what it covers).
#
#   Scripts/check-availability.sh [--floor macOS=12,iOS=15,tvOS=15,watchOS=8] [--only Sources] [--json] [-v]
#   Scripts/check-availability.sh --self-test
set -euo pipefail
cd "$(dirname "$0")/.."

swift_bin=$(command -v swift || true)
if [ -z "$swift_bin" ]; then
  echo "error: no swift on PATH" >&2
  exit 2
fi
usr=$(cd "$(dirname "$(readlink -f "$swift_bin")")/.." && pwd)

args=(--toolchain-lib "$usr/lib" --toolchain-bin "$usr/bin")
case " $* " in
  *" --build-path "* | *" --self-test "*) ;;
  *)
    # .build/debug is what `swift build --show-bin-path` prints for the default build; ask SwiftPM only when it's missing.
    if [ -d .build/debug ]; then
      args+=(--build-path "$(pwd)/.build/debug")
    elif bin=$(timeout 60 swift build --show-bin-path 2>/dev/null) && [ -d "$bin" ]; then
      args+=(--build-path "$bin")
    fi
    ;;
esac
exec python3 "$(pwd)/Scripts/check-availability.py" "${args[@]}" "$@"
