// One damaged review must not take its neighbours down: a missing or corrupt results file, or an
// archive line that is no review (`{}`), found at start or while running, leaves that review out of
// list pages (logged, by id, without its contents) and answers the rest; reading that review alone
// is a 500. Through the real HTTP service on a seeded data dir.
import { mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import { startTestService, type TestService } from '../../support/test-service.ts';
import { storedReview } from '../../support/stored-review.ts';

const running: TestService[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) {
    await t.close();
    expect(t.contract.violations).toEqual([]);
  }
});

const id = (i: number) => `rev_${String(i).padStart(26, '0')}`;
const COUNT = 1000;

/**
 * COUNT completed reviews of the local owner, each with its (empty) results file; all but the newest
 * end up archived. The reviews go in within one tick, so one write moves the oldest to the archive
 * (inserted as their files were written, a late one could stay in the document: under load, id(10)
 * once did, and nothing of it was archived to damage).
 */
async function seeded(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-damaged-'));
  const store = await LowdbStore.open(dir);
  const reviews = Array.from({ length: COUNT }, (_, i) =>
    storedReview({
      review_id: id(i),
      status: 'completed',
      at: new Date(Date.now() - (COUNT - i) * 60_000).toISOString(),
    }),
  );
  await Promise.all(reviews.map((review) => store.writeFindings(review.review_id, [])));
  await Promise.all(reviews.map((review) => store.insertReview(review)));
  await store.close();
  return dir;
}

async function start(dir: string) {
  const t = await startTestService({}, dir);
  running.push(t);
  return t;
}

/** Every review the list answers, page by page. */
async function listAll(t: TestService): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await t.api('GET', `/v1/reviews?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { reviews: { review_id: string }[]; next_cursor: string | null };
    ids.push(...page.reviews.map((r) => r.review_id));
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}
const errorsAbout = (t: TestService, reviewId: string) =>
  t.logs.filter((l) => /"level":50/.test(l) && l.includes(reviewId));

/** Replaces the archive line of a review, in place, by `{}` padded to the same length. */
async function blankArchiveLine(dir: string, reviewId: string) {
  for (const name of await readdir(path.join(dir, 'archive'))) {
    const file = path.join(dir, 'archive', name);
    const text = await readFile(file, 'utf8');
    const start = text.indexOf(`{"review_id":"${reviewId}"`);
    if (start < 0) continue;
    const length = text.indexOf('\n', start) - start;
    const handle = await open(file, 'r+');
    await handle.write('{}'.padEnd(length, ' '), start);
    await handle.close();
    return;
  }
  throw new Error(`${reviewId} is not archived`);
}

describe('damaged review data on list pages', () => {
  it('a missing and a corrupt results file: those two are left out and logged, the page answers the rest', async () => {
    const dir = await seeded();
    await rm(path.join(dir, 'results', `${id(998)}.json`));
    await writeFile(path.join(dir, 'results', `${id(997)}.json`), '{"not": json');
    const t = await start(dir);
    const first = await t.api('GET', '/v1/reviews?limit=10');
    expect(first.status).toBe(200);
    const page = (await first.json()) as { reviews: { review_id: string }[]; next_cursor: string };
    expect(page.reviews.map((r) => r.review_id)).toEqual([999, 996, 995, 994, 993, 992, 991, 990].map(id));
    expect(page.next_cursor).toBeTruthy();
    expect(await listAll(t)).toHaveLength(COUNT - 2);
    expect(errorsAbout(t, id(998)).length).toBeGreaterThan(0);
    expect(errorsAbout(t, id(997)).length).toBeGreaterThan(0);
    expect((await t.api('GET', `/v1/reviews/${id(998)}`)).status).toBe(500);
    expect((await t.api('GET', `/v1/reviews/${id(997)}`)).status).toBe(500);
    expect(t.logs.join('')).not.toContain('"not"'); // the file's contents are not logged
  });

  it('an archive line that is no review ({}), found at start: skipped and logged, every other review listed', async () => {
    const dir = await seeded();
    await blankArchiveLine(dir, id(10));
    const t = await start(dir);
    const ids = await listAll(t);
    expect(ids).toHaveLength(COUNT - 1);
    expect(ids).not.toContain(id(10));
    expect(t.logs.some((l) => /"level":50/.test(l) && /archive/.test(l))).toBe(true);
  });

  it('an archive line damaged while the service runs: that review is left out and logged, the rest listed', async () => {
    const dir = await seeded();
    const t = await start(dir);
    await blankArchiveLine(dir, id(10));
    const ids = await listAll(t);
    expect(ids).toHaveLength(COUNT - 1);
    expect(ids).not.toContain(id(10));
    expect(errorsAbout(t, id(10)).length).toBeGreaterThan(0);
    expect((await t.api('GET', `/v1/reviews/${id(10)}`)).status).toBe(500);
  });
});
