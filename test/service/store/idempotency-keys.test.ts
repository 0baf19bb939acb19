// Idempotency keys live 24 hours and our client sends one with every create: they are kept out of
// the lowdb document (rewritten whole on every write), in an expiring log beside it, and a create
// acknowledged with a key is still replayed after kill -9 and a restart.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../service/client/index.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import type { IdempotencyRecord } from '../../../service/store/types.ts';
import { killMidBurst, killServed, serve } from '../../support/cli-process.ts';
import { DEBUGGER_DIFF } from '../../support/test-service.ts';
import { tempDirs } from '../../support/temp-dirs.ts';
import { storedReview } from '../../support/stored-review.ts';

const dataDir = tempDirs('keys');
afterEach(killServed); // runs before the folders are removed

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const record = (i: number, at = T0 + i * 1000): IdempotencyRecord => ({
  owner: `tok_${i % 3}`,
  key: `key-${i}`,
  request_hash: 'ab'.repeat(32),
  review_id: `rev_${String(i).padStart(26, '0')}`,
  created_at: new Date(at).toISOString(),
});
const storeFile = (dir: string) => path.join(dir, 'store.json');

describe('idempotency keys', () => {
  it('are kept out of the lowdb document, which does not grow with them, and survive a restart', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    await store.insertReview(storedReview({ review_id: `rev_${'9'.repeat(26)}`, owner: 'tok_0' }));
    const before = (await stat(storeFile(dir))).size;
    await Promise.all(Array.from({ length: 2000 }, (_, i) => store.putIdempotency(record(i))));
    await store.close();
    const text = await readFile(storeFile(dir), 'utf8');
    expect(text).not.toContain('key-1');
    expect((JSON.parse(text) as { idempotency?: unknown[] }).idempotency ?? []).toEqual([]);
    expect((await stat(storeFile(dir))).size).toBeLessThanOrEqual(before);

    const reopened = await LowdbStore.open(dir);
    expect(await reopened.getIdempotency('tok_1', 'key-1')).toEqual(record(1));
    expect(await reopened.getIdempotency('tok_2', 'key-1')).toBeUndefined(); // a key is per owner
    await reopened.close();
  });

  it('a forgotten key stays forgotten after a restart; expired ones go with their files', async () => {
    const dir = await dataDir();
    const store = await LowdbStore.open(dir);
    // 30 hours of keys, one every 6 minutes.
    await Promise.all(Array.from({ length: 300 }, (_, i) => store.putIdempotency(record(i, T0 + i * 6 * 60_000))));
    await store.deleteIdempotency('tok_1', 'key-1');
    const cutoff = new Date(T0 + 24 * HOUR + 3 * 60_000).toISOString(); // 3 minutes into hour 24
    expect(await store.deleteIdempotencyBefore(cutoff)).toBe(241 - 1); // keys 0–240 are older; key-1 was forgotten
    expect(await store.getIdempotency('tok_0', 'key-240')).toBeUndefined();
    expect(await store.getIdempotency('tok_1', 'key-241')).toEqual(record(241, T0 + 241 * 6 * 60_000));
    await store.close();
    // Segments of whole hours before the cut-off are gone; the cut-off hour's stays until the next sweep.
    const segments = (await readdir(path.join(dir, 'idempotency'))).sort();
    expect(segments[0]).toBe('keys-2026-11-21T00.jsonl');
    expect(segments).toHaveLength(6);

    const reopened = await LowdbStore.open(dir);
    expect(await reopened.getIdempotency('tok_1', 'key-1')).toBeUndefined();
    expect(await reopened.getIdempotency('tok_1', 'key-241')).toBeDefined();
    expect(await reopened.getIdempotency('tok_2', 'key-299')).toBeDefined();
    await reopened.close();
  });

  it('keys of a document of the earlier layout move to the log, and are still honoured', async () => {
    const dir = await dataDir();
    await writeFile(
      storeFile(dir),
      JSON.stringify({ version: 1, reviews: [], tokens: [], idempotency: [record(1), record(2)] }),
    );
    const store = await LowdbStore.open(dir);
    expect(await store.getIdempotency('tok_2', 'key-2')).toEqual(record(2));
    await store.close();
    expect(
      (JSON.parse(await readFile(storeFile(dir), 'utf8')) as { idempotency?: unknown }).idempotency,
    ).toBeUndefined();
    const reopened = await LowdbStore.open(dir);
    expect(await reopened.getIdempotency('tok_1', 'key-1')).toEqual(record(1));
    await reopened.close();
  });

  it('a create acknowledged with a key is replayed after kill -9 and a restart', async () => {
    const dir = await dataDir();
    const post = ({ url, token }: { url: string; token: string }, i: number) =>
      fetch(`${url}/v1/reviews`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': `burst-${i}`,
        },
        body: JSON.stringify({ diff: DEBUGGER_DIFF, repository: `r${i}` }),
      });
    const { token, acknowledged } = await killMidBurst(dir, async (served, i) => {
      const response = await post(served, i);
      return response.status === 202 ? ((await response.json()) as { review_id: string }).review_id : undefined;
    });

    const restarted = await serve(dir);
    for (const [i, id] of acknowledged) {
      const replay = await post({ url: restarted.url, token }, i);
      expect(replay.status).toBe(202);
      expect(((await replay.json()) as { review_id: string }).review_id).toBe(id);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    const client = createClient({ baseUrl: restarted.url, token });
    const listed = await client.listReviews({ limit: 100 });
    expect(listed.reviews.length).toBeGreaterThanOrEqual(Math.min(acknowledged.size, 100));
  });
});
