// Node 21 and later define `navigator`, which node-forge's big-integer code (the seal's certificate and its
// signatures) takes for a browser's: it then multiplies with a routine that reads `Math` in its innermost loop,
// and a global read costs far more in a Jest test's vm context. A sandbox seal took 31 s on Node 24 in a test
// against 3 s on Node 20 (0.6 s on Node 24 outside Jest, with or without `navigator`). The server's code reads no
// `navigator`, which Node 20 does not have: the tests run it as there.
delete (globalThis as { navigator?: unknown }).navigator;

export {};
