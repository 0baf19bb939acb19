// Hostile input through the real HTTP API: random JSON in every field, deep nesting, NUL bytes,
// invalid UTF-8, huge numbers, and diffs built to hurt a parser. Never a 500, never a crash, every
// non-2xx in the error shape (the contract check of test-service enforces it on every response),
// every accepted job terminal. Over the whole run, the log never holds a token secret or a diff.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, sameDigest } from '../../../service/auth/secret.ts';
import runReviewTask from '../../../service/jobs/review-worker.ts';
import { startTestService, type TestService } from '../../support/test-service.ts';

let t: TestService;
const accepted: string[] = [];
/** A marker in every diff sent, to search the log for. */
const MARK = 'HOSTILE-DIFF-MARKER-q8z';

beforeAll(async () => {
  t = await startTestService({ rateLimits: { create: 0, read: 0, tokens: 0 }, maxQueuedJobs: 100_000 });
});
afterAll(async () => {
  // Every job accepted during the run ends completed, or failed as invalid_diff: none is stuck.
  const client = t.client();
  for (const id of accepted) {
    const job = await client.waitForReview(id, { timeoutMs: 30_000, pollIntervalMs: 25 });
    if (job.status === 'failed') expect(job.error?.code, id).toBe('invalid_diff');
  }
  const log = t.logs.join('');
  expect(log).not.toContain(t.reviewToken);
  expect(log).not.toContain(t.dashboardToken);
  expect(log).not.toMatch(/drv_[0-9A-Za-z]{38,}/);
  expect(log).not.toContain(MARK);
  expect(log).not.toMatch(/"level":(50|60)/); // nothing went wrong inside
  expect(t.contract.violations).toEqual([]);
  await t.close();
}, 120_000);

async function post(body: string | Uint8Array<ArrayBuffer>, contentType = 'application/json') {
  const response = await fetch(`${t.url}/v1/reviews`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.reviewToken}`, 'content-type': contentType },
    body,
  });
  const text = await response.text();
  expect(response.status, text.slice(0, 200)).not.toBe(500);
  expect([202, 400, 413], text.slice(0, 200)).toContain(response.status);
  const json = JSON.parse(text) as { review_id?: string; error?: string; message?: string };
  if (response.status === 202) accepted.push(json.review_id!);
  else expect(typeof json.error).toBe('string');
  return { status: response.status, json };
}

describe('request validation under fuzzing', () => {
  it('random JSON values in every field: 202 or 400, never 500', async () => {
    const field = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string(), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        field,
        field,
        field,
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
        async (diff, repository, base_commit, extra) => {
          const body = { ...extra, diff: typeof diff === 'string' ? `${MARK}${diff}` : diff, repository, base_commit };
          await post(JSON.stringify(body));
        },
      ),
      { numRuns: 150 },
    );
    expect((await t.api('GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('whole random JSON documents as the body: 202 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        await post(JSON.stringify(value));
      }),
      { numRuns: 100 },
    );
  });

  it('10,000 levels of nesting, in an array and in a field: 400 before parsing, and the service is unharmed', async () => {
    expect((await post('['.repeat(10_000) + ']'.repeat(10_000))).json.message).toMatch(/nests deeper/);
    await post(`{"diff":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)},"repository":"r"}`);
    await post(`{"repository":"r","diff":"x","base_commit":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    expect((await t.api('GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('huge numbers, NUL bytes, invalid UTF-8 and lone surrogates', async () => {
    for (const raw of [
      '{"diff":1e400,"repository":"r"}',
      '{"diff":"x","repository":-1e-400}',
      `{"diff":"x","repository":${'9'.repeat(5000)}}`,
    ]) {
      expect((await post(raw)).status).toBe(400);
    }
    // NUL as a JSON escape is a valid string: accepted in a diff, refused in a repository (a control character).
    expect((await post(JSON.stringify({ diff: `${MARK}\u0000+x\u0000`, repository: 'r' }))).status).toBe(202);
    expect((await post(JSON.stringify({ diff: `${MARK}x`, repository: 'r\u0000' }))).status).toBe(400);
    // Raw NUL bytes and invalid UTF-8 in the body bytes.
    const bytes = (...parts: (string | number[])[]) =>
      new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
    await post(bytes('{"diff":"', [0x00, 0x00], '","repository":"r"}'));
    // Invalid UTF-8 is refused, naming the field, never replaced silently.
    const invalidDiff = await post(
      bytes(`{"diff":"${MARK}`, [0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80], '","repository":"r"}'),
    );
    expect(invalidDiff.status).toBe(400);
    expect(invalidDiff.json.message).toMatch(/^diff is not valid UTF-8/);
    const invalidRepository = await post(bytes('{"diff":"x","repository":"', [0xc0, 0xaf], '"}'));
    expect(invalidRepository.status).toBe(400);
    expect(invalidRepository.json.message).toMatch(/^repository is not valid UTF-8/);
    await post(bytes([0xef, 0xbb, 0xbf], '{"diff":"x","repository":"r"}'));
    await post(JSON.stringify({ diff: `${MARK}\ud800 lone`, repository: 'r' }));
    await post(`{"diff":"${MARK}\\ud800","repository":"r"}`);
    expect((await t.api('GET', '/healthz', { token: null })).status).toBe(200);
  });
});

describe('diffs built to hurt', () => {
  const send = async (diff: string) => post(JSON.stringify({ diff, repository: 'github.com/hostile/diffs' }));

  it('random bytes and random text: accepted, and every job ends completed or invalid_diff', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 2000 }).map((b) => Buffer.from(b).toString('latin1')),
          fc.string({ minLength: 1, maxLength: 2000, unit: 'binary' }),
        ),
        async (text) => {
          await send(MARK + text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('truncated diffs: a real diff cut at every kind of place', async () => {
    const whole = [
      'diff --git a/src/a.js b/src/a.js',
      'index 3b18e51..a9c2f4e 100644',
      '--- a/src/a.js',
      '+++ b/src/a.js',
      '@@ -1,3 +1,5 @@',
      ' function main() {',
      '+  debugger;',
      `+  // ${MARK}`,
      '   return 1;',
      ' }',
      '',
    ].join('\n');
    for (let cut = 1; cut < whole.length; cut += 7) await send(whole.slice(0, cut));
  });

  it('hunk headers with huge counts, and counts that do not match', async () => {
    for (const header of [
      '@@ -1,999999999 +1,999999999 @@',
      '@@ -999999999999999999999 +1 @@',
      '@@ -1,0 +1,4294967296 @@',
      '@@ -0,0 +1,-5 @@',
      '@@ -1 +1 @@ @@ @@',
    ]) {
      await send(`--- a/x.js\n+++ b/x.js\n${header}\n+${MARK}\n+debugger;\n`);
    }
    // 50,000 hunk headers in one file.
    await send(`--- a/x.js\n+++ b/x.js\n${'@@ -1 +1 @@\n+x\n'.repeat(50_000)}`.slice(0, 999_000));
  });

  it('a line of 1,000,000 characters, and as many files as fit in 1,000,000 bytes', async () => {
    const head = `--- /dev/null\n+++ b/long.txt\n@@ -0,0 +1 @@\n+${MARK}`;
    await send(`${head}${'a'.repeat(1_000_000 - head.length - 1)}\n`);
    const file = (i: number) => `--- /dev/null\n+++ b/${i.toString(36)}\n@@ -0,0 +1 @@\n+\n`;
    let many = '';
    for (let i = 0; many.length < 999_900; i++) many += file(i);
    const fits = many.slice(0, many.lastIndexOf('--- /dev/null', 999_950));
    expect(fits.length).toBeLessThanOrEqual(1_000_000);
    const { status } = await send(fits);
    expect(status).toBe(202);
  });

  it('100,000 files in one diff, straight to the review worker (no API: they cannot fit in 1 MB)', {
    timeout: 60_000,
  }, async () => {
    let diff = '';
    for (let i = 0; i < 100_000; i++) diff += `--- /dev/null\n+++ b/f${i}\n@@ -0,0 +1 @@\n+x\n`;
    const result = await runReviewTask({ diff });
    expect(result.ok || result.code === 'invalid_diff').toBe(true);
  });
});

describe('tokens and binding', () => {
  it('token comparison is constant-time: crypto.timingSafeEqual over the SHA-256 digests', () => {
    const source = readFileSync(new URL('../../../service/auth/secret.ts', import.meta.url), 'utf8');
    const body = source.slice(
      source.indexOf('export function sameDigest'),
      source.indexOf('}', source.indexOf('export function sameDigest')),
    );
    expect(body).toContain('timingSafeEqual(');
    expect(body).not.toMatch(/\ba\s*===?\s*b\b/); // no direct comparison of the digests
    // ... and it is the comparison authentication uses
    const check = readFileSync(new URL('../../../service/auth/verify-token.ts', import.meta.url), 'utf8');
    expect(check).toMatch(/sameDigest\(known\.digest, Buffer\.from\(hash, 'hex'\)\)/);
    const digest = (secret: string) => Buffer.from(hashSecret(secret), 'hex');
    expect(sameDigest(digest('drv_example'), digest('drv_example'))).toBe(true);
    expect(sameDigest(digest('drv_example'), digest('drv_other'))).toBe(false);
    expect(sameDigest(digest('drv_example'), digest('drv_example').subarray(0, 10))).toBe(false); // a length mismatch is refused, not thrown
  });

  it('the service binds to 127.0.0.1 unless told otherwise', () => {
    expect(t.service.host).toBe('127.0.0.1');
    expect(new URL(t.url).hostname).toBe('127.0.0.1');
  });
});
