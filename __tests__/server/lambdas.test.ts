import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { handler, type PreTokenGenerationEvent } from '../../server/lambdas/preTokenGeneration';

const event = (attributes: Record<string, string>, triggerSource = 'TokenGeneration_Authentication'): PreTokenGenerationEvent => ({
  triggerSource,
  userName: '12345678Z',
  request: { userAttributes: { sub: 'a-sub', ...attributes } },
  response: {},
});

describe('the Cognito pre-token-generation Lambda', () => {
  it('lets customers whose onboarding is complete sign in, and refuses the rest with ERR-2809 only', async () => {
    const complete = event({ 'custom:onboarding_status': 'complete' });
    await expect(handler(complete)).resolves.toBe(complete);
    for (const status of ['pending_review', 'in_progress', '']) {
      await expect(handler(event({ 'custom:onboarding_status': status, phone_number: '+34600000001' }))).rejects.toThrow(/^ERR-2809$/);
    }
    await expect(handler(event({}))).rejects.toThrow(/^ERR-2809$/);
    // A rejected application is an answer, not a wait: its own code.
    await expect(handler(event({ 'custom:onboarding_status': 'rejected' }))).rejects.toThrow(/^ERR-2810$/);
    // Renewing tokens is refused too: a customer rejected since signing in gets no new ones.
    await expect(handler(event({ 'custom:onboarding_status': 'rejected' }, 'TokenGeneration_RefreshTokens'))).rejects.toThrow(/^ERR-2810$/);
    const renewal = event({ 'custom:onboarding_status': 'complete' }, 'TokenGeneration_RefreshTokens');
    await expect(handler(renewal)).resolves.toBe(renewal);
  });

  it('bundles into one file that Node loads and runs as Lambda would', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'divilo-lambda-'));
    try {
      const outfile = path.join(dir, 'preTokenGeneration.js');
      await build({
        entryPoints: [path.resolve(__dirname, '../../server/lambdas/preTokenGeneration.ts')],
        bundle: true,
        platform: 'node',
        // As `npm run build:lambdas` bundles it: the same syntax target (the Lambda runs Node 24).
        target: /--target=(\S+)/.exec((JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['build:lambdas'])![1],
        format: 'cjs',
        outfile,
        logLevel: 'silent',
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle is CommonJS, as Lambda loads it
      const bundled = require(outfile) as { handler: typeof handler };
      await expect(bundled.handler(event({ 'custom:onboarding_status': 'complete' }))).resolves.toMatchObject({ userName: '12345678Z' });
      await expect(bundled.handler(event({ 'custom:onboarding_status': 'pending_review' }))).rejects.toThrow('ERR-2809');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
