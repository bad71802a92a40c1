// Three projects: the browser code runs in jsdom, the server and the shared validators in plain Node, and the
// AWS deployment (deploy/, its own package: `npm ci --prefix deploy`) in plain Node with its own node_modules.
// The server against an AWS emulator (__tests__/aws/) is its own run, `npm run test:aws` (jest.aws.config.js):
// it starts moto and server processes for minutes, and CI runs it as a step of its own after `npm test`.
// Packages that ship ES modules only: SWC compiles them for Jest, which loads CommonJS on Node 20.
const { existsSync } = require('node:fs');
const path = require('node:path');

// The AWS SDK's notice that it will need Node 22 (docs/deploy.md) would print in every test file's process and
// bury the suite's own output; the workers and the servers they start inherit this.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const esmOnlyPackages = '/node_modules/(?!(react-intl|@formatjs|intl-messageformat)/)';

// The tests' compiler is SWC (the bundle's stays Babel: babel.config.js): it strips the types, compiles JSX for
// React's automatic runtime and turns ES modules into CommonJS. Every Jest worker compiles what it loads when the
// cache is empty, as in CI; with Babel a fresh clone's suite took 8% longer (docs/architecture.md). Node 20 runs
// ES2022 as it is. Every project compiles the same way.
const swc = (parser) => ['@swc/jest', { jsc: { parser, target: 'es2022', transform: { react: { runtime: 'automatic' } } } }];
const compiled = {
  transform: {
    '^.+\\.tsx$': swc({ syntax: 'typescript', tsx: true }),
    '^.+\\.ts$': swc({ syntax: 'typescript' }),
    '^.+\\.[cm]?jsx?$': swc({ syntax: 'ecmascript', jsx: true }),
  },
  transformIgnorePatterns: [esmOnlyPackages],
};
const deployInstalled = existsSync(path.join(__dirname, 'deploy/node_modules/aws-cdk-lib'));
if (!deployInstalled) {
  // CI installs it (.ci/run): there, a missing deploy/ install must fail rather than quietly test less.
  if (process.env.CI) throw new Error('deploy/ is not installed: run `npm ci --prefix deploy` before the tests');
  console.warn('deploy/ is not installed (npm ci --prefix deploy): the deployment tests are not run.');
}

/** @type {import('jest').Config} */
module.exports = {
  // The machines are shared and slow at times: generous limits, so a test fails for what it checks, not for load.
  testTimeout: 30_000,
  // Jest's default (cores − 1) is one worker on a 2-core machine; suites have their own data directories, ports
  // and PostgreSQL schemas, so they run side by side.
  maxWorkers: '100%',
  projects: [
    {
      displayName: 'web',
      // jsdom plus the platform's fetch, streams and AbortController, so the app's real network code runs.
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/__tests__/src/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/setup/web.ts'],
      moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/__tests__/setup/fileStub.ts' },
      ...compiled,
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/server/**/*.test.ts', '<rootDir>/__tests__/validation/**/*.test.ts', '<rootDir>/__tests__/lint/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/setup/server.ts'],
      ...compiled,
    },
    ...(deployInstalled
      ? [
          {
            displayName: 'deploy',
            testEnvironment: 'node',
            testMatch: ['<rootDir>/deploy/test/**/*.test.ts'],
            // cdk.out holds a copy of the synthesized app; only the sources are tests.
            modulePathIgnorePatterns: ['<rootDir>/deploy/cdk.out'],
            ...compiled,
          },
        ]
      : []),
  ],
};
