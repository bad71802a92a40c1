// A file system of a few MiB of its own (tmpfs), to run the server out of disk for real: its writes then fail as
// they would on a full volume (ENOSPC, SQLITE_FULL). Mounting needs root, as CI has; elsewhere the tests that
// need it say why and skip, and under CI (`CI` set) they fail instead.
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const FILLER = '.filler';

export interface SmallDisk {
  dir: string;
  /** Fills the disk up, leaving `leaveBytes` free (a filler file; nothing else is touched). */
  fill(leaveBytes?: number): void;
  /** Removes the filler: the room comes back. */
  free(): void;
  freeBytes(): number;
  unmount(): void;
}

function run(command: string, args: string[]): string | undefined {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status === 0) return undefined;
  return (result.stderr || result.error?.message || `exit ${result.status}`).trim();
}

export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'divilo-small-disk-'));
  const failure = run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  if (failure) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mount -t tmpfs failed: ${failure}`);
  }
  const filler = path.join(dir, FILLER);
  const freeBytes = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    freeBytes,
    fill(leaveBytes = 0) {
      const handle = openSync(filler, 'a');
      try {
        for (const block of [Buffer.alloc(1024 * 1024, 1), Buffer.alloc(4096, 1)]) {
          try {
            for (;;) writeSync(handle, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
        if (leaveBytes > 0) ftruncateSync(handle, Math.max(0, fstatSync(handle).size - leaveBytes));
      } finally {
        closeSync(handle);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      const failure = run('umount', [dir]);
      if (failure) throw new Error(`umount ${dir} failed: ${failure}`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why no small disk can be mounted here (undefined: it can); said once on standard error, thrown under CI. */
export function smallDiskUnavailable(what: string): string | undefined {
  let reason: string | undefined;
  try {
    mountSmallDisk(1024 * 1024).unmount();
  } catch (error) {
    reason = `${(error as Error).message}: ${what} needs a tmpfs of its own (root) and is skipped.`;
  }
  if (reason && process.env.CI) throw new Error(reason);
  if (reason) process.stderr.write(`${reason}\n`);
  return reason;
}
