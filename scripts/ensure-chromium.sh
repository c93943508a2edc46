#!/usr/bin/env bash
# Browser tests drive Debian's Chromium, in its headless shell (chromium-headless-shell, the same build in the
# old headless mode, much cheaper per browser context) and, for pictures taken with SCREENSHOTS=1, the full
# browser; no test tool may download a browser of its own.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-dejavu-core)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "The browser tests need /usr/bin/chromium and /usr/bin/chromium-headless-shell. Install them with:" >&2
echo "  sudo apt-get install ${missing[*]}" >&2
exit 1
