// The sweep: abandoned multipart uploads go after their age, and files no row points at (left by a crash
// between writing bytes and committing, or between committing and removing what was replaced) after a grace
// period long enough that no request can still be about to commit them; so do quota reservations that no longer
// count (an upload a crash left unreleased).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StorageContext } from './context';
import { removeQuietly, UPLOAD_ID, uploadDir } from './files';
import { RESERVATION_MS } from './quota';

export interface SweepReport {
  abandonedUploads: number;
  orphanFiles: number;
  staleReservations: number;
}

/** Hand one to the plugin to run the sweep when you choose (tests, an admin task); it also runs on a timer. */
export class StorageMaintenance {
  private runner: (() => Promise<SweepReport>) | undefined;

  /** Called by the plugin. */
  attach(runner: (() => Promise<SweepReport>) | undefined): void {
    this.runner = runner;
  }

  sweep(): Promise<SweepReport> {
    if (!this.runner) return Promise.reject(new Error('The storage endpoint is not running'));
    return this.runner();
  }
}

const BATCH = 500;

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function olderThan(file: string, limit: number): Promise<boolean> {
  try {
    return (await stat(file)).mtimeMs < limit;
  } catch {
    return false;
  }
}

export async function sweepStorage(context: StorageContext, options: { abandonedUploadMs: number; orphanGraceMs: number }): Promise<SweepReport> {
  const now = context.now();
  const graceLimit = now - options.orphanGraceMs;
  const { repository, layout } = context;
  const report: SweepReport = { abandonedUploads: 0, orphanFiles: 0, staleReservations: 0 };
  if (context.quotas) report.staleReservations = await context.quotas.removeStale(new Date(now - RESERVATION_MS));

  for (const uploadId of await repository.uploads.createdBefore(new Date(now - options.abandonedUploadMs))) {
    if (await repository.uploads.remove(uploadId)) {
      await removeQuietly(uploadDir(layout, uploadId), true);
      report.abandonedUploads += 1;
    }
  }

  // Upload folders without a row, and part files no part row points at.
  const folders = await entries(layout.uploadsDir);
  for (let i = 0; i < folders.length; i += BATCH) {
    const batch = folders.slice(i, i + BATCH);
    const live = await repository.uploads.existing(batch.filter((name) => UPLOAD_ID.test(name)));
    for (const name of batch) {
      const dir = path.join(layout.uploadsDir, name);
      if (!live.has(name)) {
        if (await olderThan(dir, graceLimit)) {
          await removeQuietly(dir, true);
          report.orphanFiles += 1;
        }
        continue;
      }
      const referenced = await repository.uploads.partFiles(name);
      for (const file of await entries(dir)) {
        if (!referenced.has(file) && (await olderThan(path.join(dir, file), graceLimit))) {
          await removeQuietly(path.join(dir, file));
          report.orphanFiles += 1;
        }
      }
    }
  }

  // Temp files of writes that never finished.
  for (const name of await entries(layout.tmpDir)) {
    if (await olderThan(path.join(layout.tmpDir, name), graceLimit)) {
      await removeQuietly(path.join(layout.tmpDir, name));
      report.orphanFiles += 1;
    }
  }

  // Object files no row points at.
  for (const folder of await entries(layout.objectsDir)) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    const names = await entries(path.join(layout.objectsDir, folder));
    for (let i = 0; i < names.length; i += BATCH) {
      const files = names.slice(i, i + BATCH).map((name) => `${folder}/${name}`);
      const referenced = await repository.objects.referencedFiles(files);
      for (const file of files) {
        const full = path.join(layout.objectsDir, file);
        if (!referenced.has(file) && (await olderThan(full, graceLimit))) {
          await removeQuietly(full);
          report.orphanFiles += 1;
        }
      }
    }
  }
  return report;
}
