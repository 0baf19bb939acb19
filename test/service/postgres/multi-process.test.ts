// Three `diff-review serve` processes on one database, as they run in production: creates and
// polls spread over all of them, one killed with SIGKILL in the middle of a burst and started
// again. Every acknowledged review completes exactly once, with the right comments. Waits are
// bounded; nothing here asserts how fast anything was (test/bench/ measures that).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type DiffReviewClient } from '../../../service/client/index.ts';
import { instanceOn, killInstances, type ServedInstance } from '../../support/postgres-serve.ts';
import { postgresAvailable, scalar, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { settledReviews } from '../../support/settled-review.ts';
import { DEBUGGER_DIFF } from '../../support/test-service.ts';

const DASHBOARD = `multi-process-dashboard-${'x'.repeat(16)}`;
// A review that takes a while, so that some are in flight when the kill comes; it finds nothing
// (the controlled test worker). The other kind is reviewed by the real engine: one finding.
const SLOW_DIFF = 'SLEEP 700\n';
const DIFFS = [DEBUGGER_DIFF, SLOW_DIFF];

const RUNNING = "SELECT count(*) AS n FROM reviews WHERE status = 'running'";

describe.skipIf(!postgresAvailable())('several service processes on one database', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    killInstances();
    await cluster?.destroy();
  });

  it('one killed with SIGKILL mid-burst and restarted: every acknowledged review completes once, with its comments', async () => {
    const databaseUrl = await cluster.createDatabase();
    const start = () => instanceOn({ databaseUrl, dashboardToken: DASHBOARD, concurrency: 1 });
    const instances: ServedInstance[] = await Promise.all([start(), start(), start()]);
    const token = (
      await createClient({ baseUrl: instances[0]!.url, token: DASHBOARD, retry: 0 }).createToken({ name: 'burst' })
    ).token;
    const client = (i: number): DiffReviewClient =>
      createClient({ baseUrl: instances[i % instances.length]!.url, token, retry: 0 });

    const acknowledged = new Map<string, string>(); // review id → its diff
    const outputs: (() => string)[] = instances.map((s) => s.output);
    const victim = instances[1]!;
    for (let i = 0; i < 36; i++) {
      const diff = DIFFS[i % DIFFS.length]!;
      if (i === 18) {
        // the kill: mid-burst, once every instance (concurrency 1) is running a review
        await expect
          .poll(() => scalar(databaseUrl, RUNNING), { timeout: 30_000, message: 'every instance running a review' })
          .toBeGreaterThanOrEqual(3);
        victim.child.kill('SIGKILL');
      }
      if (i === 27) {
        const again = await start();
        instances[1] = again;
        outputs.push(again.output);
      }
      const created = await client(i)
        .createReview({ diff, repository: 'github.com/acme/app' })
        .catch(() => undefined);
      if (created) acknowledged.set(created.review_id, diff); // refused by the dead one: never acknowledged
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(30);

    // Polls spread over the instances; bounded by the recovery a killed instance's jobs need (heartbeat 10 s)
    const ids = [...acknowledged.keys()];
    let turn = 0;
    const settled = await settledReviews(() => Promise.all(ids.map((id) => client(turn++).getReview(id))), {
      timeoutMs: 90_000,
      intervalMs: 200,
    });
    const done = new Map(settled.map((job) => [job.review_id, job]));
    for (const [id, job] of done) {
      expect(job.status, id).toBe('completed');
      const expected =
        acknowledged.get(id) === SLOW_DIFF
          ? []
          : [
              expect.objectContaining({
                file_path: 'src/app.js',
                line: 3,
                message: expect.stringMatching(/^no-debugger: /),
              }),
            ];
      expect(job.comments, id).toEqual(expected);
    }
    // exactly once: each review's completion was recorded by one instance, one time
    const completions = outputs
      .flatMap((output) => output().split('\n'))
      .filter((line) => line.includes('"review completed"'))
      .map((line) => (JSON.parse(line) as { review_id: string }).review_id);
    for (const id of acknowledged.keys())
      expect(
        completions.filter((c) => c === id),
        id,
      ).toHaveLength(1);
    // the killed one had a review in flight, which another instance started again and finished
    expect(await scalar(databaseUrl, 'SELECT count(*) AS n FROM reviews WHERE attempts > 1')).toBeGreaterThanOrEqual(1);
  }, 150_000);

  it('across processes: one Idempotency-Key makes one review, a cancel stops it wherever it runs, events, revocation and rate limits are shared', async () => {
    const databaseUrl = await cluster.createDatabase();
    const rateLimits = { create: 14 }; // writes (creates, cancels) a minute per token: enough for the steps before the last
    const start = () => instanceOn({ databaseUrl, dashboardToken: DASHBOARD, concurrency: 1, rateLimits });
    const [a, b] = await Promise.all([start(), start()]);
    const token = (await createClient({ baseUrl: a!.url, token: DASHBOARD, retry: 0 }).createToken({ name: 'x' }))
      .token;
    const onA = createClient({ baseUrl: a!.url, token, retry: 0 });
    const onB = createClient({ baseUrl: b!.url, token, retry: 0 });
    const keyed = await Promise.all(
      [onA, onB, onA, onB, onA, onB].map((c) =>
        c.createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' }, { idempotencyKey: 'one-key' }),
      ),
    );
    expect(new Set(keyed.map((j) => j.review_id)).size).toBe(1);

    // both instances busy with a long review each (concurrency 1): cancelled through B, both stop
    const long = await Promise.all(
      [onA, onA].map((c) => c.createReview({ diff: 'SLEEP 60000\n', repository: 'github.com/acme/app' })),
    );
    await expect
      .poll(() => scalar(databaseUrl, RUNNING), { timeout: 30_000, message: 'both instances running a long review' })
      .toBe(2);
    for (const job of long) expect((await onB.cancelReview(job.review_id)).error?.code).toBe('cancelled');
    const next = await onB.createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' });
    const done = await onA.waitForReview(next.review_id, { timeoutMs: 15_000, pollIntervalMs: 50 });
    expect(done.status).toBe('completed');
    for (const job of long) expect((await onA.getReview(job.review_id)).error?.code).toBe('cancelled');

    // Events: followed on both processes, so one of them hears the end from the other, through the database.
    const followed = await onA.createReview({ diff: 'SLEEP 1000\n', repository: 'github.com/acme/app' });
    const follow = async (c: DiffReviewClient) => {
      const seen: string[] = [];
      for await (const job of c.events(followed.review_id, { signal: AbortSignal.timeout(20_000) }))
        seen.push(job.status);
      return seen.at(-1);
    };
    expect(await Promise.all([follow(onA), follow(onB)])).toEqual(['completed', 'completed']);

    // Revocation: made through A, refused by B (its copy of the tokens hears it, or is not trusted).
    const dashboardOnA = createClient({ baseUrl: a!.url, token: DASHBOARD, retry: 0 });
    const doomed = await dashboardOnA.createToken({ name: 'doomed' });
    const doomedOnB = createClient({ baseUrl: b!.url, token: doomed.token, retry: 0 });
    await doomedOnB.listReviews();
    await dashboardOnA.deleteToken(doomed.id);
    const refused = () =>
      doomedOnB.listReviews().then(
        () => 0,
        (e: { status?: number }) => e.status ?? 0,
      );
    await expect.poll(refused, { timeout: 10_000, message: 'B refuses the revoked token' }).toBe(401);

    // Rate limits: one budget per token over both processes.
    const limited = (await dashboardOnA.createToken({ name: 'limited' })).token;
    const create = (url: string) =>
      fetch(`${url}/v1/reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited}`, 'content-type': 'application/json' },
        body: JSON.stringify({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' }),
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let n = 0; n < rateLimits.create; n++) statuses.push(await create((n % 2 === 0 ? a : b)!.url));
    expect(statuses).toEqual(Array(rateLimits.create).fill(202));
    expect([await create(a!.url), await create(b!.url)]).toEqual([429, 429]);
  }, 90_000);
});
