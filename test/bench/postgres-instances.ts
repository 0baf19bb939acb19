// Several instances on PostgreSQL against one on lowdb, in the same run: creates per second and
// reviews completed per second (a burst of small diffs, sent over all instances), GETs per second
// of a finished review (autocannon, 100 connections, interleaved rounds), and the time from a
// SIGKILL of one instance until the review it was running has finished elsewhere (reviews of 1 s
// by the controlled test worker, so that one is surely in flight), and the time from a token's
// revocation through one instance until the other refuses it.
// completed/s on one PostgreSQL instance near lowdb's, and at least 5x what pg-boss's default work()
// (polling) manages in the same run with a handler that does nothing, shows that polling is not the
// bound. On a 2-core machine two
// instances share the same cores, so they cannot be faster than one: the figure shows the cost of
// sharing, not the gain of more machines.
// Run: node test/bench/postgres-instances.ts   (JOBS=count, default 400)
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { postgresBin, startPostgres, type PostgresCluster } from '../support/postgres.ts';
import {
  createReview,
  debuggerDiff,
  load,
  ms,
  percentile,
  ratio,
  reviewToken,
  rps,
  runIfMain,
  sleep,
  startChild,
  tempDir,
  waitTerminal,
  type ChildServer,
  type Row,
} from './support/harness.ts';

const JOBS = Number(process.env.JOBS ?? 400);
const SLEEPING_WORKER = fileURLToPath(new URL('../fixtures/workers/controlled-worker.ts', import.meta.url));
const GET_SECONDS = Number(process.env.GET_SECONDS ?? 3);
/** Interleaved GET rounds; the median of their ratios is reported (one noisy round does not decide). */
const GET_ROUNDS = 5;
/** Tokens revoked one after another for the revocation row. */
const REVOCATIONS = 20;
/** Jobs for pg-boss's default work(): one job per fetch, so a few tens show its rate (README.md) without a long wait. */
const DEFAULT_WORK_JOBS = 20;
/** completed/s on one instance must be this many times the default work()'s rate. */
const OVER_POLLING = 5;
const SENDERS = 16;
const DASHBOARD = `bench-dashboard-token-${'x'.repeat(16)}`;
const perSecond = (n: number, msTaken: number) => `${Math.round((n / msTaken) * 1000).toLocaleString('en')}/s`;

interface Burst {
  createsPerSecond: number;
  completedPerSecond: number;
}

/** JOBS creates from SENDERS concurrent senders, round-robin over the instances; then every one awaited. */
async function burst(instances: ChildServer[], token: string): Promise<Burst> {
  const diff = debuggerDiff(20);
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < JOBS) {
        const i = next++;
        ids.push(await createReview(instances[i % instances.length]!.url, token, diff));
      }
    }),
  );
  const created = performance.now();
  for (const [i, id] of ids.entries()) {
    const job = await waitTerminal(instances[i % instances.length]!.url, token, id, 120_000, 10);
    if (job.status !== 'completed') throw new Error(`review ${id} ended ${job.status}`);
  }
  const completed = performance.now();
  return {
    createsPerSecond: (JOBS / (created - started)) * 1000,
    completedPerSecond: (JOBS / (completed - started)) * 1000,
  };
}

async function onLowdb(): Promise<Burst> {
  const data = await tempDir('instances-lowdb');
  const service = await startChild({ mode: 'service', dataDir: data.dir });
  try {
    return await burst([service], await reviewToken(service.url, service.dashboardToken!));
  } finally {
    await service.stop();
    await data.remove();
  }
}

async function instancesOn(
  databaseUrl: string,
  count: number,
  more: { concurrency?: number; workerFile?: string } = {},
): Promise<ChildServer[]> {
  const data = await tempDir('instances-pg');
  const servers: ChildServer[] = [];
  for (let i = 0; i < count; i++) {
    servers.push(
      await startChild({ mode: 'service', dataDir: data.dir, databaseUrl, dashboardToken: DASHBOARD, ...more }),
    );
  }
  await data.remove(); // PostgreSQL mode keeps nothing there
  return servers;
}

async function onPostgres(cluster: PostgresCluster, count: number): Promise<Burst> {
  const servers = await instancesOn(await cluster.createDatabase(), count);
  try {
    return await burst(servers, await reviewToken(servers[0]!.url, DASHBOARD));
  } finally {
    for (const s of servers) await s.stop();
  }
}

/**
 * GETs per second of one finished review with 20 comments: lowdb and PostgreSQL in interleaved
 * rounds; the median round of each and the median of the rounds' ratios.
 */
async function finishedGets(cluster: PostgresCluster): Promise<{ lowdb: number; postgres: number; ratio: number }> {
  const data = await tempDir('instances-get');
  const lowdb = await startChild({ mode: 'service', dataDir: data.dir, logLevel: 'warn' });
  const [postgres] = await instancesOn(await cluster.createDatabase(), 1);
  try {
    const targets = await Promise.all(
      [
        [lowdb, lowdb.dashboardToken!],
        [postgres!, DASHBOARD],
      ].map(async ([server, dashboard]) => {
        const url = (server as ChildServer).url;
        const token = await reviewToken(url, dashboard as string);
        const id = await createReview(url, token, debuggerDiff(20));
        await waitTerminal(url, token, id);
        return { url: `${url}/v1/reviews/${id}`, headers: { authorization: `Bearer ${token}` }, rps: [] as number[] };
      }),
    );
    for (let round = 0; round < GET_ROUNDS; round++) {
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        const run = await load({ url: t.url, headers: t.headers, connections: 100, duration: GET_SECONDS });
        if (run.non2xx + run.errors > 0) throw new Error(`GET: ${run.non2xx} non-2xx, ${run.errors} errors`);
        t.rps.push(run.rps);
      }
    }
    const [onLowdb, onPostgres] = targets.map((t) => t.rps) as [number[], number[]];
    return {
      lowdb: median(onLowdb),
      postgres: median(onPostgres),
      ratio: median(onPostgres.map((n, i) => n / onLowdb[i]!)),
    };
  } finally {
    await lowdb.stop();
    await postgres!.stop();
    await data.remove();
  }
}

const median = (xs: number[]) => percentile(xs, 50);

/** Tokens revoked through instance A, one at a time: how long until instance B answers 401 with each. */
async function revocations(cluster: PostgresCluster): Promise<number[]> {
  const [a, b] = (await instancesOn(await cluster.createDatabase(), 2)) as [ChildServer, ChildServer];
  const dashboard = { authorization: `Bearer ${DASHBOARD}`, 'content-type': 'application/json' };
  const listOnB = (token: string) =>
    fetch(`${b.url}/v1/reviews?limit=1`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  try {
    const times: number[] = [];
    for (let i = 0; i < REVOCATIONS; i++) {
      const made = (await (
        await fetch(`${a.url}/v1/auth/tokens`, { method: 'POST', headers: dashboard, body: '{"name":"revoked"}' })
      ).json()) as { id: string; token: string };
      if ((await listOnB(made.token)) !== 200) throw new Error('a new token was refused by the other instance');
      const revoked = await fetch(`${a.url}/v1/auth/tokens/${made.id}`, {
        method: 'DELETE',
        headers: { authorization: dashboard.authorization }, // no body, so no content-type
      });
      if (revoked.status !== 204) throw new Error(`DELETE answered ${revoked.status}`);
      const at = performance.now();
      for (let n = 0; (await listOnB(made.token)) !== 401; n++)
        if (n > 5_000) throw new Error('the other instance never refused a revoked token');
      times.push(performance.now() - at);
    }
    return times;
  } finally {
    await a.stop();
    await b.stop();
  }
}

/** Jobs per second through pg-boss's own work() with its defaults and a handler that does nothing. */
async function defaultWork(cluster: PostgresCluster): Promise<number> {
  const boss = new PgBoss({ connectionString: await cluster.createDatabase(), schedule: false });
  boss.on('error', (error) => console.error(error.message));
  await boss.start();
  try {
    await boss.createQueue('bench');
    await boss.insert(
      'bench',
      Array.from({ length: DEFAULT_WORK_JOBS }, (_, i) => ({ data: { i } })),
    );
    let done = 0;
    let resolve = () => {};
    const all = new Promise<void>((r) => (resolve = r));
    const started = performance.now();
    await boss.work('bench', async (jobs) => {
      done += jobs.length;
      if (done >= DEFAULT_WORK_JOBS) resolve();
    });
    await all;
    return (DEFAULT_WORK_JOBS / (performance.now() - started)) * 1000;
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}

/** Kills one of two instances while both review; answers how long until its reviews finished elsewhere. */
async function recovery(cluster: PostgresCluster): Promise<{ ms: number; takenOver: number }> {
  const databaseUrl = await cluster.createDatabase();
  // One review at a time each, of 1 s each (the controlled worker): two running means one runs on
  // the instance that is killed.
  const [a, b] = (await instancesOn(databaseUrl, 2, { concurrency: 1, workerFile: SLEEPING_WORKER })) as [
    ChildServer,
    ChildServer,
  ];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const token = await reviewToken(a.url, DASHBOARD);
    const diff = 'SLEEP 1000\n';
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await createReview(i % 2 ? b.url : a.url, token, diff));
    const running = async () =>
      Number((await db.query("SELECT count(*) AS n FROM reviews WHERE status = 'running'")).rows[0].n);
    for (let n = 0; n < 500 && (await running()) < 2; n++) await sleep(10);
    await b.kill();
    const killedAt = Date.now();
    for (const id of ids) await waitTerminal(a.url, token, id, 120_000, 50);
    const { rows } = await db.query<{ done: Date }>(
      'SELECT completed_at AS done FROM reviews WHERE attempts > 1 AND completed_at IS NOT NULL',
    );
    const last = Math.max(...rows.map((r) => r.done.getTime()));
    return { ms: rows.length === 0 ? Number.NaN : last - killedAt, takenOver: rows.length };
  } finally {
    await db.end();
    await a.stop();
  }
}

export async function postgresInstances(): Promise<Row[]> {
  if (!postgresBin())
    return [{ benchmark: 'several instances', figure: 'skipped', value: 'no PostgreSQL server binaries' }];
  const cluster = await startPostgres();
  try {
    const revoked = await revocations(cluster); // first: the quickest, and the one most easily disturbed
    const polling = await defaultWork(cluster);
    const lowdb = await onLowdb();
    const one = await onPostgres(cluster, 1);
    const two = await onPostgres(cluster, 2);
    const rows: Row[] = [];
    rows.push({
      benchmark: `${DEFAULT_WORK_JOBS} jobs through pg-boss's default work() (polling), a handler that does nothing`,
      figure: 'completed/s',
      value: perSecond(polling, 1000),
    });
    for (const [name, run] of [
      ['PostgreSQL, 1 instance', one],
      ['PostgreSQL, 2 instances', two],
    ] as const) {
      rows.push(
        {
          benchmark: `${JOBS} small reviews, ${name}`,
          figure: 'creates/s',
          value: perSecond(run.createsPerSecond, 1000),
          baseline: `lowdb ${perSecond(lowdb.createsPerSecond, 1000)}`,
          ratio: ratio(run.createsPerSecond, lowdb.createsPerSecond),
        },
        {
          benchmark: `${JOBS} small reviews, ${name}`,
          figure: 'completed/s',
          value: perSecond(run.completedPerSecond, 1000),
          baseline: `lowdb ${perSecond(lowdb.completedPerSecond, 1000)}`,
          ratio: ratio(run.completedPerSecond, lowdb.completedPerSecond),
          target: name.includes('1 instance') ? `>= 0.5x, and >= ${OVER_POLLING}x pg-boss's work()` : undefined,
          pass: name.includes('1 instance')
            ? run.completedPerSecond >= 0.5 * lowdb.completedPerSecond &&
              run.completedPerSecond >= OVER_POLLING * polling
            : undefined,
        },
      );
    }
    const gets = await finishedGets(cluster);
    rows.push({
      benchmark: `GET of a finished review (20 comments), 100 conn, PostgreSQL, median of ${GET_ROUNDS} rounds`,
      figure: 'requests/s',
      value: rps(gets.postgres),
      baseline: `lowdb ${rps(gets.lowdb)}`,
      ratio: `${gets.ratio.toFixed(2)}x`,
      target: '>= 0.8x',
      pass: gets.ratio >= 0.8,
    });
    rows.push({
      benchmark: `${REVOCATIONS} tokens revoked through instance A, each used on B`,
      figure: 'until B answers 401: p50 / max',
      value: `${ms(percentile(revoked, 50))} / ${ms(Math.max(...revoked))}`,
      target: '<= 1 s',
      pass: Math.max(...revoked) <= 1000,
    });
    const recovered = await recovery(cluster);
    rows.push({
      benchmark: 'SIGKILL of 1 of 2 instances, each running a 1 s review',
      figure: `its reviews finished elsewhere (${recovered.takenOver} taken over)`,
      value: Number.isNaN(recovered.ms) ? 'none was in flight' : ms(recovered.ms),
      target: '<= 30 s',
      pass: Number.isNaN(recovered.ms) ? undefined : recovered.ms <= 30_000,
    });
    return rows;
  } finally {
    await cluster.destroy();
  }
}

await runIfMain(import.meta, 'Several instances on PostgreSQL', postgresInstances);
