#!/bin/sh
# The Debian packages `make run` and `make test` need that pip cannot bring. As root they are
# installed; otherwise the exact apt-get command is printed and this stops (exit 1). Checking
# costs a few dpkg-query calls, so both make targets run it every time.
#
#   chromium             the browser tests (driven by Playwright; a browser is never downloaded)
#   libpango-1.0-0, libpangoft2-1.0-0, libharfbuzz-subset0
#                        WeasyPrint's text layout, and font subsetting (without it WeasyPrint
#                        warns, and the test suite turns warnings into errors)
#   fonts-dejavu-core    the PDFs' fonts
#   postgresql           a throwaway server for the PostgreSQL test run
#   redis-server         a throwaway server for the tests of the print queue kept in Redis
#   nginx                the buffering front `make run` starts (slow clients never hold up the
#                        app), and the TLS proxy of the HTTPS tests
#   openssl              the HTTPS tests' self-signed certificate
#   python3-venv         `python3 -m venv` for .venv
set -eu

PACKAGES="chromium libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
postgresql redis-server nginx openssl python3-venv"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "system-packages: not a Debian system; make sure these (or your system's equivalents)" \
         "are installed:" $PACKAGES >&2
    exit 0
fi

missing=""
for package in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing="$missing $package"
done
[ -z "$missing" ] && exit 0

command="apt-get install -y$missing"
if [ "$(id -u)" != 0 ]; then
    echo "Listbuilder needs these Debian packages:$missing" >&2
    echo "Install them as root, then run make again:" >&2
    echo "    sudo apt-get update && sudo $command" >&2
    exit 1
fi
echo "system-packages: installing$missing" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive $command -qq
