import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { webcrypto } from 'node:crypto';

// jsdom has no WebCrypto; the browser code (captcha proof of work, recovery encryption) uses the
// platform's real implementation.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}

// Queries that wait (findBy..., waitFor) allow for a loaded machine.
configure({ asyncUtilTimeout: 5000 });
