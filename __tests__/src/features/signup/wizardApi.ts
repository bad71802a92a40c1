// The API as the wizard's screen tests play it: a local server that answers each path under /api/ as the test
// says, the product's own captcha provider (solved and checked for real), and "no session" for the session check.
import { altchaProvider } from '../../../../server/services/captcha/altcha';
import { setRuntimeConfig } from '../../../../src/config';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';

type Answer = (request: RecordedRequest) => [number, unknown];

const captcha = altchaProvider({ hmacSecret: 'test-secret', hmacKeySecret: 'test-key-secret', cost: 20, counterRange: [2, 8], ttlSeconds: 120, rememberSolved: async () => true });

export const pathOf = (request: RecordedRequest) => request.url.split('?')[0].replace(/^\/api\//, '');

/** Starts the server for the test file and resets it before each test; `answers` is emptied then, and filled by the tests. */
export function wizardApi() {
  const answers: Record<string, Answer> = {};
  let server: Awaited<ReturnType<typeof startTestServer>>;
  async function answer(request: RecordedRequest): Promise<[number, unknown]> {
    const path = pathOf(request);
    if (answers[path]) return answers[path](request);
    if (path === 'user-authorization-management/get-session') return [401, { code: 'NO_SESSION' }];
    if (path === 'captcha/challenge') return [200, await captcha.createChallenge!()];
    if (path === 'captcha/verify') return [200, { success: (await captcha.verify(new URL(request.url, 'http://x').searchParams.get('response') ?? '', {})).success }];
    return [404, { code: 'NOT_FOUND', message: `No answer for ${path}` }];
  }
  beforeAll(async () => {
    server = await startTestServer((request, res) => void answer(request).then(([status, body]) => json(res, status, body)));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    localStorage.clear();
    server.requests.length = 0;
    for (const path of Object.keys(answers)) delete answers[path];
    setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
  });
  return { answers, requestsTo: (path: string) => server.requests.filter((request) => pathOf(request) === path), setRuntimeConfigWith: (overrides: Parameters<typeof testRuntimeConfig>[0]) => setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api`, ...overrides })) };
}
