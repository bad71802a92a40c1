// npm run bench — every benchmark in turn, printing its figures. None of them asserts anything: the
// machines are shared, so the figures are read, not enforced.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = [
  ['bench:bundle', 'scripts/bench-bundle.ts'],
  ['bench:srp', 'scripts/bench-srp.ts'],
  ['bench:storage', 'scripts/bench-storage.ts'],
  ['bench:wizard', 'scripts/bench-wizard.ts'],
  ['bench:first-load', 'scripts/bench-first-load.ts'],
  ['bench:api', 'scripts/bench-api.ts'],
];

let failed = false;
for (const [name, file] of benches) {
  if (!existsSync(file)) continue;
  console.log(`\n=== ${name}`);
  const run = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
