// Rate limits counted in Redis (REDIS_URL): shared by every server process, and what happens when Redis is
// wrong at start or goes away later.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { buildTestApp, freePort, openTestDatabase, type TestApp } from './helpers';
import { redisAnswers } from './processes';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sharedRedis = redisAnswers(redisUrl);
if (!sharedRedis) process.stderr.write(`No Redis answers at ${new URL(redisUrl).host} (REDIS_URL): the shared rate-limit tests are skipped.\n`);
const redisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!redisServer) process.stderr.write('redis-server is not installed: the Redis outage test is skipped.\n');

/** Log entries as they are written, and the next one a test waits for. */
function logWatcher() {
  const waiters: { match: (entry: Record<string, unknown>) => boolean; resolve: () => void }[] = [];
  const entries: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        entries.push(entry);
        for (const waiter of waiters.filter((candidate) => candidate.match(entry))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      done();
    },
  });
  const next = (message: string) => new Promise<void>((resolve) => waiters.push({ match: (entry) => entry.msg === message, resolve }));
  return { stream, entries, next };
}

const statuses = async (app: TestApp['app'], count: number) => {
  const answers: number[] = [];
  for (let i = 0; i < count; i += 1) answers.push((await app.inject('/config.json')).statusCode);
  return answers;
};

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

  (redisServer ? it : it.skip)('lets requests through uncounted while Redis is away, says so once, and counts again when it is back', async () => {
    const port = await freePort();
    const startRedis = async (): Promise<ChildProcess> => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk) => String(chunk).includes('Ready to accept connections') && resolve());
        child.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
      });
      return child;
    };
    const stopRedis = (child: ChildProcess) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });

    let redis = await startRedis();
    const logs = logWatcher();
    const server = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_MAX: '2', LOG_LEVEL: 'info' }, { logStream: logs.stream });
    // The gauge /metrics shows (docs/server.md, "Watching it"), as each change of reachability sets it.
    const reachable = async () => /^divilo_redis_reachable(?:\{[^}]*\})? (\d)$/m.exec(await server.app.metrics.text())?.[1];
    try {
      expect(await statuses(server.app, 3)).toEqual([200, 200, 429]);
      expect(await reachable()).toBe('1');

      const away = logs.next('Redis is unreachable: rate limits are not counted until it is back');
      await stopRedis(redis);
      await away;
      expect(await statuses(server.app, 4)).toEqual([200, 200, 200, 200]);
      expect(await reachable()).toBe('0');

      const back = logs.next('Redis is reachable again: rate limits are counted');
      redis = await startRedis();
      await back;
      expect(await reachable()).toBe('1');
      // The new Redis holds no counters (no persistence here): counting starts again.
      expect(await statuses(server.app, 3)).toEqual([200, 200, 429]);
      expect(logs.entries.filter((entry) => String(entry.msg).startsWith('Redis is unreachable'))).toHaveLength(1);
    } finally {
      await server.close();
      await stopRedis(redis);
    }
  });
});
