// The size limits of the API contract: a diff is at most 1,000,000 bytes of UTF-8 (bytes, not characters),
// and a body far over the limit is refused with a 413 in the error shape, from its Content-Length,
// before the connection closes, never by a reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, closeHealthy } from '../../support/test-service.ts';
import { streamRequest, type RawAnswer } from './raw-http.ts';

const LIMIT = 1_000_000;
const FIVE_MB = 5 * 1024 * 1024;
/** Far over the whole-body limit of a create (6,065,536 bytes: any valid diff's JSON fits). */
const TEN_MB = 10 * 1024 * 1024;

let t: TestService;
beforeAll(async () => {
  // concurrency 1 and a short job limit: the many megabyte-sized non-diffs must not hold the workers long
  t = await startTestService({ logLevel: 'warn', rateLimits: { create: 0, read: 0, tokens: 0 }, concurrency: 1 });
});
afterAll(() => closeHealthy(t));

const create = (diff: string) =>
  t.api('POST', '/v1/reviews', { body: { diff, repository: 'github.com/acme/widgets' } });

/** `count` copies of `char`, then ASCII padding up to exactly `bytes` UTF-8 bytes. */
function diffOf(char: string, bytes: number): string {
  const size = Buffer.byteLength(char, 'utf8');
  const count = Math.floor(bytes / size);
  const text = char.repeat(count) + 'a'.repeat(bytes - count * size);
  expect(Buffer.byteLength(text, 'utf8')).toBe(bytes);
  return text;
}

async function expectAccepted(diff: string) {
  const response = await create(diff);
  const body = (await response.json()) as { status: string; error?: string; message?: string };
  expect(response.status, JSON.stringify(body)).toBe(202);
  expect(body.status).toBe('queued');
}

async function expectTooLarge(diff: string) {
  const response = await create(diff);
  const body = (await response.json()) as { error: string; message?: string };
  expect(response.status, JSON.stringify(body)).toBe(413);
  expect(body.error).toBe('diff_too_large');
  expect(body.message).toMatch(/1,000,000/);
}

describe('diff size: UTF-8 bytes, not characters', () => {
  it.each([
    ['ASCII', 'a'],
    ['é (2 bytes)', 'é'],
    ['€ (3 bytes)', '€'],
    ['😀 (4 bytes)', '😀'],
  ])('%s: exactly 1,000,000 bytes → 202, 1,000,001 → 413', async (_name, char) => {
    await expectAccepted(diffOf(char, LIMIT));
    await expectTooLarge(diffOf(char, LIMIT + 1));
  });

  it('1,000,001 bytes made only of multibyte characters → 413 (far fewer characters than bytes)', async () => {
    // 333,334 × '€' = 1,000,002 bytes but only 333,334 characters
    const diff = '€'.repeat(333_334);
    expect(diff.length).toBe(333_334);
    await expectTooLarge(diff);
    // 250,001 × '😀' = 1,000,004 bytes, 500,002 UTF-16 units
    await expectTooLarge('😀'.repeat(250_001));
  });

  it('exactly 1,000,000 bytes of 4-byte characters is 250,000 characters → 202', async () => {
    const diff = '😀'.repeat(250_000);
    expect([...diff].length).toBe(250_000);
    await expectAccepted(diff);
  });

  it('a 1,000,000-byte diff whose JSON doubles (newlines, tabs, quotes, backslashes) → 202', async () => {
    // each of these is escaped with two characters, so the body is about 2 MB
    const diff = diffOf('\n\t"\\', LIMIT);
    const response = await create(diff);
    expect(response.status).toBe(202);
  });

  it('well over the limit (2 MB of ASCII in a 2 MB body) → 413 diff_too_large', async () => {
    await expectTooLarge('a'.repeat(2 * LIMIT));
  });
});

function expectErrorShape(answer: RawAnswer, status: number, error: string) {
  expect(answer.status, answer.body.slice(0, 200)).toBe(status);
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { error: string; message?: string };
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe('string');
  t.contract.check('POST', `${t.url}/v1/reviews`, answer.status, String(answer.headers['content-type']), answer.body);
  return body;
}

interface Upload {
  /** Bytes of body: streamed filler, or the length of `body` when given. */
  bytes: number;
  path?: string;
  /** The bearer token sent; null sends none. */
  token?: string | null;
  /** Stream without a Content-Length. */
  chunked?: boolean;
  /** Send `Expect: 100-continue` and hold the body until the server continues. */
  expectContinue?: boolean;
  pauseMs?: number;
  body?: string;
}

/** A JSON POST as a client sends one: to the create endpoint, as the review token, with a Content-Length. */
function upload({
  bytes,
  path = '/v1/reviews',
  token = t.reviewToken,
  chunked = false,
  expectContinue = false,
  pauseMs = 5,
  body,
}: Upload): Promise<RawAnswer> {
  return streamRequest({
    url: t.url,
    path,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      'content-type': 'application/json',
      ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': bytes }),
      ...(expectContinue ? { expect: '100-continue' } : {}),
    },
    bodyBytes: body === undefined ? bytes : 0,
    body,
    pauseMs,
    waitForContinue: expectContinue,
  });
}

describe('a body far over the limit', () => {
  it('10 MB with Content-Length → 413 in the error shape, answered while the body is still being sent', async () => {
    // slow enough that a server reading the body first could not answer before the end
    const answer = await upload({ bytes: TEN_MB, pauseMs: 20 });
    expectErrorShape(answer, 413, 'diff_too_large');
    // refused from its Content-Length: the answer came long before the 10 MB were sent
    expect(answer.sentWhenAnswered).toBeLessThan(TEN_MB / 2);
  });

  it('10 MB with Content-Length, sent as fast as possible → still a 413, not a reset', async () => {
    expectErrorShape(await upload({ bytes: TEN_MB, pauseMs: 0 }), 413, 'diff_too_large');
  });

  it('10 MB with Expect: 100-continue → 413 without 100 Continue, the body never sent', async () => {
    const answer = await upload({ bytes: TEN_MB, expectContinue: true });
    expectErrorShape(answer, 413, 'diff_too_large');
    expect(answer.continued).toBe(false);
    expect(answer.sentWhenAnswered).toBe(0);
  });

  it('a small body with Expect: 100-continue is continued and accepted', async () => {
    const body = JSON.stringify({ diff: 'not a diff', repository: 'r' });
    const answer = await upload({ bytes: Buffer.byteLength(body), body, expectContinue: true });
    expect(answer.continued).toBe(true);
    expect(answer.status, answer.body).toBe(202);
    t.contract.check('POST', `${t.url}/v1/reviews`, answer.status, String(answer.headers['content-type']), answer.body);
  });

  it('10 MB chunked (no Content-Length) → 413 in the error shape, not a reset', async () => {
    const answer = await upload({ bytes: TEN_MB, chunked: true });
    expectErrorShape(answer, 413, 'diff_too_large');
    // read only up to the limit (about 6 MB), never the whole body
    expect(answer.sentWhenAnswered).toBeLessThan(TEN_MB);
  });

  it('5 MB to the token endpoint (16 KB limit) → 413 payload_too_large', async () => {
    const answer = await upload({ bytes: FIVE_MB, path: '/v1/auth/tokens', token: t.dashboardToken });
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.body) as { error: string };
    expect(body.error).toBe('payload_too_large');
    t.contract.check(
      'POST',
      `${t.url}/v1/auth/tokens`,
      answer.status,
      String(answer.headers['content-type']),
      answer.body,
    );
  });

  it('10 MB without a token → 401 first (the body is not read for nobody), not a reset', async () => {
    expectErrorShape(await upload({ bytes: TEN_MB, token: null }), 401, 'unauthorized');
  });

  it('the service still answers after the oversize bodies', async () => {
    await expectAccepted('still alive');
  });
});
