import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the start script's CommonJS helper
const { buildNeeded } = require('../../../scripts/buildFreshness.cjs') as { buildNeeded: (root: string) => 'missing' | 'outdated' | undefined };

describe('npm start rebuilds the web app when it is stale', () => {
  let root: string;
  const at = (file: string, seconds: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'x');
    // The folders on the way keep the same time, as in a checkout: a folder changes when an entry is added or removed.
    for (let part = file; part !== '.'; part = path.dirname(part)) utimesSync(path.join(root, part), seconds, seconds);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'divilo-start-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when there is no build', () => {
    at('src/index.tsx', 1_000);
    expect(buildNeeded(root)).toBe('missing');
  });

  it('does not build when the build is newer than every source', () => {
    at('src/features/login/LoginScreen.tsx', 1_000);
    at('locales/es.json', 1_000);
    at('dist/index.html', 2_000);
    expect(buildNeeded(root)).toBeUndefined();
  });

  it('builds when a source deep in src, a locale file or the lock file changed after the build', () => {
    at('dist/index.html', 2_000);
    at('src/features/login/LoginScreen.tsx', 3_000);
    expect(buildNeeded(root)).toBe('outdated');
    at('src/features/login/LoginScreen.tsx', 1_000);
    at('locales/en.json', 3_000);
    expect(buildNeeded(root)).toBe('outdated');
    at('locales/en.json', 1_000);
    at('package-lock.json', 3_000);
    expect(buildNeeded(root)).toBe('outdated');
  });
});
