#!/usr/bin/env bash
# The deployment and backup tests run Debian's PostgreSQL and nginx, as a production host would.
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's postgresql and nginx for the deployment tests..."
  apt-get update -qq
  # No service is started: the tests run their own clusters and nginx on free ports.
  made_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql nginx-light >/dev/null
  if [ -n "$made_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
  exit 0
fi
echo "The deployment tests need Debian's PostgreSQL and nginx. Install them with:" >&2
echo "  sudo apt-get install postgresql nginx-light" >&2
exit 1
