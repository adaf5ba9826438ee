#!/usr/bin/env bash
# Refreshes the Public Suffix List that CookieJar ships with, from a file (Debian's `publicsuffix` package installs
# one) or from publicsuffix.org.
set -euo pipefail
cd "$(dirname "$0")/.."
target=Sources/Courier/Cookies/Resources/public_suffix_list.dat
source=${1:-/usr/share/publicsuffix/public_suffix_list.dat}
if [ -f "$source" ]; then
  cp "$source" "$target"
else
  curl -fsSL https://publicsuffix.org/list/public_suffix_list.dat -o "$target"
fi
echo "updated $target ($(grep -cv '^//\|^$' "$target") rules)"
