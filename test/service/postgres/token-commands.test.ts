// `diff-review token create | rotate-dashboard --database-url`: the token commands against the
// database the instances share, run as a user runs them (child processes) while an instance serves.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../service/client/index.ts';
import { createService, type Service } from '../../../service/service.ts';
import { CLI } from '../../support/cli-process.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { DEBUGGER_DIFF } from '../../support/test-service.ts';

const run = promisify(execFile);
const DASHBOARD = `shared-dashboard-token-${'y'.repeat(20)}`;

describe.skipIf(!postgresAvailable())('token commands with --database-url', () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let dataDir: string;
  let service: Service;
  beforeAll(async () => {
    cluster = await startPostgres();
    databaseUrl = await cluster.createDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-pg-tokens-'));
    service = await createService({ port: 0, dataDir, databaseUrl, dashboardToken: DASHBOARD, logLevel: 'silent' });
  });
  afterAll(async () => {
    await service?.close();
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [CLI, 'token', ...args], {
      env: { ...process.env, DIFF_REVIEW_DATA_DIR: dataDir, ...env },
    });

  it('token create writes the token into the database a running instance serves; only the secret on stdout', async () => {
    const { stdout, stderr } = await cli(['create', '--name', 'ci', '--database-url', databaseUrl]);
    const secret = stdout.trim();
    expect(secret).toMatch(/^drv_\S+$/);
    expect(stderr).toMatch(/^Created review token tok_\w+ "ci"/);
    const client = createClient({ baseUrl: service.url, token: secret, retry: 0 });
    expect((await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' })).status).toBe('queued');
    // DIFF_REVIEW_DATABASE_URL works the same as the flag
    const viaEnv = await cli(['create', '--name', 'from-env'], { DIFF_REVIEW_DATABASE_URL: databaseUrl });
    const names = (await createClient({ baseUrl: service.url, token: DASHBOARD, retry: 0 }).listTokens()).tokens.map(
      (t) => t.name,
    );
    expect(names).toEqual(expect.arrayContaining(['ci', 'from-env']));
    expect(viaEnv.stdout.trim()).not.toBe(secret);
    expect(await readdir(dataDir)).toEqual([]); // nothing on local disk
  });

  it('rotate-dashboard: the running instance refuses the old secret at once and takes the new one', async () => {
    const { stdout, stderr } = await cli(['rotate-dashboard', '--database-url', databaseUrl]);
    const secret = stdout.trim();
    expect(secret).toMatch(/^drv_\S+$/);
    expect(stderr).toMatch(/Set DIFF_REVIEW_DASHBOARD_TOKEN to it for every instance/);
    const old = await fetch(`${service.url}/v1/auth/tokens`, { headers: { authorization: `Bearer ${DASHBOARD}` } });
    expect(old.status).toBe(401);
    const fresh = await fetch(`${service.url}/v1/auth/tokens`, { headers: { authorization: `Bearer ${secret}` } });
    expect(fresh.status).toBe(200);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('a database that cannot be reached: one line naming host, port and database, never the password; exit 1', async () => {
    const bad = 'postgres://review:pw-s3cr3t@127.0.0.1:1/reviews';
    for (const args of [['create', '--name', 'x'], ['rotate-dashboard']]) {
      const error = await cli([...args, '--database-url', bad]).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect('code' in error && error.code).toBe(1);
      expect(error.stderr).toBe(
        'diff-review: cannot connect to PostgreSQL at 127.0.0.1:1/reviews: nothing listens there (ECONNREFUSED)\n',
      );
      expect(error.stdout).toBe('');
    }
  });
});
