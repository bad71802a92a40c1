#!/bin/sh
# The server's start in its container. Secrets arrive as environment variables (Secrets Manager through ECS);
# two are turned into what the server reads: the sealing certificate into a file only this user can read, and
# the Redis token into REDIS_URL. Then the program (the server, or `scripts/admin.ts …` given as the command)
# replaces this shell, so it receives SIGTERM itself.
set -eu

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

exec node --import tsx "$@"
