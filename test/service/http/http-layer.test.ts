// The HTTP layer at the edges of the API contract: unknown paths (404), wrong methods (405 with Allow),
// oversize headers (431), slow clients (408), malformed requests (400), all in the error shape;
// the public endpoints; the OpenAPI document itself.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, type TestService, closeHealthy } from '../../support/test-service.ts';
import { rawSocket, type SocketAnswer } from './raw-http.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    logLevel: 'warn',
    timeouts: { headersMs: 1000, requestMs: 2000 },
    rateLimits: { create: 0, read: 0, tokens: 0 },
  });
});
afterAll(() => closeHealthy(t));

async function errorOf(response: Response) {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, ...((await response.json()) as { error: string; message?: string }) };
}

/** Answers of the HTTP parser belong to no operation: checked as an ErrorResponse only. */
const PARSER = '/(http-parser)';

/** A raw answer in the error shape, also checked against the OpenAPI document. */
function expectErrorShape(answer: SocketAnswer, status: number, error: string, path = '/healthz') {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { error: string; message?: string };
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe('string');
  t.contract.check('GET', `${t.url}${path}`, answer.status, answer.headers['content-type']!, answer.body);
}

describe('404 for unknown paths', () => {
  it.each([
    ['GET', '/'],
    ['GET', '/nope'],
    ['GET', '/v1'],
    ['GET', '/v2/reviews'],
    ['GET', '/v1/review'],
    ['GET', '/v1/reviews/rev_x/comments'],
    ['POST', '/v1/reviews/rev_x/sarif/extra'],
    ['DELETE', '/v1/auth'],
    ['GET', '/V1/REVIEWS'],
  ])('%s %s → 404 not_found in the error shape', async (method, path) => {
    const e = await errorOf(await t.api(method, path, { token: null }));
    expect(e.status).toBe(404);
    expect(e.error).toBe('not_found');
    expect(e.message).toEqual(expect.any(String));
  });
});

describe('405 for wrong methods, with Allow', () => {
  it.each([
    ['PUT', '/v1/reviews', ['GET', 'POST']],
    ['DELETE', '/v1/reviews', ['GET', 'POST']],
    ['PATCH', '/v1/reviews', ['GET', 'POST']],
    ['DELETE', '/v1/reviews/rev_01JD8X3Q4M5N6P7R8S9T0V1W2X', ['GET']],
    ['POST', '/v1/reviews/rev_01JD8X3Q4M5N6P7R8S9T0V1W2X', ['GET']],
    ['GET', '/v1/reviews/rev_01JD8X3Q4M5N6P7R8S9T0V1W2X/cancel', ['POST']],
    ['PATCH', '/v1/auth/tokens', ['GET', 'POST']],
    ['PUT', '/v1/auth/tokens', ['GET', 'POST']],
    ['GET', '/v1/auth/tokens/tok_01JD8X3Q4M5N6P7R8S9T0V1W2X', ['DELETE']],
    ['POST', '/healthz', ['GET']],
  ])('%s %s → 405 method_not_allowed, Allow lists %j', async (method, path, allowed) => {
    const response = await t.api(method, path, { token: null });
    const allow = response.headers.get('allow');
    const e = await errorOf(response);
    expect(e.status).toBe(405);
    expect(e.error).toBe('method_not_allowed');
    expect(allow).not.toBeNull();
    const methods = allow!.split(',').map((m) => m.trim());
    for (const m of allowed) expect(methods).toContain(m);
    expect(methods).not.toContain(method);
  });

  it('405 with a token and a body too, and before any body is read', async () => {
    const e = await errorOf(await t.api('PUT', '/v1/reviews', { body: { diff: DEBUGGER_DIFF, repository: 'r' } }));
    expect(e.status).toBe(405);
  });
});

describe('errors of the HTTP parser, in the error shape', () => {
  it('a 20 KB header → 431 header_fields_too_large', async () => {
    const answer = await rawSocket(t.url, [
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    ]);
    expectErrorShape(answer, 431, 'header_fields_too_large');
  });

  it('many small headers adding up to 20 KB → 431', async () => {
    const headers = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(48)}\r\n`).join('');
    const answer = await rawSocket(t.url, [`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`]);
    expectErrorShape(answer, 431, 'header_fields_too_large');
  });

  it('a 20 KB Authorization header on a review endpoint → 431, not a 500', async () => {
    const answer = await rawSocket(t.url, [
      `GET /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'c'.repeat(20 * 1024)}\r\n\r\n`,
    ]);
    expectErrorShape(answer, 431, 'header_fields_too_large', '/v1/reviews');
  });

  it('headers sent a byte at a time past the headers timeout (1 s) → 408 request_timeout', async () => {
    const start = Date.now();
    const slow = `X-Slow: ${'z'.repeat(60)}`; // 68 bytes × 50 ms ≈ 3.4 s, past the 1 s limit
    const answer = await rawSocket(t.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', ...slow.split('')], {
      pauseMs: 50,
      timeoutMs: 8000,
    });
    expectErrorShape(answer, 408, 'request_timeout');
    const elapsed = Date.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3400); // answered before the client finished dawdling
  });

  it('a body that never arrives, past the request timeout (2 s) → 408 in the error shape', async () => {
    const body = JSON.stringify({ diff: DEBUGGER_DIFF, repository: 'r' });
    const answer = await rawSocket(
      t.url,
      [
        `POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.reviewToken}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body.slice(0, 10),
      ],
      { timeoutMs: 8000 },
    );
    expect(answer.ending).not.toBe('timeout');
    expectErrorShape(answer, 408, 'request_timeout', '/v1/reviews');
  });

  it('a request line that is not HTTP → 400 invalid_request', async () => {
    const answer = await rawSocket(t.url, ['THIS IS NOT HTTP\r\n\r\n']);
    expectErrorShape(answer, 400, 'invalid_request', PARSER);
  });

  it('a header with a NUL byte → 400 invalid_request', async () => {
    const answer = await rawSocket(t.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0000b\r\n\r\n']);
    expectErrorShape(answer, 400, 'invalid_request', PARSER);
  });

  it('a bad Content-Length → 400 invalid_request', async () => {
    const answer = await rawSocket(t.url, [
      'POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n',
    ]);
    expectErrorShape(answer, 400, 'invalid_request', PARSER);
  });

  it('both Content-Length and Transfer-Encoding (request smuggling) → 400 invalid_request', async () => {
    const answer = await rawSocket(t.url, [
      'POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    expectErrorShape(answer, 400, 'invalid_request', PARSER);
  });

  it('the service is fine after the abuse', async () => {
    const response = await t.api('GET', '/healthz', { token: null });
    expect(response.status).toBe(200);
  });
});

describe('public endpoints', () => {
  it('/healthz needs no token: 200 { status: ok, version }', async () => {
    const response = await t.api('GET', '/healthz', { token: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('/healthz and /v1/openapi.json ignore a bad token (no 401)', async () => {
    expect((await t.api('GET', '/healthz', { token: 'garbage' })).status).toBe(200);
    expect((await t.api('GET', '/v1/openapi.json', { token: 'garbage' })).status).toBe(200);
  });

  it('/v1/openapi.json needs no token and is JSON', async () => {
    const response = await t.api('GET', '/v1/openapi.json', { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('the OpenAPI document', () => {
  let doc: {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
  };
  beforeAll(async () => {
    doc = (await (await t.api('GET', '/v1/openapi.json', { token: null })).json()) as typeof doc;
  });

  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('info.version is 1.0.0', () => {
    expect(doc.info.version).toBe('1.0.0');
  });

  it('declares exactly the six error statuses of create (400, 401, 403, 413, 429, 500) and 202', () => {
    const responses = doc.paths['/v1/reviews']!.post!.responses;
    const errors = Object.keys(responses)
      .filter((s) => Number(s) >= 400)
      .sort();
    expect(errors).toEqual(['400', '401', '403', '413', '429', '500']);
    expect(Object.keys(responses)).toContain('202');
  });

  // GET /v1/reviews/{review_id}'s exact statuses are checked beside its exemption from rate limits
  it('declares the API paths, 201 for a token created and 204 for one revoked', () => {
    for (const path of ['/v1/reviews', '/v1/reviews/{review_id}', '/v1/auth/tokens', '/v1/auth/tokens/{id}'])
      expect(doc.paths).toHaveProperty([path]);
    expect(Object.keys(doc.paths['/v1/auth/tokens']!.post!.responses)).toContain('201');
    expect(Object.keys(doc.paths['/v1/auth/tokens/{id}']!.delete!.responses)).toContain('204');
  });

  it('the hidden 405 routes are not in the document', () => {
    expect(Object.keys(doc.paths['/v1/reviews']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/auth/tokens']!).sort()).toEqual(['get', 'post']);
  });

  it('review endpoints declare the review bearer scheme, token endpoints the dashboard one, meta none', () => {
    expect(doc.paths['/v1/reviews']!.post!.security).toEqual([{ reviewBearerAuth: [] }]);
    expect(doc.paths['/v1/auth/tokens']!.get!.security).toEqual([{ dashboardBearerAuth: [] }]);
    expect(doc.paths['/healthz']!.get!.security ?? []).toEqual([]);
  });
});
