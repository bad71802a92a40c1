import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './helpers';

// server/server.ts as operators run it: its own process, the environment as its only input.
const root = path.resolve(__dirname, '../..');

function start(env: Record<string, string>): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1', ...env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => (output.stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (output.stderr += String(chunk)));
  return Object.assign(child, { output });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-process-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('server/server.ts', () => {
  it('stops with one line naming the variable when the configuration is wrong', async () => {
    const child = start({ PORT: 'eighty', DATA_DIR: dataDir });
    expect(await exited(child)).toBe(1);
    expect(child.output.stderr.trim().split('\n')).toEqual(['Configuration error: PORT must be a whole number from 1 to 65535 (got "eighty")']);
  });

  it('does not start in production until the identity check is named, and says so in one line', async () => {
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://alta.divilo.es',
      SERVER_SECRET: Buffer.alloc(32, 7).toString('base64'),
      SMS_PROVIDER_URL: 'https://sms.example/send',
      SMTP_URL: 'smtps://mail.example',
      SEAL_P12_FILE: __filename,
      SEAL_P12_PASSPHRASE: 'seal passphrase',
      CONTRACT_TEMPLATES_DIR: path.join(__dirname, '../../server/data/contract-sample'),
    };
    const child = start(production);
    expect(await exited(child)).toBe(1);
    expect(child.output.stderr.trim().split('\n')).toEqual([
      'Configuration error: IDENTITY_PROVIDER must be set in production: manual (the bank reviews the photos) or webhook (an identity provider)',
    ]);
  });

  it("stops with one line naming the file and the place when the bank's contract template is broken", async () => {
    writeFileSync(path.join(dataDir, 'es.json'), JSON.stringify({ version: '2026-03' }));
    const child = start({ DATA_DIR: dataDir, CONTRACT_TEMPLATES_DIR: dataDir });
    expect(await exited(child)).toBe(1);
    expect(child.output.stderr.trim().split('\n')).toEqual([`Configuration error: CONTRACT_TEMPLATES_DIR: ${path.join(dataDir, 'es.json')}: title must be a text`]);
  });

  it('serves, prints its address, and closes cleanly on SIGTERM', async () => {
    const port = await freePort();
    const child = start({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const exit = exited(child);
    try {
      await until(() => child.output.stdout.includes('running at'), 'the start message');
      expect(child.output.stdout).toContain(`http://localhost:${port}`);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(child.output.stderr).toBe('');
  });
});
