// A review saved whose job pg-boss then refuses to take: the client gets 503 in the error shape
// (never a 500, never a review stuck in `queued` forever), the review it never heard of ends
// failed, and creates work again once the queue takes jobs. The fault is a real one, made in the
// database: a trigger that refuses every new job row.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

const DASHBOARD = `enqueue-failure-dashboard-${'x'.repeat(16)}`;

describe.skipIf(!postgresAvailable())('a job the queue refuses', () => {
  let cluster: PostgresCluster;
  let t: TestService;
  let db: pg.Client;
  beforeAll(async () => {
    cluster = await startPostgres();
    const databaseUrl = await cluster.createDatabase();
    t = await startTestService({ databaseUrl, dashboardToken: DASHBOARD });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    await cluster?.destroy();
  });

  it('answers 503 service_unavailable, ends the saved review failed, and recovers when jobs are taken again', async () => {
    await db.query(`
      CREATE FUNCTION refuse_job() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no jobs today'; END $$;
      CREATE TRIGGER refuse_job BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_job();`);
    const body = { diff: DEBUGGER_DIFF, repository: 'r' };
    const headers = { 'idempotency-key': 'retry-me' };
    const refused = await t.api('POST', '/v1/reviews', { body, headers });
    expect(refused.status).toBe(503);
    const error = (await refused.json()) as { error: string; message: string };
    expect(error.error).toBe('service_unavailable');
    expect(error.message).not.toMatch(/no jobs today|pgboss|trigger/); // no internals
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    // The review was saved before the queue refused it: it is failed, not waiting forever.
    const listed = (await t.client().listReviews()).reviews;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });

    await db.query('DROP TRIGGER refuse_job ON pgboss.job; DROP FUNCTION refuse_job();');
    // The key was released with the failure: its retry makes a new review, not a replay of the failed one.
    const retried = await t.api('POST', '/v1/reviews', { body, headers });
    expect(retried.status).toBe(202);
    const again = (await retried.json()) as { review_id: string };
    expect(again.review_id).not.toBe(listed[0]!.review_id);
    const done = await t.client().waitForReview(again.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
    expect(done.status).toBe('completed');
  });
});
