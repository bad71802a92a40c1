import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { altchaProvider, type AltchaOptions } from '../../../server/services/captcha/altcha';

function provider(overrides: Partial<AltchaOptions> = {}) {
  const solved = new Map<string, number>();
  return altchaProvider({
    hmacSecret: 'test-hmac-secret',
    hmacKeySecret: 'test-hmac-key-secret',
    cost: 50,
    counterRange: [5, 20],
    ttlSeconds: 120,
    rememberSolved: async (signature, expiresAt) => {
      if (solved.has(signature)) return false;
      solved.set(signature, expiresAt);
      return true;
    },
    ...overrides,
  });
}

async function solvedToken(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('the proof-of-work captcha', () => {
  it('accepts a solved challenge once, and refuses it when replayed', async () => {
    const captcha = provider();
    const token = await solvedToken((await captcha.createChallenge!()) as Challenge);
    expect(await captcha.verify(token, {})).toEqual({ success: true });
    expect(await captcha.verify(token, {})).toEqual({ success: false, reason: 'replayed' });
  });

  it('refuses a solution to a challenge whose signed parameters were changed (a longer life)', async () => {
    const captcha = provider();
    const challenge = (await captcha.createChallenge!()) as Challenge;
    const tampered = { ...challenge, parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 } };
    expect(await captcha.verify(await solvedToken(tampered), {})).toEqual({ success: false, reason: 'invalid' });
  });

  it('refuses a challenge signed with another secret', async () => {
    const other = provider({ hmacSecret: 'another-secret' });
    const token = await solvedToken((await other.createChallenge!()) as Challenge);
    expect(await provider().verify(token, {})).toEqual({ success: false, reason: 'invalid' });
  });

  it('refuses an expired challenge', async () => {
    let now = Date.now();
    const captcha = provider({ now: () => now });
    const token = await solvedToken((await captcha.createChallenge!()) as Challenge);
    now += 121_000;
    expect(await captcha.verify(token, {})).toEqual({ success: false, reason: 'expired' });
  });

  it('refuses garbage without throwing', async () => {
    const captcha = provider();
    for (const token of ['', 'not-base64!', Buffer.from('{"x":1}').toString('base64'), 'a'.repeat(10_000)]) {
      expect((await captcha.verify(token, {})).success).toBe(false);
    }
  });
});
