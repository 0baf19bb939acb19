// Issue 16 item 8: an early 413 is answered before the connection closes, every time. A body
// refused from its Content-Length (or past the limit, chunked) is still arriving when the 413 is
// sent; closing the socket with that data unread makes the kernel reset the connection, and a
// reset throws away the 413 the client had not read yet (EPIPE / ECONNRESET instead of an answer).
// And the check "5 MB body → 413, quickly": a 5 MiB create is under the body limit (six
// bytes per byte of diff), and is refused as it streams, once its text holds more than any valid
// create (diff-size-bound.ts), before the client has sent it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../service/api/limits.ts';
import { CREATE_TEXT_BOUND } from '../../../service/http/diff-size-bound.ts';
import { DRAIN_BYTES } from '../../../service/http/refused-body.ts';
import { closeHealthy, startTestService, type TestService } from '../../support/test-service.ts';
import { rawSocket, sendWholeThenRead, streamRequest } from './raw-http.ts';
import { FIVE_MIB as FIVE_MB, FIVE_MIB_SHAPES, fiveMibCreate, REFUSAL_RUNS, refuseRuns } from './early-refusal.ts';

/** Far over the whole-body limit of a create (6,065,536 bytes: any valid diff's JSON fits). */
const TEN_MB = 10 * 1024 * 1024;
const RUNS = REFUSAL_RUNS;

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'warn', rateLimits: { create: 0, read: 0, tokens: 0 } });
});
afterAll(() => closeHealthy(t));

/** Sends the body `RUNS` times as fast as the socket takes it; the failures, by what happened. */
async function failuresOf(
  headers: Record<string, string | number>,
  bodyBytes: number,
  path = '/v1/reviews',
  status = 413,
): Promise<string[]> {
  const failures: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    try {
      const answer = await streamRequest({ url: t.url, path, headers, bodyBytes, pauseMs: 0 });
      if (answer.status !== status) failures.push(`run ${run}: ${answer.status}`);
      else JSON.parse(answer.body); // read whole, in the error shape
    } catch (error) {
      failures.push(`run ${run}: ${(error as Error).message}`);
    }
  }
  return failures;
}

describe(`a 5 MiB create → 413 diff_too_large, ${RUNS} times in a row each`, () => {
  it.each(FIVE_MIB_SHAPES)(
    '%s, sent as fast as possible: 413 every time, never a reset',
    { timeout: 120_000 },
    async (shape) => {
      const { failures } = await refuseRuns(fiveMibCreate(t.url, t.reviewToken, shape), RUNS);
      expect(failures).toEqual([]);
    },
  );

  it.each(FIVE_MIB_SHAPES.filter((s) => s !== 'sent whole, then read'))(
    '%s, paced: answered before the whole body was sent',
    { timeout: 120_000 },
    async (shape) => {
      const { failures, mostSent } = await refuseRuns(
        fiveMibCreate(t.url, t.reviewToken, shape, { paced: true }),
        RUNS,
      );
      expect(failures).toEqual([]);
      expect(mostSent).toBeLessThan(FIVE_MB);
    },
  );
});

describe(`an early 413, ${RUNS} times in a row, the body sent as fast as possible`, () => {
  it('10 MB with Content-Length → 413 every time, never a reset', { timeout: 120_000 }, async () => {
    const failures = await failuresOf(
      { authorization: `Bearer ${t.reviewToken}`, 'content-type': 'application/json', 'content-length': TEN_MB },
      TEN_MB,
    );
    expect(failures).toEqual([]);
  });

  it('10 MB chunked (refused once the limit was read) → 413 every time, never a reset', {
    timeout: 120_000,
  }, async () => {
    const failures = await failuresOf(
      { authorization: `Bearer ${t.reviewToken}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      TEN_MB,
    );
    expect(failures).toEqual([]);
  });

  it('5 MB to the token endpoint (16 KB limit) → 413 every time, never a reset', { timeout: 120_000 }, async () => {
    const failures = await failuresOf(
      { authorization: `Bearer ${t.dashboardToken}`, 'content-type': 'application/json', 'content-length': FIVE_MB },
      FIVE_MB,
      '/v1/auth/tokens',
    );
    expect(failures).toEqual([]);
  });
});

describe(`an early 413 to a client that reads only after sending its whole body, ${RUNS} times`, () => {
  const head = (path: string, token: string, length: number) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('10 MB with Content-Length: the 413 is there to read once the body is sent', { timeout: 120_000 }, async () => {
    const seen: string[] = [];
    let first: Awaited<ReturnType<typeof sendWholeThenRead>> | undefined;
    for (let run = 0; run < RUNS; run++) {
      const answer = await sendWholeThenRead(t.url, head('/v1/reviews', t.reviewToken, TEN_MB), TEN_MB);
      first ??= answer;
      seen.push(`${answer.statusLine} ${answer.error ?? ''}`.trim());
    }
    expect(seen.filter((s) => s !== 'HTTP/1.1 413 Payload Too Large')).toEqual([]);
    // the whole body was taken (read and dropped), the answer was in the error shape, then a clean close
    expect(first?.sent).toBe(TEN_MB);
    expect(first?.text).toMatch(/"error":"diff_too_large"/);
    expect(first?.error).toBeUndefined();
  });
});

describe('the drain is bounded', () => {
  it(`a client that goes on sending past ${DRAIN_BYTES / 1024 / 1024} MiB after the 413 is cut off`, {
    timeout: 60_000,
  }, async () => {
    const claimed = 4 * DRAIN_BYTES;
    const head = `POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.reviewToken}\r\nContent-Type: application/json\r\nContent-Length: ${claimed}\r\n\r\n`;
    const answer = await sendWholeThenRead(t.url, head, claimed);
    expect(answer.sent).toBeGreaterThan(DRAIN_BYTES);
    expect(answer.sent).toBeLessThan(claimed);
  });
});

describe('a 413 for a body read whole', () => {
  it('a diff one byte over the limit, in a body under it: 413, and the connection stays open for the next request', async () => {
    const diff = 'a'.repeat(1_000_001);
    const body = JSON.stringify({ diff, repository: 'r' });
    const head = (length: number) =>
      `POST /v1/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.reviewToken}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const answer = await rawSocket(
      t.url,
      [head(Buffer.byteLength(body)) + body, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
      { pauseMs: 200 },
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/); // the second request, on the same connection
  });
});

describe('where "far over the limit" starts is documented', () => {
  it('the OpenAPI document states both bounds', async () => {
    const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as { info: { description: string } };
    expect(document.info.description).toContain('once its text');
    expect(document.info.description).toContain(`passes ${CREATE_TEXT_BOUND.toLocaleString('en')} bytes`);
    expect(document.info.description).toContain(`Content-Length over ${LIMITS.reviewBodyBytes.toLocaleString('en')}`);
  });
});
