// The server against an AWS emulator (moto, IAM enforced): `npm run test:aws`, a run of its own beside `npm test`.
// Under CI a missing emulator, deploy/ install, PostgreSQL or Redis fails the run (__tests__/aws/moto.ts).
const base = require('./jest.config');

const server = base.projects.find((project) => project.displayName === 'server');

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: base.testTimeout,
  maxWorkers: base.maxWorkers,
  projects: [{ ...server, displayName: 'aws', testMatch: ['<rootDir>/__tests__/aws/**/*.test.ts'] }],
};
