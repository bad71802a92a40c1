#!/bin/sh
# The image's entry: `start.sh server` (the default command) runs the server, `start.sh admin <command…>` the
# admin program (`admin --help` lists its commands), both built into dist-server/ (scripts/buildServer.mjs).
# Secrets arrive as environment variables (Secrets Manager through ECS); two are turned into what the programs
# read: the sealing certificate into a file only this user can read, and the Redis token into REDIS_URL. Then the
# program replaces this shell, so it receives SIGTERM itself.
set -eu

app_dir="$(cd "$(dirname "$0")/.." && pwd)"

case "${1:-}" in
  server) program='server' ;;
  admin) program='admin' ;;
  *)
    echo "usage: start.sh server | start.sh admin <command…> (start.sh admin --help lists the commands)" >&2
    exit 64
    ;;
esac
shift

data_dir="${DATA_DIR:-/var/lib/divilo}"
mkdir -p "$data_dir"

if [ -n "${SEAL_P12_BASE64:-}" ]; then
  umask 077
  printf '%s' "$SEAL_P12_BASE64" | base64 -d > "$data_dir/bank-seal.p12"
  export SEAL_P12_FILE="$data_dir/bank-seal.p12"
  unset SEAL_P12_BASE64
fi

if [ -n "${REDIS_AUTH_TOKEN:-}" ] && [ -n "${REDIS_HOST:-}" ]; then
  export REDIS_URL="rediss://:${REDIS_AUTH_TOKEN}@${REDIS_HOST}:${REDIS_PORT:-6379}"
  unset REDIS_AUTH_TOKEN
fi

# The server starts after its instrumentation (docs/server.md, "Watching it"); the admin program needs none.
if [ "$program" = server ]; then
  exec node --enable-source-maps --import "$app_dir/dist-server/instrumentation.cjs" "$app_dir/dist-server/server.cjs" "$@"
fi
exec node --enable-source-maps "$app_dir/dist-server/$program.cjs" "$@"
