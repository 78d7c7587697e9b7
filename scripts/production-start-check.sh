#!/usr/bin/env bash
# CI step (docs/reference/tests-and-ci.md): `./run start` with NODE_ENV=production on a fresh machine, then `/`
# in Chromium, then a newcomer's path to a first chat; fails when the web console does not render or
# a visitor's message from a page embedding the live chat widget does not reach the agent API. The
# platform runs from a copy of the checkout without node_modules, so `./run start` makes the clean
# production install itself (npm leaves devDependencies out under NODE_ENV=production), with the
# embedded PostgreSQL default (no DATABASE_URL, no REDIS_URL) on free ports and APP_URL's default
# (http://localhost:$PORT), as a newcomer's. The browser side and the CLI (playwright-core and tsx,
# devDependencies) run from this checkout: scripts/console-renders.mjs, scripts/embed-code-chats.mjs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/use-node24.sh
work="$(mktemp -d "${TMPDIR:-/tmp}/mandi-production-XXXXXX")"
# mktemp's 0700 would keep the postgres user (when run as root) out of DATA_DIR, and the embedded
# PostgreSQL would move its data under /var/lib/mandi, outliving this check.
chmod 755 "$work"
group=""
stop() {
  if [ -n "$group" ]; then
    kill -TERM -- "-$group" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 -- "-$group" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$group" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT

# The checkout as git sees it (tracked and new files, nothing ignored: no node_modules, dist, data).
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do if [ -f "$f" ]; then printf '%s\0' "$f"; fi; done |
  tar --null -T - -cf - | tar -xf - -C "$work"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="$(free_port)"
pg_port="$(free_port)"
echo "== production start: $work on port $port (embedded PostgreSQL on $pg_port)"
# Its own process group (setsid), so the supervisor, the platform and PostgreSQL stop together.
(cd "$work" && exec env -u DATABASE_URL -u REDIS_URL -u APP_URL -u ROOT_DOMAIN NODE_ENV=production PORT="$port" HOST=127.0.0.1 \
  EMBEDDED_PG_PORT="$pg_port" setsid ./run start >"$work/start.log" 2>&1) &
group=$!
if ! { node scripts/console-renders.mjs "http://127.0.0.1:$port" "${PRODUCTION_CHECK_TIMEOUT_S:-240}" &&
  node scripts/embed-code-chats.mjs "http://127.0.0.1:$port"; }; then
  echo "== production start log (last 60 lines):" >&2
  tail -n 60 "$work/start.log" >&2 || true
  exit 1
fi
