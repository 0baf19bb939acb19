// Start-up never loses data silently: a missing, empty or damaged store.json beside the data of
// earlier reviews, or an archive segment cut short, stops the start with a message that says what
// is wrong and how to recover, and changes nothing; a truly fresh data dir starts empty; whatever
// is dropped (the torn tail of a crash in the middle of an append) is logged loudly.
import { appendFile, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createService } from '../../../service/service.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import type { StoreLog } from '../../../service/store/store-log.ts';
import type { StoredReview } from '../../../service/store/types.ts';
import { startTestService } from '../../support/test-service.ts';
import { tempDirs } from '../../support/temp-dirs.ts';
import { reviewIdOf, storedReview } from '../../support/stored-review.ts';

const dataDir = tempDirs('startup');

/** A StoreLog that keeps what it is told. */
function recordingLog() {
  const lines: { level: string; details: object; message: string }[] = [];
  const log: StoreLog = {
    info: (details, message) => lines.push({ level: 'info', details, message }),
    warn: (details, message) => lines.push({ level: 'warn', details, message }),
    error: (details, message) => lines.push({ level: 'error', details, message }),
  };
  return { log, lines, loud: () => lines.filter((l) => l.level !== 'info') };
}

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const review = (i: number, status: StoredReview['status'] = 'completed') =>
  storedReview({ review_id: reviewIdOf(i), status, at: T0 + i * 60_000 });

/** 1,000 finished reviews (most in the archive) and a few queued ones with their diffs. */
async function seed(dir: string) {
  const store = await LowdbStore.open(dir);
  await Promise.all(Array.from({ length: 1000 }, (_, i) => store.insertReview(review(i))));
  for (let i = 1000; i < 1005; i++) {
    await store.writeDiff(review(i).review_id, 'diff --git a/x b/x\n');
    await store.insertReview(review(i, 'queued'));
  }
  await store.writeFindings(review(999).review_id, []);
  await store.close();
}
const storeFile = (dir: string) => path.join(dir, 'store.json');
const lastSegment = async (dir: string) =>
  path.join(dir, 'archive', (await readdir(path.join(dir, 'archive'))).sort().at(-1)!);

describe('start-up with a missing or damaged store file', () => {
  for (const [name, replace] of [
    ['missing', (file: string) => rm(file)],
    ['{}', (file: string) => writeFile(file, '{}')],
    ['[]', (file: string) => writeFile(file, '[]')],
    ['null', (file: string) => writeFile(file, 'null')],
    ['empty', (file: string) => writeFile(file, '')],
  ] as const) {
    it(`refuses to start when store.json is ${name} but diffs, results and the archive are still there, and changes nothing`, async () => {
      const dir = await dataDir();
      await seed(dir);
      await replace(storeFile(dir));
      const before = await readdir(dir, { recursive: true });
      const error = await LowdbStore.open(dir).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(name === 'missing' ? /store\.json is missing/ : /store\.json is empty/);
      expect(error?.message).toMatch(/5 diffs/);
      expect(error?.message).toMatch(/Restore it from a backup/);
      expect((await readdir(dir, { recursive: true })).sort()).toEqual(before.sort());
    });
  }

  it('the service refuses too, frees the data dir, and mints no dashboard token', async () => {
    const dir = await dataDir();
    await seed(dir);
    await rm(storeFile(dir));
    await expect(createService({ dataDir: dir, port: 0, logLevel: 'silent' })).rejects.toThrow(
      /store\.json is missing/,
    );
    await expect(stat(path.join(dir, 'dashboard-token'))).rejects.toThrow(/ENOENT/);
    await expect(stat(path.join(dir, 'service.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses when only the dashboard-token file is left beside a missing store.json (its review tokens were there)', async () => {
    const dir = await dataDir();
    const t = await startTestService({}, dir); // mints the dashboard token and a review token; no review
    await t.service.close();
    const secret = await readFile(path.join(dir, 'dashboard-token'), 'utf8');
    await rm(storeFile(dir));
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.map((e) => e.name)).toEqual(['dashboard-token']); // the folders are empty
    await expect(createService({ dataDir: dir, port: 0, logLevel: 'silent' })).rejects.toThrow(
      /store\.json is missing, but the data dir still holds a dashboard-token file/,
    );
    expect(await readFile(path.join(dir, 'dashboard-token'), 'utf8')).toBe(secret); // no new one minted
    await expect(stat(path.join(dir, 'service.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('a truly fresh data dir still starts empty', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    expect(await store.listReviews({ owner: 'local', limit: 10 })).toEqual([]);
    await store.close();
  });

  it('a document of the wrong shape ({"reviews":null}, a review without an id) says where, instead of crashing', async () => {
    const dir = await dataDir();
    await writeFile(storeFile(dir), JSON.stringify({ reviews: null }));
    await expect(LowdbStore.open(dir)).rejects.toThrow(
      /not a Diff Review store \(.*\/reviews.*\).*Restore it from a backup/,
    );
    const { review_id: _, ...noId } = review(1);
    await writeFile(storeFile(dir), JSON.stringify({ version: 1, reviews: [noId], tokens: [] }));
    await expect(LowdbStore.open(dir)).rejects.toThrow(/\/reviews\/0/);
    expect(JSON.parse(await readFile(storeFile(dir), 'utf8')).reviews).toEqual([noId]); // not changed
  });
});

describe('start-up with an archive segment cut short', () => {
  it('refuses to start when the cut line holds a review the document no longer has, and says how to keep the whole lines', async () => {
    const dir = await dataDir();
    await seed(dir);
    const segment = await lastSegment(dir);
    const { size } = await stat(segment);
    await truncate(segment, Math.floor(size / 3)); // a copy cut short: two thirds of its reviews are gone
    const error = await LowdbStore.open(dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/ends in a cut line/);
    expect(error?.message).toMatch(/truncate -s \d+/);
    expect((await stat(segment)).size).toBe(Math.floor(size / 3)); // not changed
  });

  it('drops the torn tail of a crash in the middle of an append (its reviews are still in the document), and says so', async () => {
    const dir = await dataDir();
    await seed(dir);
    const doc = JSON.parse(await readFile(storeFile(dir), 'utf8')) as { reviews: StoredReview[] };
    const inDocument = doc.reviews.find((r) => r.status === 'completed')!;
    const segment = await lastSegment(dir);
    await appendFile(segment, JSON.stringify(inDocument).slice(0, 60));
    const { log, loud } = recordingLog();
    const store = await LowdbStore.open(dir, { log });
    expect(await store.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(1005);
    await store.close();
    expect(loud()).toEqual([
      expect.objectContaining({
        level: 'warn',
        details: expect.objectContaining({ file: segment, reviews: [inDocument.review_id] }),
      }),
    ]);
  });
});
