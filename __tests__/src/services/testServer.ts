import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setRuntimeConfig } from '../../../src/config';
import { testRuntimeConfig } from '../testConfig';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A real HTTP server on a free loopback port that records requests and answers as each test says. */
export async function startTestServer(
  handler: (request: RecordedRequest, response: ServerResponse) => void,
): Promise<{ url: string; requests: RecordedRequest[]; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * For a suite of the signed-out screens: an API that answers every request as to someone without a session,
 * started before the suite and closed after it; before each test, empty browser storage and the test runtime
 * configuration pointing at it. Returns the configuration's `apiBaseUrl`, known once the suite has started.
 */
export function withSignedOutApi(): () => string {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  const apiBaseUrl = () => `${server!.url}/api`;
  beforeAll(async () => {
    server = await startTestServer((_request, res) => json(res, 401, { code: 'NO_SESSION' }));
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    localStorage.clear();
    setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: apiBaseUrl() }));
  });
  return apiBaseUrl;
}
