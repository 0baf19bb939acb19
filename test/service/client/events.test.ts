import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewJob } from '../../../service/api/schemas.ts';
import { AbortError, ApiError, createClient, EventStreamError, TimeoutError } from '../../../service/client/index.ts';
import {
  job,
  REVIEW_ID,
  reviewFrame,
  sendError,
  sendJson,
  sleep,
  startEventStream,
  startFakeService,
  type FakeService,
  type Handler,
} from './fake-service.ts';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});
const start = async (routes: Record<string, Handler>) => (service = await startFakeService(routes));

const EVENTS = `GET /v1/reviews/${REVIEW_ID}/events`;
const GET = `GET /v1/reviews/${REVIEW_ID}`;

/** An event stream that sends the given jobs: multi-line data, comments, CRLF and LF, frames cut mid-line. */
const streamOf =
  (jobs: ReviewJob[], { end = true } = {}): Handler =>
  async (_req, res) => {
    startEventStream(res);
    res.write(': connected\r\n\r\n');
    for (const [i, j] of jobs.entries()) {
      const frame = reviewFrame(j, i % 2 === 0 ? '\r\n' : '\n');
      const cut = Math.floor(frame.length / 2);
      res.write(frame.slice(0, cut));
      await sleep(10);
      res.write(frame.slice(cut));
      res.write(': keep-alive\n');
      await sleep(10);
    }
    if (end) res.end();
  };

/** Polling answers: the states in order, then the last one forever. */
function pollSequence(states: ReviewJob[]): Handler {
  let i = 0;
  return (_req, res) => sendJson(res, 200, states[Math.min(i++, states.length - 1)]);
}

describe('events', () => {
  it('yields each job state from a real event stream and ends after the terminal one', async () => {
    const jobs = [job('queued'), job('running'), job('completed')];
    const s = await start({ [EVENTS]: streamOf(jobs) });
    const seen: ReviewJob[] = [];
    for await (const j of createClient({ baseUrl: s.url, token: 't' }).events(REVIEW_ID)) seen.push(j);
    expect(seen).toEqual(jobs);
    const request = s.requestsTo(`/v1/reviews/${REVIEW_ID}/events`)[0];
    expect(request?.headers.accept).toBe('text/event-stream');
    expect(request?.headers.authorization).toBe('Bearer t');
  });

  it('ignores events of other names', async () => {
    const s = await start({
      [EVENTS]: (_q, res) => {
        startEventStream(res);
        res.write('event: ping\ndata: {}\n\n');
        res.end(reviewFrame(job('failed')));
      },
    });
    const seen: ReviewJob[] = [];
    for await (const j of createClient({ baseUrl: s.url }).events(REVIEW_ID)) seen.push(j);
    expect(seen.map((j) => j.status)).toEqual(['failed']);
  });

  it('throws EventStreamError when the stream ends before a terminal state', async () => {
    const s = await start({ [EVENTS]: streamOf([job('queued')]) });
    const seen: string[] = [];
    const run = async () => {
      for await (const j of createClient({ baseUrl: s.url }).events(REVIEW_ID)) seen.push(j.status);
    };
    await expect(run()).rejects.toThrow(EventStreamError);
    expect(seen).toEqual(['queued']);
  });

  it('throws EventStreamError when the connection breaks midway', async () => {
    const s = await start({
      [EVENTS]: async (req, res) => {
        startEventStream(res);
        res.write(reviewFrame(job('queued')));
        res.write('data: {"review_id":');
        await sleep(20);
        req.socket.destroy();
      },
    });
    const run = async () => {
      for await (const _ of createClient({ baseUrl: s.url }).events(REVIEW_ID)) void _;
    };
    await expect(run()).rejects.toThrow(/event stream of review .* broke/);
  });

  it('throws EventStreamError for data that is not a job, and for an answer that is not an event stream', async () => {
    const s = await start({
      [EVENTS]: (_q, res) => {
        startEventStream(res);
        res.end('event: review\ndata: not json\n\n');
      },
      [`GET /v1/reviews/other/events`]: (_q, res) => sendJson(res, 200, job('queued')),
    });
    const client = createClient({ baseUrl: s.url });
    const drain = async (id: string) => {
      for await (const _ of client.events(id)) void _;
    };
    await expect(drain(REVIEW_ID)).rejects.toThrow(/not JSON/);
    await expect(drain('other')).rejects.toThrow(/instead of an event stream/);
  });

  it('throws ApiError when the endpoint answers 404', async () => {
    const s = await start({});
    const iterator = createClient({ baseUrl: s.url }).events(REVIEW_ID);
    await expect(iterator.next()).rejects.toMatchObject({ status: 404, error: 'not_found' });
  });

  it('closes the connection when the consumer stops early, and stops on abort', async () => {
    let closed = false;
    const s = await start({
      [EVENTS]: (req, res) => {
        startEventStream(res);
        res.write(reviewFrame(job('queued')));
        req.socket.on('close', () => (closed = true));
      },
    });
    const client = createClient({ baseUrl: s.url });
    for await (const _ of client.events(REVIEW_ID)) break;
    await sleep(50);
    expect(closed).toBe(true);

    const controller = new AbortController();
    const run = async () => {
      for await (const _ of client.events(REVIEW_ID, { signal: controller.signal })) controller.abort();
    };
    await expect(run()).rejects.toBeInstanceOf(AbortError);
  });

  // undici holds a fetch's abort listener weakly: after a garbage collection, a signal fired
  // once the headers are in no longer reaches the body. The client must not rely on it.
  const signalDropped: typeof fetch = (input, init) =>
    input instanceof Request
      ? fetch(input.url, { method: input.method, headers: input.headers })
      : fetch(input, { ...init, signal: null });

  it.each([
    ['the global fetch', undefined],
    ['a fetch whose body does not follow the signal', signalDropped],
  ])(
    'a silent stream aborted while a read waits: AbortError, and the connection is closed (%s)',
    async (_, fetcher) => {
      let closed = false;
      const s = await start({
        [EVENTS]: (req, res) => {
          startEventStream(res);
          res.write(': connected\n\n');
          req.socket.on('close', () => (closed = true));
        },
      });
      const client = createClient({ baseUrl: s.url, ...(fetcher ? { fetch: fetcher } : {}) });
      const controller = new AbortController();
      const reading = (async () => {
        for await (const _ of client.events(REVIEW_ID, { signal: controller.signal }));
      })();
      await sleep(100); // the read waits on a stream that says nothing more
      controller.abort();
      await expect(reading).rejects.toBeInstanceOf(AbortError);
      for (let i = 0; i < 100 && !closed; i++) await sleep(10);
      expect(closed).toBe(true);
    },
  );
});

describe('waitForReview', () => {
  it('follows the event stream and reports each state once, without polling', async () => {
    const jobs = [job('queued'), job('running'), job('completed')];
    const s = await start({ [EVENTS]: streamOf(jobs), [GET]: pollSequence([job('queued')]) });
    const updates: string[] = [];
    const done = await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, {
      onUpdate: (j) => updates.push(j.status),
    });
    expect(done).toEqual(jobs[2]);
    expect(updates).toEqual(['queued', 'running', 'completed']);
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}`)).toHaveLength(0);
  });

  it('polls with growing intervals when the service has no event stream (404)', async () => {
    const states = [job('queued'), job('queued'), job('running'), job('running'), job('completed')];
    const s = await start({ [GET]: pollSequence(states) });
    const updates: string[] = [];
    const done = await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, {
      pollIntervalMs: 40,
      maxPollIntervalMs: 80,
      onUpdate: (j) => updates.push(j.status),
    });
    expect(done.status).toBe('completed');
    expect(updates).toEqual(['queued', 'queued', 'running', 'running', 'completed']);
    const polls = s.requestsTo(`/v1/reviews/${REVIEW_ID}`);
    expect(polls).toHaveLength(5);
    // 40 ms, then ×1.5 = 60 ms, then capped at 80 ms.
    const gaps = polls.slice(1).map((poll, i) => poll.at - (polls[i]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(55);
    expect(gaps[2]).toBeGreaterThanOrEqual(75);
    expect(gaps[3]).toBeGreaterThanOrEqual(75);
    expect(Math.max(...gaps)).toBeLessThan(400);
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}/events`)).toHaveLength(1);
  });

  it('polls when the events endpoint answers 405', async () => {
    const s = await start({
      [`POST /v1/reviews/${REVIEW_ID}/events`]: (_q, res) => sendError(res, 500, 'x'),
      [GET]: pollSequence([job('completed')]),
    });
    expect((await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, { pollIntervalMs: 10 })).status).toBe(
      'completed',
    );
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}/events`)).toHaveLength(1);
  });

  it('falls back to polling when the stream breaks midway, without repeating a state', async () => {
    const queued = job('queued');
    const running = job('running');
    const completed = job('completed');
    const s = await start({
      [EVENTS]: async (req, res) => {
        startEventStream(res);
        res.write(reviewFrame(queued));
        res.write(reviewFrame(running));
        await sleep(20);
        req.socket.destroy();
      },
      [GET]: pollSequence([running, completed]),
    });
    const updates: string[] = [];
    const done = await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, {
      pollIntervalMs: 20,
      onUpdate: (j) => updates.push(j.status),
    });
    expect(done).toEqual(completed);
    expect(updates).toEqual(['queued', 'running', 'completed']);
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}`)).toHaveLength(2);
  });

  it('falls back to polling when the stream ends before the job does', async () => {
    const s = await start({ [EVENTS]: streamOf([job('queued')]), [GET]: pollSequence([job('failed')]) });
    expect((await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, { pollIntervalMs: 10 })).status).toBe(
      'failed',
    );
  });

  it('polls only when useEvents is false', async () => {
    const s = await start({ [EVENTS]: streamOf([job('completed')]), [GET]: pollSequence([job('completed')]) });
    await createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID, { useEvents: false });
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}/events`)).toHaveLength(0);
  });

  it('rejects with the ApiError when the token is refused, without polling', async () => {
    const s = await start({
      [EVENTS]: (_q, res) => sendError(res, 401, 'unauthorized', 'Bad token.'),
      [GET]: pollSequence([job('completed')]),
    });
    const error = await createClient({ baseUrl: s.url })
      .waitForReview(REVIEW_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(s.requestsTo(`/v1/reviews/${REVIEW_ID}`)).toHaveLength(0);
  });

  it('rejects with not_found when the review does not exist', async () => {
    const s = await start({});
    await expect(createClient({ baseUrl: s.url }).waitForReview(REVIEW_ID)).rejects.toMatchObject({
      status: 404,
      error: 'not_found',
    });
  });

  it('times out with a TimeoutError naming the review and its last status (stream open)', async () => {
    const s = await start({ [EVENTS]: streamOf([job('running')], { end: false }) });
    const started = Date.now();
    const error = await createClient({ baseUrl: s.url })
      .waitForReview(REVIEW_ID, { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(`Review ${REVIEW_ID} did not finish within 300 ms (last status: running).`);
    expect(Date.now() - started).toBeLessThan(5000); // at its 300 ms, not at the stream's end (never)
  });

  it('times out while polling', async () => {
    const s = await start({ [GET]: pollSequence([job('queued')]) });
    const error = await createClient({ baseUrl: s.url })
      .waitForReview(REVIEW_ID, { timeoutMs: 250, pollIntervalMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(250);
  });

  it('rejects with an AbortError when the signal fires, while streaming or polling, or before', async () => {
    const s = await start({
      [EVENTS]: streamOf([job('running')], { end: false }),
      [GET]: pollSequence([job('queued')]),
    });
    const client = createClient({ baseUrl: s.url });
    const streaming = new AbortController();
    setTimeout(() => streaming.abort(), 100);
    await expect(client.waitForReview(REVIEW_ID, { signal: streaming.signal })).rejects.toBeInstanceOf(AbortError);

    const polling = new AbortController();
    setTimeout(() => polling.abort(new Error('user cancelled')), 100);
    const error = await client
      .waitForReview(REVIEW_ID, { signal: polling.signal, useEvents: false, pollIntervalMs: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).cause).toEqual(new Error('user cancelled'));

    await expect(client.waitForReview(REVIEW_ID, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
  });
});
