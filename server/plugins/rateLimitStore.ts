// The rate-limit counters with several server processes: in the shared Redis while it answers, so a client's
// requests count together whichever process they reach; in the process's memory while it does not, so the
// limits still hold (each process counting alone) instead of letting every request through. Both are
// @fastify/rate-limit's own stores, with their windows, TTLs, continueExceeding and exponential back-off.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

/** The stores' non-mutating read (`{ increment: false }`), which @fastify/rate-limit's types leave out. */
interface Store extends FastifyRateLimitStore {
  read?(key: string, callback: Counted, timeWindow: number, max: number): void;
}

class RedisOrLocalStore implements Store {
  constructor(
    private readonly redis: Redis,
    private readonly shared: Store,
    private readonly local: Store,
  ) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number): void {
    this.use('incr', key, callback, timeWindow, max);
  }

  read(key: string, callback: Counted, timeWindow: number, max: number): void {
    this.use('read', key, callback, timeWindow, max);
  }

  child(routeOptions: RouteOptions): Store {
    return new RedisOrLocalStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }

  /**
   * Redis when its connection is ready; otherwise, or when the command fails (a time-out), memory. The local
   * store answers synchronously, so two requests of one process never count at once. A command that timed out
   * after Redis counted it is counted here too: the error errs on the side of refusing.
   */
  private use(method: 'incr' | 'read', key: string, callback: Counted, timeWindow: number, max: number): void {
    if (this.redis.status !== 'ready') return this.local[method]!(key, callback, timeWindow, max);
    this.shared[method]!(key, (error, result) => (error ? this.local[method]!(key, callback, timeWindow, max) : callback(null, result)), timeWindow, max);
  }
}

/** The `store` option of @fastify/rate-limit: counters under `nameSpace` in `redis`, or in memory while it is away. */
export function redisOrLocalStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class extends RedisOrLocalStore {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const { continueExceeding = false, exponentialBackoff = false } = options;
      super(redis, new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff));
    }
  };
}
