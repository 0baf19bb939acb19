// The token endpoints at the edges of the API contract: the record's fields and the secret's shape, the
// limits of name, expires_in_days and scopes, listing (newest first, no revoked, no dashboard, no
// secret), deleting, and a secret that is never stored or logged.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { createService } from '../../../service/service.ts';
import { TestClock } from '../../support/test-clock.ts';
import {
  startTestService,
  storedTexts,
  storedTokens,
  TEST_STORAGE,
  type TestService,
  closeHealthy,
} from '../../support/test-service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const clock = new TestClock();

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'debug', clock, rateLimits: { create: 0, read: 0, tokens: 0 } });
});
afterAll(() => closeHealthy(t));

interface Record_ {
  id: string;
  name: string;
  type: string;
  scopes: string[];
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  token?: string;
}

const createToken = (body: unknown) => t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body });
const list = async () => {
  const response = await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken });
  expect(response.status).toBe(200);
  return ((await response.json()) as { tokens: Record_[] }).tokens;
};
async function created(body: unknown): Promise<Record_> {
  const response = await createToken(body);
  const json = (await response.json()) as Record_;
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}
async function expect400(body: unknown, field: string) {
  const response = await createToken(body);
  const json = (await response.json()) as { error: string; message: string };
  expect(response.status, JSON.stringify(json)).toBe(400);
  expect(json.error).toBe('invalid_request');
  expect(json.message).toMatch(new RegExp(`\\b${field}\\b`));
}

/** The checksum the API contract describes: CRC32 of the random part, 6 base62 characters. */
function checksum(random: string): string {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

describe('create', () => {
  it('201 with every TokenRecord field and the secret, no-store', async () => {
    const before = Date.now();
    const response = await createToken({ name: 'ci' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    const token = (await response.json()) as Record_;
    expect(Object.keys(token).sort()).toEqual([
      'created_at',
      'expires_at',
      'id',
      'last_used_at',
      'name',
      'prefix',
      'scopes',
      'token',
      'type',
    ]);
    expect(token.id).toMatch(/^tok_[0-9A-Z]{26}$/);
    expect(token.name).toBe('ci');
    expect(token.type).toBe('review');
    expect([...token.scopes].sort()).toEqual(['reviews:read', 'reviews:write']);
    expect(token.created_at).toMatch(ISO_MS);
    expect(Date.parse(token.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(token.last_used_at).toBeNull();
    // default lifetime: 90 days
    expect(token.expires_at).toMatch(ISO_MS);
    expect(Date.parse(token.expires_at!) - Date.parse(token.created_at)).toBe(90 * DAY_MS);
  });

  it('the secret: drv_ + 32+ base62 + a 6-character base62 CRC32 checksum; prefix = first 8 characters', async () => {
    const token = await created({ name: 'shape' });
    const match = /^drv_([0-9A-Za-z]{32,})([0-9A-Za-z]{6})$/.exec(token.token!);
    expect(match, token.token).not.toBeNull();
    expect(checksum(match![1]!)).toBe(match![2]);
    expect(token.prefix).toBe(token.token!.slice(0, 8));
    expect(token.prefix).toMatch(/^drv_[0-9A-Za-z]{4}$/);
    // and it works
    expect((await t.api('GET', '/v1/reviews', { token: token.token })).status).toBe(200);
  });

  it('two secrets are never the same', async () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 20; i++) secrets.add((await created({ name: `n${i}` })).token!);
    expect(secrets.size).toBe(20);
  });

  it('name of 1 and 100 characters → 201; 0 and 101 → 400 naming name', async () => {
    expect((await created({ name: 'x' })).name).toBe('x');
    expect((await created({ name: 'n'.repeat(100) })).name).toBe('n'.repeat(100));
    await expect400({ name: '' }, 'name');
    await expect400({ name: 'n'.repeat(101) }, 'name');
  });

  it('expires_in_days 1 and 365 → 201 with expires_at that far ahead; 0, 366, -1 → 400', async () => {
    for (const days of [1, 365]) {
      const token = await created({ name: `d${days}`, expires_in_days: days });
      expect(Date.parse(token.expires_at!) - Date.parse(token.created_at)).toBe(days * DAY_MS);
    }
    for (const days of [0, 366, -1]) await expect400({ name: 'd', expires_in_days: days }, 'expires_in_days');
  });

  it('expires_in_days null → expires_at null (never)', async () => {
    expect((await created({ name: 'forever', expires_in_days: null })).expires_at).toBeNull();
  });

  it('scopes: each subset works; unknown, duplicate and empty → 400 naming scopes', async () => {
    expect((await created({ name: 'r', scopes: ['reviews:read'] })).scopes).toEqual(['reviews:read']);
    expect((await created({ name: 'w', scopes: ['reviews:write'] })).scopes).toEqual(['reviews:write']);
    expect([...(await created({ name: 'rw', scopes: ['reviews:write', 'reviews:read'] })).scopes].sort()).toEqual([
      'reviews:read',
      'reviews:write',
    ]);
    await expect400({ name: 's', scopes: ['reviews:admin'] }, 'scopes');
    await expect400({ name: 's', scopes: ['tokens:write'] }, 'scopes');
    await expect400({ name: 's', scopes: ['reviews:read', 'reviews:read'] }, 'scopes');
    await expect400({ name: 's', scopes: [] }, 'scopes');
  });

  it('a review token cannot be given dashboard scopes', async () => {
    await expect400({ name: 's', scopes: ['reviews:read', 'tokens:read'] }, 'scopes');
  });
});

describe('list', () => {
  it('newest first; revoked tokens and the dashboard token absent; never a secret', async () => {
    const made: Record_[] = [];
    for (let i = 0; i < 5; i++) made.push(await created({ name: `order-${i}` }));
    await t.api('DELETE', `/v1/auth/tokens/${made[2]!.id}`, { token: t.dashboardToken });
    const tokens = await list();
    const ids = tokens.map((x) => x.id);
    const ours = ids.filter((id) => made.some((m) => m.id === id));
    expect(ours).toEqual([made[4]!.id, made[3]!.id, made[1]!.id, made[0]!.id]);
    // newest first overall
    const times = tokens.map((x) => Date.parse(x.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // the dashboard token is not a review token and is not listed
    expect(tokens.every((x) => x.type === 'review')).toBe(true);
    const dashboard = (await storedTokens(t)).find((x) => x.type === 'dashboard')!;
    expect(ids).not.toContain(dashboard.id);
    expect(tokens.map((x) => x.prefix)).not.toContain(t.dashboardToken.slice(0, 8));
    // the secret appears nowhere in the list
    const text = JSON.stringify(tokens);
    for (const m of made) expect(text).not.toContain(m.token!);
    expect(text).not.toContain(t.dashboardToken);
    expect(text).not.toContain(t.reviewToken);
    for (const x of tokens) expect(Object.keys(x)).not.toContain('token');
  });

  it('newest first even for tokens made within the same millisecond', async () => {
    clock.fixed = Date.now() + 1000;
    const made: Record_[] = [];
    try {
      for (let i = 0; i < 8; i++) made.push(await created({ name: `burst-${i}` }));
    } finally {
      clock.fixed = undefined;
    }
    expect(new Set(made.map((m) => m.created_at)).size).toBe(1);
    const ours = (await list()).filter((x) => made.some((m) => m.id === x.id));
    expect(ours.map((x) => x.name)).toEqual(made.map((m) => m.name).reverse());
  });
});

describe('delete', () => {
  it('204 with an empty body; again → 404; the token is gone from the list', async () => {
    const token = await created({ name: 'to delete' });
    const response = await t.api('DELETE', `/v1/auth/tokens/${token.id}`, { token: t.dashboardToken });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const again = await t.api('DELETE', `/v1/auth/tokens/${token.id}`, { token: t.dashboardToken });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: string }).error).toBe('not_found');
    expect((await list()).map((x) => x.id)).not.toContain(token.id);
  });

  it.each([['tok_00000000000000000000000000'], ['nonsense'], ['rev_00000000000000000000000000']])(
    'unknown id %s → 404 not_found',
    async (id) => {
      const response = await t.api('DELETE', `/v1/auth/tokens/${id}`, { token: t.dashboardToken });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toBe('not_found');
    },
  );

  it('the dashboard token cannot be deleted through the API (404, and it keeps working)', async () => {
    const dashboard = (await storedTokens(t)).find((x) => x.type === 'dashboard')!;
    const response = await t.api('DELETE', `/v1/auth/tokens/${dashboard.id}`, { token: t.dashboardToken });
    expect(response.status).toBe(404);
    expect((await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken })).status).toBe(200);
  });
});

describe('the secret is never stored or logged', () => {
  it('nothing the service keeps holds the secret (no file of the data dir, no table); the tokens hold its SHA-256 hex', async () => {
    const token = await created({ name: 'secret check' });
    // use it, so last_used_at is written too
    expect((await t.api('GET', '/v1/reviews', { token: token.token })).status).toBe(200);
    // let the coalesced write happen, then force one more write
    await created({ name: 'flush' });
    const stored = await storedTexts(t);
    expect(stored.map((x) => path.basename(x.where))).toContain(t.databaseUrl === undefined ? 'store.json' : 'tokens');
    const hash = createHash('sha256').update(token.token!).digest('hex');
    let hashSeen = false;
    for (const { where, text } of stored) {
      expect(text.includes(token.token!), where).toBe(false);
      // not even the random part without the drv_ prefix
      expect(text.includes(token.token!.slice(4)), where).toBe(false);
      if (['store.json', 'tokens'].includes(path.basename(where))) hashSeen = text.includes(hash);
    }
    expect(hashSeen).toBe(true);
  });

  it('the logs never hold a review token secret', () => {
    const logs = t.logs.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(t.reviewToken);
    expect(logs).not.toContain(t.dashboardToken);
    expect(logs).not.toMatch(/drv_[0-9A-Za-z]{38,}/);
  });
});

describe('the dashboard token', () => {
  if (TEST_STORAGE === 'lowdb') {
    it('the generated one is in <data dir>/dashboard-token with mode 0600, and only its path is logged', async () => {
      const file = path.join(t.dataDir, 'dashboard-token');
      expect((await readFile(file, 'utf8')).trim()).toBe(t.dashboardToken);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(t.logs.join('')).toContain(file);
      expect(t.logs.join('')).not.toContain(t.dashboardToken);
    });
  } else {
    // PostgreSQL mode keeps nothing on local disk: its dashboard token is set explicitly.
    it('in PostgreSQL mode no dashboard-token file is written, and the token is never logged', async () => {
      expect(await readdir(t.dataDir)).toEqual([]);
      expect(t.logs.join('')).not.toContain(t.dashboardToken);
    });
  }

  it('set explicitly: 32 printable characters work, and no file is written', async () => {
    const explicit = `${'Z'.repeat(31)}!`;
    const s = await startTestService({ logLevel: 'warn', dashboardToken: explicit });
    try {
      expect((await s.api('GET', '/v1/auth/tokens', { token: explicit })).status).toBe(200);
      await expect(stat(path.join(s.dataDir, 'dashboard-token'))).rejects.toThrow();
    } finally {
      await s.close();
    }
  });

  it.each([
    ['31 characters', 'Z'.repeat(31)],
    ['a space inside', `${'Z'.repeat(20)} ${'Z'.repeat(20)}`],
    ['a control character', `${'Z'.repeat(40)}\n`],
  ])('set explicitly with %s: the service refuses to start', async (_name, explicit) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-test-'));
    try {
      await expect(createService({ dataDir, logLevel: 'silent', dashboardToken: explicit })).rejects.toThrow(/32/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
