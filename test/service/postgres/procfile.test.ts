// docs/deploy/Procfile (and the README's "Two instances, step by step", which runs the same
// commands) as written: each `name: command` line run from the project root, on the built CLI,
// with the two variables it asks for and free ports instead of 7411/7412. A review made through
// one instance is read through the other. Needs the build (`npm test` builds first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../service/client/index.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { killInstances, started } from '../../support/postgres-serve.ts';
import { DEBUGGER_DIFF } from '../../support/test-service.ts';

const DASHBOARD = `procfile-dashboard-token-${'x'.repeat(16)}`;

/** The Procfile's processes: `name: command` lines (comments and blank lines aside). */
async function procfile(): Promise<{ name: string; argv: string[] }[]> {
  const text = await readFile('docs/deploy/Procfile', 'utf8');
  return text
    .split('\n')
    .map((line) => /^([\w-]+):\s*(.+)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[1]!, argv: match[2]!.trim().split(/\s+/) }));
}

describe.skipIf(!postgresAvailable())('docs/deploy/Procfile', () => {
  let cluster: PostgresCluster;
  let home: string;
  beforeAll(async () => {
    cluster = await startPostgres();
    home = await mkdtemp(path.join(os.tmpdir(), 'diff-review-procfile-'));
  });
  afterAll(async () => {
    killInstances();
    await cluster?.destroy();
    await rm(home, { recursive: true, force: true });
  });

  it('its commands start instances that share one database', async () => {
    expect(existsSync('dist/service/cli.js'), 'run `npm run build` first').toBe(true);
    const processes = await procfile();
    expect(processes.map((p) => p.name)).toEqual(['review1', 'review2']);
    const databaseUrl = await cluster.createDatabase();
    const instances = await Promise.all(
      processes.map(({ argv }) => {
        expect(argv.slice(0, 3)).toEqual(['node', 'dist/service/cli.js', 'serve']);
        // the same command, on a free port (the listening line says which)
        const args = argv.slice(1).map((arg, i, all) => (all[i - 1] === '--port' ? '0' : arg));
        const child = spawn(process.execPath, args, {
          cwd: process.cwd(),
          env: {
            ...process.env,
            HOME: home, // the default data dir lives there: it must stay empty
            XDG_DATA_HOME: path.join(home, 'data'),
            DIFF_REVIEW_DATABASE_URL: databaseUrl,
            DIFF_REVIEW_DASHBOARD_TOKEN: DASHBOARD,
            DIFF_REVIEW_LOG_LEVEL: 'info',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return started(child);
      }),
    );
    const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const token = (await createClient({ baseUrl: one.url, token: DASHBOARD, retry: 0 }).createToken({ name: 'ci' }))
      .token;
    const made = await createClient({ baseUrl: two.url, token, retry: 0 }).createReview({
      diff: DEBUGGER_DIFF,
      repository: 'github.com/acme/app',
    });
    const done = await createClient({ baseUrl: one.url, token, retry: 0 }).waitForReview(made.review_id, {
      timeoutMs: 20_000,
      pollIntervalMs: 25,
    });
    expect(done.comments).toHaveLength(1);
    expect(await readdir(home)).toEqual([]);
  });
});
