// One service per data dir: two processes writing one lowdb document would lose each other's
// writes. A pid file rather than an mtime lock (proper-lockfile), so that a restart after
// `kill -9` takes over at once instead of waiting for the lock to go stale. A pid alone is not
// enough: after kill -9 (or a reboot) the pid may belong to another process by now, so the lock
// also records when its owner started (boot id and start time from /proc, where there is one),
// and a live process with that pid but another start time is not the owner.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

export interface LockInfo {
  pid: number;
  /** The owner's boot id and start time (`<boot id>:<clock ticks since boot>`), where /proc tells them. */
  started?: string;
  /** Where the owner answers, once it listens. */
  url?: string;
}

/** Data dirs held by services in this process (several services may be embedded in one). */
const heldHere = new Set<string>();

export class DataDirBusyError extends Error {
  constructor(dir: string, info: LockInfo) {
    super(
      `The data dir ${dir} is in use by another Diff Review service (pid ${info.pid}${info.url ? `, ${info.url}` : ''}). ` +
        `Stop it first, or choose another data dir with --data-dir. If no such service runs, delete ${path.join(dir, LOCK_FILE)}.`,
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
  if (!isAlive(info.pid)) return undefined;
  // Alive, but perhaps a later process that got the pid: then it started at another time.
  const started = startedAt(info.pid);
  if (info.started !== undefined && started !== undefined && started !== info.started) return undefined;
  return info;
}

export function acquireDataDirLock(dataDir: string): { update(info: Partial<LockInfo>): void; release(): void } {
  const dir = path.resolve(dataDir);
  const owner = liveLockOwner(dir);
  if (owner) throw new DataDirBusyError(dir, owner);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, started: startedAt(process.pid) };
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

/** `<boot id>:<start time in clock ticks since boot>` of a process, from /proc (undefined without one). */
function startedAt(pid: number): string | undefined {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, starttime field 22.
    const starttime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    return starttime === undefined ? undefined : `${bootId}:${starttime}`;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
