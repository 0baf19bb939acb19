// A data dir the service cannot write (disk full, read-only, permissions): creates answer 500 in
// the error shape and say why, nothing half-made is kept, the service stays up for reads, and it
// recovers by itself once the path is writable again. Tests run as root here, for whom chmod
// changes nothing, so the paths are made unwritable by putting the wrong kind of file where the
// service writes: a file where the diffs folder is (ENOTDIR), a folder where lowdb's temp file goes
// (EISDIR). Both fail for root too.
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

const running: TestService[] = [];
afterEach(async () => {
  for (const t of running.splice(0).reverse()) {
    await t.close();
    expect(t.contract.violations).toEqual([]);
  }
});

async function create(t: TestService, repository: string) {
  return t.api('POST', '/v1/reviews', { body: { diff: DEBUGGER_DIFF, repository } });
}

async function expectStillServing(t: TestService, reviewId: string) {
  expect((await t.api('GET', '/healthz', { token: null })).status).toBe(200);
  const read = await t.api('GET', `/v1/reviews/${reviewId}`);
  expect(read.status).toBe(200);
  expect(((await read.json()) as { status: string }).status).toBe('completed');
  expect((await t.api('GET', '/v1/reviews?limit=100')).status).toBe(200);
}

describe('an unwritable data dir', () => {
  it('creates answer 500 with a clear error, reads keep working, and creates work again once it is writable', async () => {
    let t = await startTestService();
    running.push(t);
    const client = t.client();
    const before = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'before' });
    await client.waitForReview(before.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
    // A finished job's diff goes just after its end is saved: wait for that, or breaking the
    // diffs folder below would keep it there (until the next start) and look like a leftover.
    const diffs = path.join(t.dataDir, 'diffs');
    const pending = async () => (await readdir(diffs)).filter((f) => f.endsWith('.diff'));
    await expect.poll(pending, { timeout: 30_000, message: "the finished review's diff removed" }).toEqual([]);

    // 1. The diffs folder is not writable: the diff cannot be saved.
    await rename(diffs, `${diffs}.away`);
    await writeFile(diffs, 'not a folder');
    for (let i = 0; i < 3; i++) {
      const refused = await create(t, `diffs-broken-${i}`);
      expect(refused.status).toBe(500);
      const body = (await refused.json()) as { error: string; message: string };
      expect(body.error).toBe('internal_error');
      expect(body.message).toMatch(/could not be saved.*ENOTDIR.*Nothing was queued/);
    }
    await expectStillServing(t, before.review_id);
    await rm(diffs);
    await rename(`${diffs}.away`, diffs);

    // 2. The store document cannot be rewritten (its temp file's path is taken by a folder).
    const temp = path.join(t.dataDir, '.store.json.tmp');
    await mkdir(temp);
    const refused = await create(t, 'store-broken');
    expect(refused.status).toBe(500);
    const body = (await refused.json()) as { error: string; message: string };
    expect(body).toEqual({ error: 'internal_error', message: expect.stringMatching(/could not be saved.*EISDIR/) });
    await expectStillServing(t, before.review_id);
    // Nothing half-made: the refused create left no diff file behind and no job in the list.
    expect((await readdir(diffs)).filter((f) => f.endsWith('.diff'))).toEqual([]);
    const listed = (await client.listReviews({ limit: 100 })).reviews.map((r) => r.repository);
    expect(listed).toEqual(['before']);

    // 3. Writable again: the service recovers without a restart.
    await rm(temp, { recursive: true });
    const after = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'after' });
    expect((await client.waitForReview(after.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).status).toBe(
      'completed',
    );

    // Failures were logged at error level with their cause; the log holds no diff.
    expect(t.logs.join('')).toMatch(/"level":50.*could not be written/);
    expect(t.logs.join('')).not.toContain('debugger;');

    // And what a restart finds is exactly what was acknowledged.
    t = await t.restart();
    running.splice(0, 1, t);
    const restarted = (await t.client().listReviews({ limit: 100 })).reviews;
    expect(restarted.map((r) => [r.repository, r.status])).toEqual([
      ['after', 'completed'],
      ['before', 'completed'],
    ]);
  });
});
