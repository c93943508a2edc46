#!/usr/bin/env bash
# Installs what `npm run bench` compares the shop against and drives: Debian's nginx (the static-file
# reference row), wrk (the load of plain GETs) and Chromium (Lighthouse and the JavaScript budget). Needs
# root (apt-get).
set -euo pipefail
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -x /usr/bin/wrk ] || missing+=(wrk)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ ${#missing[@]} -eq 0 ]; then
  echo "bench set-up: nginx, wrk and chromium are installed"
  exit 0
fi
apt-get update
# The package would start nginx on port 80 as a service; the bench runs its own on a free port.
RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
