// The synchronous pieces of a poll's fast path (service/http/poll-answerer.ts) decide exactly
// what the awaited ones do: the token check with the store's synchronous lookup (lowdb's
// SyncTokenLookup) and without one (a database store, read through TokenStore alone), and the
// review lookup with and without a SyncReviewLookup.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../service/api/errors.ts';
import { TokenService } from '../../../service/auth/tokens.ts';
import type { AuthRequirement, Principal } from '../../../service/auth/verify-token.ts';
import { domainReply } from '../../../service/http/error-replies.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { storedReview } from '../../support/stored-review.ts';
import { readingReviewService } from '../../support/reading-review-service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const read: AuthRequirement = { type: 'review', scope: 'reviews:read' };
const write: AuthRequirement = { type: 'review', scope: 'reviews:write' };

let dir: string;
let store: LowdbStore;
const clock = new TestClock(Date.parse('2030-01-01T00:00:00.000Z'));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-sync-paths-'));
  store = await LowdbStore.open(dir);
});
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What authenticate() settles to: the principal, or the error's status, id and headers. */
async function outcome(tokens: TokenService, authorization: string | undefined, need: AuthRequirement) {
  try {
    return { principal: await tokens.authenticate(authorization, need) };
  } catch (error) {
    const answer = domainReply(error);
    if (answer === undefined) throw error;
    return { status: answer.status, error: answer.error, message: answer.message, headers: answer.headers };
  }
}

/** What authenticateSync() answers: the principal, the error's status, id and headers, or undefined. */
function outcomeSync(tokens: TokenService, authorization: string | undefined, need: AuthRequirement) {
  try {
    const principal: Principal | undefined = tokens.authenticateSync(authorization, need);
    return principal === undefined ? undefined : { principal };
  } catch (error) {
    const answer = domainReply(error);
    if (answer === undefined) throw error;
    return { status: answer.status, error: answer.error, message: answer.message, headers: answer.headers };
  }
}

describe('the token check', () => {
  it('answers the same synchronously as awaited, with and without the synchronous lookup', async () => {
    const sync = new TokenService(store, clock, store);
    const awaited = new TokenService(store, clock);
    const { token: readOnly } = await sync.createReviewToken('alice', {
      name: 'read only',
      scopes: ['reviews:read'],
      expires_in_days: 1,
    });
    const { token: both, id: bothId } = await sync.createReviewToken('alice', { name: 'both', expires_in_days: 1 });
    const cases: [string | undefined, AuthRequirement][] = [
      [undefined, read],
      ['Basic abc', read],
      ['Bearer drv_unknown', read],
      [`Bearer ${readOnly}`, read],
      [`Bearer ${readOnly}`, write],
      [`bearer   ${both} `, write],
      [`Bearer ${both}`, { type: 'dashboard', scope: 'tokens:read' }],
    ];
    for (const [authorization, need] of cases) {
      const expected = await outcome(awaited, authorization, need);
      expect(outcomeSync(sync, authorization, need), `${authorization} ${need.scope}`).toEqual(expected);
      expect(await outcome(sync, authorization, need)).toEqual(expected);
    }
    expect((await outcome(sync, `Bearer ${both}`, read)).principal).toEqual({
      tokenId: bothId,
      owner: 'alice',
      type: 'review',
      scopes: ['reviews:read', 'reviews:write'],
    });
    // Without the synchronous lookup there is no synchronous answer: the hook awaits authenticate().
    expect(outcomeSync(awaited, `Bearer ${both}`, read)).toBeUndefined();
  });

  it('sees expiry, a changed expiry and revocation on the very next check, both ways', async () => {
    const sync = new TokenService(store, clock, store);
    const awaited = new TokenService(store, clock);
    const { token: secret, id } = await sync.createReviewToken('bob', { name: 'short', expires_in_days: 1 });
    const check = async () => {
      const expected = await outcome(awaited, `Bearer ${secret}`, read);
      expect(outcomeSync(sync, `Bearer ${secret}`, read)).toEqual(expected);
      return expected.status ?? 200;
    };
    const created = clock.now();
    try {
      expect(await check()).toBe(200);
      clock.fixed = created + DAY_MS - 1;
      expect(await check()).toBe(200);
      clock.fixed = created + DAY_MS;
      expect(await check()).toBe(403);
      await store.updateToken(id, { expires_at: new Date(created + 2 * DAY_MS).toISOString() });
      expect(await check()).toBe(200);
      await store.updateToken(id, { expires_at: null });
      clock.fixed = created + 3650 * DAY_MS;
      expect(await check()).toBe(200);
      await sync.revoke('bob', id);
      expect(await check()).toBe(401);
    } finally {
      clock.fixed = created;
    }
  });

  it('records last_used_at on the synchronous path too', async () => {
    const sync = new TokenService(store, clock, store);
    const { token: secret, id } = await sync.createReviewToken('carol', { name: 'used' });
    expect((await store.getToken(id))!.last_used_at).toBeNull();
    expect(outcomeSync(sync, `Bearer ${secret}`, read)?.principal?.tokenId).toBe(id);
    expect((await store.getToken(id))!.last_used_at).toBe(new Date(clock.now()).toISOString());
  });
});

describe('the review lookup', () => {
  it('peek answers the review find answers, whoever asks, and nothing without a synchronous lookup', async () => {
    const review = storedReview({
      review_id: 'rev_01SYNCPATHS000000000000000',
      owner: 'alice',
      status: 'completed',
      repository: 'github.com/acme/widgets',
      at: clock.now(),
    });
    await store.insertReview(review);
    const sync = readingReviewService({ store, atHand: store, clock });
    const awaited = readingReviewService({ store, clock });

    expect(sync.peek(review.review_id)).toBe(await sync.find('alice', review.review_id));
    // peek does not check the owner (its caller does); find answers another owner 404.
    expect(sync.peek(review.review_id)?.owner).toBe('alice');
    await expect(sync.find('mallory', review.review_id)).rejects.toBeInstanceOf(NotFoundError);
    // Not at hand is not "absent": callers then await find(), which answers 404 or the review.
    expect(sync.peek('rev_01NOSUCHREVIEW00000000000')).toBeUndefined();
    expect(awaited.peek(review.review_id)).toBeUndefined();
    expect(await awaited.find('alice', review.review_id)).toBe(review);
  });
});
