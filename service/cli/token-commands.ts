// `diff-review token create | rotate-dashboard`. Imported only when one of them runs (it loads the
// store, or the client when a service owns the data dir).
import { readFile } from 'node:fs/promises';
import type { ReviewScope } from '../api/schemas.ts';
import { dashboardTokenFile, LOCAL_OWNER, rotateDashboardToken } from '../auth/dashboard-token.ts';
import { TokenService } from '../auth/tokens.ts';
import { createClient } from '../client/index.ts';
import { systemClock } from '../clock.ts';
import { acquireDataDirLock, liveLockOwner } from '../store/data-dir-lock.ts';
import { LowdbStore } from '../store/lowdb-store.ts';

export async function createToken(flags: {
  name: string;
  scopes: ReviewScope[];
  expiresInDays: number | null;
  dataDir: string;
}) {
  const body = { name: flags.name, scopes: flags.scopes, expires_in_days: flags.expiresInDays };
  const running = liveLockOwner(flags.dataDir);
  let created;
  if (running?.url) {
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
  process.stdout.write(created.token + '\n');
}

export async function rotateDashboard(flags: { dataDir: string }) {
  const file = await withStore(flags.dataDir, (store) => rotateDashboardToken(store, flags.dataDir, systemClock));
  process.stderr.write(`The dashboard token has a new secret, in ${file}. The old one no longer works.\n`);
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
