// createService(): the whole service in-process, for the CLI, the two clients and the tests.
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino, type DestinationStream, type Logger } from 'pino';
import { ensureDashboardToken, ensureSharedDashboardToken, type DashboardTokenState } from './auth/dashboard-token.ts';
import { TokenService } from './auth/tokens.ts';
import { systemClock, type Clock } from './clock.ts';
import type { EventStreamLimits } from './http/event-stream-slots.ts';
import type { WindowCounter } from './http/counted-rate-limit-store.ts';
import { hostPolicy } from './http/host-check.ts';
import { buildServer, type RateLimits, type ServerTimeouts } from './http/server.ts';
import { ReviewEvents } from './jobs/review-events.ts';
import type { ReviewJobRunner } from './jobs/job-runner-contract.ts';
import { InProcessRunner } from './jobs/in-process-runner.ts';
import { defaultWorkerFile } from './jobs/worker-file.ts';
import type { EngineConfig } from './engine/types.ts';
import { ReviewService } from './reviews/review-service.ts';
import { acquireDataDirLock } from './store/data-dir-lock.ts';
import type { InMemoryLookups } from './store/in-memory-lookups.ts';
import { LowdbStore } from './store/lowdb-store.ts';
import { redactSecrets } from './log-redaction.ts';
import { DEFAULTS, defaultDataDir } from './defaults.ts';
import { describeDatabase } from './store/postgres/database-url.ts';
import type { Store } from './store/types.ts';
import { VERSION } from './version.ts';

export { DEFAULTS, defaultDataDir } from './defaults.ts';

export interface ServiceOptions {
  /**
   * Host names answered besides the loopback ones (DNS rebinding: bound to a loopback address, only
   * those are answered, 421 otherwise; bound to another address, Host is checked only when this is
   * set). `*`: any name.
   */
  allowedHosts?: string[];
  /** Where the store, diffs and the dashboard-token file live. Default: the OS's data folder (XDG on Linux). Unused with databaseUrl. */
  dataDir?: string;
  /**
   * A postgres:// URL: everything is kept in that database instead of the data dir, and any number
   * of instances may serve it (DIFF_REVIEW_DATABASE_URL). Unset: lowdb in the data dir.
   */
  databaseUrl?: string;
  /** Connections to the database this instance opens at most. Default 10. */
  databasePoolSize?: number;
  /** A database query unanswered this long fails with 503 (a frozen server, a lost network). Default 10 s. */
  databaseQueryTimeoutMs?: number;
  /** Default 127.0.0.1: the service is reachable from this machine only unless told otherwise. */
  host?: string;
  /** Default 0: a free port (the CLI defaults to 7411). */
  port?: number;
  /** Reviews run at once. Default: the number of cores. */
  concurrency?: number;
  /** A review running longer fails with `timeout`. Default 60 s. */
  jobTimeoutMs?: number;
  /** Finished reviews are deleted this long after they finished. Default 30 days. */
  retentionDays?: number;
  /** Waiting jobs beyond which creates answer 429 queue_full. Default 1000. */
  maxQueuedJobs?: number;
  rateLimits?: Partial<RateLimits>;
  timeouts?: Partial<ServerTimeouts>;
  /** Open event streams per token and in total, and their maximum lifetime. */
  eventStreams?: Partial<EventStreamLimits>;
  /** On close, running reviews get this long to finish before they are left queued for the next start. Default 5 s. */
  shutdownGraceMs?: number;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Where log lines go (default stdout). */
  logStream?: DestinationStream;
  /** Sets the dashboard token explicitly (32+ printable characters) instead of the generated file. */
  dashboardToken?: string;
  engine?: EngineConfig;
  clock?: Clock;
  workerFile?: URL | string;
}

export interface Service {
  /** e.g. http://127.0.0.1:7411 */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  /** Where the data is kept: lowdb in the data dir, or a PostgreSQL database. */
  readonly storage: 'lowdb' | 'postgres';
  /** The file with the dashboard token's secret; absent when it was set explicitly. */
  readonly dashboardTokenFile?: string;
  /** The service's logger (JSON lines; secrets redacted), for the process that embeds it. */
  readonly log: Logger;
  /** Stops accepting, lets running reviews finish (up to shutdownGraceMs), writes the store, frees the data dir. */
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export async function createService(options: ServiceOptions = {}): Promise<Service> {
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  const clock = options.clock ?? systemClock;
  const log = pino(
    {
      level: options.logLevel ?? 'info',
      // Belt and braces: no serializer logs headers, bodies or secrets in the first place.
      redact: { paths: ['req.headers.authorization', 'req.body', 'diff', 'token', 'secret'], censor: '[redacted]' },
      // ... and a token sent where it does not belong (a URL, a name) is redacted from the line's text.
      hooks: { streamWrite: redactSecrets },
    },
    options.logStream,
  );
  const { databaseUrl } = options;
  // One process per data dir for lowdb; a database is shared by any number of instances.
  const lock = databaseUrl === undefined ? acquireDataDirLock(dataDir) : undefined;
  const undo: (() => unknown)[] = [() => lock?.release()];
  try {
    let store: Store;
    let atHand: InMemoryLookups | undefined; // lowdb holds tokens in memory: the token check needs no promise
    let dashboard: DashboardTokenState;
    let runner: ReviewJobRunner;
    let windowCounter: WindowCounter | undefined; // rate-limit counts shared by the instances
    const events = new ReviewEvents();
    const concurrency = Math.max(1, options.concurrency ?? os.availableParallelism());
    const jobs = {
      events,
      clock,
      log,
      concurrency,
      jobTimeoutMs: options.jobTimeoutMs ?? DEFAULTS.jobTimeoutMs,
      engine: options.engine,
      workerFile: options.workerFile ?? defaultWorkerFile(),
    };
    if (databaseUrl === undefined) {
      const lowdb = await LowdbStore.open(dataDir, { log });
      store = atHand = lowdb;
      undo.push(() => store.close());
      dashboard = await ensureDashboardToken(store, dataDir, clock, options.dashboardToken);
      if (dashboard.file) log.info({ file: dashboard.file, created: dashboard.created }, 'dashboard token file');
      runner = new InProcessRunner({ ...jobs, store });
    } else {
      // Loaded only in PostgreSQL mode: the embedded default never pays for pg or pg-boss.
      const { PostgresStore } = await import('./store/postgres/postgres-store.ts');
      const { startPostgresJobs } = await import('./jobs/postgres-jobs.ts');
      const postgres = await PostgresStore.open(databaseUrl, {
        poolSize: options.databasePoolSize,
        queryTimeoutMs: options.databaseQueryTimeoutMs,
        log,
      });
      store = windowCounter = postgres;
      atHand = postgres.atHand; // copies, kept current through NOTIFY once the listener runs
      undo.push(() => store.close());
      dashboard = await ensureSharedDashboardToken(store, clock, options.dashboardToken);
      // Jobs on pg-boss in the same database: any instance runs any job.
      runner = await startPostgresJobs({ ...jobs, databaseUrl, store: postgres });
    }
    undo.push(() => runner.close(0));
    const reviews = new ReviewService({
      store,
      runner,
      events,
      clock,
      maxQueuedJobs: options.maxQueuedJobs ?? DEFAULTS.maxQueuedJobs,
      retentionDays: options.retentionDays ?? DEFAULTS.retentionDays,
      version: VERSION,
      log,
    });
    const app = await buildServer({
      tokens: new TokenService(store, clock, atHand),
      reviews,
      events,
      version: VERSION,
      rateLimits: { ...DEFAULTS.rateLimits, ...options.rateLimits },
      timeouts: { ...DEFAULTS.timeouts, ...options.timeouts },
      eventStreams: { ...DEFAULTS.eventStreams, ...options.eventStreams },
      loggerInstance: log,
      hostCheck: hostPolicy(options.host ?? DEFAULTS.host, options.allowedHosts ?? []),
      windowCounter,
    });
    undo.push(() => app.close());
    await app.listen({ host: options.host ?? DEFAULTS.host, port: options.port ?? 0 });
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    lock?.update({ url });

    const resumed = await runner.recover();
    if (resumed > 0) log.info({ jobs: resumed }, 'resuming unfinished reviews');
    // With a shared database, one instance sweeps per period, not each of them.
    const sweepDue = async () =>
      store.claimPeriodicTask === undefined ||
      store.claimPeriodicTask('retention', SWEEP_EVERY_MS, new Date(clock.now()).toISOString());
    const sweep = () =>
      sweepDue()
        .then((due) => (due ? reviews.sweep() : { reviews: 0, keys: 0 }))
        .then(
          (removed) =>
            removed.reviews + removed.keys > 0 &&
            log.info(removed, 'retention: removed old reviews and idempotency keys'),
          (error: unknown) => log.error({ err: error }, 'retention sweep failed'),
        );
    void sweep();
    const sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();
    const where = databaseUrl === undefined ? { dataDir } : { database: describeDatabase(databaseUrl) };
    log.info({ url, ...where, concurrency }, 'diff review service listening');

    let closing: Promise<void> | undefined;
    return {
      url,
      host: address.address,
      port: address.port,
      dataDir,
      storage: databaseUrl === undefined ? 'lowdb' : 'postgres',
      dashboardTokenFile: dashboard.file,
      log,
      close: () =>
        (closing ??= (async () => {
          clearInterval(sweeper);
          events.shutdown(); // open event streams end, so the HTTP server can drain
          await app.close();
          await runner.close(options.shutdownGraceMs ?? DEFAULTS.shutdownGraceMs);
          await store.close();
          lock?.release();
          log.info('diff review service stopped');
        })()),
    };
  } catch (error) {
    for (const step of undo.reverse()) await Promise.resolve(step()).catch(() => {});
    throw error;
  }
}
