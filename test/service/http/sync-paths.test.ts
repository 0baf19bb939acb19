// The token check with the store's synchronous lookup (lowdb's SyncTokenLookup, which the auth
// hook uses) decides exactly what the awaited one (a database store, read through TokenStore
// alone) does.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenService } from '../../../service/auth/tokens.ts';
import type { AuthRequirement, Principal } from '../../../service/auth/verify-token.ts';
import { domainReply } from '../../../service/http/error-replies.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import { TestClock } from '../../support/test-clock.ts';

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
