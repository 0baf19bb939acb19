// Issue 16 item 5: event streams must not exhaust the process. About 1,000 open streams on a
// queued job used up the file descriptors and every request failed with a reset. Streams are
// capped per token and in total (429 rate_limited with Retry-After beyond, and a warning in the
// log), and a stream ends, cleanly, after a maximum lifetime; the client then polls.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamError } from '../../../service/client/index.ts';
import { DEFAULTS } from '../../../service/service.ts';
import { closeHealthy, DEBUGGER_DIFF, sleep, startTestService, type TestService } from '../../support/test-service.ts';
import { serveCli } from './serve-cli.ts';

const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);

interface OpenStream {
  status: number;
  retryAfter?: string;
  body: string;
  /** Resolves when the server ends the stream: 'end' (cleanly) or 'error:<code>'. */
  ended: Promise<string>;
  close(): void;
}

/** Opens GET /v1/reviews/{id}/events; resolves once the first event (or a refusal) has arrived. */
function openStream(t: TestService, reviewId: string, token: string): Promise<OpenStream> {
  const target = new URL(t.url);
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: target.hostname,
        port: target.port,
        path: `/v1/reviews/${reviewId}/events`,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        let body = '';
        const ended = new Promise<string>((done) => {
          response.on('end', () => done('end'));
          response.on('error', (error: NodeJS.ErrnoException) => done(`error:${error.code}`));
        });
        const stream: OpenStream = {
          status: response.statusCode!,
          retryAfter: response.headers['retry-after'] as string | undefined,
          get body() {
            return body;
          },
          ended,
          close: () => request.destroy(),
        };
        response.setEncoding('utf8');
        response.on('data', (part: string) => {
          const first = body === '';
          body += part;
          if (first) resolve(stream);
        });
        if (response.statusCode !== 200) response.on('end', () => resolve(stream));
      },
    );
    request.on('error', reject);
  });
}

/** A service whose one worker is busy for a long while, and a review queued behind it. */
async function withQueuedReview(options: Parameters<typeof startTestService>[0]) {
  const t = await startTestService({
    workerFile,
    concurrency: 1,
    rateLimits: { create: 0, read: 0, tokens: 0 },
    ...options,
  });
  const client = t.client();
  await client.createReview({ diff: 'SLEEP 60000\n', repository: 'r' });
  const queued = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
  const tokens = [t.reviewToken];
  for (let i = 1; i < 3; i++)
    tokens.push((await t.client(t.dashboardToken).createToken({ name: `streams ${i}` })).token);
  return { t, queued: queued.review_id, tokens };
}

describe('caps: per token and in total', () => {
  let t: TestService;
  let queued: string;
  let tokens: string[];
  const open: OpenStream[] = [];
  beforeAll(async () => {
    ({ t, queued, tokens } = await withQueuedReview({ eventStreams: { perToken: 3, total: 5 }, shutdownGraceMs: 0 }));
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await closeHealthy(t);
  });

  const expectRefused = (stream: OpenStream, what: RegExp) => {
    expect(stream.status).toBe(429);
    expect(Number(stream.retryAfter)).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(stream.body) as { error: string; message: string };
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(what);
    t.contract.check('GET', `${t.url}/v1/reviews/${queued}/events`, 429, 'application/json', stream.body);
  };

  it('a token may hold exactly 3: the 4th is 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const stream = await openStream(t, queued, tokens[0]!);
      open.push(stream);
      expect(stream.status).toBe(200);
      expect(stream.body).toContain('"status":"queued"');
    }
    expectRefused(await openStream(t, queued, tokens[0]!), /3 event streams/);
  });

  it('the service holds exactly 5 in all: the 6th is 429 whatever its token', async () => {
    for (let i = 0; i < 2; i++) {
      const stream = await openStream(t, queued, tokens[1]!);
      open.push(stream);
      expect(stream.status).toBe(200);
    }
    expectRefused(await openStream(t, queued, tokens[1]!), /5 event streams/);
    expectRefused(await openStream(t, queued, tokens[2]!), /5 event streams/);
    // Everything else is answered as usual.
    expect((await t.api('GET', `/v1/reviews/${queued}`)).status).toBe(200);
  });

  it('a closed stream frees its place', async () => {
    open.shift()!.close();
    for (let i = 0; i < 100; i++) {
      const stream = await openStream(t, queued, tokens[2]!);
      if (stream.status === 200) {
        open.push(stream);
        return;
      }
      await sleep(20);
    }
    throw new Error('the closed stream never freed its place');
  });

  it('hitting a cap is logged as a warning (once, not once per refusal)', () => {
    const warnings = t.logs.filter((line) => /"level":40/.test(line) && /event stream/.test(line));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThan(3);
  });
});

describe('the defaults', () => {
  it(`a token may hold ${DEFAULTS.eventStreams.perToken} streams, then 429`, { timeout: 60_000 }, async () => {
    const { t, queued } = await withQueuedReview({ shutdownGraceMs: 0 });
    const open: OpenStream[] = [];
    try {
      for (let i = 0; i < DEFAULTS.eventStreams.perToken; i++) {
        const stream = await openStream(t, queued, t.reviewToken);
        open.push(stream);
        expect(stream.status).toBe(200);
      }
      const beyond = await openStream(t, queued, t.reviewToken);
      expect(beyond.status).toBe(429);
      expect(Number(beyond.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await t.api('GET', '/healthz', { token: null })).status).toBe(200);
    } finally {
      for (const stream of open) stream.close();
      await closeHealthy(t);
    }
  });
});

describe('a maximum lifetime', () => {
  let t: TestService;
  let queued: string;
  beforeAll(async () => {
    ({ t, queued } = await withQueuedReview({ eventStreams: { lifetimeMs: 300 }, shutdownGraceMs: 0 }));
  });
  afterAll(() => closeHealthy(t));

  it('a stream on a job that does not finish ends cleanly after it', async () => {
    const started = Date.now();
    const stream = await openStream(t, queued, t.reviewToken);
    expect(stream.status).toBe(200);
    expect(await stream.ended).toBe('end');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(stream.body).toContain('"status":"queued"');
  });

  it('the client sees an early end: events() says so, waitForReview goes on by polling', async () => {
    const client = t.client();
    const seen: string[] = [];
    const follow = async () => {
      for await (const job of client.events(queued)) seen.push(job.status);
    };
    await expect(follow()).rejects.toBeInstanceOf(EventStreamError);
    expect(seen).toEqual(['queued']);
    // waitForReview outlives its stream (it polls on) and sees the job end long after the stream did.
    const waiting = client.waitForReview(queued, { timeoutMs: 10_000, pollIntervalMs: 50 });
    await sleep(1000);
    await client.cancelReview(queued);
    const done = await waiting;
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('cancelled');
  });
});

describe('diff-review serve', () => {
  it('the caps and the lifetime come from the flags and DIFF_REVIEW_* variables, and the OpenAPI document states them', {
    timeout: 30_000,
  }, async () => {
    const served = await serveCli(
      { DIFF_REVIEW_MAX_EVENT_STREAMS: '7', DIFF_REVIEW_MAX_EVENT_STREAMS_PER_TOKEN: '2' },
      ['--event-stream-lifetime', '90'],
    );
    try {
      const document = (await (await fetch(`${served.url}/v1/openapi.json`)).json()) as {
        paths: Record<string, { get: { description: string } }>;
      };
      const description = document.paths['/v1/reviews/{review_id}/events']!.get.description;
      expect(description).toContain('A token may hold 2 streams open at once and the service 7 in all');
      expect(description).toContain('after 90 seconds');
    } finally {
      await served.stop();
    }
  });
});
