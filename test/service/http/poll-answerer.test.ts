// The poll fast path on its own, on a real HTTP server over a real lowdb store: it answers the
// owner's poll of a finished review whose bytes are kept, and stands aside (Fastify's turn, here a
// 599) for every other request, so that nothing it answers differs from what Fastify would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenService } from '../../../service/auth/tokens.ts';
import { FinishedBodies } from '../../../service/http/finished-bodies.ts';
import { PollAnswerer } from '../../../service/http/poll-answerer.ts';
import { reviewRead } from '../../../service/http/routes/reviews.ts';
import type { ReviewService } from '../../../service/reviews/review-service.ts';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import type { StoredReview } from '../../../service/store/types.ts';
import { TestClock } from '../../support/test-clock.ts';
import { storedReview } from '../../support/stored-review.ts';
import { readingReviewService } from '../../support/reading-review-service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FALLBACK = 599;
const clock = new TestClock(Date.parse('2030-01-01T00:00:00.000Z'));

let dir: string;
let store: LowdbStore;
let tokens: TokenService;
let reviews: ReviewService;
let bodies: FinishedBodies;
let fast: PollAnswerer;
let debug = false;
let server: http.Server;
let base: string;
let alice: { token: string; id: string };
let mallory: string;
let review: StoredReview;
const BYTES = Buffer.from('{"review_id":"kept bytes"}');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-fast-path-'));
  store = await LowdbStore.open(dir);
  tokens = new TokenService(store, clock, store);
  reviews = readingReviewService({ store, atHand: store, clock });
  alice = await tokens.createReviewToken('alice', { name: 'alice', expires_in_days: 1 });
  mallory = (await tokens.createReviewToken('mallory', { name: 'mallory' })).token;
  server = http.createServer((request, response) => {
    fast.inFrontOf((_request, fallback) => fallback.writeHead(FALLBACK).end())(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

let serial = 0;
beforeEach(async () => {
  review = storedReview({
    review_id: `rev_01FASTPATH${String(++serial).padStart(16, '0')}`,
    owner: 'alice',
    status: 'completed',
    repository: 'github.com/acme/widgets',
    at: clock.now(),
  });
  await store.insertReview(review);
  bodies = new FinishedBodies();
  bodies.set(review, BYTES);
  debug = false;
  fast = new PollAnswerer({ tokens, reviews, bodies, need: reviewRead, debugLogging: () => debug });
});

const poll = (init: { path?: string; token?: string | null; method?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${base}${init.path ?? `/v1/reviews/${review.review_id}`}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token === null ? {} : { authorization: `Bearer ${init.token ?? alice.token}` }),
      ...init.headers,
    },
  });

describe('the poll fast path', () => {
  it("answers the owner's poll of a kept finished review with its bytes, as Fastify would", async () => {
    const answer = await poll();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe(String(BYTES.length));
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(BYTES);
    // the token check's side effect happens here too
    expect((await store.getToken(alice.id))!.last_used_at).toBe(new Date(clock.now()).toISOString());
  });

  it('stands aside for other owners and for any token that is missing, malformed, unknown, short of the scope, revoked or expired', async () => {
    const writeOnly = await tokens.createReviewToken('alice', { name: 'write only', scopes: ['reviews:write'] });
    for (const [what, init] of [
      ['another owner', { token: mallory }],
      ['no token', { token: null }],
      ['a malformed header', { token: null, headers: { authorization: 'Basic abc' } }],
      ['an unknown token', { token: 'drv_000000000000000000000000000000000000' }],
      ['a token without reviews:read', { token: writeOnly.token }],
    ] as const) {
      expect((await poll(init)).status, what).toBe(FALLBACK);
    }
    const revoked = await tokens.createReviewToken('alice', { name: 'revoked' });
    expect((await poll({ token: revoked.token })).status).toBe(200);
    await tokens.revoke('alice', revoked.id);
    expect((await poll({ token: revoked.token })).status).toBe(FALLBACK);

    const start = clock.now();
    try {
      clock.fixed = start + DAY_MS - 1;
      expect((await poll()).status).toBe(200);
      clock.fixed = start + DAY_MS; // alice's token expires after one day
      expect((await poll()).status).toBe(FALLBACK);
    } finally {
      clock.fixed = start;
    }
  });

  it('stands aside for other methods and other shapes of the path', async () => {
    for (const [what, init] of [
      ['HEAD', { method: 'HEAD' }],
      ['POST', { method: 'POST' }],
      ['a query string', { path: `/v1/reviews/${review.review_id}?x=1` }],
      ['a trailing slash', { path: `/v1/reviews/${review.review_id}/` }],
      ['a sub-resource', { path: `/v1/reviews/${review.review_id}/sarif` }],
      ['a lower-case id', { path: `/v1/reviews/${review.review_id.toLowerCase()}` }],
      ['an encoded character', { path: `/v1/reviews/${review.review_id.slice(0, -1)}%41` }],
      ['another prefix', { path: `/v2/reviews/${review.review_id}` }],
    ] as const) {
      expect((await poll(init)).status, what).toBe(FALLBACK);
    }
  });

  it('stands aside for a review not kept, unfinished or changed since, while debug logging is on, and once closed', async () => {
    expect((await poll()).status).toBe(200);
    expect((await poll({ path: '/v1/reviews/rev_01NOSUCHREVIEW000000000000' })).status).toBe(FALLBACK);

    const changed = { ...review, updated_at: new Date(clock.now() + 1).toISOString() };
    await store.updateReview(review.review_id, { updated_at: changed.updated_at });
    expect((await poll()).status).toBe(FALLBACK);

    const running: StoredReview = { ...review, review_id: 'rev_01FASTPATHRUNNING000000000', status: 'running' };
    await store.insertReview(running);
    bodies.set(running, BYTES); // not kept: an unfinished review's answer changes
    expect((await poll({ path: `/v1/reviews/${running.review_id}` })).status).toBe(FALLBACK);

    bodies.set(changed, BYTES);
    expect((await poll()).status).toBe(200);
    debug = true;
    expect((await poll()).status).toBe(FALLBACK);
    debug = false;
    fast.close();
    expect((await poll()).status).toBe(FALLBACK);
  });
});
