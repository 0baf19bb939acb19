// `diff-review token create | rotate-dashboard`. Imported only when one of them runs (it loads the
// store, or the client when a service owns the data dir).
import { readFile } from 'node:fs/promises';
import { Compile } from 'typebox/compile';
import { LIMITS } from '../api/limits.ts';
import { CreateTokenBody, type ReviewScope } from '../api/schemas.ts';
import {
  dashboardTokenFile,
  LOCAL_OWNER,
  rotateDashboardToken,
  rotateSharedDashboardToken,
} from '../auth/dashboard-token.ts';
import { TokenService } from '../auth/tokens.ts';
import { createClient } from '../client/index.ts';
import { systemClock } from '../clock.ts';
import { acquireDataDirLock, liveLockOwner } from '../store/data-dir-lock.ts';
import { LowdbStore } from '../store/lowdb-store.ts';
import type { TokenStore } from '../store/types.ts';

export async function createToken(flags: {
  name: string;
  scopes: ReviewScope[];
  expiresInDays: number | null;
  dataDir: string;
  databaseUrl?: string;
}) {
  // The API's own rule for a name: the offline path (no service running) refuses what the API refuses.
  if (!Compile(CreateTokenBody.properties.name).Check(flags.name)) {
    process.stderr.write(
      `error: option '--name <name>' must be 1–${LIMITS.tokenNameChars} characters with at least one visible one, and no control, format or line-separator characters.\n`,
    );
    process.exit(1);
  }
  const body = { name: flags.name, scopes: flags.scopes, expires_in_days: flags.expiresInDays };
  const running = flags.databaseUrl ? undefined : liveLockOwner(flags.dataDir);
  let created: Awaited<ReturnType<TokenService['createReviewToken']>>;
  if (flags.databaseUrl) {
    // The database is shared by the instances while they run: write to it directly.
    created = await withDatabase(flags.databaseUrl, (store) =>
      new TokenService(store, systemClock).createReviewToken(LOCAL_OWNER, body),
    );
  } else if (running?.url) {
    // The service owns the store while it runs: go through its API with the dashboard token.
    const dashboard =
      process.env.DIFF_REVIEW_DASHBOARD_TOKEN || (await readFile(dashboardTokenFile(flags.dataDir), 'utf8')).trim();
    created = await createClient({ baseUrl: running.url, token: dashboard }).createToken(body);
  } else {
    created = await withStore(flags.dataDir, (store) =>
      new TokenService(store, systemClock).createReviewToken(LOCAL_OWNER, body),
    );
  }
  process.stderr.write(
    `Created review token ${created.id} "${created.name}" (${created.scopes.join(', ')}; expires ${created.expires_at ?? 'never'}).\nThe secret is shown this once:\n`,
  );
  process.stdout.write(`${created.token}\n`);
}

export async function rotateDashboard(flags: { dataDir: string; databaseUrl?: string }) {
  if (flags.databaseUrl) {
    const secret = await withDatabase(flags.databaseUrl, (store) => rotateSharedDashboardToken(store, systemClock));
    process.stderr.write(
      'The dashboard token shared by the instances has a new secret; the old one no longer works. It is shown this once.\n' +
        'Set DIFF_REVIEW_DASHBOARD_TOKEN to it for every instance: one that starts with the old value puts the old one back.\n',
    );
    process.stdout.write(`${secret}\n`);
    return;
  }
  const file = await withStore(flags.dataDir, (store) => rotateDashboardToken(store, flags.dataDir, systemClock));
  process.stderr.write(`The dashboard token has a new secret, in ${file}. The old one no longer works.\n`);
}

/** Opens a PostgreSQL store (migrating it if needed) for one operation. Loaded only when asked for. */
async function withDatabase<T>(url: string, work: (store: TokenStore) => Promise<T>): Promise<T> {
  const { PostgresStore } = await import('../store/postgres/postgres-store.ts');
  const store = await PostgresStore.open(url, { poolSize: 1 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Opens the store of a data dir no service is using, for one operation. */
async function withStore<T>(dataDir: string, work: (store: LowdbStore) => Promise<T>): Promise<T> {
  const lock = acquireDataDirLock(dataDir);
  try {
    const store = await LowdbStore.open(dataDir);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } finally {
    lock.release();
  }
}
