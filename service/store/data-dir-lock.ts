// One service per data dir: two processes writing one lowdb document would lose each other's
// writes. A pid file rather than an mtime lock (proper-lockfile), so that a restart after
// `kill -9` takes over at once instead of waiting for the lock to go stale. A pid alone is not
// enough: after kill -9 (or a reboot) the pid may belong to another process by now, so the lock
// also records when its owner started (data-dir-process-start.ts), and a live process with that
// pid but another start time is not the owner.
//
// Taking the lock cannot race: the lock file appears whole or not at all (written aside, then
// hard-linked into place, which fails when one is there), and a stale one is removed only under a
// short-lived takeover file, created exclusively, after checking it is still the one found stale.
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processStart, processStartLike } from './data-dir-process-start.ts';

export const LOCK_FILE = 'service.lock';

export interface LockInfo {
  pid: number;
  /** When the owner started (`<source>:<start>`, data-dir-process-start.ts), where that can be told. */
  started?: string;
  /** Where the owner answers, once it listens. */
  url?: string;
  /** Unique to this taking of the lock: no two lock files read the same. */
  nonce?: string;
}

/** Data dirs held by services in this process (several services may be embedded in one). */
const heldHere = new Set<string>();

export class DataDirBusyError extends Error {
  /** `info` undefined: starters kept taking the lock over each other and none could be named. */
  constructor(dir: string, info: LockInfo | undefined) {
    super(
      info?.pid === process.pid
        ? `The data dir ${dir} is already open in this process: close the service that uses it first, or give this one another data dir.`
        : info === undefined
          ? `The data dir ${dir} is being taken by other Diff Review services starting at the same moment. ` +
            `Start one at a time, or give each its own data dir with --data-dir.`
          : `The data dir ${dir} is in use by another Diff Review service (pid ${info.pid}${info.url ? `, ${info.url}` : ''}). ` +
            `Stop it first, or choose another data dir with --data-dir. If no such service runs, delete ${path.join(dir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirBusyError';
  }
}

export function readLock(dataDir: string): LockInfo | undefined {
  return parseLock(readLockText(path.join(dataDir, LOCK_FILE)));
}

function readLockText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseLock(text: string | undefined): LockInfo | undefined {
  try {
    const info = JSON.parse(text ?? '') as LockInfo;
    return typeof info?.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's owner when it is a live process (this one included, if it holds the dir). */
export function liveLockOwner(dataDir: string): LockInfo | undefined {
  const dir = path.resolve(dataDir);
  return ownerOf(dir, readLock(dir));
}

function ownerOf(dir: string, info: LockInfo | undefined): LockInfo | undefined {
  if (!info) return undefined;
  if (info.pid === process.pid) return heldHere.has(dir) ? info : undefined;
  if (!isAlive(info.pid)) return undefined;
  // Alive, but perhaps a later process that got the pid: then it started at another time.
  const started = info.started === undefined ? undefined : processStartLike(info.started, info.pid);
  if (started !== undefined && started !== info.started) return undefined;
  return info;
}

/** How long a takeover may take before another starter may clear it (it takes microseconds). */
const TAKEOVER_STALE_MS = 10_000;
/** Tries at taking the lock while others take over a stale one at the same moment. */
const ATTEMPTS = 200;

export function acquireDataDirLock(dataDir: string): { update(info: Partial<LockInfo>): void; release(): void } {
  const dir = path.resolve(dataDir);
  if (heldHere.has(dir)) throw new DataDirBusyError(dir, { pid: process.pid });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, started: processStart(process.pid), nonce: randomUUID() };
  for (let attempt = 0; !createWhole(file, info); attempt++) {
    const text = readLockText(file);
    const owner = ownerOf(dir, parseLock(text));
    if (owner) throw new DataDirBusyError(dir, owner);
    if (attempt === ATTEMPTS) throw new DataDirBusyError(dir, parseLock(text));
    // Stale (or half-written by a starter of an older version): removed if it is still that one.
    if (!removeIfStill(file, text)) pause(5);
  }
  heldHere.add(dir);
  return {
    update(patch) {
      info = { ...info, ...patch };
      const aside = `${file}.${process.pid}.next`;
      writeFileSync(aside, JSON.stringify(info), { mode: 0o600 });
      renameSync(aside, file); // readers never see it half-written
    },
    release() {
      heldHere.delete(dir);
      if (readLock(dir)?.nonce === info.nonce) rmSync(file, { force: true });
    },
  };
}

/** Puts the lock file in place, whole, unless there is one already (false). */
function createWhole(file: string, info: LockInfo): boolean {
  const aside = `${file}.${process.pid}.new`;
  writeFileSync(aside, JSON.stringify(info), { mode: 0o600 });
  try {
    linkSync(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Removes the lock file if its text is still `stale`, under the takeover file, so that a starter
 * never removes a lock another one has just taken. False when another takeover is under way.
 */
function removeIfStill(file: string, stale: string | undefined): boolean {
  const takeover = `${file}.takeover`;
  try {
    writeFileSync(takeover, String(process.pid), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - (statSync(takeover, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > TAKEOVER_STALE_MS) rmSync(takeover, { force: true }); // its taker died midway
    return false;
  }
  try {
    if (readLockText(file) === stale) rmSync(file, { force: true });
    return true;
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** Waits without returning to the event loop (taking the lock is synchronous, and rare). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
