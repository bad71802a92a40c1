// Two projects: the browser code runs in jsdom, the server and the shared validators in plain Node.
// Packages that ship ES modules only: Babel compiles them for Jest, which loads CommonJS on Node 20.
const esmOnlyPackages = '/node_modules/(?!(react-intl|@formatjs|intl-messageformat)/)';

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
      transformIgnorePatterns: [esmOnlyPackages],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/server/**/*.test.ts', '<rootDir>/__tests__/validation/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/setup/server.ts'],
      transformIgnorePatterns: [esmOnlyPackages],
    },
  ],
};
