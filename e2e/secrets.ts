/** The browser tests' server secret (a throw-away server on a temporary data directory): never a real one. */
export const E2E_SERVER_SECRET = Buffer.alloc(32, 7).toString('base64');
