// GET /v1/events (issue 14, Security): one event stream for every review of the token's owner, so
// that the desktop dashboard holds one socket, not one per unfinished review (a 200-job burst held
// 202). On connect: the unfinished reviews, `ready`; then every change. Counted among the event
// streams (caps, lifetime), scope reviews:read, other owners' reviews never told.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OwnerEvent } from '../../../service/client/index.ts';
import type { DiffReviewClient } from '../../../service/client/index.ts';
import type { ReviewJob } from '../../../service/api/schemas.ts';
import {
  closeHealthy,
  editStoredReview,
  sleep,
  startTestService,
  type TestService,
} from '../../support/test-service.ts';

const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);
const body = (diff: string) => ({ diff, repository: 'github.com/acme/app' });
const RANK = { queued: 0, running: 1, completed: 2, failed: 2 } as const;

/** The streams `follow` opened: each is stopped after its test, so a test that failed midway leaves no stream open to count against the next one's caps. */
const following: AbortController[] = [];

/** Reads the owner's stream in the background into `seen`, until `stop()`. */
function follow(client: DiffReviewClient) {
  const controller = new AbortController();
  following.push(controller);
  const seen: OwnerEvent[] = [];
  const done = (async () => {
    for await (const event of client.ownerEvents({ signal: controller.signal })) seen.push(event);
  })().catch((error: unknown) => error);
  const statesOf = (id: string) =>
    seen.flatMap((e) => (e.type === 'review' && e.job.review_id === id ? [e.job.status] : []));
  return { seen, done, statesOf, stop: () => controller.abort() };
}

const lastOf = (states: ReviewJob['status'][]) => states.at(-1);

describe('GET /v1/events', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      workerFile,
      concurrency: 1,
      rateLimits: { create: 0, read: 0, tokens: 0 },
      eventStreams: { perToken: 3, total: 4 },
      shutdownGraceMs: 0,
    });
  });
  afterAll(() => closeHealthy(t));
  afterEach(() => {
    for (const controller of following.splice(0)) controller.abort();
  });

  it('asks for a review token with reviews:read: none is 401, a write-only or dashboard token 403', async () => {
    const none = await t.api('GET', '/v1/events', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const writeOnly = (await t.client(t.dashboardToken).createToken({ name: 'w', scopes: ['reviews:write'] })).token;
    for (const token of [writeOnly, t.dashboardToken]) {
      const refused = await t.api('GET', '/v1/events', { token });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
    }
  });

  // Its bounded waits add up to 25 s; on a loaded machine the test's own limit must not run out first.
  it('tells the unfinished reviews, then ready, then every change of two reviews on one stream', {
    timeout: 60_000,
  }, async () => {
    const client = t.client();
    const slow = await client.createReview(body('SLEEP 60000\n'));
    const stream = follow(client);
    await expect.poll(() => stream.seen.find((e) => e.type === 'ready')).toEqual({ type: 'ready', unfinished: 1 });
    expect(stream.seen[0]).toMatchObject({ type: 'review', job: { review_id: slow.review_id } });
    const quick = await client.createReview(body('SLEEP 0\n'));
    await client.cancelReview(slow.review_id);
    await expect.poll(() => lastOf(stream.statesOf(quick.review_id)), { timeout: 15_000 }).toBe('completed');
    expect(lastOf(stream.statesOf(slow.review_id))).toBe('failed');
    expect(stream.statesOf(quick.review_id)).toEqual(['queued', 'running', 'completed']);
    // told in order, each state once
    for (const id of [slow.review_id, quick.review_id]) {
      const ranks = stream.statesOf(id).map((s) => RANK[s]);
      expect(ranks).toEqual([...ranks].sort());
      expect(new Set(stream.statesOf(id)).size).toBe(ranks.length);
    }
    const completed = stream.seen.find(
      (e) => e.type === 'review' && e.job.review_id === quick.review_id && e.job.status === 'completed',
    );
    expect(completed).toMatchObject({ job: await client.getReview(quick.review_id) });
    // it did not end by itself: the stream is still open once both reviews are finished
    await sleep(100);
    expect(await Promise.race([stream.done, 'open'])).toBe('open');
    stream.stop();
    expect(await stream.done).toMatchObject({ name: 'AbortError' });
  });

  it('counts among the event streams: the caps per token and in total, 429 with Retry-After', async () => {
    const admin = t.client(t.dashboardToken);
    const [first, second] = [
      (await admin.createToken({ name: 'a' })).token,
      (await admin.createToken({ name: 'b' })).token,
    ];
    const slow = await t.client().createReview(body('SLEEP 60000\n'));
    const open: Response[] = [];
    const refusal = async (path: string, token: string, what: RegExp) => {
      const answer = await t.api('GET', path, { token });
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const error = (await answer.json()) as { error: string; message: string };
      expect(error.error).toBe('rate_limited');
      expect(error.message).toMatch(what);
    };
    try {
      // two owner-wide streams and one of a review fill the token's 3 places
      for (const path of ['/v1/events', '/v1/events', `/v1/reviews/${slow.review_id}/events`]) {
        const answer = await t.api('GET', path, { token: first });
        expect(answer.status).toBe(200);
        open.push(answer);
      }
      await refusal('/v1/events', first, /3 event streams/);
      await refusal(`/v1/reviews/${slow.review_id}/events`, first, /3 event streams/);
      open.push(await t.api('GET', '/v1/events', { token: second }));
      expect(open.at(-1)!.status).toBe(200);
      await refusal('/v1/events', second, /4 event streams/);
      // a closed one frees its place
      await open.shift()!.body!.cancel();
      await expect
        .poll(async () => {
          const answer = await t.api('GET', '/v1/events', { token: second });
          if (answer.status === 200) open.push(answer);
          else await answer.body?.cancel();
          return answer.status;
        })
        .toBe(200);
    } finally {
      for (const answer of open) await answer.body?.cancel();
      await t.client().cancelReview(slow.review_id);
    }
  });

  it('is documented in the OpenAPI document beside the review events', async () => {
    const document = (await (await t.api('GET', '/v1/openapi.json', { token: null })).json()) as {
      paths: Record<
        string,
        Record<string, { operationId: string; description: string; responses: Record<string, { content?: object }> }>
      >;
    };
    const operation = document.paths['/v1/events']!.get!;
    expect(operation.operationId).toBe('getEvents');
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '401', '403', '429', '500']);
    expect(Object.keys(operation.responses['200']!.content!)).toEqual(['text/event-stream']);
    expect(operation.description).toMatch(/3 open at once and the service 4 in all/);
    expect(operation.description).toMatch(/`event: ready`/);
    expect(operation.description).toMatch(/reconnects/);
    expect(document.paths['/v1/reviews/{review_id}/events']).toBeDefined();
  });
});

describe('a maximum lifetime', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ workerFile, eventStreams: { lifetimeMs: 300 }, shutdownGraceMs: 0 });
  });
  afterAll(() => closeHealthy(t));

  it('ends the stream cleanly; followReviews opens it again and is told the unfinished reviews each time', async () => {
    const client = t.client();
    const slow = await client.createReview(body('SLEEP 60000\n'));
    // running before the stream opens: no change of it can come after `ready`
    await expect
      .poll(async () => (await client.getReview(slow.review_id)).status, {
        timeout: 30_000,
        message: 'the review running',
      })
      .toBe('running');
    const once = follow(client);
    expect(await once.done).toBeUndefined(); // ended by the service, without an error
    expect(once.seen.at(-1)).toEqual({ type: 'ready', unfinished: 1 });

    const controller = new AbortController();
    const readies: string[][] = [];
    const following = client
      .followReviews({ signal: controller.signal, onUpdate: () => {}, onReady: (ids) => void readies.push([...ids]) })
      .catch((error: unknown) => error);
    await expect.poll(() => readies.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(readies[2]).toEqual([slow.review_id]);
    controller.abort();
    expect(await following).toMatchObject({ name: 'AbortError' });
    await client.cancelReview(slow.review_id);
  });
});

describe("another owner's reviews", () => {
  let t: TestService;
  afterAll(() => closeHealthy(t));

  it('are never told, neither on connect nor when they change', async () => {
    t = await startTestService({ workerFile, concurrency: 1, shutdownGraceMs: 0 });
    const theirs = await t.client().createReview(body('SLEEP 1500\n'));
    await t.stop();
    await editStoredReview(t, theirs.review_id, { owner: 'someone-else' });
    t = await t.restart();
    const stream = follow(t.client());
    await expect.poll(() => stream.seen.find((e) => e.type === 'ready')).toEqual({ type: 'ready', unfinished: 0 });
    // queued behind theirs (one worker): by the time ours is completed, theirs changed too
    const ours = await t.client().createReview(body('SLEEP 0\n'));
    await expect.poll(() => lastOf(stream.statesOf(ours.review_id)), { timeout: 20_000 }).toBe('completed');
    expect(stream.statesOf(theirs.review_id)).toEqual([]);
    expect(stream.seen.every((e) => e.type === 'ready' || e.job.review_id === ours.review_id)).toBe(true);
    stream.stop();
    await stream.done;
  });
});
