// Several service instances on one database, in one process (the multi-process test with SIGKILL is
// multi-process.test.ts): what one instance does, the others see and honour.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { postgresAvailable, scalar, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF, sleep, startTestService, type TestService } from '../../support/test-service.ts';
import type { ReviewJob } from '../../../service/api/schemas.ts';
import { TestClock } from '../../support/test-clock.ts';
import type { DiffReviewClient } from '../../../service/client/index.ts';

const DASHBOARD = `instances-dashboard-token-${'x'.repeat(16)}`;
// SLEEP <ms>: a review that takes that long and stops when asked (see the fixture)
const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);
const body = (diff: string) => ({ diff, repository: 'github.com/acme/app' });

/** Polls until the review has the status; bounded, so a test that waits in vain fails instead of hanging. */
async function reaches(client: DiffReviewClient, id: string, status: ReviewJob['status'], withinMs = 20_000) {
  let job = await client.getReview(id);
  for (const until = Date.now() + withinMs; job.status !== status && Date.now() < until; ) {
    await sleep(25);
    job = await client.getReview(id);
  }
  expect(job.status).toBe(status);
  return job;
}

/** `promise`, or a failure naming `what` after `ms`: a step that hangs says which it was. */
async function step<T>(what: string, promise: Promise<T>, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!postgresAvailable())('several instances on one database', () => {
  let cluster: PostgresCluster;
  const services: TestService[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.destroy());
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
  });

  /** `n` instances on one fresh database, sharing the dashboard token; the first one's review token serves all. */
  async function instances(n: number, options: Parameters<typeof startTestService>[0] = {}) {
    const databaseUrl = await cluster.createDatabase();
    for (let i = 0; i < n; i++) await another(databaseUrl, options);
    const token = services[0]!.reviewToken;
    return { databaseUrl, token, clients: services.map((s) => s.client(token)) };
  }

  /** One more instance on the database. */
  async function another(databaseUrl: string, options: Parameters<typeof startTestService>[0] = {}) {
    const t = await startTestService({ databaseUrl, dashboardToken: DASHBOARD, workerFile, ...options });
    services.push(t);
    return t;
  }

  it('the same Idempotency-Key sent to two instances at once makes one review', async () => {
    const { databaseUrl, clients } = await instances(2);
    const [a, b] = clients as [NonNullable<(typeof clients)[0]>, NonNullable<(typeof clients)[0]>];
    const body = { diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' };
    for (let round = 0; round < 10; round++) {
      const key = `key-${round}`;
      const answers = await Promise.all([
        a.createReview(body, { idempotencyKey: key }),
        b.createReview(body, { idempotencyKey: key }),
        a.createReview(body, { idempotencyKey: key }),
        b.createReview(body, { idempotencyKey: key }),
      ]);
      expect(new Set(answers.map((j) => j.review_id)).size).toBe(1);
    }
    expect(await scalar(databaseUrl, 'SELECT count(*) AS n FROM reviews')).toBe(10);
    // a different body under a used key is still refused, by the other instance too
    const first = await a.createReview(body, { idempotencyKey: 'mixed' });
    await expect(
      b.createReview({ ...body, repository: 'github.com/acme/other' }, { idempotencyKey: 'mixed' }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await b.createReview(body, { idempotencyKey: 'mixed' })).review_id).toBe(first.review_id);
  });

  it('a cancel through instance B stops the review running on instance A', async () => {
    const { databaseUrl, token, clients } = await instances(1, { concurrency: 1 });
    const onA = clients[0]!;
    const slow = await onA.createReview(body('SLEEP 60000\n'));
    await reaches(onA, slow.review_id, 'running');
    const b = await another(databaseUrl);
    const cancelled = await b.client(token).cancelReview(slow.review_id);
    expect(cancelled.error?.code).toBe('cancelled');
    await b.close();
    services.splice(services.indexOf(b), 1);
    // A's only worker is free again long before the 60 s review would have ended
    const next = await onA.createReview(body(DEBUGGER_DIFF));
    expect((await reaches(onA, next.review_id, 'completed', 15_000)).comments).toHaveLength(1);
    expect((await onA.getReview(slow.review_id)).error?.code).toBe('cancelled'); // never moved back
  });

  it('events followed on instance B tell the end of a review that instance A ran', async () => {
    const { databaseUrl, token, clients } = await instances(1, { concurrency: 1 });
    const slow = await clients[0]!.createReview(body('SLEEP 1500\n'));
    await reaches(clients[0]!, slow.review_id, 'running');
    // B reviews nothing itself: the state it tells comes from A, through the database
    const b = await another(databaseUrl);
    const seen: string[] = [];
    for await (const job of b.client(token).events(slow.review_id, { signal: AbortSignal.timeout(20_000) })) {
      seen.push(job.status);
    }
    expect(seen).toEqual(['running', 'completed']);
  });

  it("the owner's stream on instance B tells the changes instance A makes to reviews B never ran nor followed", {
    // every step is bounded (20 s each) and named: a slow machine must see which one ran out, not the test's limit
    timeout: 120_000,
  }, async () => {
    const { databaseUrl, token, clients } = await step('instance A starts', instances(1, { concurrency: 2 }));
    const onA = clients[0]!;
    const first = await step('the first create on A', onA.createReview(body('SLEEP 60000\n')));
    const second = await step('the second create on A', onA.createReview(body('SLEEP 60000\n')));
    await reaches(onA, first.review_id, 'running');
    await reaches(onA, second.review_id, 'running');
    const b = await step('instance B starts', another(databaseUrl));
    const seen: ReviewJob[] = [];
    let unfinished = -1;
    const controller = new AbortController();
    const reading = (async () => {
      for await (const event of b.client(token).ownerEvents({ signal: controller.signal })) {
        if (event.type === 'ready') unfinished = event.unfinished;
        else seen.push(event.job);
      }
    })().catch(() => {});
    const statesOf = (id: string) => seen.filter((job) => job.review_id === id).map((job) => job.status);
    /** Waits until B's stream told `status` last; if not, says what B heard and what A has stored. */
    const told = async (id: string, status: ReviewJob['status']) => {
      for (const until = Date.now() + 20_000; statesOf(id).at(-1) !== status && Date.now() < until; ) await sleep(25);
      if (statesOf(id).at(-1) !== status)
        expect.fail(`B heard [${statesOf(id)}] of ${id}; A has it ${(await onA.getReview(id)).status}`);
    };
    await expect.poll(() => unfinished, { timeout: 20_000 }).toBe(2);
    // the cancels are made on A, which runs both: B hears of them only through the database
    await step('the first cancel on A', onA.cancelReview(first.review_id));
    await step('the second cancel on A', onA.cancelReview(second.review_id));
    await told(second.review_id, 'failed');
    await told(first.review_id, 'failed');
    expect(statesOf(first.review_id)).toEqual(['running', 'failed']);
    expect(statesOf(second.review_id)).toEqual(['running', 'failed']);
    // a review made on A after B's stream opened reaches it too, to its end
    const later = await step('the later create on A', onA.createReview(body('SLEEP 0\n')));
    await told(later.review_id, 'completed');
    // B reads each change it is told of: a state A passed through before that read (a queued that
    // lasted milliseconds on a loaded machine) is told as the state the read finds. In order.
    const toldLater = statesOf(later.review_id).filter((status, i, all) => status !== all[i - 1]);
    const order: ReviewJob['status'][] = ['queued', 'running', 'completed'];
    expect(toldLater).toEqual(order.filter((status) => toldLater.includes(status)));
    controller.abort();
    await step("B's stream ends when aborted", reading);
  });

  it('an instance that stops hands its running review to another, which finishes it once', async () => {
    const { databaseUrl, token, clients } = await instances(1, { concurrency: 1, shutdownGraceMs: 0 });
    const slow = await clients[0]!.createReview(body('SLEEP 1500\n'));
    await reaches(clients[0]!, slow.review_id, 'running');
    const b = await another(databaseUrl);
    await services[0]!.stop(); // as SIGTERM does
    const done = await reaches(b.client(token), slow.review_id, 'completed');
    expect(done.comments).toEqual([]);
    const rows = await scalar(databaseUrl, `SELECT attempts AS n FROM reviews WHERE review_id = '${slow.review_id}'`);
    expect(rows).toBe(2); // started on A, handed back, finished on B
  });

  it('a token revoked through one instance is refused by every instance; a new one is good everywhere at once', async () => {
    await instances(2);
    const a = services[0]!;
    const made = await a.client(DASHBOARD).createToken({ name: 'short-lived' });
    const onB = services[1]!.client(made.token);
    await onB.listReviews();
    await a.client(DASHBOARD).deleteToken(made.id);
    // A refuses it at once; B within moments (its copy of the tokens hears the change by NOTIFY).
    // The wait is bounded, not timed: test/bench/postgres-instances.ts measures it (target: within 1 s).
    await expect(a.client(made.token).listReviews()).rejects.toMatchObject({ status: 401 });
    await expect
      .poll(
        () =>
          onB.listReviews().then(
            () => 'accepted',
            (e: { status?: number }) => e.status,
          ),
        { timeout: 10_000, message: 'instance B refuses the revoked token' },
      )
      .toBe(401);
    // and a token made on A is good on B at once (a copy that lacks it asks the database)
    const fresh = await a.client(DASHBOARD).createToken({ name: 'fresh' });
    await services[1]!.client(fresh.token).listReviews();
  });

  it('rate limits are per token across all instances: one budget, wherever the requests go', async () => {
    const { clients, token } = await instances(2, { rateLimits: { create: 3 } });
    const [a, b] = clients as [DiffReviewClient, DiffReviewClient];
    await a.createReview(body(DEBUGGER_DIFF));
    await a.createReview(body(DEBUGGER_DIFF));
    await b.createReview(body(DEBUGGER_DIFF));
    // the 4th within the minute is refused by either instance, with the shared count in the headers
    const refused = await services[1]!.api('POST', '/v1/reviews', { token, body: body(DEBUGGER_DIFF) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const alsoRefused = await services[0]!.api('POST', '/v1/reviews', { token, body: body(DEBUGGER_DIFF) });
    expect(alsoRefused.status).toBe(429);
  });

  it('the queue limit counts the backlog of all instances: B refuses when A filled the queue', async () => {
    const { databaseUrl, token, clients } = await instances(1, { concurrency: 1, shutdownGraceMs: 0 });
    for (let i = 0; i < 4; i++) await clients[0]!.createReview(body('SLEEP 60000\n'));
    const counts = async () => [
      await scalar(databaseUrl, "SELECT count(*) FROM reviews WHERE status = 'running'"),
      await scalar(databaseUrl, "SELECT count(*) FROM reviews WHERE status = 'queued'"),
    ];
    // A runs one, three wait
    await expect.poll(counts, { timeout: 30_000, message: 'A running one review, three waiting' }).toEqual([1, 3]);
    // B, with room for 2, has accepted nothing itself: the backlog it counts is A's (it may take one of them)
    const b = await another(databaseUrl, { concurrency: 1, shutdownGraceMs: 0, maxQueuedJobs: 2 });
    const refused = await b.api('POST', '/v1/reviews', { token, body: body(DEBUGGER_DIFF) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe('queue_full');
  });

  it('retention on one instance: the deleted review is gone on the others too, though they kept it in memory', async () => {
    const clock = new TestClock(Date.parse('2026-11-01T12:00:00.000Z'));
    const { databaseUrl, token, clients } = await instances(2, { clock, retentionDays: 30 });
    const onB = clients[1]!;
    const job = await clients[0]!.createReview(body(DEBUGGER_DIFF));
    await reaches(onB, job.review_id, 'completed');
    await reaches(onB, job.review_id, 'completed'); // B answers it from memory now

    clock.advance(31 * 24 * 60 * 60 * 1000);
    await another(databaseUrl, { clock, retentionDays: 30 }); // its sweep on start is the period's one
    let status = 200;
    for (const until = Date.now() + 15_000; status !== 404 && Date.now() < until; ) {
      status = (await services[1]!.api('GET', `/v1/reviews/${job.review_id}`, { token })).status;
      if (status !== 404) await sleep(20);
    }
    expect(status).toBe(404);
  });

  it('a review saved without its job (a crash between the two writes) is queued again when an instance starts', async () => {
    const { databaseUrl, token } = await instances(1);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const owner = (
        await client.query<{ owner: string }>('SELECT owner FROM tokens WHERE type = $1 LIMIT 1', ['review'])
      ).rows[0]!.owner;
      const at = new Date(Date.now() - 10 * 60_000).toISOString();
      await client.query(
        `INSERT INTO reviews (review_id, owner, status, repository, created_at, updated_at, attempts)
         VALUES ('rev_01ORPHAN000000000000000000', $1, 'queued', 'github.com/acme/app', $2, $2, 0)`,
        [owner, at],
      );
      await client.query("INSERT INTO review_diffs (review_id, diff) VALUES ('rev_01ORPHAN000000000000000000', $1)", [
        Buffer.from(DEBUGGER_DIFF),
      ]);
    } finally {
      await client.end();
    }
    const b = await another(databaseUrl);
    const done = await reaches(b.client(token), 'rev_01ORPHAN000000000000000000', 'completed');
    expect(done.comments).toHaveLength(1);
  });
});
