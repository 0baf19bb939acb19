// Bearer authentication and scopes at the edges of the API contract: 401 (missing, malformed, unknown,
// revoked) with WWW-Authenticate, 403 token_expired (exactly at expiry counts), 403 insufficient_scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, type TestService, closeHealthy } from '../../support/test-service.ts';
import { mintSecret } from '../../../service/auth/secret.ts';
import { TestClock } from '../../support/test-clock.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const clock = new TestClock();

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'warn', clock, rateLimits: { create: 0, read: 0, tokens: 0 } });
});
afterAll(async () => {
  clock.reset();
  await closeHealthy(t);
});

interface Created {
  id: string;
  token: string;
  expires_at: string | null;
}
async function newToken(body: Record<string, unknown>): Promise<Created> {
  const response = await t.api('POST', '/v1/auth/tokens', {
    token: t.dashboardToken,
    body: { name: 'auth test', ...body },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Created;
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: string; message?: string };
  return {
    status: response.status,
    error: body.error,
    message: body.message,
    challenge: response.headers.get('www-authenticate'),
  };
}

const ok = { diff: DEBUGGER_DIFF, repository: 'github.com/acme/widgets' };
let reviewId: string;
beforeAll(async () => {
  const response = await t.api('POST', '/v1/reviews', { body: ok });
  reviewId = ((await response.json()) as { review_id: string }).review_id;
});

describe('401 unauthorized', () => {
  const endpoints: [string, () => string][] = [
    ['POST', () => '/v1/reviews'],
    ['GET', () => '/v1/reviews'],
    ['GET', () => `/v1/reviews/${reviewId}`],
    ['GET', () => '/v1/reviews/rev_00000000000000000000000000'],
    ['POST', () => `/v1/reviews/${reviewId}/cancel`],
    ['GET', () => `/v1/reviews/${reviewId}/sarif`],
    ['GET', () => `/v1/reviews/${reviewId}/events`],
    ['POST', () => '/v1/auth/tokens'],
    ['GET', () => '/v1/auth/tokens'],
    ['DELETE', () => '/v1/auth/tokens/tok_00000000000000000000000000'],
  ];

  it.each(endpoints)('no Authorization on %s %s → 401 with a bare Bearer challenge', async (method, path) => {
    const response = await t.api(method, path(), { token: null, ...(method === 'POST' ? { body: ok } : {}) });
    const e = await errorOf(response);
    expect(e.status).toBe(401);
    expect(e.error).toBe('unauthorized');
    expect(e.challenge).toMatch(/^Bearer\b/);
    // RFC 6750 §3.1: no error code when the request had no authentication at all
    expect(e.challenge).not.toMatch(/error=/);
  });

  it.each([
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer'],
    ['Bearer and a space', 'Bearer '],
    ['two tokens', 'Bearer aaa bbb'],
    ['the token alone', 'drv_abc'],
    ['Token scheme', 'Token drv_abc'],
  ])('malformed header (%s) → 401 with an error in the challenge', async (_name, authorization) => {
    const e = await errorOf(await t.api('GET', '/v1/reviews', { token: null, headers: { authorization } }));
    expect(e.status).toBe(401);
    expect(e.error).toBe('unauthorized');
    expect(e.challenge).toMatch(/^Bearer\b/);
    expect(e.challenge).toMatch(/error="(invalid_request|invalid_token)"/);
  });

  it('the scheme is case-insensitive (RFC 7235): "bearer <token>" works', async () => {
    const response = await t.api('GET', '/v1/reviews', {
      token: null,
      headers: { authorization: `bearer ${t.reviewToken}` },
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['a well-formed secret that was never issued', () => mintSecret()],
    ['a random string', () => 'not-a-token-at-all'],
    [
      'a valid token with one character changed',
      () => t.reviewToken.slice(0, -1) + (t.reviewToken.endsWith('A') ? 'B' : 'A'),
    ],
    ['a valid token with a suffix', () => `${t.reviewToken}x`],
    ['the token hash instead of the token', () => 'a'.repeat(64)],
  ])('unknown token (%s) → 401 with error="invalid_token"', async (_name, token) => {
    const e = await errorOf(await t.api('GET', '/v1/reviews', { token: token() }));
    expect(e.status).toBe(401);
    expect(e.error).toBe('unauthorized');
    expect(e.challenge).toMatch(/^Bearer\b.*error="invalid_token"/);
  });

  it('unknown token on the token endpoints → 401 invalid_token', async () => {
    const e = await errorOf(await t.api('GET', '/v1/auth/tokens', { token: mintSecret() }));
    expect(e.status).toBe(401);
    expect(e.error).toBe('unauthorized');
    expect(e.challenge).toMatch(/error="invalid_token"/);
  });

  it('a revoked token → 401 on its very next request', async () => {
    const created = await newToken({});
    expect((await t.api('GET', `/v1/reviews/${reviewId}`, { token: created.token })).status).toBe(200);
    const deleted = await t.api('DELETE', `/v1/auth/tokens/${created.id}`, { token: t.dashboardToken });
    expect(deleted.status).toBe(204);
    const e = await errorOf(await t.api('GET', `/v1/reviews/${reviewId}`, { token: created.token }));
    expect(e.status).toBe(401);
    expect(e.error).toBe('unauthorized');
    expect(e.challenge).toMatch(/error="invalid_token"/);
    // and for a create, before the body is looked at
    const c = await errorOf(await t.api('POST', '/v1/reviews', { token: created.token, body: ok }));
    expect(c.status).toBe(401);
  });

  it('a revoked token stays revoked after a restart of the service', async () => {
    const created = await newToken({});
    await t.api('DELETE', `/v1/auth/tokens/${created.id}`, { token: t.dashboardToken });
    const restarted = await t.restart();
    t = restarted;
    expect((await t.api('GET', '/v1/reviews', { token: created.token })).status).toBe(401);
    // the dashboard token of the file still works after the restart
    expect((await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken })).status).toBe(200);
  });
});

describe('403 token_expired', () => {
  it('a 1-day token: 1 ms before expiry works, exactly at expiry and 1 day + 1 ms later → 403', async () => {
    const created = await newToken({ expires_in_days: 1 });
    const expiresAt = Date.parse(created.expires_at!);
    try {
      clock.fixed = expiresAt - 1;
      expect((await t.api('GET', '/v1/reviews', { token: created.token })).status).toBe(200);

      clock.fixed = expiresAt;
      const atExpiry = await errorOf(await t.api('GET', '/v1/reviews', { token: created.token }));
      expect(atExpiry.status).toBe(403);
      expect(atExpiry.error).toBe('token_expired');

      clock.fixed = expiresAt - DAY_MS + DAY_MS + 1;
      const later = await errorOf(await t.api('GET', '/v1/reviews', { token: created.token }));
      expect(later.status).toBe(403);
      expect(later.error).toBe('token_expired');
      expect(later.message).toContain(created.expires_at!);

      const create = await errorOf(await t.api('POST', '/v1/reviews', { token: created.token, body: ok }));
      expect(create.status).toBe(403);
      expect(create.error).toBe('token_expired');
    } finally {
      clock.fixed = undefined;
    }
  });

  it('moving the clock by 1 day + 1 ms from creation expires a 1-day token', async () => {
    const created = await newToken({ expires_in_days: 1 });
    try {
      clock.offset = DAY_MS + 1;
      const e = await errorOf(await t.api('GET', `/v1/reviews/${reviewId}`, { token: created.token }));
      expect(e.status).toBe(403);
      expect(e.error).toBe('token_expired');
    } finally {
      clock.offset = 0;
    }
    // back in time it works again: expiry is computed, not a stored flag
    expect((await t.api('GET', `/v1/reviews/${reviewId}`, { token: created.token })).status).toBe(200);
  });

  it('a token that never expires (expires_in_days: null) still works 10 years later', async () => {
    const created = await newToken({ expires_in_days: null });
    expect(created.expires_at).toBeNull();
    try {
      clock.offset = 3650 * DAY_MS;
      expect((await t.api('GET', '/v1/reviews', { token: created.token })).status).toBe(200);
    } finally {
      clock.offset = 0;
    }
  });

  it('an expired and revoked token is 401 (revocation wins: the token is gone)', async () => {
    const created = await newToken({ expires_in_days: 1 });
    await t.api('DELETE', `/v1/auth/tokens/${created.id}`, { token: t.dashboardToken });
    try {
      clock.offset = 2 * DAY_MS;
      expect((await t.api('GET', '/v1/reviews', { token: created.token })).status).toBe(401);
    } finally {
      clock.offset = 0;
    }
  });
});

describe('403 insufficient_scope', () => {
  it.each([
    ['POST', '/v1/reviews'],
    ['GET', '/v1/reviews'],
    ['GET', '/v1/reviews/REVIEW'],
    ['POST', '/v1/reviews/REVIEW/cancel'],
    ['GET', '/v1/reviews/REVIEW/sarif'],
    ['GET', '/v1/reviews/REVIEW/events'],
  ])('the dashboard token on %s %s → 403 insufficient_scope', async (method, path) => {
    const e = await errorOf(
      await t.api(method, path.replace('REVIEW', reviewId), {
        token: t.dashboardToken,
        ...(method === 'POST' ? { body: ok } : {}),
      }),
    );
    expect(e.status).toBe(403);
    expect(e.error).toBe('insufficient_scope');
  });

  it.each([
    ['POST', '/v1/auth/tokens'],
    ['GET', '/v1/auth/tokens'],
    ['DELETE', '/v1/auth/tokens/TOKEN'],
  ])('a review token on %s %s → 403 insufficient_scope', async (method, path) => {
    const victim = await newToken({});
    const e = await errorOf(
      await t.api(method, path.replace('TOKEN', victim.id), {
        token: t.reviewToken,
        ...(method === 'POST' ? { body: { name: 'x' } } : {}),
      }),
    );
    expect(e.status).toBe(403);
    expect(e.error).toBe('insufficient_scope');
    // and the DELETE did not happen
    const list = (await (await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken })).json()) as {
      tokens: { id: string }[];
    };
    expect(list.tokens.map((x) => x.id)).toContain(victim.id);
  });

  it('reviews:read only: get, list, SARIF/events allowed; create and cancel → 403', async () => {
    const { token } = await newToken({ scopes: ['reviews:read'] });
    expect((await t.api('GET', `/v1/reviews/${reviewId}`, { token })).status).toBe(200);
    expect((await t.api('GET', '/v1/reviews', { token })).status).toBe(200);
    const create = await errorOf(await t.api('POST', '/v1/reviews', { token, body: ok }));
    expect(create.status).toBe(403);
    expect(create.error).toBe('insufficient_scope');
    expect(create.message).toMatch(/reviews:write/);
    expect(create.challenge).toMatch(/error="insufficient_scope"/);
    const cancel = await errorOf(await t.api('POST', `/v1/reviews/${reviewId}/cancel`, { token }));
    expect(cancel.status).toBe(403);
    expect(cancel.error).toBe('insufficient_scope');
  });

  it('reviews:read only with an invalid body → 403, not 400 (scope first, body never read)', async () => {
    const { token } = await newToken({ scopes: ['reviews:read'] });
    const e = await errorOf(
      await t.api('POST', '/v1/reviews', {
        token,
        rawBody: '{not json',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(e.status).toBe(403);
    expect(e.error).toBe('insufficient_scope');
  });

  it('reviews:write only: create allowed; get and list → 403', async () => {
    const { token } = await newToken({ scopes: ['reviews:write'] });
    const created = await t.api('POST', '/v1/reviews', { token, body: ok });
    expect(created.status).toBe(202);
    const id = ((await created.json()) as { review_id: string }).review_id;
    for (const path of [`/v1/reviews/${id}`, '/v1/reviews', `/v1/reviews/${id}/sarif`]) {
      const e = await errorOf(await t.api('GET', path, { token }));
      expect(e.status, path).toBe(403);
      expect(e.error).toBe('insufficient_scope');
      expect(e.message).toMatch(/reviews:read/);
    }
    // another token of the same owner reads it (one owner locally)
    expect((await t.api('GET', `/v1/reviews/${id}`)).status).toBe(200);
  });
});

describe('last_used_at', () => {
  it('is null until the token is used, then set', async () => {
    const created = await newToken({});
    const listed = async () =>
      (
        (await (await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken })).json()) as {
          tokens: { id: string; last_used_at: string | null }[];
        }
      ).tokens.find((x) => x.id === created.id)!;
    expect((await listed()).last_used_at).toBeNull();
    expect((await t.api('GET', '/v1/reviews', { token: created.token })).status).toBe(200);
    // best effort and coalesced: allow it a moment
    let last: string | null = null;
    for (let i = 0; i < 50 && last === null; i++) {
      last = (await listed()).last_used_at;
      if (last === null) await new Promise((r) => setTimeout(r, 50));
    }
    expect(last).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
