// One service per data dir: two processes writing one lowdb document would lose each other's
// writes. A pid file rather than an mtime lock (proper-lockfile), so that a restart after
// `kill -9` takes over at once instead of waiting for the lock to go stale.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

export interface LockInfo {
  pid: number;
  /** Where the owner answers, once it listens. */
  url?: string;
}

/** Data dirs held by services in this process (several services may be embedded in one). */
const heldHere = new Set<string>();

export class DataDirBusyError extends Error {
  constructor(dir: string, info: LockInfo) {
    super(
      `The data dir ${dir} is in use by another Diff Review service (pid ${info.pid}${info.url ? `, ${info.url}` : ''}). ` +
        'Stop it first, or choose another data dir with --data-dir.',
    );
    this.name = 'DataDirBusyError';
  }
}

export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's owner when it is a live process (this one included, if it holds the dir). */
export function liveLockOwner(dataDir: string): LockInfo | undefined {
  const dir = path.resolve(dataDir);
  const info = readLock(dir);
  if (!info) return undefined;
  if (info.pid === process.pid) return heldHere.has(dir) ? info : undefined;
  return isAlive(info.pid) ? info : undefined;
}

export function acquireDataDirLock(dataDir: string): { update(info: Partial<LockInfo>): void; release(): void } {
  const dir = path.resolve(dataDir);
  const owner = liveLockOwner(dir);
  if (owner) throw new DataDirBusyError(dir, owner);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid };
  writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
  heldHere.add(dir);
  return {
    update(patch) {
      info = { ...info, ...patch };
      writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
    },
    release() {
      heldHere.delete(dir);
      if (readLock(dir)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
