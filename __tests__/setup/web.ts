import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { webcrypto } from 'node:crypto';

// jsdom has no WebCrypto; the browser code (captcha proof of work, recovery encryption) uses the
// platform's real implementation.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}

// Queries that wait (findBy..., waitFor) allow for a loaded machine: beside two CPU-bound processes, a Continue
// that saves, navigates and loads the next screen's modules for the first time in a file once took more than 5 s
// (wizard.test.tsx, "a reload keeps what was typed"). A passing test waits no longer for it; Jest's own limit per
// test is 30 s.
configure({ asyncUtilTimeout: 15_000 });
