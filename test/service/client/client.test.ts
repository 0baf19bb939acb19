import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiError,
  createClient,
  DiffReviewError,
  NetworkError,
  TimeoutError,
} from '../../../service/client/index.ts';
import { job, REVIEW_ID, sendError, sendJson, startFakeService, type FakeService } from './fake-service.ts';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const start = async (...args: Parameters<typeof startFakeService>) => (service = await startFakeService(...args));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requests', () => {
  it('sends the bearer token to API calls but not to health and the OpenAPI document', async () => {
    const s = await start({
      'GET /healthz': (_q, res) => sendJson(res, 200, { status: 'ok', version: '1.0.0' }),
      'GET /v1/openapi.json': (_q, res) => sendJson(res, 200, { openapi: '3.1.0', info: { version: '1.0.0' } }),
      [`GET /v1/reviews/${REVIEW_ID}`]: (_q, res) => sendJson(res, 200, job('queued')),
    });
    const client = createClient({ baseUrl: s.url, token: 'drv_secret' });
    expect(await client.health()).toEqual({ status: 'ok', version: '1.0.0' });
    expect(await client.openapi()).toMatchObject({ openapi: '3.1.0' });
    expect((await client.getReview(REVIEW_ID)).status).toBe('queued');
    const [health, openapi, get] = s.requests;
    expect(health?.headers.authorization).toBeUndefined();
    expect(openapi?.headers.authorization).toBeUndefined();
    expect(get?.headers.authorization).toBe('Bearer drv_secret');
    expect(get?.headers.accept).toBe('application/json');
    expect(get?.headers['user-agent']).toMatch(/^diff-review-client\//);
  });

  it('asks a token function before every request and sends the user agent given', async () => {
    const s = await start({ 'GET /v1/auth/tokens': (_q, res) => sendJson(res, 200, { tokens: [] }) });
    let n = 0;
    const client = createClient({ baseUrl: s.url, token: async () => `tok${++n}`, userAgent: 'diff-review-cli/9' });
    await client.listTokens();
    await client.listTokens();
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok1', 'Bearer tok2']);
    expect(s.requests[0]?.headers['user-agent']).toBe('diff-review-cli/9');
  });

  it('sends no Authorization header when the token function has none', async () => {
    const s = await start({ 'GET /v1/auth/tokens': (_q, res) => sendJson(res, 200, { tokens: [] }) });
    await createClient({ baseUrl: s.url, token: () => undefined }).listTokens();
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('creates a review with JSON and a generated Idempotency-Key, or the one given', async () => {
    const s = await start({
      'POST /v1/reviews': (_q, res) => sendJson(res, 202, job('queued'), { location: `/v1/reviews/${REVIEW_ID}` }),
    });
    const client = createClient({ baseUrl: s.url, token: 't' });
    const body = { diff: 'diff --git a/x b/x\n', repository: 'github.com/acme/widgets', base_commit: 'abcdef1' };
    const created = await client.createReview(body);
    expect(created).toMatchObject({ review_id: REVIEW_ID, status: 'queued' });
    await client.createReview(body, { idempotencyKey: 'my-key-1' });
    const [first, second] = s.requests;
    expect(JSON.parse(first?.body ?? '')).toEqual(body);
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).toBe('my-key-1');
  });

  it('lists reviews with only the query parameters given', async () => {
    const s = await start({
      'GET /v1/reviews': (_q, res) => sendJson(res, 200, { reviews: [job('queued')], next_cursor: 'c2' }),
    });
    const client = createClient({ baseUrl: s.url });
    const page = await client.listReviews({ status: 'completed', limit: 5, cursor: 'c1' });
    expect(page.next_cursor).toBe('c2');
    await client.listReviews();
    expect(s.requests.map((r) => r.url)).toEqual(['/v1/reviews?status=completed&limit=5&cursor=c1', '/v1/reviews']);
  });

  it('cancels, fetches SARIF, lists, creates and deletes tokens', async () => {
    const token = {
      id: 'tok_01JD8X3Q4M5N6P7R8S9T0V1W2X',
      name: 'ci',
      type: 'review',
      scopes: ['reviews:read'],
      prefix: 'drv_abcd',
      created_at: '2026-11-21T18:42:00.000Z',
      expires_at: null,
      last_used_at: null,
    };
    const s = await start({
      [`POST /v1/reviews/${REVIEW_ID}/cancel`]: (_q, res) => sendJson(res, 200, job('failed')),
      [`GET /v1/reviews/${REVIEW_ID}/sarif`]: (_q, res) =>
        sendJson(
          res,
          200,
          { version: '2.1.0', runs: [{ tool: { driver: { name: 'diff-review' } } }] },
          { 'content-type': 'application/sarif+json' },
        ),
      'POST /v1/auth/tokens': (_q, res) => sendJson(res, 201, { ...token, token: 'drv_x' }),
      'GET /v1/auth/tokens': (_q, res) => sendJson(res, 200, { tokens: [token] }),
      [`DELETE /v1/auth/tokens/${token.id}`]: (_q, res) => {
        res.writeHead(204);
        res.end();
      },
    });
    const client = createClient({ baseUrl: s.url, token: 'dash' });
    expect((await client.cancelReview(REVIEW_ID)).error?.code).toBe('cancelled');
    expect((await client.getSarif(REVIEW_ID)).version).toBe('2.1.0');
    expect((await client.createToken({ name: 'ci', scopes: ['reviews:read'] })).token).toBe('drv_x');
    expect((await client.listTokens()).tokens).toHaveLength(1);
    await expect(client.deleteToken(token.id)).resolves.toBeUndefined();
    expect(s.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST /v1/reviews/${REVIEW_ID}/cancel`,
      `GET /v1/reviews/${REVIEW_ID}/sarif`,
      'POST /v1/auth/tokens',
      'GET /v1/auth/tokens',
      `DELETE /v1/auth/tokens/${token.id}`,
    ]);
  });

  it('keeps a path in the base address and encodes ids', async () => {
    const s = await start();
    const client = createClient({ baseUrl: `${s.url}/diff-review/`, retry: 0 });
    await client.getReview('a/b?c').catch(() => undefined);
    expect(s.requests[0]?.url).toBe('/diff-review/v1/reviews/a%2Fb%3Fc');
  });

  it('refuses a base address that is not an http(s) URL', () => {
    expect(() => createClient({ baseUrl: 'localhost:7411' })).toThrow(/absolute http\(s\) URL|http or https/);
    expect(() => createClient({ baseUrl: 'not a url' })).toThrow(TypeError);
  });
});

describe('errors', () => {
  it('turns an error body into an ApiError with status, identifier, message and body', async () => {
    const s = await start({
      [`GET /v1/reviews/${REVIEW_ID}`]: (_q, res) =>
        sendError(res, 401, 'unauthorized', 'The token is missing or invalid.', { 'www-authenticate': 'Bearer' }),
    });
    const error = await createClient({ baseUrl: s.url })
      .getReview(REVIEW_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(DiffReviewError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      error: 'unauthorized',
      message: 'The token is missing or invalid.',
      body: { error: 'unauthorized', message: 'The token is missing or invalid.' },
      method: 'GET',
      url: `${s.url}/v1/reviews/${REVIEW_ID}`,
      retryAfterSeconds: undefined,
    });
    expect(s.requests).toHaveLength(1);
  });

  it('does not retry a 413 diff_too_large', async () => {
    const s = await start({
      'POST /v1/reviews': (_q, res) => sendError(res, 413, 'diff_too_large', 'The diff is over 1,000,000 bytes.'),
    });
    const error = await createClient({ baseUrl: s.url })
      .createReview({ diff: 'x', repository: 'r' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413, error: 'diff_too_large' });
    expect(s.requests).toHaveLength(1);
  });

  it('gives a sensible identifier and message when the body is not JSON', async () => {
    const s = await start({
      [`GET /v1/reviews/${REVIEW_ID}`]: (_q, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway from the proxy</html>');
      },
    });
    const error = await createClient({ baseUrl: s.url, retry: 0 })
      .getReview(REVIEW_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.error).toBe('bad_gateway');
    expect(apiError.body).toBe('<html>Bad gateway from the proxy</html>');
    expect(apiError.message).toContain('502');
    expect(apiError.message).toContain('Bad gateway from the proxy');
  });

  it('gives a default message when the error body has none, and tolerates an empty body', async () => {
    const s = await start({
      'GET /v1/auth/tokens': (_q, res) => sendError(res, 403, 'insufficient_scope'),
      'POST /v1/auth/tokens': (_q, res) => {
        res.writeHead(400);
        res.end();
      },
    });
    const client = createClient({ baseUrl: s.url });
    const forbidden = (await client.listTokens().catch((e: unknown) => e)) as ApiError;
    expect(forbidden.error).toBe('insufficient_scope');
    expect(forbidden.message).toMatch(/403/);
    const bad = (await client.createToken({ name: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(bad).toMatchObject({ status: 400, error: 'invalid_request', body: undefined });
  });

  it('times out with a TimeoutError naming the call', async () => {
    const s = await start({ [`GET /v1/reviews/${REVIEW_ID}`]: () => undefined /* never answers */ });
    const started = Date.now();
    const error = await createClient({ baseUrl: s.url, timeoutMs: 200 })
      .getReview(REVIEW_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(200);
    expect((error as Error).message).toContain(`GET ${s.url}/v1/reviews/${REVIEW_ID}`);
    // at its 200 ms, not the default's seconds (a loaded machine adds some)
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('rejects with an AbortError when the signal fires', async () => {
    const s = await start({ [`GET /v1/reviews/${REVIEW_ID}`]: () => undefined });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await createClient({ baseUrl: s.url })
      .getReview(REVIEW_ID, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('reports a closed port as a NetworkError that names the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const baseUrl = `http://127.0.0.1:${port}`;
    const error = await createClient({ baseUrl, retry: 0 })
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    expect((error as NetworkError).url).toBe(`${baseUrl}/healthz`);
    expect((error as Error).message).toContain(baseUrl);
  });
});

describe('retries', () => {
  it('retries GET on 500 with backoff, then gives up with the last ApiError', async () => {
    const s = await start({
      [`GET /v1/reviews/${REVIEW_ID}`]: (_q, res) => sendError(res, 500, 'internal_error', 'Boom.'),
    });
    const error = await createClient({ baseUrl: s.url })
      .getReview(REVIEW_ID)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, error: 'internal_error', message: 'Boom.' });
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry when retry is 0', async () => {
    const s = await start({ [`GET /v1/reviews/${REVIEW_ID}`]: (_q, res) => sendError(res, 503, 'unavailable') });
    await createClient({ baseUrl: s.url, retry: 0 })
      .getReview(REVIEW_ID)
      .catch(() => undefined);
    expect(s.requests).toHaveLength(1);
  });

  it('retries a create after 503 + Retry-After with the same Idempotency-Key', async () => {
    let calls = 0;
    const s = await start({
      'POST /v1/reviews': (_q, res) =>
        ++calls === 1
          ? sendError(res, 503, 'queue_full', 'Busy.', { 'retry-after': '0' })
          : sendJson(res, 202, job('queued')),
    });
    const created = await createClient({ baseUrl: s.url }).createReview({ diff: 'd', repository: 'r' });
    expect(created.status).toBe('queued');
    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    expect(first?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body).toBe(first?.body);
  });

  it('waits for a short Retry-After on 429', async () => {
    let calls = 0;
    const s = await start({
      'GET /v1/reviews': (_q, res) =>
        ++calls === 1
          ? sendError(res, 429, 'rate_limited', 'Slow down.', { 'retry-after': '1' })
          : sendJson(res, 200, { reviews: [], next_cursor: null }),
    });
    const started = Date.now();
    await createClient({ baseUrl: s.url }).listReviews();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(s.requests).toHaveLength(2);
  });

  it('fails at once, with retryAfterSeconds, when Retry-After is beyond the cap', async () => {
    const s = await start({
      'POST /v1/reviews': (_q, res) =>
        sendError(res, 429, 'rate_limited', 'Too many reviews.', { 'retry-after': '120' }),
    });
    const started = Date.now();
    const error = await createClient({ baseUrl: s.url, maxRetryAfterMs: 5000 })
      .createReview({ diff: 'd', repository: 'r' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, error: 'rate_limited', retryAfterSeconds: 120 });
    expect(s.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(4000); // at once: waiting would take 5 s at least
  });

  it("leaves a 429 to the caller with retryRateLimited: false (one retry policy, the caller's)", async () => {
    const s = await start({
      'POST /v1/reviews': (_q, res) => sendError(res, 429, 'rate_limited', 'Too many reviews.', { 'retry-after': '1' }),
    });
    const error = await createClient({ baseUrl: s.url })
      .createReview({ diff: 'd', repository: 'r' }, { retryRateLimited: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect(s.requests).toHaveLength(1);
  });

  it('reads Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 90_000).toUTCString();
    const s = await start({
      'GET /v1/reviews': (_q, res) => sendError(res, 503, 'unavailable', 'Later.', { 'retry-after': at }),
    });
    const error = (await createClient({ baseUrl: s.url })
      .listReviews()
      .catch((e: unknown) => e)) as ApiError;
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(88);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(91);
    expect(s.requests).toHaveLength(1);
  });

  it('does not retry a POST without an Idempotency-Key (token create, cancel)', async () => {
    const s = await start({
      'POST /v1/auth/tokens': (_q, res) => sendError(res, 503, 'unavailable', 'Later.', { 'retry-after': '0' }),
      [`POST /v1/reviews/${REVIEW_ID}/cancel`]: (_q, res) => sendError(res, 500, 'internal_error'),
    });
    const client = createClient({ baseUrl: s.url });
    await expect(client.createToken({ name: 'x' })).rejects.toBeInstanceOf(ApiError);
    await expect(client.cancelReview(REVIEW_ID)).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(2);
  });

  it('retries after the connection is reset', async () => {
    let calls = 0;
    const s = await start({
      [`GET /v1/reviews/${REVIEW_ID}`]: (req, res) => {
        if (++calls === 1) req.socket.destroy();
        else sendJson(res, 200, job('running'));
      },
    });
    expect((await createClient({ baseUrl: s.url }).getReview(REVIEW_ID)).status).toBe('running');
    expect(s.requests).toHaveLength(2);
  });
});
