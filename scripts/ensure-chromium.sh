#!/usr/bin/env bash
# Prints the path of a Chromium for the playground's browser test (test/graphql/playground-browser.test.ts),
# installing Debian's package with apt-get when none is there and we may (root, apt-get present).
# Never a downloaded browser build: the distribution's package, updated with the system.
# Exit 1 with the reason on stderr when there is none and it cannot be installed.
set -euo pipefail
find_chromium() { command -v chromium || command -v chromium-browser || true; }
path="$(find_chromium)"
if [ -z "$path" ]; then
  if ! command -v apt-get >/dev/null; then echo "no chromium, and no apt-get to install it" >&2; exit 1; fi
  if [ "$(id -u)" != 0 ]; then echo "no chromium, and installing it with apt-get needs root" >&2; exit 1; fi
  echo "installing chromium with apt-get" >&2
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >&2; then
    echo "apt-get could not install chromium" >&2; exit 1
  fi
  path="$(find_chromium)"
  [ -n "$path" ] || { echo "apt-get installed chromium but no chromium command is on PATH" >&2; exit 1; }
fi
echo "$path"
