#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; no test tool may download a browser of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  exit 0
fi
echo "The browser tests need Chromium at /usr/bin/chromium. Install it with:" >&2
echo "  sudo apt-get install chromium" >&2
exit 1
