// Whether the web app's build is older than what it is built from, so `npm start` never serves stale screens.
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

/** What the build of dist/ depends on, relative to the repository's root. */
const BUILD_INPUTS = ['src', 'locales', 'public', 'webpack.config.ts', 'babel.config.js', 'tsconfig.json', 'package-lock.json'];

/** The newest modification time (ms) of a file or of any file under a folder; 0 when it does not exist. */
function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

/** Why a build is needed (`missing` or `outdated`), or `undefined` when dist/index.html is newer than every input. */
function buildNeeded(root) {
  const built = path.join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'missing';
  const builtAt = statSync(built).mtimeMs;
  return BUILD_INPUTS.some((input) => newestChange(path.join(root, input)) > builtAt) ? 'outdated' : undefined;
}

module.exports = { buildNeeded };
