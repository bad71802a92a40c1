import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/** How long a connection attempt or one command may take before it counts as failed. */
const TIMEOUT_MS = 2000;

/** Whether the shared Redis answers now, as /health reports it, and since when (ISO 8601). */
export interface RedisState {
  reachable: boolean;
  since: string;
}

export interface RedisConnection {
  redis: Redis;
  state(): RedisState;
}

/**
 * The Redis the server processes share their rate-limit counters in, connected before the server answers:
 * a wrong REDIS_URL stops the start. Later, each outage and each return is logged once (not at every
 * reconnection attempt), and commands fail at once instead of queueing while it is away: the rate limits
 * count in the process meanwhile (rateLimitStore.ts).
 */
export async function connectRedis(app: FastifyInstance, url: string): Promise<RedisConnection> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: TIMEOUT_MS, commandTimeout: TIMEOUT_MS, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let connected = false;
  let closing = false;
  let startError: Error | undefined;
  let lastError: Error | undefined;
  let state: RedisState = { reachable: false, since: new Date().toISOString() };
  // Without a listener, ioredis would print every failed reconnection; the message never holds the URL.
  redis.on('error', (error: Error) => {
    if (!connected) startError ??= error;
    lastError = error;
  });
  redis.on('close', () => {
    if (!connected || closing || !state.reachable) return;
    state = { reachable: false, since: new Date().toISOString() };
    app.metrics.redisReachable(false);
    app.log.error({ event: 'redis.unreachable', reason: lastError?.message ?? 'connection closed' }, 'Redis is unreachable: rate limits are counted in each process until it is back');
  });
  redis.on('ready', () => {
    lastError = undefined;
    const returned = connected && !state.reachable;
    state = { reachable: true, since: new Date().toISOString() };
    app.metrics.redisReachable(true);
    if (returned) app.log.info({ event: 'redis.reachable' }, 'Redis is reachable again: rate limits are shared again');
  });
  try {
    await redis.connect();
    connected = true;
    app.metrics.redisReachable(true);
  } catch (error) {
    redis.disconnect();
    // The first failure says why (ECONNREFUSED, ENOTFOUND, a refused password); connect() only says it closed.
    throw new Error(`Redis (REDIS_URL) cannot be reached: ${(startError ?? (error as Error)).message}`);
  }
  app.addHook('onClose', async () => {
    closing = true;
    await redis.quit().catch(() => redis.disconnect());
  });
  return { redis, state: () => state };
}
