// Requests at a steady rate, one every 1000/rate ms whatever the server does (an open loop, as independent
// customers arrive), each latency measured from the moment its request was due. A server that stalls is seen
// stalling: the requests due meanwhile wait in the client and their wait counts. (autocannon's rate mode is a
// closed loop that sends each connection's share of a second back to back at the top of the second: it
// measures a burst each second, and a stall delays the requests it would have measured.)
import { Agent, request } from 'node:http';

export interface SteadyRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface SteadyResult {
  /** Latencies in ms, sorted. */
  latencies: number[];
  statuses: Map<number, number>;
  /** Connection errors and timeouts. */
  failures: number;
  seconds: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function steadyLoad(options: {
  base: string;
  rate: number;
  seconds: number;
  timeoutMs: number;
  /** The connections the client may open (requests due while all are busy wait for one). */
  connections: number;
  next: () => SteadyRequest;
}): Promise<SteadyResult> {
  const { hostname, port } = new URL(options.base);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let failures = 0;
  let finished = 0;
  const started = performance.now();

  await new Promise<void>((resolve) => {
    const done = () => {
      finished += 1;
      if (finished === total) resolve();
    };
    const fire = (due: number) => {
      const { method, path, headers = {}, body } = options.next();
      const outgoing = request(
        { host: hostname, port, method, path, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - due);
            statuses.set(response.statusCode ?? 0, (statuses.get(response.statusCode ?? 0) ?? 0) + 1);
            done();
          });
        },
      );
      outgoing.setTimeout(options.timeoutMs, () => outgoing.destroy(new Error('timeout')));
      outgoing.on('error', () => {
        failures += 1;
        done();
      });
      outgoing.end(body);
    };
    let sent = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * interval <= now) {
        fire(started + sent * interval);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, statuses, failures, seconds: (performance.now() - started) / 1000 };
}
