// `diff-review serve --database-url`: as a user starts it, in child processes. Two instances on
// one database serve the same data; a wrong URL is one clear line and exit code 1.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../service/client/index.ts';
import { CLI, exited } from '../../support/cli-process.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { killInstances, serveOn } from '../../support/postgres-serve.ts';
import { DEBUGGER_DIFF, sleep } from '../../support/test-service.ts';

const run = promisify(execFile);
const DASHBOARD = `shared-dashboard-token-${'x'.repeat(20)}`;
const env = { DIFF_REVIEW_DASHBOARD_TOKEN: DASHBOARD };
const dirs: string[] = [];

describe.skipIf(!postgresAvailable())('serve --database-url', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.destroy());
  afterEach(async () => {
    killInstances();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const emptyDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-pg-serve-'));
    dirs.push(dir);
    return dir;
  };

  it('two instances started together on one database serve the same reviews and tokens; nothing goes to local disk', async () => {
    const url = await cluster.createDatabase();
    const dirA = await emptyDir();
    const dirB = await emptyDir();
    // one data dir for both would be refused by lowdb's lock: PostgreSQL mode takes none
    const [a, b] = await Promise.all([serveOn(url, dirA, env), serveOn(url, dirB, env)]);
    const reviewToken = (
      await createClient({ baseUrl: a.url, token: DASHBOARD, retry: 0 }).createToken({ name: 'shared' })
    ).token;
    const onA = createClient({ baseUrl: a.url, token: reviewToken, retry: 0 });
    const onB = createClient({ baseUrl: b.url, token: reviewToken, retry: 0 });
    const created = await onA.createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' });
    // polled on B: any instance answers for any review
    let done = await onB.getReview(created.review_id);
    for (let i = 0; i < 400 && done.status !== 'completed'; i++) {
      await sleep(50);
      done = await onB.getReview(created.review_id);
    }
    expect(done.status).toBe('completed');
    expect(done.comments).toEqual([
      expect.objectContaining({ file_path: 'src/app.js', line: 3, message: expect.stringMatching(/^no-debugger: /) }),
    ]);
    expect((await onB.listReviews()).reviews.map((r) => r.review_id)).toContain(created.review_id);
    for (const s of [a, b]) {
      s.child.kill('SIGTERM');
      expect(await exited(s.child)).toBe(0);
      expect(s.output()).not.toContain(DASHBOARD);
      expect(s.output()).not.toContain(reviewToken);
    }
    expect(await readdir(dirA)).toEqual([]);
    expect(await readdir(dirB)).toEqual([]);
  });

  it('--database-pool-size bounds the connections: 50 requests at once use at most 2, pg-boss 3, the listener 1', async () => {
    const databaseUrl = await cluster.createDatabase();
    const s = await serveOn(databaseUrl, await emptyDir(), env, ['--database-pool-size', '2']);
    const dashboard = createClient({ baseUrl: s.url, token: DASHBOARD, retry: 0 });
    const client = createClient({
      baseUrl: s.url,
      token: (await dashboard.createToken({ name: 'x' })).token,
      retry: 0,
    });
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    const most = new Map<string, number>();
    let busy = true;
    const watching = (async () => {
      while (busy) {
        const { rows } = await watcher.query<{ name: string; n: number }>(
          'SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1',
        );
        for (const { name, n } of rows) most.set(name, Math.max(most.get(name) ?? 0, n));
      }
    })();
    try {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 5 === 0
            ? client.createReview({ diff: DEBUGGER_DIFF, repository: 'github.com/acme/app' })
            : client.listReviews(),
        ),
      );
    } finally {
      busy = false;
      await watching;
      await watcher.end();
    }
    expect(most.get('diff-review')).toBeGreaterThanOrEqual(1);
    expect(most.get('diff-review')).toBeLessThanOrEqual(2);
    expect(most.get('diff-review pg-boss')).toBeLessThanOrEqual(3);
    expect(most.get('diff-review listener')).toBe(1);
  });

  it('a database that cannot be reached: one line naming host, port and database, never the password; exit code 1', async () => {
    const bad = `postgres://review:pw-s3cr3t@127.0.0.1:1/reviews`;
    const error = await run(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', await emptyDir()], {
      env: { ...process.env, DIFF_REVIEW_DATABASE_URL: bad, DIFF_REVIEW_DASHBOARD_TOKEN: DASHBOARD },
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in error && error.code).toBe(1);
    expect(error.stderr).toBe(
      'diff-review: cannot connect to PostgreSQL at 127.0.0.1:1/reviews: nothing listens there (ECONNREFUSED)\n',
    );
    expect(error.stdout + error.stderr).not.toContain('s3cr3t');
  });

  it('without DIFF_REVIEW_DASHBOARD_TOKEN on a new database: refused with what to set, exit code 1', async () => {
    const url = await cluster.createDatabase();
    const error = await run(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--data-dir', await emptyDir(), '--database-url', url],
      {
        env: { ...process.env, DIFF_REVIEW_DASHBOARD_TOKEN: '' },
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect('code' in error && error.code).toBe(1);
    expect(error.stderr).toMatch(/^diff-review: In PostgreSQL mode .*DIFF_REVIEW_DASHBOARD_TOKEN/);
  });
});
