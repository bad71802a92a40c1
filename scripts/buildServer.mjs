// `npm run build:server`: the server and the admin program as JavaScript, into dist-server/ (what the image runs:
// docs/deploy.md). The project's own code (server/, the src/ modules it shares, scripts/) is bundled, one file per
// entry; packages stay require()d from node_modules, so native addons (better-sqlite3, sharp) load as built, and
// instrumentation that patches packages when they are required (OpenTelemetry's, loaded with `node --import`
// before the server) finds them there. Files read at run time by path are not bundled: server/paths.ts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each program of the image: `<name>.cjs` in the output folder, from its source. */
export const ENTRIES = {
  server: 'server/server.ts',
  admin: 'scripts/admin.ts',
  // Loaded before the server (`node --import`, start.sh): it traces only when an OTLP endpoint is set.
  instrumentation: 'server/instrumentation.ts',
};

/**
 * Builds every entry into `outdir` (default `dist-server/` at the root). The folder must sit one level below the
 * folder that holds server/data, locales and the rest (server/paths.ts): the image puts it at /app/dist-server.
 */
export async function buildServer({ outdir = path.join(root, 'dist-server') } = {}) {
  return esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, path.join(root, source)])),
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    // The oldest Node the project supports (package.json's engines); the image runs Node 24.
    target: 'node20.19',
    // Stack traces name the TypeScript sources (start.sh runs node with --enable-source-maps); the sources
    // themselves stay out of the image.
    sourcemap: 'linked',
    sourcesContent: false,
    // Class and function names as written: errors and logs name them.
    keepNames: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  const result = await buildServer(values.outdir ? { outdir: path.resolve(values.outdir) } : {});
  // A warning is a build that may not run as the sources do (a require it cannot follow, `module` misused).
  if (result.warnings.length > 0) process.exit(1);
}
