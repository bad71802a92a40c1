import { defineConfig, devices } from '@playwright/test';
import { E2E_SERVER_SECRET } from './e2e/secrets';

// The AWS SDK's notice that it will need Node 22 (docs/deploy.md), printed by every server the tests start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://127.0.0.1:${port}`;

// Debian's Chromium: Playwright's own browser download cannot run on these machines.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // A sign-in solves a proof of work and an SRP exchange: web-first assertions wait longer than the default,
  // and a whole journey (sign-up to welcome, then a login) takes over half a minute on a busy shared machine.
  // These bound a hang; they measure nothing (speed is for `npm run bench`).
  expect: { timeout: 15_000 },
  timeout: 120_000,
  use: { baseURL, launchOptions: chromium, trace: 'retain-on-failure' },
  // Both sizes share one server and its demo customers: the phone run goes first, and the tests that
  // change an account for good (recovery, blocking) run on the desktop only, last.
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium }, testIgnore: /account-protection/ },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, dependencies: ['phone'] },
  ],
  webServer: {
    // The real server on a fresh data directory, serving the built SPA.
    command: 'node e2e/serve.mjs',
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Every journey comes from 127.0.0.1 and the demo customers' phones take every login: the rate limit and the
    // message budgets are raised for the run, the same way.
    env: {
      SERVER_SECRET: E2E_SERVER_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SENSITIVE_MAX: '1000',
      RATE_LIMIT_MAX: '5000',
      SMS_BUDGET_PER_RECIPIENT: '1000',
      SMS_BUDGET_PER_PERSON: '1000',
      SMS_BUDGET_PER_CLIENT: '5000',
      EMAIL_BUDGET_PER_RECIPIENT: '1000',
      EMAIL_BUDGET_PER_CLIENT: '5000',
      // The journeys sign up one address many times and text neighbouring numbers.
      EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT: '1000',
      SMS_BUDGET_PER_RANGE: '1000',
    },
  },
});
