// Two projects: the browser code runs in jsdom, the server and the shared validators in plain Node.
/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'web',
      // jsdom plus the platform's fetch, streams and AbortController, so the app's real network code runs.
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/__tests__/src/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/setup/web.ts'],
      moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/__tests__/setup/fileStub.ts' },
      // react-intl and its formatjs packages ship ES modules only: Babel compiles them for Jest.
      transformIgnorePatterns: ['/node_modules/(?!(react-intl|@formatjs|intl-messageformat)/)'],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/server/**/*.test.ts', '<rootDir>/__tests__/validation/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/setup/server.ts'],
    },
  ],
};
