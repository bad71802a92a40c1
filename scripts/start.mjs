// `npm start`: builds the SPA when it was never built or its sources changed since (webpack's filesystem cache
// keeps a rebuild quick), then serves the whole product on its embedded defaults (http://localhost:8080
// unless PORT says otherwise).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { buildNeeded } = require('./buildFreshness.cjs');

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const reason = buildNeeded(root);
if (reason) {
  console.log(reason === 'missing' ? 'Building the web app (first start)…' : 'Building the web app (its sources changed since the last build)…');
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.env.NODE_ENV !== 'production') {
  console.log(
    [
      '',
      'Demo customers (embedded defaults only):',
      '  12345678Z / Divilo-Demo-2026  logs in; the SMS code is in the outbox at /dev/outbox',
      '  X1234567L / Divilo-Demo-2026  application pending review (ends on the verification page)',
      '',
    ].join('\n'),
  );
}

// server/instrumentation.ts first: it traces only when an OTLP endpoint is set (docs/server.md, "Watching it").
const server = spawn(process.execPath, ['--import', 'tsx', '--import', './server/instrumentation.ts', 'server/server.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
