// The disk the server writes to is full: the embedded storage's files (ENOSPC, or EDQUOT over a quota of the
// file system) or the SQLite database beside them (SQLITE_FULL). Not a bug and not the client's fault: the
// request is refused with nothing of it kept, and the same request works again once there is room.
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Whether `error`, or an error it was caused by, says the disk is full. */
export function isDiskFull(error: unknown): boolean {
  // Not `instanceof Error`: the file system's errors may come from another realm (a worker, a test's sandbox).
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && DISK_FULL.has(code)) return true;
  }
  return false;
}

/** The log line of a refusal for want of room: one stable message and event, whichever endpoint refused. */
export const DISK_FULL_LOG = { event: 'disk.full', message: 'the disk is full: the request was refused and nothing of it kept' } as const;
