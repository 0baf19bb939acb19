// Rate limits per token (429 rate_limited with Retry-After and RateLimit-*) and back-pressure
// (429 queue_full with Retry-After) at their edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../service/client/errors.ts';
import { rawSocket } from './raw-http.ts';
import { DEBUGGER_DIFF, startTestService, type TestService, closeHealthy } from '../../support/test-service.ts';

const ok = { diff: DEBUGGER_DIFF, repository: 'github.com/acme/widgets' };

async function newReviewToken(t: TestService): Promise<string> {
  const response = await t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body: { name: 'rl' } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

function expectLimitHeaders(response: Response, limit: number, remaining: number) {
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(response.headers.get('ratelimit-reset'));
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(60);
}

async function expect429(response: Response, error: 'rate_limited' | 'queue_full') {
  const body = (await response.json()) as { error: string; message?: string };
  expect(response.status, JSON.stringify(body)).toBe(429);
  expect(body.error).toBe(error);
  expect(body.message).toEqual(expect.any(String));
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter, 'Retry-After').toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

describe('rate limits per token (read 5, create 3, tokens 5 per minute)', () => {
  let t: TestService;
  // tokens made before the limits are exercised (each POST /v1/auth/tokens counts against the dashboard token)
  let second: string;
  let third: string;
  let reviewId: string;
  beforeAll(async () => {
    t = await startTestService({ logLevel: 'warn', rateLimits: { read: 5, create: 3, tokens: 5 } });
    second = await newReviewToken(t);
    third = await newReviewToken(t);
    const created = await t.api('POST', '/v1/reviews', { token: third, body: ok });
    reviewId = ((await created.json()) as { review_id: string }).review_id;
  });
  afterAll(() => closeHealthy(t));

  it('creates: 3 → 202 with RateLimit-* counting down; the 4th → 429 rate_limited with Retry-After and RateLimit-*', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await t.api('POST', '/v1/reviews', { body: ok });
      expect(response.status).toBe(202);
      expectLimitHeaders(response, 3, 2 - i);
    }
    const fourth = await t.api('POST', '/v1/reviews', { body: ok });
    expectLimitHeaders(fourth, 3, 0);
    await expect429(fourth, 'rate_limited');
  });

  it('a limited token is refused before its body is read (429, not 400, for a broken body)', async () => {
    const response = await t.api('POST', '/v1/reviews', {
      rawBody: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    await expect429(response, 'rate_limited');
  });

  it('a limited create with a large body: the body is read and dropped, and the connection answers the next request', async () => {
    for (let i = 0; i < 4 && (await t.api('POST', '/v1/reviews', { body: ok })).status !== 429; i++); // budget spent
    const body = JSON.stringify({ diff: 'a'.repeat(600_000), repository: 'r' });
    const head = `POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.reviewToken}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const answer = await rawSocket(
      t.url,
      [head + body, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
      { pauseMs: 200 },
    );
    expect(answer.status).toBe(429);
    expect(answer.text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/); // the second request, on the same connection
  });

  it('the typed client sees ApiError rate_limited with retryAfterSeconds', async () => {
    const error = await t
      .client()
      .createReview(ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).error).toBe('rate_limited');
    expect((error as ApiError).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('another token of the same owner is unaffected', async () => {
    const response = await t.api('POST', '/v1/reviews', { token: second, body: ok });
    expect(response.status).toBe(202);
    expectLimitHeaders(response, 3, 2);
  });

  it('no token, or an unknown one, is 401, never a 429 counted against a real token', async () => {
    expect((await t.api('POST', '/v1/reviews', { token: null, body: ok })).status).toBe(401);
    expect((await t.api('POST', '/v1/reviews', { token: 'drv_nope', body: ok })).status).toBe(401);
  });

  it('reads (list): 5 → 200; the 6th → 429 with Retry-After; another token still reads', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await t.api('GET', '/v1/reviews', { token: third });
      expect(response.status).toBe(200);
      expectLimitHeaders(response, 5, 4 - i);
    }
    await expect429(await t.api('GET', '/v1/reviews', { token: third }), 'rate_limited');
    expect((await t.api('GET', '/v1/reviews', { token: second })).status).toBe(200);
  });

  it('reads share one budget per token: list, SARIF and events together, 5 per minute', async () => {
    const fourth = (await t.client(t.dashboardToken).createToken({ name: 'shared-budget' })).token;
    for (let i = 0; i < 3; i++) expect((await t.api('GET', '/v1/reviews', { token: fourth })).status).toBe(200);
    expect((await t.api('GET', `/v1/reviews/${reviewId}/sarif`, { token: fourth })).status).not.toBe(429);
    expect((await t.api('GET', `/v1/reviews/${reviewId}/sarif`, { token: fourth })).status).not.toBe(429);
    await expect429(await t.api('GET', `/v1/reviews/${reviewId}/sarif`, { token: fourth }), 'rate_limited');
  });

  it('GET /v1/reviews/{review_id} is exempt (its statuses are fixed): polling never gets 429', async () => {
    for (let i = 0; i < 20; i++)
      expect((await t.api('GET', `/v1/reviews/${reviewId}`, { token: third })).status).toBe(200);
  });

  it('GET /v1/reviews/{review_id} documents exactly its fixed statuses (200/401/403/404/500, no 429)', async () => {
    const doc = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    expect(Object.keys(doc.paths['/v1/reviews/{review_id}']!.get!.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '404',
      '500',
    ]);
  });

  it('every other rate-limited operation documents its 429', async () => {
    const doc = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    const ops: [string, string][] = [
      ['/v1/reviews', 'post'],
      ['/v1/reviews', 'get'],
      ['/v1/reviews/{review_id}/cancel', 'post'],
      ['/v1/reviews/{review_id}/sarif', 'get'],
      ['/v1/reviews/{review_id}/events', 'get'],
      ['/v1/events', 'get'],
      ['/v1/auth/tokens', 'post'],
      ['/v1/auth/tokens', 'get'],
      ['/v1/auth/tokens/{id}', 'delete'],
    ];
    for (const [path, method] of ops)
      expect(Object.keys(doc.paths[path]![method]!.responses), `${method} ${path}`).toContain('429');
  });

  it('token endpoints: the dashboard token is limited too (5 per minute), in the error shape', async () => {
    // Its own service: the token endpoints share one budget, and this file's setup spent some of it.
    const own = await startTestService({ logLevel: 'warn', rateLimits: { tokens: 5 } });
    // startTestService itself made one token with the dashboard token: 4 left, then 429.
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const response = await own.api('GET', '/v1/auth/tokens', { token: own.dashboardToken });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(limited).toBeDefined();
    await expect429(limited!, 'rate_limited');
    await own.close();
  });

  it('limits off (0) means no RateLimit headers and no 429', async () => {
    const open = await startTestService({ logLevel: 'warn', rateLimits: { read: 0, create: 0, tokens: 0 } });
    try {
      for (let i = 0; i < 8; i++) {
        const response = await open.api('GET', '/v1/reviews');
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await open.close();
    }
  });
});

describe('back-pressure: queue_full', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      logLevel: 'warn',
      maxQueuedJobs: 1,
      concurrency: 1,
      rateLimits: { create: 0, read: 0 },
    });
  });
  afterAll(() => closeHealthy(t));

  it('a burst of creates: some 202, the rest 429 queue_full with Retry-After; every accepted job finishes', async () => {
    const big = { ...ok, diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` };
    const responses = await Promise.all(Array.from({ length: 12 }, () => t.api('POST', '/v1/reviews', { body: big })));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.every((s) => s === 202 || s === 429),
      statuses.join(),
    ).toBe(true);
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 429);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const response of refused) await expect429(response, 'queue_full');
    const ids = await Promise.all(accepted.map(async (r) => ((await r.json()) as { review_id: string }).review_id));
    // every accepted job is kept and finishes; nothing refused was stored
    const client = t.client();
    for (const id of ids) {
      const done = await client.waitForReview(id, { timeoutMs: 30_000, pollIntervalMs: 25 });
      expect(done.status).toBe('completed');
    }
    const list = (await (await t.api('GET', '/v1/reviews?limit=100')).json()) as { reviews: { review_id: string }[] };
    expect(list.reviews.map((r) => r.review_id).sort()).toEqual([...ids].sort());
  });

  // Many creates of 150 KB on a busy machine (PostgreSQL: round trips each); each wait below is bounded.
  it('an Idempotency-Key refused with queue_full is not used up: the retry creates the job', {
    timeout: 240_000,
  }, async () => {
    const big = { ...ok, diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` };
    // fill the queue: create until one is refused, then the keyed request finds it full too. A worker
    // may free a place between the two (a create on PostgreSQL takes round trips, and reviews take
    // milliseconds): then fill again, as often as it takes on a busy machine.
    const accepted: string[] = [];
    let key = '';
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 20 && refused === undefined; attempt++) {
      let full = false;
      for (let i = 0; i < 20 && !full; i++) {
        const response = await t.api('POST', '/v1/reviews', { body: big });
        if (response.status === 429) full = true;
        else accepted.push(((await response.json()) as { review_id: string }).review_id);
      }
      expect(full).toBe(true);
      key = `queue-full-${Date.now()}-${attempt}`;
      const keyed = await t.api('POST', '/v1/reviews', { body: ok, headers: { 'idempotency-key': key } });
      if (keyed.status === 429) refused = keyed;
      else accepted.push(((await keyed.json()) as { review_id: string }).review_id);
    }
    await expect429(refused!, 'queue_full');
    const client = t.client();
    // Drained one by one; on PostgreSQL under load a review may be handed back and run again (a
    // connection that timed out): a generous bound, and the service's log in the message if it passes.
    for (const id of accepted)
      await client.waitForReview(id, { timeoutMs: 60_000, pollIntervalMs: 25 }).catch((error: Error) => {
        throw new Error(`${error.message}\n${t.logs.join('')}`, { cause: error });
      });
    const retry = await t.api('POST', '/v1/reviews', { body: ok, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    await client.waitForReview(((await retry.json()) as { review_id: string }).review_id, {
      timeoutMs: 30_000,
      pollIntervalMs: 25,
    });
  });

  it('once the queue drained, creates are accepted again', async () => {
    // the runner frees its place a moment after the review's end is seen; a 429 creates nothing
    await expect
      .poll(async () => (await t.api('POST', '/v1/reviews', { body: ok })).status, { timeout: 30_000 })
      .toBe(202);
  });

  it('the typed client sees ApiError queue_full with retryAfterSeconds', async () => {
    const client = t.client();
    const big = { ...ok, diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => client.createReview(big).catch((e: unknown) => e)),
    );
    const refused = results.filter((r): r is ApiError => r instanceof ApiError);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const e of refused) {
      expect(e.status).toBe(429);
      expect(e.error).toBe('queue_full');
      expect(e.retryAfterSeconds).toBeGreaterThan(0);
    }
    for (const r of results)
      if (!(r instanceof ApiError))
        await client.waitForReview((r as { review_id: string }).review_id, { timeoutMs: 30_000, pollIntervalMs: 25 });
  });
});
