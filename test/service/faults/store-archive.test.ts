// The store keeps finished reviews out of the lowdb document once there are many (append-only
// archive segments beside it), so a write costs the same at 100,000 reviews as at 1,000. These
// check that nothing is lost on the way: restarts, a crash in the middle of an append, a crash
// between the append and the document write, listing across both, retention across both.
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import type { StoredReview } from '../../../service/store/types.ts';
import { tempDirs } from '../../support/temp-dirs.ts';
import { reviewIdOf, storedReview } from '../../support/stored-review.ts';

const dataDir = tempDirs('archive');

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const review = (i: number, status: StoredReview['status'] = 'completed', at = T0 + i * 60_000) =>
  storedReview({ review_id: reviewIdOf(i), status, repository: `repo-${i % 3}`, at });
const ids = (reviews: StoredReview[]) => reviews.map((r) => r.review_id);
const docOf = async (dir: string) =>
  JSON.parse(await readFile(path.join(dir, 'store.json'), 'utf8')) as { reviews: StoredReview[] };

/** 1,200 reviews finished over 12 days from T0, 100 a day. */
function finishOverTwelveDays(store: LowdbStore) {
  return Promise.all(
    Array.from({ length: 1200 }, (_, i) =>
      store.insertReview(review(i, 'completed', T0 + Math.floor(i / 100) * DAY + (i % 100) * 1000)),
    ),
  );
}

async function seed(dir: string, count: number, unfinishedEvery = 0) {
  const store = await LowdbStore.open(dir);
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      store.insertReview(review(i, unfinishedEvery && i % unfinishedEvery === 0 ? 'queued' : 'completed')),
    ),
  );
  await store.close();
}

describe('store archive', () => {
  it('moves old finished reviews out of the document, keeps unfinished ones in it, and loses none across restarts', async () => {
    const dir = await dataDir();
    await seed(dir, 3000, 100);
    const doc = await docOf(dir);
    expect(doc.reviews.length).toBeLessThan(500); // the document stays small...
    expect(doc.reviews.filter((r) => r.status === 'queued')).toHaveLength(30); // ...and holds every unfinished job
    expect((await readdir(path.join(dir, 'archive'))).length).toBeGreaterThan(0);

    const store = await LowdbStore.open(dir);
    expect((await store.unfinishedReviews()).length).toBe(30);
    for (const i of [0, 1, 1500, 2999])
      expect((await store.getReview(review(i).review_id))?.review_id).toBe(review(i).review_id);
    // Listing walks both, newest first, with its filters and pages.
    const all = await store.listReviews({ owner: 'local', limit: 10_000 });
    expect(all).toHaveLength(3000);
    expect(ids(all)).toEqual(ids(all).toSorted().reverse());
    const page = await store.listReviews({
      owner: 'local',
      repository: 'repo-1',
      status: 'completed',
      limit: 5,
      before: review(10).review_id,
    });
    expect(ids(page)).toEqual([7, 4, 1].map((i) => review(i).review_id));
    await store.close();
  });

  it('a torn last line (a crash in the middle of an append) is dropped; the reviews it held are still in the document', async () => {
    const dir = await dataDir();
    await seed(dir, 1000);
    const [segment] = (await readdir(path.join(dir, 'archive'))).sort().reverse();
    // The start of a line of the append that was cut: a review the document still holds.
    const inDocument = (await docOf(dir)).reviews[0]!;
    await appendFile(path.join(dir, 'archive', segment!), JSON.stringify(inDocument).slice(0, 50));
    const store = await LowdbStore.open(dir);
    expect(await store.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(1000);
    // The next append lands on a clean line.
    await Promise.all(Array.from({ length: 600 }, (_, i) => store.insertReview(review(1000 + i))));
    await store.close();
    const reopened = await LowdbStore.open(dir);
    expect(await reopened.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(1600);
    await reopened.close();
  });

  it('a review in both the archive and the document (a crash between the two writes) is one review, the document’s', async () => {
    const dir = await dataDir();
    await seed(dir, 1000);
    const doc = await docOf(dir);
    const inDoc = doc.reviews[0]!;
    // The same review appended to the archive again, with an older state.
    await appendFile(
      path.join(dir, 'archive', `reviews-${inDoc.updated_at.slice(0, 10)}.jsonl`),
      `${JSON.stringify({ ...inDoc, repository: 'stale' })}\n`,
    );
    const store = await LowdbStore.open(dir);
    expect((await store.getReview(inDoc.review_id))?.repository).toBe(inDoc.repository);
    expect(await store.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(1000);
    await store.close();
  });

  it('a damaged line in the middle of a segment stops the start with a clear error instead of dropping reviews', async () => {
    const dir = await dataDir();
    await seed(dir, 1000);
    const [segment] = (await readdir(path.join(dir, 'archive'))).sort();
    const file = path.join(dir, 'archive', segment!);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = '{not json';
    await writeFile(file, lines.join('\n'));
    await expect(LowdbStore.open(dir)).rejects.toThrow(/damaged line 2/);
  });

  it('retention deletes finished reviews from the archive and the document, and they stay deleted', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    await finishOverTwelveDays(store);
    const cutoff = new Date(T0 + 5 * DAY + 50 * 1000).toISOString(); // in the middle of day 6
    expect(await store.deleteFinishedBefore(cutoff)).toBe(550);
    expect(await store.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(650);
    await store.close();
    const reopened = await LowdbStore.open(dir);
    const left = await reopened.listReviews({ owner: 'local', limit: 10_000 });
    expect(left).toHaveLength(650);
    expect(left.every((r) => r.updated_at >= cutoff)).toBe(true);
    await reopened.close();
  });

  it('a document of the old layout (every review in it) is moved to the archive on its first write', async () => {
    const dir = await dataDir();
    const reviews = Array.from({ length: 2000 }, (_, i) => review(i));
    await writeFile(path.join(dir, 'store.json'), JSON.stringify({ version: 1, reviews, tokens: [], idempotency: [] }));
    const store = await LowdbStore.open(dir);
    await store.insertReview(review(5000, 'queued'));
    await store.close();
    expect((await docOf(dir)).reviews.length).toBeLessThan(500);
    const reopened = await LowdbStore.open(dir);
    expect(await reopened.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(2001);
    await reopened.close();
  });

  it('archived reviews are read from their segments: after retention rewrote the cut-off day, and when one changes again', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    await finishOverTwelveDays(store);
    const cutoff = new Date(T0 + 5 * DAY + 50 * 1000).toISOString();
    expect(await store.deleteFinishedBefore(cutoff)).toBe(550);
    // Kept lines of the rewritten segment moved: every one is still found, whole.
    for (const i of [550, 551, 599, 600, 1199]) {
      const found = await store.getReview(review(i).review_id);
      expect(found?.review_id).toBe(review(i).review_id);
      expect(found?.repository).toBe(`repo-${i % 3}`);
    }
    expect(await store.getReview(review(549).review_id)).toBeUndefined();
    // An archived review that changes comes back to the document, and the change survives a restart.
    const changed = await store.updateReview(review(560).review_id, { repository: 'moved' });
    expect(changed.repository).toBe('moved');
    expect((await store.getReview(review(560).review_id))?.repository).toBe('moved');
    const listed = await store.listReviews({ owner: 'local', repository: 'moved', limit: 10 });
    expect(ids(listed)).toEqual([review(560).review_id]);
    await store.close();
    const reopened = await LowdbStore.open(dir);
    expect((await reopened.getReview(review(560).review_id))?.repository).toBe('moved');
    expect(await reopened.listReviews({ owner: 'local', limit: 10_000 })).toHaveLength(650);
    await reopened.close();
  });
});
