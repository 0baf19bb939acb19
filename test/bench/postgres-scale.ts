// PostgreSQL mode against lowdb, in the same run: submit → completed latency (p50/p99) of a small
// diff sent at a steady rate, and the cost of a create as data grows: create p50 with 1,000,000
// stored reviews (seeded with SQL) against 1,000.
// Run: node test/bench/postgres-scale.ts   (RATE=creates/s, default 20; SECONDS, default 10)
import pg from 'pg';
import { postgresBin, startPostgres, type PostgresCluster } from '../support/postgres.ts';
import {
  createReview,
  debuggerDiff,
  ms,
  percentile,
  ratio,
  reviewToken,
  runIfMain,
  sleep,
  startChild,
  tempDir,
  waitTerminal,
  type ChildServer,
  type Row,
} from './support/harness.ts';

const RATE = Number(process.env.RATE ?? 20);
const SECONDS = Number(process.env.SECONDS ?? 10);
const DASHBOARD = `bench-dashboard-token-${'x'.repeat(16)}`;

/** Creates at a steady rate; each one's time from the POST to its completion (polled every 5 ms). */
async function latencies(server: ChildServer, token: string): Promise<number[]> {
  const diff = debuggerDiff(5);
  const times: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = start + (i * 1000) / RATE;
    await sleep(Math.max(0, due - performance.now()));
    times.push(
      (async () => {
        const sent = performance.now();
        const id = await createReview(server.url, token, diff);
        const job = await waitTerminal(server.url, token, id, 60_000, 5);
        if (job.status !== 'completed') throw new Error(`review ${id} ended ${job.status}`);
        return performance.now() - sent;
      })(),
    );
  }
  return Promise.all(times);
}

/** p50 of `count` sequential creates. */
async function createP50(server: ChildServer, token: string, count = 200): Promise<number> {
  const diff = debuggerDiff(5);
  const took: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    await createReview(server.url, token, diff);
    took.push(performance.now() - sent);
  }
  return percentile(took, 50);
}

async function postgresService(cluster: PostgresCluster) {
  const databaseUrl = await cluster.createDatabase();
  const data = await tempDir('pg-scale');
  const server = await startChild({ mode: 'service', dataDir: data.dir, databaseUrl, dashboardToken: DASHBOARD });
  await data.remove();
  return { server, databaseUrl, token: await reviewToken(server.url, DASHBOARD) };
}

/**
 * Finished reviews straight into the tables, `count` of them, owned by someone else. Triggers are
 * off while seeding (session_replication_role = replica): otherwise each row would NOTIFY the
 * running instance, a million messages it would read while it is measured.
 */
async function seed(databaseUrl: string, count: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query('SET LOCAL session_replication_role = replica');
    await db.query(
      `INSERT INTO reviews (review_id, owner, status, repository, created_at, updated_at, started_at, completed_at, attempts)
       SELECT 'rev_seed' || lpad(i::text, 20, '0'), 'seed-owner', 'completed', 'github.com/bench/seed', now(), now(), now(), now(), 1
       FROM generate_series(1, $1) AS i`,
      [count],
    );
    await db.query(
      `INSERT INTO review_findings (review_id, findings) SELECT review_id, '[]' FROM reviews WHERE owner = 'seed-owner'`,
    );
    await db.query('COMMIT');
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
}

export async function postgresScale(): Promise<Row[]> {
  if (!postgresBin())
    return [{ benchmark: 'PostgreSQL scale', figure: 'skipped', value: 'no PostgreSQL server binaries' }];
  const cluster = await startPostgres();
  const rows: Row[] = [];
  try {
    const data = await tempDir('pg-scale-lowdb');
    const lowdb = await startChild({ mode: 'service', dataDir: data.dir });
    let onLowdb: number[];
    try {
      onLowdb = await latencies(lowdb, await reviewToken(lowdb.url, lowdb.dashboardToken!));
    } finally {
      await lowdb.stop();
      await data.remove();
    }
    const pgService = await postgresService(cluster);
    let onPostgres: number[];
    try {
      onPostgres = await latencies(pgService.server, pgService.token);
    } finally {
      await pgService.server.stop();
    }
    for (const p of [50, 99]) {
      rows.push({
        benchmark: `submit → completed, small diff, ${RATE}/s for ${SECONDS} s`,
        figure: `PostgreSQL p${p}`,
        value: ms(percentile(onPostgres, p)),
        baseline: `lowdb ${ms(percentile(onLowdb, p))}`,
        ratio: ratio(percentile(onPostgres, p), percentile(onLowdb, p)),
      });
    }

    const sizes: [number, number][] = [];
    for (const stored of [1_000, 1_000_000]) {
      const s = await postgresService(cluster);
      try {
        await seed(s.databaseUrl, stored);
        await createP50(s.server, s.token, 50); // warm up
        sizes.push([stored, await createP50(s.server, s.token)]);
      } finally {
        await s.server.stop();
      }
    }
    const [[, small], [, large]] = sizes as [[number, number], [number, number]];
    rows.push({
      benchmark: 'create p50 on PostgreSQL as data grows',
      figure: '1,000,000 stored reviews',
      value: ms(large),
      baseline: `1,000: ${ms(small)}`,
      ratio: ratio(large, small),
      target: '<= 1.5x',
      pass: large <= 1.5 * small,
    });
    return rows;
  } finally {
    await cluster.destroy();
  }
}

await runIfMain(import.meta, 'PostgreSQL: latency and scale', postgresScale);
