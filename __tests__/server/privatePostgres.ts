// A PostgreSQL server of the test's own (initdb and pg_ctl on a spare port), so a test can do to it what a
// failover or a crash does: kill its postmaster, then start it again on the same data.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/freePort';

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  /**
   * SIGKILL to the postmaster: its backends end their connections with "unexpected postmaster exit". Settles once
   * they all have, so that nothing answers any more.
   */
  kill(): Promise<void>;
  /** Starts it again on the same data (crash recovery first), once the killed one's backends are gone. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

/** The folder of PostgreSQL's server programs (`pg_config --bindir`, else Debian's newest), when they are installed. */
export function postgresBinaries(): string | undefined {
  const candidates: string[] = [];
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0) candidates.push(fromConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = spawnSync('ls', [debian], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    candidates.push(...versions.sort((a, b) => Number(b) - Number(a)).map((version) => path.join(debian, version, 'bin')));
  }
  return candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')));
}

/** Whether a process still runs (a zombie, ended but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** PostgreSQL refuses to run as root: as root the programs run as the `postgres` system user. */
function runAs(): { uid: number; gid: number; wrap: (command: string[]) => string[] } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid, wrap: (command) => ['runuser', '-u', 'postgres', '--', ...command] };
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const root = mkdtempSync(path.join(tmpdir(), 'divilo-pg-'));
  const dataDir = path.join(root, 'data');
  const user = runAs();
  if (user) chownSync(root, user.uid, user.gid);
  const run = (program: string, args: string[]) => {
    const [command, ...rest] = (user?.wrap ?? ((c: string[]) => c))([path.join(bin, program), ...args]);
    return spawnSync(command, rest, { encoding: 'utf8', cwd: root, timeout: 120_000 });
  };
  const initialised = run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  if (initialised.status !== 0) throw new Error(`initdb failed: ${initialised.stderr}`);
  const port = await freePort();
  // fsync off: a killed process loses nothing the kernel already has; only a machine's crash would.
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;

  const pidOf = (): number | undefined => {
    const file = path.join(dataDir, 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
  };
  const start = async () => {
    // The killed postmaster's backends leave on their own within moments; until then its shared memory is in use.
    for (let attempt = 0; ; attempt += 1) {
      const started = run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(root, 'log'), '-w', '-t', '60', 'start']);
      if (started.status === 0) return;
      if (attempt >= 30) throw new Error(`pg_ctl start failed: ${started.stderr}${started.stdout}\n${readFileSync(path.join(root, 'log'), 'utf8').slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  await start();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: async () => {
      const pid = pidOf();
      if (!pid) return;
      const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
      process.kill(pid, 'SIGKILL');
      while ([pid, ...children].some(running)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    start,
    destroy: async () => {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
