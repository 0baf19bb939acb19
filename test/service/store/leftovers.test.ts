// What the service leaves on disk and what a crash leaves behind: every file it writes is 0600 and
// every folder 0700 whatever the umask; orphan diffs and results (diffs may hold secrets) and the
// temp files of writes cut short are swept on the next start; a lock left by kill -9 whose pid now
// belongs to another process does not keep the service from starting.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirBusyError, LOCK_FILE } from '../../../service/store/data-dir-lock.ts';
import { startTimeSources } from '../../../service/store/data-dir-process-start.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import type { StoreLog } from '../../../service/store/store-log.ts';
import type { StoredReview } from '../../../service/store/types.ts';
import { DEBUGGER_DIFF, startTestService } from '../../support/test-service.ts';
import { tempDirs } from '../../support/temp-dirs.ts';
import { reviewIdOf, storedReview } from '../../support/stored-review.ts';

const dataDir = tempDirs('leftovers');

const id = reviewIdOf;
const review = (i: number, status: StoredReview['status']) => storedReview({ review_id: id(i), status });

/** The files under `dir` that are not 0600 and the folders that are not 0700, with their modes. */
async function notPrivate(dir: string): Promise<string[]> {
  const wrong: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const mode = (await stat(full)).mode & 0o777;
    if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) wrong.push(`${path.relative(dir, full)} ${mode.toString(8)}`);
  }
  return wrong;
}

describe('file modes', () => {
  it('every file the service writes is 0600 and every folder 0700, even under a permissive umask', async () => {
    const previous = process.umask(0o000);
    try {
      const parent = await dataDir();
      const dir = path.join(parent, 'data'); // made by the service
      const t = await startTestService({}, dir);
      const client = t.client();
      const job = await client.createReview(
        { diff: DEBUGGER_DIFF, repository: 'modes' },
        { idempotencyKey: 'modes-1' },
      );
      await client.waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
      await t.service.close(); // writes what is pending
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect(await notPrivate(dir)).toEqual([]);
      expect(await readdir(dir)).toEqual(
        expect.arrayContaining(['store.json', 'dashboard-token', 'diffs', 'results', 'idempotency']),
      );
    } finally {
      process.umask(previous);
    }
  });
});

describe('file modes past the archive and a retention pass', () => {
  it('archive segments, a segment rewritten by retention, idempotency segments and the lock are 0600 too', async () => {
    const previous = process.umask(0o000);
    try {
      const dir = path.join(await dataDir(), 'data');
      const lock = acquireDataDirLock(dir);
      const store = await LowdbStore.open(dir);
      // 450 finished reviews over three days: past 400 the oldest move to the archive, one segment a day
      for (let i = 0; i < 450; i++) {
        const at = new Date(Date.parse('2026-11-18T00:00:00.000Z') + i * 10 * 60_000).toISOString();
        await store.insertReview({ ...review(i, 'completed'), created_at: at, updated_at: at });
        await store.writeFindings(id(i), []);
        await store.putIdempotency({
          owner: 'local',
          key: `k${i}`,
          request_hash: 'h',
          review_id: id(i),
          created_at: at,
        });
      }
      const segments = await readdir(path.join(dir, 'archive'));
      expect(segments.length).toBeGreaterThan(1);
      const secondDay = path.join(dir, 'archive', segments.sort()[1]!);
      const sizeBefore = (await stat(secondDay)).size;
      // retention: the first day goes, the second day's segment is rewritten without its first hours
      expect(await store.deleteFinishedBefore('2026-11-19T06:00:00.000Z')).toBeGreaterThan(0);
      expect(await store.deleteIdempotencyBefore('2026-11-19T06:00:00.000Z')).toBeGreaterThan(0);
      expect((await stat(secondDay)).size).toBeLessThan(sizeBefore); // rewritten, not removed
      expect(await notPrivate(dir)).toEqual([]); // the lock included, while it is held
      expect(await readdir(dir)).toEqual(expect.arrayContaining([LOCK_FILE, 'archive', 'idempotency', 'store.json']));
      await store.close();
      lock.release();
      expect(await notPrivate(dir)).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });

  it('folders that were there already, open to others, are made 0700 on open, with a warning', async () => {
    const dir = await dataDir();
    for (const folder of ['diffs', 'results', 'archive']) await mkdir(path.join(dir, folder), { mode: 0o755 });
    await chmod(dir, 0o755);
    await chmod(path.join(dir, 'archive'), 0o750);
    const said: string[] = [];
    const log: StoreLog = { info: () => {}, warn: (d, m) => said.push(`${m} ${JSON.stringify(d)}`), error: () => {} };
    const store = await LowdbStore.open(dir, { log });
    await store.close();
    expect(await notPrivate(dir)).toEqual([]);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(said.join('\n')).toMatch(/made private \(0700\).*\. \(was 755\).*diffs \(was 755\).*archive \(was 750\)/);
  });
  it('a shared folder (sticky like /tmp, or a link) named as the data dir is left as it is, with a warning', async () => {
    const dir = await dataDir();
    await chmod(dir, 0o1777);
    const said: string[] = [];
    const log: StoreLog = { info: () => {}, warn: (d, m) => said.push(`${m} ${JSON.stringify(d)}`), error: () => {} };
    const store = await LowdbStore.open(dir, { log });
    await store.close();
    expect((await stat(dir)).mode & 0o7777).toBe(0o1777);
    expect(said.join('\n')).toMatch(/shared folder.*left as it is/);

    const real = await dataDir();
    await chmod(real, 0o755);
    const link = `${real}-link`;
    await symlink(real, link);
    try {
      const linked = await LowdbStore.open(link, { log });
      await linked.close();
      expect((await stat(real)).mode & 0o777).toBe(0o755);
    } finally {
      await rm(link, { force: true });
    }
  });
});

describe('leftovers of a crash', () => {
  it('orphan diffs and results and half-written temp files are swept on start, loudly; what a job needs is kept', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    await store.writeDiff(id(1), 'queued job diff');
    await store.insertReview(review(1, 'queued'));
    await store.writeDiff(id(2), 'diff of a finished job whose delete failed');
    await store.writeFindings(id(2), []);
    await store.insertReview(review(2, 'completed'));
    await store.writeDiff(id(3), 'diff of a create that crashed before its record: AKIA-like secret');
    await store.writeFindings(id(4), []); // results of a review retention deleted
    await store.close();
    const temps = [
      path.join(dir, '.store.json.tmp'),
      path.join(dir, `dashboard-token.123.abc.tmp`),
      path.join(dir, 'diffs', `${id(5)}.diff.123.abc.tmp`),
      path.join(dir, 'results', `${id(2)}.json.123.abc.tmp`),
    ];
    for (const file of temps) await writeFile(file, 'half');
    await mkdir(path.join(dir, 'archive'), { recursive: true });
    await writeFile(path.join(dir, 'archive', 'reviews-2026-11-20.jsonl.1.x.tmp'), 'half');

    const said: string[] = [];
    const log: StoreLog = {
      info: () => {},
      warn: (d, m) => said.push(`${m} ${JSON.stringify(d)}`),
      error: (d, m) => said.push(`${m} ${JSON.stringify(d)}`),
    };
    const reopened = await LowdbStore.open(dir, { log });
    expect((await readdir(path.join(dir, 'diffs'))).sort()).toEqual([`${id(1)}.diff`]);
    expect((await readdir(path.join(dir, 'results'))).sort()).toEqual([`${id(2)}.json`]);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await readdir(path.join(dir, 'archive'))).toEqual([]);
    expect(await reopened.readDiff(id(1))).toBe('queued job diff');
    await reopened.close();
    expect(said.join('\n')).toMatch(/swept/);
    expect(said.join('\n')).toContain('"diffs":2');
    expect(said.join('\n')).not.toContain('secret'); // counts and names, never contents
  });
});

const holders: ChildProcess[] = [];
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL');
});

/**
 * A child process that takes `dir`'s lock and keeps it until killed; resolves once it holds it.
 * `before` is code run first in the child, with the process-start module in scope as `start`.
 */
async function lockHolder(dir: string, before = ''): Promise<ChildProcess> {
  const module = (file: string) => JSON.stringify(path.resolve('service/store', file));
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `Promise.all([import(${module('data-dir-process-start.ts')}), import(${module('data-dir-lock.ts')})]).then(([start, m]) => { ${before} m.acquireDataDirLock(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000); })`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  holders.push(holder);
  await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
  return holder;
}

/** Kills `holder` -9 and answers the lock file it left behind. */
async function leftBy(holder: ChildProcess, dir: string) {
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  return JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; started: string };
}

describe('a stale lock', () => {
  it('left by kill -9, whose pid now belongs to another live process, does not stop the start', async () => {
    const dir = await dataDir();
    // A real holder of the lock, killed -9: its lock file stays behind.
    const holder = await lockHolder(dir);
    const left = await leftBy(holder, dir);
    expect(left.pid).toBe(holder.pid);
    // Its pid reused: the lock now names a live process that is no Diff Review service (our parent, pid 1).
    for (const pid of [process.ppid, 1]) {
      await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ ...left, pid }));
      const lock = acquireDataDirLock(dir);
      lock.release();
    }
  });

  it('whose pid was reused is told from its owner without /proc too (as on macOS: by ps)', async () => {
    const dir = await dataDir();
    const onlyPs = "start.startTimeSources.splice(0, start.startTimeSources.findIndex((s) => s.name === 'ps'));";
    const left = await leftBy(await lockHolder(dir, onlyPs), dir);
    expect(left.started).toMatch(/^ps:\w{3} \w{3} +\d+ [\d:]+ \d{4}$/);
    const sources = startTimeSources.splice(0);
    startTimeSources.push(...sources.filter((source) => source.name !== 'proc'));
    try {
      for (const pid of [process.ppid, 1]) {
        await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ ...left, pid }));
        acquireDataDirLock(dir).release();
      }
      // and with no way left to tell, the pid alone decides (as on Windows): a live one is taken for the owner
      startTimeSources.splice(0);
      await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ ...left, pid: 1 }));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirBusyError);
    } finally {
      startTimeSources.splice(0, startTimeSources.length, ...sources);
    }
  });

  it('taken by two starters at the same moment: exactly one gets it, the other DataDirBusyError', {
    timeout: 120_000,
  }, async () => {
    const lockModule = JSON.stringify(path.resolve('service/store/data-dir-lock.ts'));
    for (let round = 0; round < 12; round++) {
      const dir = await dataDir();
      // A stale lock (a dead pid) to take over, as after a crash: the path where two could both remove it.
      await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + round }));
      const go = path.join(dir, 'go');
      const starters = [0, 1].map(() =>
        spawn(
          process.execPath,
          [
            '-e',
            `import(${lockModule}).then((m) => { const fs = require('node:fs'); console.log('ready'); while (!fs.existsSync(${JSON.stringify(go)})); try { m.acquireDataDirLock(${JSON.stringify(dir)}); console.log('held'); } catch (e) { console.log(e.name); } setInterval(() => {}, 1000); })`,
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        ),
      );
      try {
        const said = starters.map((starter) => {
          let out = '';
          starter.stdout!.on('data', (d) => (out += d));
          return () => out;
        });
        const until = async (done: () => boolean) => {
          while (!done()) await new Promise((r) => setTimeout(r, 5));
        };
        await until(() => said.every((out) => out().includes('ready')));
        await writeFile(go, '');
        await until(() => said.every((out) => /held|Error/.test(out())));
        const results = said.map((out) => out().replace('ready', '').trim()).sort();
        expect(results, `round ${round}`).toEqual(['DataDirBusyError', 'held']);
      } finally {
        for (const starter of starters) starter.kill('SIGKILL');
      }
    }
  });

  it('held by a live service is still refused', async () => {
    const dir = await dataDir();
    await lockHolder(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirBusyError);
  });

  it('opened twice in one process: the message says so, not "another service"', async () => {
    const dir = await dataDir();
    const held = acquireDataDirLock(dir);
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(/already open in this process/);
    } finally {
      held.release();
    }
  });
});
