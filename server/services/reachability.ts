// Whether a service the server depends on answers, as /health reports it. Load balancers poll /health every
// few seconds from every zone, and anyone can call it: a probe per call would make /health as slow as the
// service and turn each call into a request to it. So the probe runs at most once per `ttlMs`, one at a time,
// and /health answers at once with what the last probe found.

export interface Reachability {
  /** `null` until the first probe has answered. */
  reachable: boolean | null;
  /** When the last probe answered (ISO 8601). */
  checkedAt?: string;
}

export interface CachedProbe {
  /** The last known state, at once; starts a probe in the background when that state is older than the TTL. */
  current(): Reachability;
  /** Waits for the probe under way, if any (tests, and the first answer at start). */
  settled(): Promise<void>;
}

/** `onChange` hears each change of the answer (the first one included), so the log says it once per change. */
export function cachedProbe(
  probe: () => Promise<boolean>,
  { ttlMs, now, onChange }: { ttlMs: number; now: () => Date; onChange?: (reachable: boolean) => void },
): CachedProbe {
  let last: { reachable: boolean; at: Date } | undefined;
  let running: Promise<void> | undefined;

  const start = () => {
    running ??= probe()
      .catch(() => false)
      .then((reachable) => {
        if (reachable !== last?.reachable) onChange?.(reachable);
        last = { reachable, at: now() };
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    current() {
      if (!last || now().getTime() - last.at.getTime() >= ttlMs) start();
      return last ? { reachable: last.reachable, checkedAt: last.at.toISOString() } : { reachable: null };
    },
    settled: async () => running,
  };
}
