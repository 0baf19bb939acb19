// The Store contract, once: every case runs against each store implementation (lowdb and
// PostgreSQL, see store-contract.test.ts), through the interfaces alone. A place is where a store
// keeps its data (a data dir, a database): opened again, it must hold what was written before.
// The guarantees written in the interfaces (review-store.ts, token-store.ts, idempotency-store.ts)
// each have a case here whose name starts with the rule.
import { ulid } from 'ulid';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../../service/engine/types.ts';
import type { InMemoryLookups } from '../../../service/store/in-memory-lookups.ts';
import type { IdempotencyRecord, Store, StoredReview, StoredToken } from '../../../service/store/types.ts';
import { storedReview } from '../../support/stored-review.ts';

export interface StorePlace<S extends Store = Store> {
  /** Opens the store as the service runs it (PostgreSQL: with its copies at hand trusted, as once its listener is up). */
  open(): Promise<S>;
  /** What the store answers without a promise (lowdb: the store itself; PostgreSQL: its copies at hand). */
  lookups(store: S): InMemoryLookups;
  /** Removes the data (the store is closed by then). */
  remove(): Promise<void>;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
/** Review ids sort by time, like the service's (ULIDs of the given second), the same for the same second. */
const ids = new Map<string, string>();
const idOf = (prefix: string, seconds: number) => {
  const slot = `${prefix}${seconds}`;
  if (!ids.has(slot)) ids.set(slot, `${prefix}${ulid(T0 + seconds * 1000)}`);
  return ids.get(slot)!;
};
const reviewId = (seconds: number) => idOf('rev_', seconds);

const review = (seconds: number, fields: Partial<StoredReview> = {}) =>
  storedReview({
    review_id: reviewId(seconds),
    owner: 'tok_owner_a',
    repository: 'github.com/acme/app',
    at: at(seconds),
    ...fields,
  });

function token(n: number, fields: Partial<StoredToken> = {}): StoredToken {
  return {
    id: idOf('tok_', n),
    owner: 'local',
    type: 'review',
    name: `token ${n}`,
    scopes: ['reviews:read', 'reviews:write'],
    prefix: `drv_${n}abc`.slice(0, 8),
    hash: `${n}`.padStart(64, 'f'),
    created_at: at(n),
    expires_at: at(n + 90 * 86400),
    last_used_at: null,
    ...fields,
  };
}

const finding = (line: number): Finding => ({
  rule_id: 'no-debugger',
  severity: 'warning',
  file_path: 'src/ünïcode app.js',
  line,
  message: 'no-debugger: Remove the debugger statement before merging.',
  start_column: 3,
  end_column: 12,
  fingerprint: `fp-${line}`,
});

export function storeContract<S extends Store>(name: string, place: () => Promise<StorePlace<S>>): void {
  describe(`Store contract: ${name}`, () => {
    const open: { store: S; place: StorePlace<S> }[] = [];
    afterEach(async () => {
      for (const { store, place } of open.splice(0)) {
        await store.close().catch(() => {});
        await place.remove();
      }
    });
    async function fresh() {
      const p = await place();
      const store = await p.open();
      const entry = { store, place: p };
      open.push(entry);
      /** Closes the store and opens the same place again. */
      const reopen = async () => {
        await entry.store.close();
        entry.store = await p.open();
        return entry.store;
      };
      /** The lookups without a promise of the store open now. */
      const lookups = () => p.lookups(entry.store);
      return { store, reopen, lookups };
    }

    it('keeps a review exactly: optional fields absent, not null or undefined', async () => {
      const { store, reopen } = await fresh();
      const plain = review(1);
      const full = review(2, {
        status: 'failed',
        base_commit: 'a'.repeat(40),
        started_at: at(3),
        error: { code: 'timeout', message: 'ran too long' },
        attempts: 2,
        updated_at: at(4),
      });
      await store.insertReview(plain);
      await store.insertReview(full);
      expect(await store.getReview(plain.review_id)).toStrictEqual(plain);
      expect(await store.getReview(full.review_id)).toStrictEqual(full);
      expect(await store.getReview(reviewId(99))).toBeUndefined();
      const again = await reopen();
      expect(await again.getReview(plain.review_id)).toStrictEqual(plain);
      expect(await again.getReview(full.review_id)).toStrictEqual(full);
    });

    it('updates a review: a patch sets fields, undefined clears one, the result is the new state', async () => {
      const { store, reopen } = await fresh();
      const r = review(1);
      await store.insertReview(r);
      const running = await store.updateReview(r.review_id, {
        status: 'running',
        started_at: at(2),
        updated_at: at(2),
        attempts: 1,
      });
      expect(running).toStrictEqual({ ...r, status: 'running', started_at: at(2), updated_at: at(2), attempts: 1 });
      const requeued = await store.updateReview(r.review_id, {
        status: 'queued',
        started_at: undefined,
        updated_at: at(3),
      });
      expect(requeued).toStrictEqual({ ...r, status: 'queued', updated_at: at(3), attempts: 1 });
      const done = await store.updateReview(r.review_id, {
        status: 'completed',
        completed_at: at(4),
        updated_at: at(4),
      });
      expect(await (await reopen()).getReview(r.review_id)).toStrictEqual(done);
      await expect((await reopen()).updateReview(reviewId(50), { status: 'running' })).rejects.toThrow();
    });

    it("a review's first end wins: once it has ended, a patch with a status changes nothing of it", async () => {
      const { store, reopen } = await fresh();
      const r = review(1, { status: 'running', started_at: at(1), attempts: 1 });
      await store.insertReview(r);
      const cancel = { code: 'cancelled', message: 'The review was cancelled before it finished.' } as const;
      const cancelled = { ...r, status: 'failed', error: cancel, updated_at: at(2) } satisfies StoredReview;
      // copies: a store may answer the record it keeps
      expect(
        structuredClone(await store.updateReview(r.review_id, { status: 'failed', error: cancel, updated_at: at(2) })),
      ).toStrictEqual(cancelled);
      // A late result, another end, a second start, a requeue at shutdown: the review as it is.
      const later: Partial<StoredReview>[] = [
        { status: 'completed', completed_at: at(3), updated_at: at(3) },
        { status: 'failed', error: { code: 'timeout', message: 'ran too long' }, updated_at: at(3) },
        { status: 'running', started_at: at(3), updated_at: at(3), attempts: 2 },
        { status: 'queued', started_at: undefined, updated_at: at(3) },
      ];
      for (const patch of later) {
        expect(structuredClone(await store.updateReview(r.review_id, patch))).toStrictEqual(cancelled);
      }
      expect(await store.getReview(r.review_id)).toStrictEqual(cancelled);
      // Two ends at once (a cancel and the result): one of them, whole, and both callers are told that one.
      const q = review(5);
      await store.insertReview(q);
      const completed = { ...q, status: 'completed', completed_at: at(6), updated_at: at(6) } satisfies StoredReview;
      const failed = { ...q, status: 'failed', error: cancel, updated_at: at(6) } satisfies StoredReview;
      const answers = (
        await Promise.all([
          store.updateReview(q.review_id, { status: 'completed', completed_at: at(6), updated_at: at(6) }),
          store.updateReview(q.review_id, { status: 'failed', error: cancel, updated_at: at(6) }),
        ])
      ).map((answer) => structuredClone(answer));
      const first = structuredClone(await store.getReview(q.review_id));
      expect([completed, failed]).toContainEqual(first);
      expect(answers).toStrictEqual([first, first]);

      const again = await reopen();
      expect(await again.getReview(r.review_id)).toStrictEqual(cancelled);
      expect(await again.getReview(q.review_id)).toStrictEqual(first);
      expect(await again.unfinishedReviews()).toEqual([]);
      expect(structuredClone(await again.updateReview(r.review_id, later[2]!))).toStrictEqual(cancelled);
      // A patch without a status still applies.
      expect(await again.updateReview(r.review_id, { repository: 'moved' })).toStrictEqual({
        ...cancelled,
        repository: 'moved',
      });
    });

    it("lists an owner's reviews newest first, filtered, and paged by id", async () => {
      const { store } = await fresh();
      const all: StoredReview[] = [];
      for (let i = 0; i < 30; i++) {
        const r = review(i, {
          owner: i % 5 === 0 ? 'tok_owner_b' : 'tok_owner_a',
          status: i % 3 === 0 ? 'completed' : 'queued',
          repository: i % 2 === 0 ? 'repo-even' : 'repo-odd',
          ...(i % 3 === 0 ? { completed_at: at(i) } : {}),
        });
        all.push(r);
      }
      // inserted out of order, as concurrent creates may arrive
      await Promise.all([...all].reverse().map((r) => store.insertReview(r)));
      const mine = all.filter((r) => r.owner === 'tok_owner_a').reverse();
      expect(await store.listReviews({ owner: 'tok_owner_a', limit: 100 })).toStrictEqual(mine);
      expect(await store.listReviews({ owner: 'tok_owner_a', limit: 5 })).toStrictEqual(mine.slice(0, 5));
      expect(await store.listReviews({ owner: 'tok_owner_a', limit: 5, before: mine[4]!.review_id })).toStrictEqual(
        mine.slice(5, 10),
      );
      expect(
        await store.listReviews({ owner: 'tok_owner_a', status: 'completed', repository: 'repo-odd', limit: 100 }),
      ).toStrictEqual(mine.filter((r) => r.status === 'completed' && r.repository === 'repo-odd'));
      expect(await store.listReviews({ owner: 'nobody', limit: 100 })).toEqual([]);
      // The count: every page together, the same filters, without reading the reviews.
      expect(await store.countReviews({ owner: 'tok_owner_a' })).toBe(mine.length);
      expect(await store.countReviews({ owner: 'tok_owner_a', status: 'completed' })).toBe(
        mine.filter((r) => r.status === 'completed').length,
      );
      expect(await store.countReviews({ owner: 'tok_owner_a', status: 'completed', repository: 'repo-odd' })).toBe(
        mine.filter((r) => r.status === 'completed' && r.repository === 'repo-odd').length,
      );
      expect(await store.countReviews({ owner: 'tok_owner_a', repository: 'repo-none' })).toBe(0);
      expect(await store.countReviews({ owner: 'nobody' })).toBe(0);
    });

    it('pages through many finished reviews without losing or repeating one', async () => {
      const { store, reopen } = await fresh();
      const ids: string[] = [];
      for (let i = 0; i < 450; i++) {
        const r = review(i, { status: 'completed', completed_at: at(i) });
        ids.push(r.review_id);
        await store.insertReview(r);
      }
      const again = await reopen();
      const seen: string[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await again.listReviews({ owner: 'tok_owner_a', limit: 100, before });
        seen.push(...page.map((r) => r.review_id));
        if (page.length < 100) break;
        before = page.at(-1)!.review_id;
      }
      expect(seen).toEqual([...ids].reverse());
      expect(await again.getReview(ids[0]!)).toStrictEqual(review(0, { status: 'completed', completed_at: at(0) }));
      // Counted once each, wherever the store keeps them (lowdb: most of them archived by now),
      // also one that changed again after it was archived (a copy in the document and one in the archive).
      expect(await again.countReviews({ owner: 'tok_owner_a' })).toBe(450);
      // The first end wins for an archived review too.
      expect(await again.updateReview(ids[0]!, { status: 'queued', updated_at: at(1000) })).toStrictEqual(
        review(0, { status: 'completed', completed_at: at(0) }),
      );
      const changedAgain = await again.updateReview(ids[0]!, { updated_at: at(1000) });
      // Answered as changed, not as the archive's older line of it (lowdb holds both now).
      expect(await again.getReview(ids[0]!)).toStrictEqual(changedAgain);
      expect(changedAgain.updated_at).toBe(at(1000));
      expect(await again.countReviews({ owner: 'tok_owner_a' })).toBe(450);
      expect(await again.countReviews({ owner: 'tok_owner_a', status: 'completed' })).toBe(450);
      expect(await again.countReviews({ owner: 'tok_owner_a', status: 'failed' })).toBe(0);
    });

    it('the live record wins over any copy: a change made while the store moves the review is the one answered, listed and counted once', async () => {
      const { store, reopen } = await fresh();
      const finished = (i: number) => review(i, { status: 'completed', completed_at: at(i) });
      for (let i = 0; i < 400; i++) await store.insertReview(finished(i));
      expect(await store.getReview(reviewId(0))).toStrictEqual(finished(0)); // a store may keep a copy of it now
      // One more finished review: on this write lowdb moves the oldest ones to its archive. While
      // their lines are being written (after the write's first turn of the event loop), the oldest changes.
      const inserting = store.insertReview(finished(400));
      await new Promise((resolve) => setImmediate(resolve));
      const changed = structuredClone(await store.updateReview(reviewId(0), { repository: 'moved' }));
      await inserting;
      expect(changed).toStrictEqual({ ...finished(0), repository: 'moved' });
      const answersTheChange = async (s: Store) => {
        expect(await s.getReview(reviewId(0))).toStrictEqual(changed);
        expect(await s.listReviews({ owner: 'tok_owner_a', repository: 'moved', limit: 10 })).toStrictEqual([changed]);
        const all = await s.listReviews({ owner: 'tok_owner_a', limit: 1000 });
        expect(all.map((r) => r.review_id)).toEqual(Array.from({ length: 401 }, (_, i) => reviewId(400 - i)));
        expect(all.at(-1)).toStrictEqual(changed);
        expect(await s.countReviews({ owner: 'tok_owner_a' })).toBe(401);
        expect(await s.countReviews({ owner: 'tok_owner_a', repository: 'moved' })).toBe(1);
        expect(await s.countReviews({ owner: 'tok_owner_a', repository: 'github.com/acme/app' })).toBe(400);
      };
      await answersTheChange(store);
      await answersTheChange(await reopen());
    });

    it('answers the unfinished reviews oldest first', async () => {
      const { store, reopen } = await fresh();
      await store.insertReview(review(3, { status: 'running', started_at: at(4), attempts: 1 }));
      await store.insertReview(review(1));
      await store.insertReview(review(2, { status: 'completed', completed_at: at(2) }));
      await store.insertReview(review(4, { status: 'failed', error: { code: 'cancelled', message: 'x' } }));
      const unfinished = await (await reopen()).unfinishedReviews();
      expect(unfinished.map((r) => [r.review_id, r.status])).toEqual([
        [reviewId(1), 'queued'],
        [reviewId(3), 'running'],
      ]);
    });

    it('retention deletes finished reviews last changed before the date, with their diffs and findings', async () => {
      const { store, reopen } = await fresh();
      const old = review(1, { status: 'completed', completed_at: at(10), updated_at: at(10) });
      const oldFailed = review(2, {
        status: 'failed',
        error: { code: 'invalid_diff', message: 'x' },
        updated_at: at(10),
      });
      const recent = review(3, { status: 'completed', completed_at: at(100), updated_at: at(100) });
      const waiting = review(4, { updated_at: at(10) });
      for (const r of [old, oldFailed, recent, waiting]) {
        await store.writeDiff(r.review_id, `diff of ${r.review_id}`);
        await store.insertReview(r);
      }
      await store.writeFindings(old.review_id, [finding(1)]);
      await store.writeFindings(recent.review_id, [finding(2)]);
      expect(await store.getReview(old.review_id)).toStrictEqual(old); // a store may keep a copy of it now
      expect(await store.deleteFinishedBefore(at(50))).toBe(2);
      // The live record wins over a copy: a deleted review is not answered.
      expect(await store.getReview(old.review_id)).toBeUndefined();
      const again = await reopen();
      expect(await again.getReview(old.review_id)).toBeUndefined();
      expect(await again.getReview(oldFailed.review_id)).toBeUndefined();
      await expect(again.readFindings(old.review_id)).rejects.toThrow();
      await expect(again.readDiff(old.review_id)).rejects.toThrow();
      expect(await again.readFindings(recent.review_id)).toStrictEqual([finding(2)]);
      expect(await again.readDiff(waiting.review_id)).toBe(`diff of ${waiting.review_id}`);
      expect((await again.listReviews({ owner: 'tok_owner_a', limit: 10 })).map((r) => r.review_id)).toEqual([
        waiting.review_id,
        recent.review_id,
      ]);
      expect(await again.deleteFinishedBefore(at(50))).toBe(0);
    });

    it("keeps each finding's line text from the diff while it is stored, never a line that holds a secret", async () => {
      const { store, reopen } = await fresh();
      const id = reviewId(1);
      await store.insertReview(review(1, { status: 'running', started_at: at(1) }));
      const diff = [
        'diff --git a/src/ünïcode app.js b/src/ünïcode app.js',
        '--- a/src/ünïcode app.js',
        '+++ b/src/ünïcode app.js',
        '@@ -1,1 +1,4 @@',
        ' keep',
        '+  debugger; // ü',
        '+const key = "AKIAIOSFODNN7EXAMPL3";',
        `+${'x'.repeat(401)}`,
        '',
      ].join('\n');
      await store.writeDiff(id, diff);
      const secret: Finding = { ...finding(3), rule_id: 'secret', severity: 'error', message: 'secret: a key' };
      await store.writeFindings(id, [finding(2), finding(3), secret, finding(4), finding(9)]);
      const kept = await (await reopen()).readFindings(id);
      expect(kept.map((f) => f.line_text)).toEqual(['  debugger; // ü', undefined, undefined, undefined, undefined]);
      expect(kept[0]).toStrictEqual({ ...finding(2), line_text: '  debugger; // ü' });
      expect(kept[1]).toStrictEqual(finding(3)); // a secret's line: no text, whichever rule flagged it
    });

    it('keeps diffs and findings byte for byte, replaces and deletes them', async () => {
      const { store, reopen } = await fresh();
      const id = reviewId(1);
      // with their records: a store may sweep files no review owns as leftovers of a crash
      await store.insertReview(review(1));
      await store.insertReview(review(2, { status: 'completed', completed_at: at(2) }));
      const diff = 'diff --git a/ü b/ü\n+\u0000 tab\there 🎉\r\n\\ No newline at end of file';
      await store.writeDiff(id, diff);
      expect(await store.readDiff(id)).toBe(diff);
      await store.writeDiff(id, `${diff}\n+more`);
      const findings = [
        finding(3),
        { rule_id: 'todo', severity: 'info', file_path: 'a "quoted" path', line: 1, message: 'todo: x' } as Finding,
      ];
      await store.writeFindings(id, findings);
      await store.writeFindings(reviewId(2), []);
      const again = await reopen();
      expect(await again.readDiff(id)).toBe(`${diff}\n+more`);
      expect(await again.readFindings(id)).toStrictEqual(findings);
      expect(await again.readFindings(reviewId(2))).toStrictEqual([]);
      await again.deleteDiff(id);
      await again.deleteDiff(id); // deleting what is gone is fine
      await expect(again.readDiff(id)).rejects.toThrow();
      await expect(again.readFindings(reviewId(3))).rejects.toThrow();
    });

    it('finds tokens by hash and id, lists the live ones newest first, and follows updates', async () => {
      const { store, reopen } = await fresh();
      const a = token(1);
      const b = token(2, { expires_at: null });
      const revoked = token(3);
      const otherOwner = token(4, { owner: 'someone' });
      const dashboard = token(5, { type: 'dashboard', scopes: ['tokens:read', 'tokens:write'], name: 'Dashboard' });
      for (const t of [a, b, revoked, otherOwner, dashboard]) await store.insertToken(t);
      await store.updateToken(revoked.id, { revoked_at: at(10) });
      const again = await reopen();
      expect(await again.getTokenByHash(a.hash)).toStrictEqual(a);
      expect(await again.getToken(b.id)).toStrictEqual(b);
      expect(await again.getToken(revoked.id)).toStrictEqual({ ...revoked, revoked_at: at(10) });
      expect(await again.getTokenByHash('0'.repeat(64))).toBeUndefined();
      expect(await again.listTokens('local', 'review')).toStrictEqual([b, a]);
      expect(await again.listTokens('local', 'dashboard')).toStrictEqual([dashboard]);
      const newHash = 'e'.repeat(64);
      await again.updateToken(dashboard.id, { hash: newHash, prefix: 'drv_new1', created_at: at(20) });
      expect(await again.getTokenByHash(dashboard.hash)).toBeUndefined();
      expect(await again.getTokenByHash(newHash)).toStrictEqual({
        ...dashboard,
        hash: newHash,
        prefix: 'drv_new1',
        created_at: at(20),
      });
      await expect(again.updateToken('tok_missing', { name: 'x' })).rejects.toThrow();
    });

    it('a change of a token is seen at once by every lookup, the one without a promise too', async () => {
      const { store, reopen, lookups } = await fresh();
      const revoked = token(1);
      const rotated = token(2, { type: 'dashboard', scopes: ['tokens:read', 'tokens:write'], name: 'Dashboard' });
      await store.insertToken(revoked);
      await store.insertToken(rotated);
      const again = await reopen(); // a copy of the tokens (PostgreSQL) holds them all now
      expect(lookups().getTokenByHashSync(revoked.hash)).toStrictEqual(revoked);
      expect(lookups().getTokenByHashSync(rotated.hash)).toStrictEqual(rotated);

      await again.updateToken(revoked.id, { revoked_at: at(10) });
      const asRevoked = { ...revoked, revoked_at: at(10) };
      expect(await again.getToken(revoked.id)).toStrictEqual(asRevoked);
      expect(await again.getTokenByHash(revoked.hash)).toStrictEqual(asRevoked);
      expect(lookups().getTokenByHashSync(revoked.hash)).toStrictEqual(asRevoked);
      expect(await again.listTokens('local', 'review')).toEqual([]);

      const newHash = 'e'.repeat(64);
      await again.updateToken(rotated.id, { hash: newHash, prefix: 'drv_new1', created_at: at(20) });
      const asRotated = { ...rotated, hash: newHash, prefix: 'drv_new1', created_at: at(20) };
      expect(await again.getTokenByHash(rotated.hash)).toBeUndefined();
      expect(lookups().getTokenByHashSync(rotated.hash)).toBeUndefined();
      expect(await again.getTokenByHash(newHash)).toStrictEqual(asRotated);
      expect(lookups().getTokenByHashSync(newHash)).toStrictEqual(asRotated);
    });

    it("records a token's last use without a write per request, and keeps it across a restart", async () => {
      const { store, reopen } = await fresh();
      const t = token(1);
      await store.insertToken(t);
      store.touchToken(t.id, at(30));
      store.touchToken(t.id, at(31));
      expect((await store.getToken(t.id))?.last_used_at).toBe(at(31));
      expect((await store.getTokenByHash(t.hash))?.last_used_at).toBe(at(31));
      store.touchToken('tok_missing', at(31)); // a token deleted meanwhile: no error
      const again = await reopen();
      expect((await again.getToken(t.id))?.last_used_at).toBe(at(31));
    });

    it('keeps idempotency keys per owner, replaces, forgets and expires them', async () => {
      const { store, reopen } = await fresh();
      const record = (owner: string, key: string, seconds: number): IdempotencyRecord => ({
        owner,
        key,
        request_hash: 'ab'.repeat(32),
        review_id: reviewId(seconds),
        created_at: at(seconds),
      });
      await store.putIdempotency(record('tok_a', 'k1', 1));
      await store.putIdempotency(record('tok_b', 'k1', 2));
      await store.putIdempotency(record('tok_a', 'k2', 100));
      await store.putIdempotency(record('tok_a', 'gone', 3));
      await store.deleteIdempotency('tok_a', 'gone');
      const again = await reopen();
      expect(await again.getIdempotency('tok_a', 'k1')).toStrictEqual(record('tok_a', 'k1', 1));
      expect(await again.getIdempotency('tok_b', 'k1')).toStrictEqual(record('tok_b', 'k1', 2));
      expect(await again.getIdempotency('tok_a', 'gone')).toBeUndefined();
      expect(await again.getIdempotency('tok_c', 'k1')).toBeUndefined();
      expect(await again.deleteIdempotencyBefore(at(50))).toBe(2);
      expect(await again.getIdempotency('tok_a', 'k1')).toBeUndefined();
      expect(await again.getIdempotency('tok_a', 'k2')).toStrictEqual(record('tok_a', 'k2', 100));
      await again.putIdempotency(record('tok_a', 'k2', 101));
      expect(await (await reopen()).getIdempotency('tok_a', 'k2')).toStrictEqual(record('tok_a', 'k2', 101));
    });

    it("a key's first live claim wins: a keyed create that finds its key held writes nothing", async (context) => {
      const { store, reopen } = await fresh();
      const claim = store.insertReviewWithKey?.bind(store);
      if (!claim) return context.skip('a store of one process: ReviewCreator serialises keyed creates itself');
      const keyed = (seconds: number, key: string) => {
        const r = review(seconds);
        const record: IdempotencyRecord = {
          owner: r.owner,
          key,
          request_hash: `${seconds}`.padStart(64, 'a'),
          review_id: r.review_id,
          created_at: r.created_at,
        };
        return { review: r, record };
      };
      const a = keyed(1, 'k');
      const b = keyed(2, 'k');
      expect(await claim(a.review, a.record, at(0))).toBeUndefined();
      expect(await claim(b.review, b.record, at(0))).toStrictEqual(a.record);
      expect(await store.getReview(b.review.review_id)).toBeUndefined();
      // A holder created before liveSince has expired: the next claim takes the key.
      const c = keyed(3, 'k');
      expect(await claim(c.review, c.record, at(2))).toBeUndefined();
      // Claims at once: one wins, the others are told its record and write nothing.
      const racing = [4, 5, 6].map((seconds) => keyed(seconds, 'k2'));
      const answers = await Promise.all(racing.map(({ review, record }) => claim(review, record, at(0))));
      const winner = answers.indexOf(undefined);
      expect(answers.filter((answer) => answer === undefined)).toHaveLength(1);
      for (const answer of answers) if (answer) expect(answer).toStrictEqual(racing[winner]!.record);

      const again = await reopen();
      expect(await again.getReview(a.review.review_id)).toStrictEqual(a.review);
      expect(await again.getReview(c.review.review_id)).toStrictEqual(c.review);
      expect(await again.getIdempotency('tok_owner_a', 'k')).toStrictEqual(c.record);
      expect(await again.getIdempotency('tok_owner_a', 'k2')).toStrictEqual(racing[winner]!.record);
      const made = await again.listReviews({ owner: 'tok_owner_a', limit: 10 });
      expect(made.map((r) => r.review_id)).toEqual([
        racing[winner]!.review.review_id,
        c.review.review_id,
        a.review.review_id,
      ]);
    });
  });
}
