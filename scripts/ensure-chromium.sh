#!/usr/bin/env bash
# The browser test drives Debian's chromium with playwright-core: install it once if this
# machine lacks it, so `npm ci && npm test` works on a fresh machine. Needs root (as CI runs).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium at $CHROMIUM" >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium for the /docs browser test" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
"$CHROMIUM" --version >&2
