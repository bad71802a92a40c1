import '@testing-library/jest-dom';
import { webcrypto } from 'node:crypto';

// jsdom has no WebCrypto; the browser code (captcha proof of work, recovery encryption) uses the
// platform's real implementation.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}
