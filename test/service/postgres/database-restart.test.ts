// PostgreSQL restarted (or frozen: it accepts connections and answers nothing) under a running
// service: meanwhile every request is answered 503 in the error shape (never a 500 with internals,
// never a hang), and the service recovers by itself when the database is back: requests succeed,
// acknowledged jobs finish, new ones run. The URL carries a password (trust auth ignores it), which
// no log line and no answer may show.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF, sleep, startTestService, type TestService } from '../../support/test-service.ts';

const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);
const body = (diff: string) => ({ diff, repository: 'github.com/acme/app' });
const PASSWORD = 's3cr3t-pa55word';
const withPassword = (url: string) => url.replace('postgres@', `postgres:${PASSWORD}@`);

describe.skipIf(!postgresAvailable())('PostgreSQL restarted while the service runs', () => {
  let cluster: PostgresCluster;
  let t: TestService | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await t?.close();
    await cluster?.destroy();
  });

  it('answers 503 in the error shape while it is down, then recovers by itself; no acknowledged job is lost', async () => {
    const databaseUrl = withPassword(await cluster.createDatabase());
    t = await startTestService({
      databaseUrl,
      dashboardToken: `restart-dashboard-${'x'.repeat(20)}`,
      workerFile,
      concurrency: 1,
    });
    const client = t.client();
    const first = await client.createReview(body(DEBUGGER_DIFF));
    expect((await client.waitForReview(first.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).status).toBe(
      'completed',
    );
    const acknowledged = await client.createReview(body('SLEEP 300\n'));

    await cluster.stop();
    const requests: [string, string, unknown?][] = [
      ['GET', `/v1/reviews/${first.review_id}`],
      ['GET', '/v1/reviews'],
      ['POST', '/v1/reviews', body(DEBUGGER_DIFF)],
      ['POST', `/v1/reviews/${first.review_id}/cancel`],
    ];
    for (const [method, path, payload] of requests) {
      const response = await t.api(method, path, payload === undefined ? {} : { body: payload });
      const text = await response.text();
      expect(response.status, `${method} ${path}: ${text}`).toBe(503);
      expect(JSON.parse(text)).toEqual({ error: 'service_unavailable', message: expect.any(String) });
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i); // no internals
      expect(text).not.toContain(PASSWORD);
    }
    const dashboard = await t.api('GET', '/v1/auth/tokens', { token: t.dashboardToken });
    expect(dashboard.status).toBe(503);

    await cluster.start();
    let answer = await t.api('GET', `/v1/reviews/${first.review_id}`);
    for (const until = Date.now() + 20_000; answer.status !== 200 && Date.now() < until; ) {
      await sleep(100);
      answer = await t.api('GET', `/v1/reviews/${first.review_id}`);
    }
    expect(answer.status).toBe(200);
    const done = await client.waitForReview(acknowledged.review_id, { timeoutMs: 40_000, pollIntervalMs: 50 });
    expect(done.status, `${JSON.stringify(done.error)}\n${t.logs.join('')}`).toBe('completed');
    const after = await client.createReview(body(DEBUGGER_DIFF));
    expect(
      (await client.waitForReview(after.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).comments,
    ).toHaveLength(1);
    // what went wrong was logged without the connection string's secrets, and nothing as a 500
    expect(t.logs.filter((line) => /"statusCode":500/.test(line))).toEqual([]);
    expect(t.logs.join('')).toContain('the database listener lost its connection'); // the logs were read
    expect(t.logs.join('')).not.toContain(PASSWORD);
  }, 90_000);

  it('frozen (SIGSTOP): requests end 503 at the query bound instead of hanging, then recover', async () => {
    await t?.close();
    t = await startTestService({
      databaseUrl: withPassword(await cluster.createDatabase()),
      dashboardToken: `frozen-dashboard-${'x'.repeat(20)}`,
      databaseQueryTimeoutMs: 1500,
    });
    const client = t.client();
    const first = await client.createReview(body(DEBUGGER_DIFF));
    await client.waitForReview(first.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
    await cluster.freeze();
    try {
      for (const [method, path, payload] of [
        ['GET', '/v1/reviews'],
        ['POST', '/v1/reviews', body(DEBUGGER_DIFF)],
      ] as const) {
        const response = await t.api(method, path, payload === undefined ? {} : { body: payload });
        const text = await response.text();
        expect(response.status, `${method} ${path}: ${text}`).toBe(503);
        expect(JSON.parse(text)).toMatchObject({ error: 'service_unavailable' });
        expect(text).not.toContain(PASSWORD);
      }
    } finally {
      await cluster.thaw();
    }
    let status = 0;
    for (const until = Date.now() + 20_000; status !== 200 && Date.now() < until; await sleep(100))
      status = (await t.api('GET', '/v1/reviews')).status;
    expect(status).toBe(200);
    const after = await client.createReview(body(DEBUGGER_DIFF));
    expect((await client.waitForReview(after.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).status).toBe(
      'completed',
    );
    expect(t.logs.join('')).not.toContain(PASSWORD);
  }, 90_000);

  // The cause of a review failed by a restart under load (issue 21): the review's end met a
  // database still starting ("not yet accepting connections"), and the error path then recorded
  // internal_error on the next connection. Made certain here without a race: the test holds the
  // review's row, so the end's write waits; that connection is cut, then the row let go.
  it('a connection cut while the end of a review is written: the review runs again and completes, not failed', async () => {
    await t?.close();
    const databaseUrl = await cluster.createDatabase();
    t = await startTestService({
      databaseUrl,
      dashboardToken: `cut-dashboard-${'x'.repeat(20)}`,
      workerFile,
      concurrency: 1,
    });
    const client = t.client();
    const review = await client.createReview(body('SLEEP 500\n'));
    await expect
      .poll(async () => (await client.getReview(review.review_id)).status, { timeout: 20_000 })
      .toBe('running');
    const [admin, watcher] = [
      new pg.Client({ connectionString: databaseUrl }),
      new pg.Client({ connectionString: databaseUrl }),
    ];
    await Promise.all([admin.connect(), watcher.connect()]);
    try {
      await admin.query('BEGIN');
      await admin.query('SELECT 1 FROM reviews WHERE review_id = $1 FOR UPDATE', [review.review_id]);
      // (from outside the transaction: pg_stat_activity is a snapshot per transaction)
      const waiting = async () =>
        (
          await watcher.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE reviews SET status = ''completed''%'`,
          )
        ).rows.map((row) => row.pid);
      await expect.poll(waiting, { timeout: 20_000, message: "the end's write waiting for the row" }).toHaveLength(1);
      const [pid] = await waiting();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.query('ROLLBACK');
      await Promise.all([admin.end(), watcher.end()]);
    }
    const done = await client.waitForReview(review.review_id, { timeoutMs: 40_000, pollIntervalMs: 50 });
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(t.logs.join('')).toContain('the database was out of reach during a review; it will run again');
  }, 90_000);
});
