#!/usr/bin/env bash
# CI on the newer Node.js lines (docs/operating/node-versions.md): after the whole suite
# on Node 20, for Node 22 and 24 (from the npm registry, into a temporary prefix, never into the
# project) runs the API, procedure, places and crash-battery tests on SQLite and the built
# server's 50 starts, on the node_modules `npm ci` made. vitest's forks pool runs its workers with
# the Node.js that runs vitest, and the tests start the server with theirs.
set -euo pipefail
cd "$(dirname "$0")/.."

prefixes="$(mktemp -d "${RUNNER_TEMP:-/tmp}/node-lines.XXXXXX")"
trap 'rm -rf "$prefixes"' EXIT

for line in 22 24; do
  started=$SECONDS
  npm install --prefix "$prefixes/node$line" --no-save --no-audit --no-fund --loglevel=error "node@$line" >/dev/null
  node="$prefixes/node$line/node_modules/.bin/node"
  echo "== Node $line: $("$node" --version)"
  "$node" node_modules/vitest/vitest.mjs run --project unit --project integration --project slow \
    test/unit/places test/integration/api test/integration/procedures \
    test/integration/places test/slow/reliability/crash.test.ts test/slow/server/node-lines.test.ts
  echo "== Node $line: passed in $((SECONDS - started)) s"
done
