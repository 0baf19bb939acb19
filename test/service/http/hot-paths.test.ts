// The fast paths taken for performance (test/bench/) answer exactly what the slow ones did: the
// cached bytes of a finished review, the poll answered before Fastify, the JSON body parser without its regex pre-scan, the
// `minLength: 1` check by length, and the review worker reading its diff from the file.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledReview } from '../../support/settled-review.ts';
import { DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

let t: TestService;
let token: string;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'warn', rateLimits: { create: 0, read: 0, tokens: 0 } });
  const created = await t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body: { name: 'hot paths' } });
  token = ((await created.json()) as { token: string }).token;
});
afterAll(async () => {
  await t?.close();
  expect(t.contract.violations).toEqual([]);
});

async function finishedReview(diff = DEBUGGER_DIFF): Promise<string> {
  const created = await t.api('POST', '/v1/reviews', { token, body: { diff, repository: 'github.com/acme/widgets' } });
  expect(created.status).toBe(202);
  const id = ((await created.json()) as { review_id: string }).review_id;
  await settledReview(
    async () => (await (await t.api('GET', `/v1/reviews/${id}`, { token })).json()) as { status: string },
  );
  return id;
}

describe('GET of a finished review', () => {
  it('answers the same bytes and headers from the cache as it did when it serialized them', async () => {
    const id = await finishedReview();
    const first = await t.api('GET', `/v1/reviews/${id}`, { token });
    const firstBody = await first.text();
    const again = await t.api('GET', `/v1/reviews/${id}`, { token });
    const againBody = await again.text();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(againBody).toBe(firstBody);
    for (const name of ['content-type', 'content-length'])
      expect(again.headers.get(name)).toBe(first.headers.get(name));
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(again.headers.get('content-length'))).toBe(Buffer.byteLength(againBody));
    const job = JSON.parse(againBody) as { status: string; comments: unknown[] };
    expect(job.status).toBe('completed');
    expect(job.comments.length).toBeGreaterThan(0);
  });

  it('answers a failed review the same way, and HEAD with the same headers and no body', async () => {
    const id = await finishedReview('not a diff at all\n');
    const get = await t.api('GET', `/v1/reviews/${id}`, { token });
    const body = (await get.json()) as { status: string; error: { code: string } };
    expect(body.status).toBe('failed');
    expect(body.error.code).toBe('invalid_diff');
    // not through t.api: the contract checker expects a body
    const head = await fetch(`${t.url}/v1/reviews/${id}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('still checks the token and the owner on every request', async () => {
    const id = await finishedReview();
    expect((await t.api('GET', `/v1/reviews/${id}`, { token })).status).toBe(200);
    expect((await t.api('GET', `/v1/reviews/${id}`, { token: null })).status).toBe(401);
    const other = await t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body: { name: 'to revoke' } });
    const { token: secret, id: tokenId } = (await other.json()) as { token: string; id: string };
    expect((await t.api('GET', `/v1/reviews/${id}`, { token: secret })).status).toBe(200);
    expect((await t.api('DELETE', `/v1/auth/tokens/${tokenId}`, { token: t.dashboardToken })).status).toBe(204);
    expect((await t.api('GET', `/v1/reviews/${id}`, { token: secret })).status).toBe(401);
  });
});

describe('GET of a finished review, polled again', () => {
  it('answers the same bytes every time, and refuses every other caller as before', async () => {
    const id = await finishedReview();
    const path = `/v1/reviews/${id}`;
    const first = await (await t.api('GET', path, { token })).text();
    expect(await (await t.api('GET', path, { token })).text()).toBe(first);
    const newToken = async (body: object, as = t.dashboardToken) =>
      (
        (await (await t.api('POST', '/v1/auth/tokens', { token: as, body: { name: 'poll', ...body } })).json()) as {
          token: string;
        }
      ).token;
    const writeOnly = await newToken({ scopes: ['reviews:write'] });
    const cases: [string, () => Promise<Response>, number][] = [
      ['no token', () => t.api('GET', path, { token: null }), 401],
      ['a malformed header', () => t.api('GET', path, { token: null, headers: { authorization: 'Basic abc' } }), 401],
      ['an unknown token', () => t.api('GET', path, { token: 'drv_notarealtoken' }), 401],
      ['a token without reviews:read', () => t.api('GET', path, { token: writeOnly }), 403],
      ['the dashboard token', () => t.api('GET', path, { token: t.dashboardToken }), 403],
      ['a query string', () => t.api('GET', `${path}?fields=all`, { token }), 200],
      ['a trailing slash', () => t.api('GET', `${path}/`, { token }), 404],
    ];
    for (const [what, request, status] of cases) {
      const result = await request();
      expect(result.status, what).toBe(status);
      expect(await result.json(), what).toMatchObject(
        status === 200 ? { review_id: id } : { error: expect.any(String) },
      );
    }
  });
});

describe('the JSON body parser', () => {
  it('refuses prototype poisoning wherever it is (secure-json-parse), and takes a BOM', async () => {
    for (const rawBody of [
      '{"__proto__":{"x":1},"diff":"a","repository":"r"}',
      '{"diff":"d","repository":"r","a":[{"__proto__":{}}]}',
      '{"\\u005f_proto__":{},"diff":"d","repository":"r"}',
      '{"constructor":{"prototype":{"x":1}},"diff":"d","repository":"r"}',
    ]) {
      const response = await t.api('POST', '/v1/reviews', {
        token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, rawBody).toBe(400);
      expect(((await response.json()) as { message: string }).message, rawBody).toMatch(/not valid JSON/);
    }
    const bom = await t.api('POST', '/v1/reviews', {
      token,
      rawBody: `\ufeff${JSON.stringify({ diff: DEBUGGER_DIFF, repository: 'r' })}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(bom.status).toBe(202);
  });

  it('answers 400 invalid_request for what does not parse, and an empty body', async () => {
    for (const rawBody of ['{"__proto__":{"x":1},"diff":"a","repository":"r"}', '{"diff":', '']) {
      const response = await t.api('POST', '/v1/reviews', {
        token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      const body = (await response.json()) as { error: string; message: string };
      expect(response.status, rawBody).toBe(400);
      expect(body.error).toBe('invalid_request');
      expect(body.message).toMatch(rawBody === '' ? /empty/ : /not valid JSON/);
    }
  });
});

describe('the body validation', () => {
  it('an empty diff is "must not be empty"; a diff of one astral character is not empty', async () => {
    const empty = await t.api('POST', '/v1/reviews', { token, body: { diff: '', repository: 'r' } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toBe('diff must not be empty.');
    const astral = await t.api('POST', '/v1/reviews', { token, body: { diff: '😀', repository: 'r' } });
    expect(astral.status).toBe(202);
  });
});

describe('the review worker', () => {
  it.runIf(process.platform === 'linux')('lowers its own thread priority, never the main thread', async () => {
    const worker = new Worker(
      `import os from 'node:os'; import { parentPort } from 'node:worker_threads';
       await import(${JSON.stringify(new URL('../../../service/jobs/review-worker.ts', import.meta.url).href)});
       parentPort.postMessage(os.getPriority());`,
      { eval: true, type: 'module' } as never,
    );
    const priority = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(priority).toBeGreaterThanOrEqual(10);
    const os = await import('node:os');
    expect(os.getPriority()).toBeLessThan(10);
  });
});
