import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, request as forward, type Server } from 'node:http';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written so far. */
  output: { stdout: string; stderr: string };
  /** The next log entry (pino JSON line) that `match` accepts, waiting for it as it is written. */
  logEntry(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** The exit code, once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * server/server.ts as operators run it: its own process, the environment as its only input (and, with `preload`, a
 * module loaded before it, as server/instrumentation.ts is). Settles once it prints that it is running; fails with
 * what it wrote if it exits first.
 */
export async function startServerProcess(env: Record<string, string>, options: { preload?: string } = {}): Promise<ServerProcess> {
  const preload = options.preload ? ['--import', options.preload] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, 'server/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1', ...env },
  });
  const output = { stdout: '', stderr: '' };
  const waiters: { match: (entry: Record<string, unknown>) => boolean; resolve: (entry: Record<string, unknown>) => void }[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk) => {
    output.stdout += String(chunk);
    const lines = (partial + String(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      for (const waiter of [...waiters]) {
        if (waiter.match(entry)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(entry);
        }
      }
    }
  });
  child.stderr?.on('data', (chunk) => (output.stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (!output.stdout.includes('Divilo is running at')) return;
      child.stdout?.off('data', onData);
      resolve();
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it ran:\n${output.stderr}${output.stdout.slice(-2000)}`)));
  });

  return {
    child,
    output,
    logEntry: (match) => new Promise((resolve) => waiters.push({ match, resolve })),
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface LoadBalancer {
  server: Server;
  port: number;
  /** Which process served each request, in order. */
  served: { process: number; method: string; url: string }[];
  close(): Promise<void>;
}

/**
 * An HTTP load balancer in front of server processes on `ports`: each request goes to the next one in turn,
 * the Host header and body passed through as they came.
 */
export async function loadBalancer(ports: number[]): Promise<LoadBalancer> {
  const served: LoadBalancer['served'] = [];
  let turn = 0;
  const server = createServer((incoming, outgoing) => {
    const target = turn % ports.length;
    turn += 1;
    served.push({ process: target, method: incoming.method ?? 'GET', url: incoming.url ?? '/' });
    const upstream = forward({ host: '127.0.0.1', port: ports[target], method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    port,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Whether a Redis answers PING at `url` (asked from a child process, so test files can decide before they declare). */
export function redisAnswers(url: string): boolean {
  const { hostname, port } = new URL(url);
  const probe = `
    const socket = require('node:net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname)});
    socket.setTimeout(2000, () => process.exit(1));
    socket.on('error', () => process.exit(1));
    socket.on('connect', () => socket.write('PING\\r\\n'));
    socket.on('data', (data) => process.exit(String(data).startsWith('+PONG') ? 0 : 1));`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 5000 }).status === 0;
}
