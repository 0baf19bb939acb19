// `diff-review serve --database-url`: as a user starts it, in child processes. Two instances on
// one database serve the same data; a wrong URL is one clear line and exit code 1.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
