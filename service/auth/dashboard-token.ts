// The dashboard token of the local deployment. On first start the service mints one, keeps only
// its hash, and writes the secret to <data dir>/dashboard-token (mode 0600) for the local clients;
// DIFF_REVIEW_DASHBOARD_TOKEN sets it explicitly instead.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { DASHBOARD_TOKEN_FILE } from '../store/data-dir-survey.ts';
import { atomicWrite } from '../store/review-files.ts';
import type { StoredToken, TokenStore } from '../store/types.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, mintSecret, secretPrefix } from './secret.ts';
import { DASHBOARD_SCOPES } from './tokens.ts';

export { DASHBOARD_TOKEN_FILE };
export const LOCAL_OWNER = 'local';
const EXPLICIT_TOKEN = /^[\x21-\x7e]{32,}$/;

export class InvalidDashboardTokenError extends Error {
  constructor() {
    super('DIFF_REVIEW_DASHBOARD_TOKEN must be at least 32 printable characters without spaces.');
    this.name = 'InvalidDashboardTokenError';
  }
}

export interface DashboardTokenState {
  /** The file holding the secret; absent when the token was set explicitly. */
  file?: string;
  /** True when this call minted a new secret. */
  created: boolean;
}

export const dashboardTokenFile = (dataDir: string) => path.join(dataDir, DASHBOARD_TOKEN_FILE);

/** Makes sure the store has the dashboard token, and the file holds its secret. */
export async function ensureDashboardToken(
  store: TokenStore,
  dataDir: string,
  clock: Clock,
  explicit?: string,
): Promise<DashboardTokenState> {
  const file = dashboardTokenFile(dataDir);
  const current = await findDashboardToken(store);
  if (explicit !== undefined) {
    if (!EXPLICIT_TOKEN.test(explicit)) throw new InvalidDashboardTokenError();
    if (current?.hash !== hashSecret(explicit)) await saveDashboardSecret(store, clock, explicit, current);
    await rm(file, { force: true }); // a stale file would hand clients a token that no longer works
    return { created: false };
  }
  const onDisk = await readFile(file, 'utf8').then(
    (s) => s.trim(),
    () => undefined,
  );
  if (current && onDisk && hashSecret(onDisk) === current.hash) return { file, created: false };
  await rotateDashboardToken(store, dataDir, clock);
  return { file, created: true };
}

export class DashboardTokenRequiredError extends Error {
  constructor() {
    super(
      'In PostgreSQL mode the dashboard token is not generated into a local file: set DIFF_REVIEW_DASHBOARD_TOKEN ' +
        '(the same value for every instance, 32 or more printable characters).',
    );
    this.name = 'DashboardTokenRequiredError';
  }
}

/**
 * The dashboard token where nothing is kept on local disk (PostgreSQL mode, several instances):
 * the explicit secret is the one every instance shares; without one, a token already in the
 * store (set by another instance) serves, and otherwise the start is refused.
 */
export async function ensureSharedDashboardToken(
  store: TokenStore,
  clock: Clock,
  explicit?: string,
): Promise<DashboardTokenState> {
  const current = await findDashboardToken(store);
  if (explicit === undefined) {
    if (current) return { created: false };
    throw new DashboardTokenRequiredError();
  }
  if (!EXPLICIT_TOKEN.test(explicit)) throw new InvalidDashboardTokenError();
  if (current?.hash === hashSecret(explicit)) return { created: false };
  try {
    await saveDashboardSecret(store, clock, explicit, current);
  } catch (error) {
    // Instances starting together with the same secret: one saves it, the others find it saved.
    if ((await findDashboardToken(store))?.hash !== hashSecret(explicit)) throw error;
  }
  return { created: false };
}

/** A new secret for the dashboard token; the old one stops working at once. */
export async function rotateDashboardToken(store: TokenStore, dataDir: string, clock: Clock): Promise<string> {
  const secret = mintSecret();
  const file = dashboardTokenFile(dataDir);
  // File first: if the store write then fails, the old secret still works and the next start retries.
  await atomicWrite(file, `${secret}\n`, 0o600);
  await saveDashboardSecret(store, clock, secret, await findDashboardToken(store));
  return file;
}

/**
 * A new secret for the dashboard token shared by the instances of one database: stored as a hash
 * and answered (shown once), never written to disk.
 */
export async function rotateSharedDashboardToken(store: TokenStore, clock: Clock): Promise<string> {
  const secret = mintSecret();
  await saveDashboardSecret(store, clock, secret, await findDashboardToken(store));
  return secret;
}

async function findDashboardToken(store: TokenStore): Promise<StoredToken | undefined> {
  return (await store.listTokens(LOCAL_OWNER, 'dashboard'))[0];
}

async function saveDashboardSecret(store: TokenStore, clock: Clock, secret: string, current?: StoredToken) {
  const now = new Date(clock.now()).toISOString();
  if (current) {
    await store.updateToken(current.id, { hash: hashSecret(secret), prefix: secretPrefix(secret), created_at: now });
    return;
  }
  await store.insertToken({
    id: `tok_${ulid(clock.now())}`,
    owner: LOCAL_OWNER,
    type: 'dashboard',
    name: 'Dashboard',
    scopes: [...DASHBOARD_SCOPES],
    prefix: secretPrefix(secret),
    hash: hashSecret(secret),
    created_at: now,
    expires_at: null,
    last_used_at: null,
  });
}
