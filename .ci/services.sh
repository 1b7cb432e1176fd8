#!/usr/bin/env bash
# Installs and starts what the API/web tests need that pip cannot provide:
#   * PostgreSQL (Debian's package), with a role and database for the tests, listening on loopback;
#   * Chromium and chromium-driver (the Playwright test drives /usr/bin/chromium).
# Idempotent: run it as often as you like. Needs root (or sudo) on Debian 12; it uses only the
# Debian package mirrors. It exports nothing: the tests use the fixed loopback URL
#     postgresql://piki:piki@127.0.0.1:5432/piki_test
# (override with PIKI_TEST_PG_URL when you point the tests at another server).
#
# Usage:  sudo .ci/services.sh            # install + start everything
#         PIKI_REQUIRE_PG=1 .venv/bin/pytest tests/test_storage.py   # fail (not skip) without PG
set -euo pipefail

PG_USER=piki
PG_PASS=piki
PG_DB=piki_test
PG_PORT=5432

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need=()
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
# fonts so that the page renders text in the headless browser
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need+=(fonts-dejavu-core)
if [ "${#need[@]}" -gt 0 ]; then
  echo "services.sh: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# ---------------------------------------------------------------- PostgreSQL
ver="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -q "^$ver main$"; then
  $SUDO pg_createcluster "$ver" main --port "$PG_PORT"
fi
status="$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $4}')"
if [ "$status" != "online" ]; then
  $SUDO pg_ctlcluster "$ver" main start
fi
psql_pg() {  # run SQL as the postgres superuser, print the rows
  if [ -z "$SUDO" ]; then su postgres -c "psql -p $PG_PORT -v ON_ERROR_STOP=1 -qAtc \"$1\""
  else sudo -u postgres psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAtc "$1"; fi
}
for _ in $(seq 1 30); do
  if psql_pg "select 1" >/dev/null 2>&1; then break; fi
  sleep 1
done
if [ "$(psql_pg "select 1 from pg_roles where rolname='$PG_USER'")" != "1" ]; then
  psql_pg "create role $PG_USER login password '$PG_PASS'"
fi
if [ "$(psql_pg "select 1 from pg_database where datname='$PG_DB'")" != "1" ]; then
  psql_pg "create database $PG_DB owner $PG_USER"
fi

URL="postgresql://$PG_USER:$PG_PASS@127.0.0.1:$PG_PORT/$PG_DB"
echo "services.sh: PostgreSQL $ver ready at $URL"
echo "services.sh: chromium $( /usr/bin/chromium --version 2>/dev/null || echo missing )"
