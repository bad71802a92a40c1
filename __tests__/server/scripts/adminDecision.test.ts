// `npm run admin approve` as a process, with the user pool unreachable: the run ends with a plain message and a
// failure exit, the application stays approved with its effects pending, and the next run finishes them.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers';
import { signIn, startLoginServerOn } from '../login/loginServer';
import { consentAndSign, readyToSign } from '../onboarding/signing';

const run = (env: Record<string, string>, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('scripts', 'admin.ts'), '--reviewer', 'marta', ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe('npm run admin approve, as a process, with the user pool unreachable', () => {
  it('exits 1 saying what is pending, and the next run finishes the approval and sends the e-mail once', async () => {
    const server = await startLoginServerOn('sqlite');
    try {
      const { id, token } = await readyToSign(server, '00000047P', { language: 'en' });
      expect((await consentAndSign(server, token)).status).toBe(200);
      const env = { DATA_DIR: server.config.dataDir, PUBLIC_URL: server.base, DATABASE_URL: '', LOG_LEVEL: 'silent' };
      const closed = `http://127.0.0.1:${await freePort()}/cognito`;

      const interrupted = await run({ ...env, COGNITO_ENDPOINT: closed }, 'approve', id);
      expect(interrupted.code).toBe(1);
      // One plain line (after Node's own warnings), no stack trace of an uncaught error.
      expect(interrupted.stderr).not.toMatch(/\n\s+at /);
      expect(interrupted.stderr.trim().split('\n').pop()).toMatch(new RegExp(`^Application ${id} was approved, but user-pool-status failed \\(.*ECONNREFUSED.*\\); effects pending: user-pool-status, notice-email\\. Run the command again to finish them$`));
      expect((await server.app.applications.find(id))!.status).toBe('approved');
      await expect(signIn(server.base, '00000047P', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
      const shown = await run(env, 'show', id);
      expect((JSON.parse(shown.stdout) as { effectsPending: { effect: string }[] }).effectsPending.map((effect) => effect.effect)).toEqual(['user-pool-status', 'notice-email']);

      const finished = await run(env, 'approve', id);
      expect(finished).toMatchObject({ code: 0, stdout: `Application ${id} was approved already; now done: user-pool-status, notice-email.\n` });
      await expect(signIn(server.base, '00000047P', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
      expect(await run(env, 'approve', id)).toMatchObject({ code: 0, stdout: `Application ${id} was approved already; nothing pending.\n` });
      const notices = await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', '00000047p@example.com').where('purpose', '=', 'notice').execute();
      expect(notices).toHaveLength(1);
    } finally {
      await server.close();
    }
    // Four runs of the command, each a fresh Node process loading TypeScript.
  }, 120_000);
});
