#!/bin/sh
# Makes the login's font file (src/styles/fonts/figtree-login-wght-normal.woff2) from Figtree's Latin file: the
# characters of its face's unicode-range in src/styles/fonts.css, with the layout features browsers apply by
# default. Run it after changing that range; __tests__/src/styles/fonts.test.ts checks that the two agree.
# Needs fontTools with brotli (Debian: apt-get install python3-fonttools python3-brotli).
set -eu
cd "$(dirname "$0")/.."
out=src/styles/fonts/figtree-login-wght-normal.woff2
range=$(node -e '
const css = require("node:fs").readFileSync("src/styles/fonts.css", "utf8");
const face = css.split("@font-face").find((block) => block.includes(process.argv[1]));
process.stdout.write(/unicode-range:\s*([^;]+);/.exec(face)[1].replace(/\s+/g, ""));
' "$(basename "$out")")
"${PYTHON:-python3}" -m fontTools.subset node_modules/@fontsource-variable/figtree/files/figtree-latin-wght-normal.woff2 \
  --unicodes="$range" --layout-features='ccmp,locl,rvrn,calt,liga,kern,mark,mkmk' --flavor=woff2 --output-file="$out"
echo "$out: $(wc -c < "$out") bytes"
