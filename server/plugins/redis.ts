import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/** How long a connection attempt or one command may take before it counts as failed. */
const TIMEOUT_MS = 2000;

/**
 * The Redis the server processes share their rate-limit counters in, connected before the server answers:
 * a wrong REDIS_URL stops the start. Later outages are logged once each (not at every reconnection attempt),
 * and commands fail at once instead of queueing while it is away.
 */
export async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: TIMEOUT_MS, commandTimeout: TIMEOUT_MS, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let connected = false;
  let failing = false;
  let startError: Error | undefined;
  // Without a listener, ioredis would print every failed reconnection; the message never holds the URL.
  redis.on('error', (error: Error) => {
    if (!connected) startError ??= error;
    if (!connected || failing) return;
    failing = true;
    app.metrics.redisReachable(false);
    app.log.error({ reason: error.message }, 'Redis is unreachable: rate limits are not counted until it is back');
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    app.metrics.redisReachable(true);
    app.log.info('Redis is reachable again: rate limits are counted');
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
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}
