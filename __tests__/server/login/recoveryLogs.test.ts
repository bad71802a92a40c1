import { randomUUID } from 'node:crypto';
import { logCollector } from '../helpers';
import { passCaptcha, startLoginServer } from './loginServer';

describe('recovery logs', () => {
  const logs = logCollector();
  let server: Awaited<ReturnType<typeof startLoginServer>>;
  beforeAll(async () => {
    server = await startLoginServer({ LOG_LEVEL: 'info' }, { logStream: logs.stream });
  });
  afterAll(() => server.close());

  it('a user id the identity service refuses is logged as a client mistake: no error level, no stack', async () => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const response = await fetch(`${server.api}/credentials-management/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: "'; DROP TABLE users;--", sessionId }),
    });
    expect(response.status).toBe(200);
    // The code is sent (or not) after the answer: wait until the refusal is logged.
    for (let i = 0; i < 200 && !logs.text().includes('recovery code not sent'); i += 1) await new Promise((resolve) => setImmediate(resolve));
    const entries = logs.entries();
    const refusal = entries.find((entry) => String(entry.msg).startsWith('recovery code not sent'));
    expect(refusal).toMatchObject({ level: 30, reason: 'INVALID_PARAMETER' });
    expect(entries.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
    expect(logs.text()).not.toMatch(/"stack"|DROP TABLE/);
  });
});
