#!/usr/bin/env bash
# Run by `npm test` first (pretest): the browser test of /docs drives Debian's Chromium, which
# Playwright cannot download on these machines. Installs it when missing and apt-get is usable.
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "pretest: installing Debian's chromium for the docs browser test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends chromium >&2
else
  echo "pretest: $CHROMIUM is missing; install Debian's chromium (apt-get install chromium)" >&2
  echo "         or set CHROMIUM_PATH to a Chromium binary, then run npm test again" >&2
  exit 1
fi
