// Rate limits counted in Redis (REDIS_URL): shared by every server process, and what happens when Redis is
// wrong at start or goes away later.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { buildTestApp, freePort, openTestDatabase } from './helpers';
import { redisAnswers, startServerProcess, type ServerProcess } from './processes';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sharedRedis = redisAnswers(redisUrl);
if (!sharedRedis) process.stderr.write(`No Redis answers at ${new URL(redisUrl).host} (REDIS_URL): the shared rate-limit tests are skipped.\n`);
const redisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!redisServer) process.stderr.write('redis-server is not installed: the Redis outage test is skipped.\n');

/** In the URL the servers are given: it must reach no log line. */
const REDIS_PASSWORD = 'outage-test-password-7c1f';

describe('rate limits in Redis', () => {
  it('a REDIS_URL nobody answers stops the start, and the message does not repeat the URL', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: database.dataDir, REDIS_URL: `redis://:hunter2@127.0.0.1:${await freePort()}` });
      const failure = await buildApp(config, { database }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/^Redis \(REDIS_URL\) cannot be reached: .*ECONNREFUSED/);
      expect(failure).not.toContain('hunter2');
    } finally {
      await database.destroy();
    }
  });

  (sharedRedis ? it : it.skip)('two servers on one Redis count a client together', async () => {
    const prefix = `divilo-test-${randomUUID().slice(0, 8)}:`;
    const env = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX: '3' };
    const servers = [await buildTestApp(env), await buildTestApp(env)];
    const redis = new Redis(redisUrl);
    try {
      const answers: number[] = [];
      for (let i = 0; i < 5; i += 1) answers.push((await servers[i % 2].app.inject('/config.json')).statusCode);
      // Counted apart, each would have let three through.
      expect(answers).toEqual([200, 200, 200, 429, 429]);
      expect(await redis.keys(`${prefix}rate-limit:*`)).toEqual([`${prefix}rate-limit:127.0.0.1`]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  (redisServer ? it : it.skip)(
    'counts in each process while Redis is away, says so in /health, and counts together again once it is back',
    async () => {
      const port = await freePort();
      const startRedis = async (): Promise<ChildProcess> => {
        const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', REDIS_PASSWORD]);
        await new Promise<void>((resolve, reject) => {
          child.stdout?.on('data', (chunk) => String(chunk).includes('Ready to accept connections') && resolve());
          child.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
        });
        return child;
      };
      const stopRedis = (child: ChildProcess) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        });

      let redis = await startRedis();
      const dataDirs = [mkdtempSync(path.join(tmpdir(), 'divilo-redis-')), mkdtempSync(path.join(tmpdir(), 'divilo-redis-'))];
      // A window far longer than the test: no count runs out while it waits for Redis to go or come back.
      // The test's requests come from a client address of their own: the servers' calls to their own embedded
      // endpoints count under 127.0.0.1.
      const env = { REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:${port}`, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: 'true', LOG_LEVEL: 'info' };
      const [first, second] = ['203.0.113.7', '203.0.113.8'];
      const servers: ServerProcess[] = [];
      try {
        const ports = [await freePort(), await freePort()];
        const metricsPorts = [await freePort(), await freePort()];
        servers.push(...(await Promise.all(dataDirs.map((dir, i) => startServerProcess({ ...env, DATA_DIR: dir, PORT: String(ports[i]), METRICS_PORT: String(metricsPorts[i]) })))));
        // The gauge each process's /metrics shows (docs/server.md, "Watching it"), as each change of reachability sets it.
        const reachable = async (i: number) => /^divilo_redis_reachable(?:\{[^}]*\})? (\d)$/m.exec(await (await fetch(`http://127.0.0.1:${metricsPorts[i]}/metrics`)).text())?.[1];
        const bases = ports.map((serverPort) => `http://127.0.0.1:${serverPort}`);
        const health = async (base: string) => (await fetch(`${base}/health`)).json() as Promise<{ status: string; redis?: { reachable: boolean } }>;
        const statusOf = async (base: string, client = first) => (await fetch(`${base}/config.json`, { headers: { 'x-forwarded-for': client } })).status;
        /** One client's requests, each to the next process in turn. */
        const spread = async (count: number, client: string) => {
          const answers: number[] = [];
          for (let i = 0; i < count; i += 1) answers.push(await statusOf(bases[i % 2], client));
          return answers;
        };

        expect(await health(bases[0])).toMatchObject({ status: 'ok', redis: { reachable: true } });
        expect([await reachable(0), await reachable(1)]).toEqual(['1', '1']);
        expect(await spread(5, first)).toEqual([200, 200, 200, 429, 429]);

        // Redis goes away under traffic.
        const away = servers.map((server) => server.logEntry((entry) => entry.event === 'redis.unreachable'));
        const traffic = Promise.all(Array.from({ length: 20 }, (_, i) => statusOf(bases[i % 2])));
        await stopRedis(redis);
        expect((await traffic).every((status) => status === 200 || status === 429)).toBe(true);
        await Promise.all(away);
        for (const base of bases) expect(await health(base)).toMatchObject({ status: 'degraded', redis: { reachable: false } });
        expect([await reachable(0), await reachable(1)]).toEqual(['0', '0']);
        // Each process counts in its memory, requests at the same moment included: three each, not one more.
        for (const base of bases) {
          const answers = await Promise.all(Array.from({ length: 10 }, () => statusOf(base, second)));
          expect(answers.filter((status) => status === 200)).toHaveLength(3);
          expect(answers.filter((status) => status === 429)).toHaveLength(7);
        }

        // Back on the same port, empty (no persistence here): the processes count together again.
        const back = servers.map((server) => server.logEntry((entry) => entry.event === 'redis.reachable'));
        redis = await startRedis();
        await Promise.all(back);
        for (const base of bases) expect(await health(base)).toMatchObject({ status: 'ok', redis: { reachable: true } });
        expect([await reachable(0), await reachable(1)]).toEqual(['1', '1']);
        // Counted in memory, both processes would refuse the second client at once; counted apart, the fourth would pass.
        expect(await spread(5, second)).toEqual([200, 200, 200, 429, 429]);

        const logs = servers.map((server) => server.output.stdout).join('');
        expect(logs.match(/"event":"redis\.unreachable"/g)).toHaveLength(2);
        expect(logs).not.toContain(REDIS_PASSWORD);
      } finally {
        expect(await Promise.all(servers.map((server) => server.stop()))).toEqual(servers.map(() => 0));
        await stopRedis(redis);
        for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
