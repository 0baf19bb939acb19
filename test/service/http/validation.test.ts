// POST /v1/reviews and POST /v1/auth/tokens request validation at the edges of the API contract: every
// malformed body is a 400 invalid_request whose message names the field, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, type TestService, closeHealthy } from '../../support/test-service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'warn', rateLimits: { create: 0, read: 0, tokens: 0 } });
});
afterAll(() => closeHealthy(t));

const create = (init: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) =>
  t.api('POST', '/v1/reviews', init);

async function expect400(response: Response, field?: string | RegExp) {
  const body = (await response.json()) as { error: string; message?: string };
  expect(response.status, JSON.stringify(body)).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(body.error).toBe('invalid_request');
  expect(body.message).toEqual(expect.any(String));
  if (field !== undefined)
    expect(body.message).toMatch(typeof field === 'string' ? new RegExp(`\\b${field}\\b`) : field);
  return body;
}

async function expect202(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body)).toBe(202);
  expect(body.status).toBe('queued');
  return body;
}

const ok = { diff: DEBUGGER_DIFF, repository: 'github.com/acme/widgets' };

describe('body encoding', () => {
  it('malformed JSON → 400', async () => {
    await expect400(
      await create({ rawBody: '{"diff": "x", "repository": ', headers: { 'content-type': 'application/json' } }),
      /JSON/,
    );
    await expect400(
      await create({ rawBody: "{'diff': 'x'}", headers: { 'content-type': 'application/json' } }),
      /JSON/,
    );
  });

  it('a valid body with Content-Type text/plain → 400 naming Content-Type', async () => {
    await expect400(
      await create({ rawBody: JSON.stringify(ok), headers: { 'content-type': 'text/plain' } }),
      /Content-Type/i,
    );
  });

  it('a valid body without Content-Type → 400', async () => {
    // fetch adds text/plain to a string body, so send bytes (no Content-Type is added for them)
    const response = await fetch(`${t.url}/v1/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.reviewToken}` },
      body: new TextEncoder().encode(JSON.stringify(ok)),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('invalid_request');
    expect(body.message).toMatch(/Content-Type|body/i);
  });

  it('application/json with a charset parameter is accepted', async () => {
    await expect202(
      await create({ rawBody: JSON.stringify(ok), headers: { 'content-type': 'application/json; charset=utf-8' } }),
    );
  });

  it('an empty body → 400 (with and without Content-Type)', async () => {
    await expect400(await create({ rawBody: '', headers: { 'content-type': 'application/json' } }), /body/i);
    await expect400(await t.api('POST', '/v1/reviews', {}), /body/i);
  });

  it.each([
    ['an array', '[]'],
    ['an array of one object', JSON.stringify([ok])],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('JSON that is %s, not an object → 400', async (_name, raw) => {
    await expect400(await create({ rawBody: raw, headers: { 'content-type': 'application/json' } }), /body|object/i);
  });
});

describe('create fields', () => {
  it('the minimal valid body → 202', async () => {
    await expect202(await create({ body: ok }));
  });

  it('missing diff → 400 naming diff', async () => {
    await expect400(await create({ body: { repository: 'r' } }), 'diff');
  });

  it('missing repository → 400 naming repository', async () => {
    await expect400(await create({ body: { diff: DEBUGGER_DIFF } }), 'repository');
  });

  it('an empty object → 400 naming a required field', async () => {
    await expect400(await create({ body: {} }), /diff|repository/);
  });

  it.each([
    ['diff', 42],
    ['diff', null],
    ['diff', true],
    ['diff', ['a']],
    ['diff', { a: 1 }],
    ['repository', 42],
    ['repository', null],
    ['repository', false],
    ['repository', ['r']],
    ['repository', { r: 1 }],
    ['base_commit', 1234567],
    ['base_commit', null],
    ['base_commit', true],
    ['base_commit', ['a1b2c3d']],
    ['base_commit', { a: 1 }],
  ])('%s of the wrong type (%j) → 400 naming it', async (field, value) => {
    await expect400(await create({ body: { ...ok, [field]: value } }), field);
  });

  it('an empty diff → 400 naming diff', async () => {
    await expect400(await create({ body: { ...ok, diff: '' } }), 'diff');
  });

  it('an empty repository → 400 naming repository', async () => {
    await expect400(await create({ body: { ...ok, repository: '' } }), 'repository');
  });

  it('an unknown property → 400 naming it', async () => {
    const body = await expect400(await create({ body: { ...ok, branch: 'main' } }), 'branch');
    expect(body.message).toMatch(/unknown/i);
  });

  it('a property that differs only in case is unknown → 400', async () => {
    await expect400(await create({ body: { ...ok, Repository: 'x' } }), 'Repository');
  });

  it('repository of 256 characters → 202, 257 → 400 naming repository', async () => {
    const job = await expect202(await create({ body: { ...ok, repository: 'r'.repeat(256) } }));
    expect(job.repository).toBe('r'.repeat(256));
    await expect400(await create({ body: { ...ok, repository: 'r'.repeat(257) } }), 'repository');
  });

  it('repository length counts characters, not bytes: 256 × "é" → 202', async () => {
    await expect202(await create({ body: { ...ok, repository: 'é'.repeat(256) } }));
  });

  it.each([
    ['a newline', 'acme/\nwidgets'],
    ['a carriage return', 'acme/\rwidgets'],
    ['a tab', 'acme\twidgets'],
    ['NUL', 'acme/\u0000widgets'],
    ['DEL', 'acme/\u007fwidgets'],
    ['ESC', '\u001b[31macme'],
    ['a trailing newline', 'acme/widgets\n'],
    ['only a control character', '\u0001'],
  ])('repository with %s → 400 naming repository', async (_name, repository) => {
    await expect400(await create({ body: { ...ok, repository } }), 'repository');
  });

  it.each([
    ['6 hex digits', 'a1b2c3', 400],
    ['7 hex digits', 'a1b2c3d', 202],
    ['40 hex digits (SHA-1)', 'a'.repeat(40), 202],
    ['64 hex digits (SHA-256)', 'b'.repeat(64), 202],
    ['65 hex digits', 'c'.repeat(65), 400],
    ['upper-case hex', 'A1B2C3D', 202],
    ['a non-hex letter', 'a1b2c3g', 400],
    ['a space', 'a1b2 c3d', 400],
    ['a branch name', 'main', 400],
    ['a trailing newline', 'a1b2c3d\n', 400],
    ['empty', '', 400],
  ])('base_commit of %s → %s', async (_name, base_commit, status) => {
    const response = await create({ body: { ...ok, base_commit } });
    if (status === 202) {
      const job = await expect202(response);
      expect(job.base_commit).toBe(base_commit);
    } else {
      await expect400(response, 'base_commit');
    }
  });

  it('a 400 queues nothing', async () => {
    const before = (await (await t.api('GET', '/v1/reviews?limit=100')).json()) as { reviews: unknown[] };
    await expect400(await create({ body: { ...ok, base_commit: 'zz' } }), 'base_commit');
    const after = (await (await t.api('GET', '/v1/reviews?limit=100')).json()) as { reviews: unknown[] };
    expect(after.reviews.length).toBe(before.reviews.length);
  });
});

describe('token create fields', () => {
  const createToken = (body: unknown) => t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body });

  it.each([
    ['name', 42],
    ['name', null],
    ['scopes', 'reviews:read'],
    ['scopes', [42]],
    ['expires_in_days', '30'],
    ['expires_in_days', 1.5],
    ['expires_in_days', true],
  ])('%s of the wrong type (%j) → 400 naming it', async (field, value) => {
    await expect400(await createToken({ name: 'n', [field]: value }), field);
  });

  it('missing name → 400 naming name', async () => {
    await expect400(await createToken({}), 'name');
  });

  it('unknown property → 400 naming it', async () => {
    await expect400(await createToken({ name: 'n', type: 'dashboard' }), 'type');
  });

  it('malformed JSON and a non-object body → 400', async () => {
    await expect400(
      await t.api('POST', '/v1/auth/tokens', {
        token: t.dashboardToken,
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect400(
      await t.api('POST', '/v1/auth/tokens', {
        token: t.dashboardToken,
        rawBody: '[]',
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect400(
      await t.api('POST', '/v1/auth/tokens', {
        token: t.dashboardToken,
        rawBody: '{"name":"n"}',
        headers: { 'content-type': 'text/plain' },
      }),
    );
  });
});

describe('query parameters', () => {
  it.each([
    ['status=done', 'status'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['unknown=1', 'unknown'],
  ])('GET /v1/reviews?%s → 400 naming %s', async (query, field) => {
    await expect400(await t.api('GET', `/v1/reviews?${query}`), field);
  });
});
