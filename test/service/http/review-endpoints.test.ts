// The review endpoints beyond the happy path: not found and other owners, list pagination and
// filters, cancel, SARIF, Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../service/api/errors.ts';
import { settledReview } from '../../support/settled-review.ts';
import { TestClock } from '../../support/test-clock.ts';
import {
  DEBUGGER_DIFF,
  editStoredReview,
  startTestService,
  type TestService,
  closeHealthy,
} from '../../support/test-service.ts';
import { storedReview } from '../../support/stored-review.ts';
import { readingReviewService } from '../../support/reading-review-service.ts';
import { sarifSchemaErrors } from '../cli/sarif-schema.ts';

const clock = new TestClock();

let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    logLevel: 'warn',
    clock,
    concurrency: 1,
    rateLimits: { create: 0, read: 0, tokens: 0 },
  });
});
afterAll(async () => {
  clock.fixed = undefined;
  await closeHealthy(t);
});

interface Job {
  review_id: string;
  status: string;
  repository: string;
  error?: { code: string; message: string };
  comments?: unknown[];
}
interface List {
  reviews: Job[];
  next_cursor: string | null;
  total: number;
}

async function create(body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Job> {
  const response = await t.api('POST', '/v1/reviews', {
    body: { diff: DEBUGGER_DIFF, repository: 'r', ...body },
    headers,
  });
  const json = (await response.json()) as Job;
  expect(response.status, JSON.stringify(json)).toBe(202);
  expect(response.headers.get('location')).toBe(`/v1/reviews/${json.review_id}`);
  return json;
}
async function get(id: string): Promise<Job> {
  const response = await t.api('GET', `/v1/reviews/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Job;
}
const settle = (id: string, timeoutMs = 20_000): Promise<Job> => settledReview(() => get(id), { timeoutMs });
async function listOf(query: string): Promise<List> {
  const response = await t.api('GET', `/v1/reviews?${query}`);
  const json = (await response.json()) as List;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}
/** Every page of a repository's reviews, `limit` a page, following next_cursor (20 pages at most). */
async function pagesOf(repository: string, limit: number): Promise<List[]> {
  const pages: List[] = [];
  let cursor: string | null = null;
  do {
    const page: List = await listOf(
      `repository=${encodeURIComponent(repository)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}
const idsOf = (pages: List[]) => pages.flatMap((page) => page.reviews.map((r) => r.review_id));
async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: string; message: string }) };
}

describe('not found', () => {
  it.each([
    ['a well-formed id never issued', 'rev_00000000000000000000000000'],
    ['a malformed id', 'nope'],
    ['a token id', 'tok_00000000000000000000000000'],
    ['a very long id', `rev_${'A'.repeat(500)}`],
    ['an encoded path traversal', '..%2F..%2Fstore.json'],
    ['an id of 5,000 characters', 'x'.repeat(5000)],
  ])('GET %s → 404 not_found', async (_name, id) => {
    const e = await errorOf(await t.api('GET', `/v1/reviews/${id}`));
    expect(e.status).toBe(404);
    expect(e.error).toBe('not_found');
  });

  it('an id with broken percent-encoding → 404 not_found in the error shape (GET answers 200/401/403/404/500 only)', async () => {
    const e = await errorOf(await t.api('GET', '/v1/reviews/%E0%A4%A'));
    expect(e.status).toBe(404);
    expect(e.error).toBe('not_found');
  });

  it.each(['cancel', 'sarif', 'events'])('%s of an unknown review → 404 not_found', async (what) => {
    const e = await errorOf(
      await t.api(what === 'cancel' ? 'POST' : 'GET', `/v1/reviews/rev_00000000000000000000000000/${what}`),
    );
    expect(e.status).toBe(404);
    expect(e.error).toBe('not_found');
  });
});

describe("another owner's review is 404, never 403", () => {
  it('ReviewService.find with a different owner → 404 not_found; the owner itself finds it', async () => {
    const stored = storedReview({
      review_id: 'rev_01JD8X3Q4M5N6P7R8S9T0V1W2X',
      owner: 'alice',
      at: '2026-01-01T00:00:00.000Z',
    });
    const service = readingReviewService({
      store: { getReview: async (id: string) => (id === stored.review_id ? stored : undefined) } as never,
      clock,
    });
    expect(await service.find('alice', stored.review_id)).toBe(stored);
    const error = await service.find('mallory', stored.review_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    // the same answer as for an id that does not exist at all: no existence leak
    const missing = (await service
      .find('mallory', 'rev_00000000000000000000000000')
      .catch((e: unknown) => e)) as NotFoundError;
    expect(missing.message.replace(/rev_\w+/, 'ID')).toBe((error as NotFoundError).message.replace(/rev_\w+/, 'ID'));
  });

  it('through HTTP: a review moved to another owner in the store is 404 for get, cancel, SARIF, events and absent from lists', async () => {
    const job = await create({ repository: 'github.com/other/owner' });
    await settle(job.review_id);
    await t.stop();
    await editStoredReview(t, job.review_id, { owner: 'someone-else' });
    t = await t.restart();
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/cancel'],
      ['GET', '/sarif'],
      ['GET', '/events'],
    ] as const) {
      const e = await errorOf(await t.api(method, `/v1/reviews/${job.review_id}${suffix}`));
      expect(e.status, suffix).toBe(404);
      expect(e.error).toBe('not_found');
    }
    const listed = await listOf('repository=github.com%2Fother%2Fowner&limit=100');
    expect(listed.reviews.map((r) => r.review_id)).not.toContain(job.review_id);
  });
});

describe('list', () => {
  it('pagination: 5 reviews, limit=2 → 3 pages, newest first, no duplicates, next_cursor null on the last', async () => {
    const repository = `github.com/acme/pages-${Date.now()}`;
    const made: Job[] = [];
    for (let i = 0; i < 5; i++) made.push(await create({ repository }));
    const pages = await pagesOf(repository, 2);
    expect(pages.map((p) => p.reviews.length)).toEqual([2, 2, 1]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    expect(pages.slice(0, 2).every((p) => typeof p.next_cursor === 'string')).toBe(true);
    const ids = idsOf(pages);
    expect(new Set(ids).size).toBe(5);
    expect(ids).toEqual(made.map((m) => m.review_id).reverse());
    // The total of the listing on every page: no page needs loading to know it.
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
  });

  it('pagination of reviews made within the same millisecond: newest first, none lost', async () => {
    const repository = `github.com/acme/same-ms-${Date.now()}`;
    const made: Job[] = [];
    clock.fixed = Date.now();
    try {
      for (let i = 0; i < 6; i++) made.push(await create({ repository, diff: `${DEBUGGER_DIFF}#${i}\n` }));
    } finally {
      clock.fixed = undefined;
    }
    const ids = idsOf(await pagesOf(repository, 2));
    expect(ids).toEqual(made.map((m) => m.review_id).reverse());
  });

  it('pagination of reviews created concurrently: every one exactly once, in id order', async () => {
    const repository = `github.com/acme/concurrent-${Date.now()}`;
    // diffs of very different sizes, so their writes finish in another order than they began
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        create({ repository, diff: `${DEBUGGER_DIFF}${'#'.repeat(i % 2 ? 900_000 : 1)}\n` }),
      ),
    );
    const ids = idsOf(await pagesOf(repository, 1));
    expect([...ids].sort()).toEqual(made.map((m) => m.review_id).sort());
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('filters by status and repository', async () => {
    const repository = `github.com/acme/filter-${Date.now()}`;
    const good = await create({ repository });
    const bad = await create({ repository, diff: 'this is not a diff\n' });
    const other = await create({ repository: `${repository}-other` });
    expect((await settle(good.review_id)).status).toBe('completed');
    expect((await settle(bad.review_id)).status).toBe('failed');
    await settle(other.review_id);
    const r = encodeURIComponent(repository);
    expect((await listOf(`repository=${r}`)).reviews.map((x) => x.review_id)).toEqual([bad.review_id, good.review_id]);
    expect((await listOf(`repository=${r}&status=failed`)).reviews.map((x) => x.review_id)).toEqual([bad.review_id]);
    expect((await listOf(`repository=${r}&status=completed`)).reviews.map((x) => x.review_id)).toEqual([
      good.review_id,
    ]);
    expect((await listOf(`repository=${r}&status=queued`)).reviews).toEqual([]);
    // total counts what the same filters match, beyond the page
    expect((await listOf(`repository=${r}&limit=1`)).total).toBe(2);
    expect((await listOf(`repository=${r}&status=failed&limit=1`)).total).toBe(1);
    expect((await listOf(`repository=${r}&status=queued`)).total).toBe(0);
    const failed = await listOf('status=failed&limit=100');
    expect(failed.reviews.every((x) => x.status === 'failed')).toBe(true);
    // a repository is matched exactly, not as a prefix
    expect((await listOf(`repository=${encodeURIComponent('github.com/acme/filter')}`)).reviews).toEqual([]);
  });

  it('limit 1 and 100 → 200 with at most that many; default 20', async () => {
    for (let i = 0; i < 21; i++) await create({ repository: 'many' });
    expect((await listOf('limit=1')).reviews).toHaveLength(1);
    const hundred = await listOf('limit=100');
    expect(hundred.reviews.length).toBeGreaterThan(21);
    expect(hundred.reviews.length).toBeLessThanOrEqual(100);
    expect((await listOf('')).reviews).toHaveLength(20);
  });

  it.each(['limit=0', 'limit=101', 'limit=', 'limit=ten', 'limit=1&limit=2'])(
    '%s → 400 naming limit',
    async (query) => {
      const e = await errorOf(await t.api('GET', `/v1/reviews?${query}`));
      expect(e.status).toBe(400);
      expect(e.error).toBe('invalid_request');
      expect(e.message).toMatch(/\blimit\b/);
    },
  );

  it.each([
    ['garbage', 'not-a-cursor'],
    ['base64url of something else', Buffer.from('hello world').toString('base64url')],
    ['base64url of a token id', Buffer.from('tok_01JD8X3Q4M5N6P7R8S9T0V1W2X').toString('base64url')],
    ['a raw review id', 'rev_01JD8X3Q4M5N6P7R8S9T0V1W2X'],
    ['201 characters', 'A'.repeat(201)],
  ])('a bad cursor (%s) → 400 naming cursor', async (_name, cursor) => {
    const e = await errorOf(await t.api('GET', `/v1/reviews?cursor=${encodeURIComponent(cursor)}`));
    expect(e.status).toBe(400);
    expect(e.error).toBe('invalid_request');
    expect(e.message).toMatch(/\bcursor\b/);
  });
});

describe('cancel', () => {
  it('a queued job → 200 failed/cancelled, and it stays so after the queue drains', async () => {
    // concurrency 1: the jobs in front keep the last one queued
    const jobs: Job[] = [];
    for (let i = 0; i < 6; i++) jobs.push(await create({ diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` }));
    const last = jobs.at(-1)!;
    const response = await t.api('POST', `/v1/reviews/${last.review_id}/cancel`);
    const cancelled = (await response.json()) as Job;
    expect(response.status, JSON.stringify(cancelled)).toBe(200);
    expect(cancelled.status).toBe('failed');
    expect(cancelled.error).toEqual({ code: 'cancelled', message: expect.any(String) });
    expect(cancelled).not.toHaveProperty('comments');
    expect(cancelled).not.toHaveProperty('completed_at');
    for (const job of jobs.slice(0, -1)) await settle(job.review_id, 30_000);
    const after = await get(last.review_id);
    expect(after.status).toBe('failed');
    expect(after.error?.code).toBe('cancelled');
    // cancelling again: it is finished now
    const again = await errorOf(await t.api('POST', `/v1/reviews/${last.review_id}/cancel`));
    expect(again.status).toBe(409);
    expect(again.error).toBe('conflict');
  });

  it('a completed job → 409 conflict, and it stays completed', async () => {
    const job = await create();
    expect((await settle(job.review_id)).status).toBe('completed');
    const e = await errorOf(await t.api('POST', `/v1/reviews/${job.review_id}/cancel`));
    expect(e.status).toBe(409);
    expect(e.error).toBe('conflict');
    expect((await get(job.review_id)).status).toBe('completed');
  });

  it('a failed job → 409 conflict', async () => {
    const job = await create({ diff: 'not a diff\n' });
    expect((await settle(job.review_id)).status).toBe('failed');
    expect((await t.api('POST', `/v1/reviews/${job.review_id}/cancel`)).status).toBe(409);
  });

  it('a body on cancel is not needed (POST with none works)', async () => {
    const blockers: Job[] = [];
    for (let i = 0; i < 3; i++) blockers.push(await create({ diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` }));
    const response = await fetch(`${t.url}/v1/reviews/${blockers.at(-1)!.review_id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.reviewToken}` },
    });
    expect([200, 409]).toContain(response.status);
    for (const job of blockers) await settle(job.review_id, 30_000);
  });
});

describe('SARIF', () => {
  it('a completed review → 200 application/sarif+json, SARIF 2.1.0 with the comments as results', async () => {
    const job = await create();
    const done = await settle(job.review_id);
    expect(done.status).toBe('completed');
    const response = await t.api('GET', `/v1/reviews/${job.review_id}/sarif`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/sarif\+json/);
    const sarif = (await response.json()) as {
      version: string;
      $schema?: string;
      runs: { results: { ruleId: string }[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0]!.results.length).toBe(done.comments!.length);
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toContain('no-debugger');
  });

  it("each result carries its flagged line's code (region.snippet), except a line that holds a secret", async () => {
    const secretLine = 'aws_secret_access_key = "Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u"';
    const diff = [
      DEBUGGER_DIFF.trimEnd(),
      'diff --git a/config.py b/config.py',
      '--- /dev/null',
      '+++ b/config.py',
      '@@ -0,0 +1,2 @@',
      '+region = "eu-west-1"',
      `+${secretLine}`,
      '',
    ].join('\n');
    const job = await create({ diff });
    expect((await settle(job.review_id)).status).toBe('completed');
    const sarif = (await (await t.api('GET', `/v1/reviews/${job.review_id}/sarif`)).json()) as {
      runs: {
        results: {
          ruleId: string;
          locations: { physicalLocation: { region: { startLine: number; snippet?: { text: string } } } }[];
        }[];
      }[];
    };
    const regions = Object.fromEntries(
      sarif.runs[0]!.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.region]),
    );
    expect(regions['no-debugger']?.snippet).toEqual({ text: '  debugger;' });
    expect(regions['secret']).toBeDefined();
    expect(regions['secret']!.snippet).toBeUndefined();
    expect(JSON.stringify(sarif)).not.toContain('Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u');
    expect(sarifSchemaErrors(sarif)).toEqual([]);
  });

  it('what an inline comment suppressed: no comment, a SARIF result with its suppression (and its snippet)', async () => {
    const diff = [
      'diff --git a/src/pay.js b/src/pay.js',
      '--- /dev/null',
      '+++ b/src/pay.js',
      '@@ -0,0 +1,3 @@',
      '+export function pay() {',
      '+  debugger;',
      '+  debugger; // diff-review-ignore no-debugger (stepping through the payment, see #12)',
      '',
    ].join('\n');
    const job = await create({ diff });
    const done = await settle(job.review_id);
    const comments = done.comments as { line: number; message: string }[];
    expect(comments.map((c) => [c.line, c.message.split(':')[0]])).toEqual([[2, 'no-debugger']]);
    const sarif = (await (await t.api('GET', `/v1/reviews/${job.review_id}/sarif`)).json()) as {
      runs: {
        results: {
          ruleId: string;
          suppressions?: { kind: string; justification: string }[];
          locations: { physicalLocation: { region: { startLine: number; snippet?: { text: string } } } }[];
        }[];
      }[];
    };
    const results = sarif.runs[0]!.results.map((r) => ({
      line: r.locations[0]!.physicalLocation.region.startLine,
      snippet: r.locations[0]!.physicalLocation.region.snippet?.text,
      suppressions: r.suppressions,
    }));
    expect(results).toEqual([
      { line: 2, snippet: '  debugger;', suppressions: undefined },
      {
        line: 3,
        snippet: '  debugger; // diff-review-ignore no-debugger (stepping through the payment, see #12)',
        suppressions: [
          {
            kind: 'inSource',
            justification: 'stepping through the payment, see #12',
            properties: { suppressedBy: 'diff-review-ignore' },
          },
        ],
      },
    ]);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
  });

  it("one comment per problem: a committed .env file once, a line rule's every location", async () => {
    const diff = [
      'diff --git a/.env.production b/.env.production',
      '--- /dev/null',
      '+++ b/.env.production',
      '@@ -0,0 +1,9 @@',
      ...Array.from({ length: 9 }, (_, i) => `+SETTING_${i}=value-${i}`),
      'diff --git a/src/steps.js b/src/steps.js',
      '--- /dev/null',
      '+++ b/src/steps.js',
      '@@ -0,0 +1,8 @@',
      ...Array.from({ length: 8 }, (_, i) => `+step(${i}); debugger;`),
      '',
    ].join('\n');
    const done = await settle((await create({ diff })).review_id);
    const comments = done.comments as { file_path: string; line: number; message: string }[];
    const lines = (rule: string) => comments.filter((c) => c.message.startsWith(`${rule}:`)).map((c) => c.line);
    expect(lines('no-env-file')).toEqual([1]);
    expect(lines('no-debugger')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a queued (or running) review → 409 conflict', async () => {
    const blockers: Job[] = [];
    for (let i = 0; i < 3; i++) blockers.push(await create({ diff: `${DEBUGGER_DIFF}${'+x\n'.repeat(50_000)}` }));
    const e = await errorOf(await t.api('GET', `/v1/reviews/${blockers.at(-1)!.review_id}/sarif`));
    expect(e.status).toBe(409);
    expect(e.error).toBe('conflict');
    for (const job of blockers) await settle(job.review_id, 30_000);
  });

  it('a failed review → 409 conflict', async () => {
    const job = await create({ diff: 'not a diff\n' });
    expect((await settle(job.review_id)).status).toBe('failed');
    const e = await errorOf(await t.api('GET', `/v1/reviews/${job.review_id}/sarif`));
    expect(e.status).toBe(409);
    expect(e.error).toBe('conflict');
  });
});

describe('Idempotency-Key', () => {
  const body = (repository: string) => ({ diff: DEBUGGER_DIFF, repository });
  const post = (key: string, b: Record<string, unknown>) =>
    t.api('POST', '/v1/reviews', { body: b, headers: { 'idempotency-key': key } });

  it('same key and body → the same job, with Idempotent-Replayed: true on the replay only', async () => {
    const key = `key-${Date.now()}-same`;
    const first = await post(key, body('idem'));
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const job = (await first.json()) as Job;
    const second = await post(key, body('idem'));
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('location')).toBe(`/v1/reviews/${job.review_id}`);
    expect(((await second.json()) as Job).review_id).toBe(job.review_id);
    // also after the job finished: the replay answers the create response again
    await settle(job.review_id);
    const third = await post(key, body('idem'));
    const replay = (await third.json()) as Job;
    expect(replay.review_id).toBe(job.review_id);
    expect(replay.status).toBe('queued');
  });

  it('same key, other body → 400 naming Idempotency-Key', async () => {
    const key = `key-${Date.now()}-other`;
    expect((await post(key, body('one'))).status).toBe(202);
    for (const other of [
      body('two'),
      { ...body('one'), base_commit: 'a1b2c3d' },
      { ...body('one'), diff: `${DEBUGGER_DIFF} ` },
    ]) {
      const e = await errorOf(await post(key, other));
      expect(e.status).toBe(400);
      expect(e.error).toBe('invalid_request');
      expect(e.message).toMatch(/Idempotency-Key/);
    }
  });

  it('other key, same body → another job', async () => {
    const a = (await (await post(`a-${Date.now()}`, body('k'))).json()) as Job;
    const b = (await (await post(`b-${Date.now()}`, body('k'))).json()) as Job;
    expect(a.review_id).not.toBe(b.review_id);
  });

  it('the key is per owner+key, but another token of the same owner replays it', async () => {
    const key = `key-${Date.now()}-owner`;
    const first = (await (await post(key, body('o'))).json()) as Job;
    const created = await t.api('POST', '/v1/auth/tokens', { token: t.dashboardToken, body: { name: 'second' } });
    const { token } = (await created.json()) as { token: string };
    const again = await t.api('POST', '/v1/reviews', { token, body: body('o'), headers: { 'idempotency-key': key } });
    expect(again.status).toBe(202);
    expect(((await again.json()) as Job).review_id).toBe(first.review_id);
  });

  it('ten concurrent requests with one key → one job', async () => {
    const key = `key-${Date.now()}-concurrent`;
    const repository = `idem-concurrent-${Date.now()}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(key, body(repository))));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(202));
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as Job).review_id));
    expect(new Set(ids).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect((await listOf(`repository=${repository}`)).reviews).toHaveLength(1);
  });

  it('a key of 255 characters → 202; 256 → 400; with a space or empty → 400', async () => {
    expect((await post('k'.repeat(255), body('len'))).status).toBe(202);
    for (const key of ['k'.repeat(256), 'has space', '']) {
      const e = await errorOf(await post(key, body('len')));
      expect(e.status, JSON.stringify(key)).toBe(400);
      expect(e.error).toBe('invalid_request');
      expect(e.message).toMatch(/Idempotency-Key/);
    }
  });

  it('a key whose first request was refused (400) is not used up', async () => {
    const key = `key-${Date.now()}-refused`;
    expect((await post(key, { diff: '', repository: 'x' })).status).toBe(400);
    const response = await post(key, body('after-refusal'));
    expect(response.status).toBe(202);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it('concurrent requests with one key and different bodies → one job, the others 400', async () => {
    const key = `key-${Date.now()}-race`;
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => post(key, body(`race-${i % 2}`))));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 202 || s === 400)).toBe(true);
    const ids = new Set(
      await Promise.all(
        responses.filter((r) => r.status === 202).map(async (r) => ((await r.json()) as Job).review_id),
      ),
    );
    expect(ids.size).toBe(1);
  });

  it('a replay survives a restart of the service', async () => {
    const key = `key-${Date.now()}-restart`;
    const first = (await (await post(key, body('restart'))).json()) as Job;
    await settle(first.review_id);
    t = await t.restart();
    const again = await post(key, body('restart'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as Job).review_id).toBe(first.review_id);
  });
});
