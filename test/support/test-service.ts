// A real service for tests: a real HTTP server on a loopback port, a real lowdb file in a temp
// folder (or, in the api-on-postgres test project, a fresh database of a throwaway PostgreSQL
// cluster), real worker threads. Every response seen through `api()` or a client is checked
// against the OpenAPI document.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { createService, type Service, type ServiceOptions } from '../../service/service.ts';
import { createClient, type DiffReviewClient } from '../../service/client/index.ts';
import type { ClientOptions } from '../../service/client/options.ts';
import type { StoredReview } from '../../service/store/types.ts';
import { OpenApiContract } from './openapi-contract.ts';
import { createDatabase } from './postgres.ts';

/** Where the test services keep their data: set by the test project (vitest.config.ts). */
export const TEST_STORAGE: 'lowdb' | 'postgres' =
  process.env.DIFF_REVIEW_TEST_STORE === 'postgres' ? 'postgres' : 'lowdb';

/** One contract per test file, shared by its services (the document is the same). */
let contract: OpenApiContract | undefined;

export interface TestService {
  service: Service;
  url: string;
  dataDir: string;
  /** The database of a service in PostgreSQL mode. */
  databaseUrl?: string;
  dashboardToken: string;
  /** A review API token with both scopes. */
  reviewToken: string;
  contract: OpenApiContract;
  /** Every log line the service wrote, to search for things that must never be logged. */
  logs: string[];
  client(token?: string, options?: Partial<ClientOptions>): DiffReviewClient;
  /** A raw request, checked against the contract. */
  api(
    method: string,
    path: string,
    init?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Stops the service; keeps the data dir unless `remove`. */
  stop(): Promise<void>;
  /** Starts a new service on the same data dir. */
  restart(options?: ServiceOptions): Promise<TestService>;
  close(): Promise<void>;
}

export async function startTestService(options: ServiceOptions = {}, dataDir?: string): Promise<TestService> {
  dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'diff-review-test-'));
  if (TEST_STORAGE === 'postgres' && options.databaseUrl === undefined) {
    // Kept in `options`, so that restart() comes back to the same database.
    options = {
      ...options,
      databaseUrl: await createDatabase(inject('postgresAdminUrl')),
      dashboardToken: options.dashboardToken ?? `test-dashboard-${randomBytes(16).toString('hex')}`,
    };
  }
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const service = await createService({ dataDir, logLevel: 'info', logStream, ...options });
  const dashboardToken = options.dashboardToken ?? (await readFile(service.dashboardTokenFile!, 'utf8')).trim();
  contract ??= new OpenApiContract(await (await fetch(`${service.url}/v1/openapi.json`)).json());
  const checkedFetch = contract.fetch();
  const client = (token?: string, extra: Partial<ClientOptions> = {}) =>
    createClient({ baseUrl: service.url, token, fetch: checkedFetch, retry: 0, ...extra });
  const reviewToken = (await client(dashboardToken).createToken({ name: 'test' })).token;
  let stopped = false;
  const self: TestService = {
    service,
    url: service.url,
    dataDir,
    databaseUrl: options.databaseUrl,
    dashboardToken,
    reviewToken,
    contract,
    logs,
    client: (token = reviewToken, extra) => client(token, extra),
    api: (method, route, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      const token = init.token === undefined ? reviewToken : init.token;
      if (token !== null) headers.authorization ??= `Bearer ${token}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      return checkedFetch(`${service.url}${route}`, { method, headers, body });
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await service.close();
    },
    restart: async (more = {}) => {
      await self.stop();
      return startTestService({ ...options, ...more }, dataDir);
    },
    close: async () => {
      await self.stop();
      await rm(dataDir!, { recursive: true, force: true });
    },
  };
  return self;
}

/**
 * Ends a test file's service and checks what every file should leave behind: the service still
 * answers, no request ended in a 500 or an unexpected job failure (pino: 50 = error, 60 = fatal),
 * no log line holds the database password, and no response strayed from the OpenAPI document.
 */
export async function closeHealthy(t: TestService | undefined): Promise<void> {
  if (!t) return;
  const health = await t.api('GET', '/healthz', { token: null });
  expect(health.status).toBe(200);
  expect(t.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  const password = t.databaseUrl && new URL(t.databaseUrl).password;
  if (password) expect(t.logs.join('')).not.toContain(password);
  await t.close();
  expect(t.contract.violations).toEqual([]);
}

/**
 * Changes a stored review behind the service's back (the service is stopped): in store.json, or
 * in the database in PostgreSQL mode.
 */
export async function editStoredReview(t: TestService, id: string, patch: Pick<StoredReview, 'owner'>): Promise<void> {
  if (t.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    await client
      .query('UPDATE reviews SET owner = $2 WHERE review_id = $1', [id, patch.owner])
      .finally(() => client.end());
    return;
  }
  const file = path.join(t.dataDir, 'store.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as { reviews: StoredReview[] };
  Object.assign(doc.reviews.find((r) => r.review_id === id)!, patch);
  await writeFile(file, JSON.stringify(doc));
}

/** Where the service keeps its data, as text: each file of the data dir, or each table's rows in PostgreSQL mode. */
export async function storedTexts(t: TestService): Promise<{ where: string; text: string }[]> {
  if (t.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      const { rows: tables } = await client.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
      );
      const texts: { where: string; text: string }[] = [];
      // one query at a time: a client does not run them side by side (node-postgres warns, pg@9 refuses)
      for (const { tablename } of tables) {
        const { rows } = await client.query(`SELECT * FROM ${pg.escapeIdentifier(tablename)}`);
        texts.push({ where: tablename, text: JSON.stringify(rows) });
      }
      return texts;
    } finally {
      await client.end();
    }
  }
  const texts: { where: string; text: string }[] = [];
  for (const entry of await readdir(t.dataDir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) texts.push({ where: file, text: await readFile(file, 'utf8') });
  }
  return texts;
}

/** The reviews as stored (the service may be stopped): store.json's, or the reviews table's. */
export async function storedReviews(t: TestService): Promise<StoredReview[]> {
  if (t.databaseUrl !== undefined) {
    const texts = await storedTexts(t);
    return JSON.parse(texts.find((x) => x.where === 'reviews')!.text) as StoredReview[];
  }
  return (JSON.parse(await readFile(path.join(t.dataDir, 'store.json'), 'utf8')) as { reviews: StoredReview[] })
    .reviews;
}

/**
 * The reviews whose bulky parts (diff, findings) are stored: the files in <data dir>/results and
 * the rows of review_diffs and review_findings; each review id once per part.
 */
export async function storedReviewParts(t: TestService): Promise<string[]> {
  if (t.databaseUrl !== undefined) {
    const texts = await storedTexts(t);
    return ['review_diffs', 'review_findings'].flatMap((table) =>
      (JSON.parse(texts.find((x) => x.where === table)!.text) as { review_id: string }[]).map((r) => r.review_id),
    );
  }
  const dirs = ['diffs', 'results'].map((dir) => path.join(t.dataDir, dir));
  const names = await Promise.all(dirs.map((dir) => readdir(dir).catch(() => [] as string[])));
  return names.flat().map((name) => name.replace(/\.[a-z.]+$/, ''));
}

/** The tokens as stored (with their hashes), from store.json or the database. */
export async function storedTokens(t: TestService): Promise<{ id: string; type: string; hash: string }[]> {
  const texts = await storedTexts(t);
  const stored = texts.find((x) => x.where === 'tokens' || path.basename(x.where) === 'store.json')!;
  const parsed = JSON.parse(stored.text) as
    | { tokens: { id: string; type: string; hash: string }[] }
    | { id: string; type: string; hash: string }[];
  return Array.isArray(parsed) ? parsed : parsed.tokens;
}

/** A small real-looking git diff that adds a debugger statement on new-file line 3. */
export const DEBUGGER_DIFF = [
  'diff --git a/src/app.js b/src/app.js',
  'index 3b18e51..a9c2f4e 100644',
  '--- a/src/app.js',
  '+++ b/src/app.js',
  '@@ -1,3 +1,4 @@',
  ' function main() {',
  '   const x = 1;',
  '+  debugger;',
  '   return x;',
  '',
].join('\n');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
