// The connection that hears other instances' changes (store/postgres/review-changes.ts), broken
// under a running instance: killed by the server, or frozen (a network that silently drops
// packets looks the same from the client). Meanwhile the instance must not answer from what it
// keeps in memory (tokens, finished reviews) as if it were current. Waits are bounded, not timed:
// test/bench/postgres-instances.ts measures how soon a revocation is honoured.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF, sleep, startTestService, type TestService } from '../../support/test-service.ts';

const DASHBOARD = `listener-dashboard-token-${'x'.repeat(16)}`;
// SLEEP <ms>: a review that takes that long (see the fixture)
const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);
const LISTENERS = "SELECT pid FROM pg_stat_activity WHERE application_name = 'diff-review listener' AND datname = $1";

/** Calls `answer` until it gives `expected` or 10 s pass; answers the last value. */
async function eventually<T>(answer: () => Promise<T>, expected: T): Promise<T> {
  let value = await answer();
  for (const until = Date.now() + 10_000; value !== expected && Date.now() < until; ) {
    await sleep(20);
    value = await answer();
  }
  return value;
}

describe.skipIf(!postgresAvailable())("an instance's listener connection broken", () => {
  let cluster: PostgresCluster;
  let t: TestService | undefined;
  let b: TestService | undefined;
  let admin: pg.Client;
  let databaseUrl: string;
  let database: string;
  const stopped: number[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.destroy());
  afterEach(async () => {
    for (const pid of stopped.splice(0)) process.kill(pid, 'SIGCONT');
    await admin?.end();
    await b?.close();
    await t?.close();
    b = undefined;
  });

  async function start() {
    databaseUrl = await cluster.createDatabase();
    database = new URL(databaseUrl).pathname.slice(1);
    t = await startTestService({ databaseUrl, dashboardToken: DASHBOARD, workerFile, concurrency: 1 });
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    return t;
  }
  const listeners = async () => (await admin.query<{ pid: number }>(LISTENERS, [database])).rows.map((r) => r.pid);
  const statusOf = (id: string) => async () =>
    (await admin.query('SELECT status FROM reviews WHERE review_id = $1', [id])).rows[0]?.status;

  /**
   * Kills the listener of the second instance (not `listenerOfA`), runs `during` while no new
   * connection to the database is allowed (superusers included: it cannot come back), then allows them.
   */
  async function whileListenerDown(listenerOfA: number, during: () => Promise<void>) {
    const maintenance = new pg.Client({ connectionString: cluster.adminUrl });
    await maintenance.connect();
    const allow = (yes: boolean) =>
      maintenance.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} WITH ALLOW_CONNECTIONS ${yes}`);
    try {
      await allow(false);
      const listenerOfB = (await listeners()).find((pid) => pid !== listenerOfA);
      await admin.query('SELECT pg_terminate_backend($1)', [listenerOfB]);
      expect(await eventually(async () => (await listeners()).includes(listenerOfB!), false)).toBe(false);
      await during();
    } finally {
      await allow(true);
      await maintenance.end();
    }
  }

  it('frozen: a token revoked meanwhile is refused (the listener proves it is alive, or is not trusted)', async () => {
    const s = await start();
    const made = await s.client(DASHBOARD).createToken({ name: 'doomed' });
    const status = () => s.api('GET', '/v1/reviews', { token: made.token }).then((r) => r.status);
    expect(await status()).toBe(200); // and the instance's copy of the tokens holds it now
    const [listener] = await listeners();
    // The listener's server process stops answering: its socket stays open, nothing is refused.
    process.kill(listener!, 'SIGSTOP');
    stopped.push(listener!);
    // The revocation's NOTIFY is queued for the frozen process: the instance never hears it.
    await admin.query('UPDATE tokens SET revoked_at = now() WHERE id = $1', [made.id]);
    expect(await eventually(status, 401)).toBe(401);
    // and the instance reconnects by itself: a new listener, and tokens at hand again
    expect(await eventually(async () => (await listeners()).some((pid) => pid !== listener), true)).toBe(true);
    const fresh = await s.client(DASHBOARD).createToken({ name: 'fresh' });
    expect((await s.api('GET', '/v1/reviews', { token: fresh.token })).status).toBe(200);
  });

  it('killed: a review deleted while it was down is not answered from memory, and events still end', async () => {
    const a = await start();
    const client = a.client();
    const done = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' });
    await client.waitForReview(done.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
    // A runs a slow review; B, started after, follows it over SSE and keeps the finished one in memory.
    const slow = await client.createReview({ diff: 'SLEEP 1500\n', repository: 'github.com/acme/app' });
    await eventually(async () => (await client.getReview(slow.review_id)).status, 'running');
    const [listenerOfA] = await listeners();
    b = await startTestService({ databaseUrl, dashboardToken: DASHBOARD, workerFile });
    const onB = b.client(a.reviewToken);
    const read = () => b!.api('GET', `/v1/reviews/${done.review_id}`, { token: a.reviewToken }).then((r) => r.status);
    expect(await read()).toBe(200);
    const seen: string[] = [];
    const following = (async () => {
      for await (const job of onB.events(slow.review_id, { signal: AbortSignal.timeout(20_000) }))
        seen.push(job.status);
    })();
    await eventually(async () => seen.length, 1);

    await whileListenerDown(listenerOfA!, async () => {
      // Meanwhile A finishes the followed review, and retention deletes the finished one: B hears neither.
      expect(await eventually(statusOf(slow.review_id), 'completed')).toBe('completed');
      await admin.query('DELETE FROM reviews WHERE review_id = $1', [done.review_id]);
    });
    expect(await eventually(read, 404)).toBe(404);
    expect(await eventually(async () => (await listeners()).length, 2)).toBe(2);
    expect(await read()).toBe(404); // and stays so once the listener is back
    await following;
    expect(seen).toEqual(['running', 'completed']);
  });

  it("killed: the owner's stream (GET /v1/events) reads again what it told unfinished, and tells its end", async () => {
    const a = await start();
    const client = a.client();
    const slow = await client.createReview({ diff: 'SLEEP 1500\n', repository: 'github.com/acme/app' });
    await eventually(async () => (await client.getReview(slow.review_id)).status, 'running');
    const [listenerOfA] = await listeners();
    b = await startTestService({ databaseUrl, dashboardToken: DASHBOARD, workerFile });
    // B's only follower of the review is the owner's stream: nothing else re-reads it for B.
    const told: string[] = [];
    const controller = new AbortController();
    const reading = (async () => {
      for await (const event of b!.client(a.reviewToken).ownerEvents({ signal: controller.signal }))
        if (event.type === 'review') told.push(event.job.status);
    })().catch(() => {});
    expect(await eventually(async () => told.length, 1)).toBe(1);
    await whileListenerDown(listenerOfA!, async () => {
      expect(await eventually(statusOf(slow.review_id), 'completed')).toBe('completed');
    });
    expect(await eventually(async () => told.at(-1), 'completed')).toBe('completed');
    expect(told).toEqual(['running', 'completed']);
    controller.abort();
    await reading;
  });
});
