// Several service instances on one database, in one process (the multi-process test with SIGKILL is
// multi-process.test.ts): what one instance does, the others see and honour.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF, startTestService, type TestService } from '../../support/test-service.ts';

const DASHBOARD = `instances-dashboard-token-${'x'.repeat(16)}`;

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
    for (let i = 0; i < n; i++) {
      services.push(await startTestService({ databaseUrl, dashboardToken: DASHBOARD, ...options }));
    }
    const token = services[0]!.reviewToken;
    return { databaseUrl, token, clients: services.map((s) => s.client(token)) };
  }

  async function countRows(databaseUrl: string, sql: string): Promise<number> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    } finally {
      await client.end();
    }
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
    expect(await countRows(databaseUrl, 'SELECT count(*) AS n FROM reviews')).toBe(10);
    // a different body under a used key is still refused, by the other instance too
    const first = await a.createReview(body, { idempotencyKey: 'mixed' });
    await expect(
      b.createReview({ ...body, repository: 'github.com/acme/other' }, { idempotencyKey: 'mixed' }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await b.createReview(body, { idempotencyKey: 'mixed' })).review_id).toBe(first.review_id);
  });
});
